#include "dataplane/plan/rate.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "dataplane/fastpath/pacer.hpp"
#include "lib/common/line_rate.hpp"

namespace lr::plan {

Result<double> stream_pps(const api::StreamSpec& stream, uint64_t link_bps, const std::string& port_name) {
  using api::RateKind;
  const double frame = stream.frame.mean();
  if (stream.mac_control.refresh_auto) {
    // Twice per pause time: each frame renews the pause before half of it has run out.
    if (link_bps == 0)
      return make_error(Errc::kInvalid,
                        fmt::format("stream '{}' refreshes its pause by the pause time, but port '{}' reports no link "
                                    "speed to time quanta by; set speed = \"40G\" (for example) on the port",
                                    stream.name, port_name));
    return 2.0 / (pause_ns(stream.mac_control.max_quanta(), link_bps) * 1e-9);
  }
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

Result<StreamPacing> stream_pacing(const api::StreamSpec& stream, uint64_t link_bps, const std::string& port_name,
                                   uint64_t tsc_hz) {
  auto pps = stream_pps(stream, link_bps, port_name);
  if (!pps) return std::unexpected(pps.error());
  if (*pps == 0) return StreamPacing{};
  return StreamPacing{*pps, fast::pacer_interval_fp(*pps / std::max<uint16_t>(stream.lanes, 1), tsc_hz)};
}

uint64_t ns_to_tsc(uint64_t ns, uint64_t tsc_hz) noexcept {
  return static_cast<uint64_t>(static_cast<double>(ns) * static_cast<double>(tsc_hz) / 1e9);
}

double pause_ns(uint64_t quanta, uint64_t link_bps) noexcept {
  return link_bps == 0 ? 0.0 : static_cast<double>(quanta) * kPauseQuantumBits * 1e9 / static_cast<double>(link_bps);
}

namespace {

// The first names of a list, and how many more: a refusal of 10,000 streams stays a line.
std::string named_few(const std::vector<std::string>& names) {
  constexpr size_t kShown = 8;
  if (names.size() <= kShown) return fmt::format("{}", fmt::join(names, ", "));
  return fmt::format("{} and {} more", fmt::join(names.begin(), names.begin() + kShown, ", "), names.size() - kShown);
}

}  // namespace

Result<std::vector<std::string>> check_port_loads(const std::vector<PortLoad>& streams) {
  std::vector<std::string> warnings;
  std::vector<std::string> ports;
  for (const PortLoad& s : streams)
    if (std::find(ports.begin(), ports.end(), s.port) == ports.end()) ports.push_back(s.port);
  for (const std::string& port : ports) {
    double share = 0;  // of the line rate, in L1 bits
    uint64_t bps = 0;
    std::vector<std::string> paced, unpaced;
    for (const PortLoad& s : streams) {
      if (s.port != port) continue;
      if (s.pps == 0) {
        unpaced.push_back(fmt::format("'{}'", s.stream));
        continue;
      }
      bps = s.port_bps;
      if (bps == 0) continue;
      const double percent = 100.0 * s.pps * (s.frame_bytes_mean + kWireOverheadBytes) * 8.0 / static_cast<double>(bps);
      share += percent;
      paced.push_back(fmt::format("'{}' {:.3f} %", s.stream, percent));
    }
    if (share > 100.0001)
      return make_error(Errc::kInvalid,
                        fmt::format("port '{}' is oversubscribed: its paced streams ({}) add up to {:.3f} % of its {} "
                                    "Gbit/s line rate, {:.3f} % more than it carries; lower their rates",
                                    port, named_few(paced), share, static_cast<double>(bps) / 1e9, share - 100.0));
    if (!unpaced.empty() && !paced.empty())
      warnings.push_back(
          fmt::format("port '{}': stream{} {} send{} as fast as the port takes (rate = \"max\") beside "
                      "paced streams; those get what is left, not their rates",
                      port, unpaced.size() == 1 ? "" : "s", named_few(unpaced), unpaced.size() == 1 ? "s" : ""));
  }
  return warnings;
}

double mean_target_pps(const std::vector<api::RateChange>& changes, double active_s) {
  if (changes.empty() || active_s <= 0) return 0;
  double frames = 0;
  for (size_t i = 0; i < changes.size(); ++i) {
    const double from = std::min(changes[i].at_s, active_s);
    const double to = i + 1 < changes.size() ? std::min(changes[i + 1].at_s, active_s) : active_s;
    if (to <= from) continue;
    if (changes[i].target_pps == 0) return 0;
    frames += changes[i].target_pps * (to - from);
  }
  return frames / active_s;
}

}  // namespace lr::plan
