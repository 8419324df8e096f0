#include "dataplane/plan/rate.hpp"

#include <fmt/format.h>

#include "dataplane/common/line_rate.hpp"

namespace lr::plan {

Result<double> stream_pps(const profile::StreamCfg& stream, uint64_t link_bps, const std::string& port_name) {
  using profile::RateKind;
  const double frame = stream.frame.mean();
  double pps = 0;
  switch (stream.rate.kind) {
    case RateKind::kMax:
      return 0.0;
    case RateKind::kPercentOfLine:
      if (link_bps == 0)
        return make_error(Errc::kInvalid,
                          fmt::format("stream '{}' asks {}% of line rate but port '{}' reports no link speed; set "
                                      "speed = \"40G\" (for example) on the port",
                                      stream.name, stream.rate.value, port_name));
      pps = line_rate_pps(link_bps, frame) * stream.rate.value / 100.0;
      break;
    case RateKind::kL1Bps:
      pps = stream.rate.value / ((frame + kWireOverheadBytes) * 8.0);
      break;
    case RateKind::kL2Bps:
      pps = stream.rate.value / (frame * 8.0);
      break;
    case RateKind::kPps:
      pps = stream.rate.value;
      break;
  }
  if (link_bps != 0) {
    const double line = line_rate_pps(link_bps, frame);
    if (pps > line * 1.000001)
      return make_error(Errc::kInvalid,
                        fmt::format("stream '{}' asks {:.3f} Mpps but port '{}' at {} Gbit/s carries at most {:.3f} Mpps "
                                    "of {:.0f}-byte frames",
                                    stream.name, pps / 1e6, port_name, static_cast<double>(link_bps) / 1e9, line / 1e6,
                                    frame));
  }
  if (pps < 0.001) return make_error(Errc::kInvalid, fmt::format("stream '{}' rate is below 0.001 frames/s", stream.name));
  return pps;
}

}  // namespace lr::plan
