// The [run] table read into a RunSpec.
#include "lib/profile/run_table.hpp"

#include <fmt/format.h>

#include "lib/profile/quantity.hpp"

namespace lr::profile {

void read_run(TableReader& in, api::RunSpec& run) {
  if (auto v = in.parsed<uint64_t>("drain", parse_duration_ns, kDurationHelp)) run.drain_ns = *v;
  if (auto v = in.boolean("live")) run.live = *v;
  if (auto v = in.parsed<uint64_t>("timeline", parse_duration_ns, kDurationHelp)) {
    if (*v < 1000) in.fail(in.find("timeline"), "timeline", "a bin is at least 1us (e.g. '1ms')");
    run.timeline_bin_ns = *v;
  }
  if (auto v = in.parsed<uint64_t>("timeline_span", parse_duration_ns, kDurationHelp)) {
    if (run.timeline_bin_ns == 0) in.fail(in.find("timeline_span"), "timeline_span", "needs timeline (the bin width)");
    if (*v / run.timeline_bin_ns > api::kMaxTimelineBins)
      in.fail(in.find("timeline_span"), "timeline_span",
              fmt::format("{} bins of {} ns is more than the {} a timeline holds: widen the bins or shorten the span",
                          *v / run.timeline_bin_ns, run.timeline_bin_ns, api::kMaxTimelineBins));
    run.timeline_span_ns = *v;
  }
  if (auto v = in.string("tx_buffers")) {
    const auto buffers = api::tx_buffers_from_name(*v);
    if (!buffers)
      in.fail(in.find("tx_buffers"), "tx_buffers", fmt::format("'{}' is not one of auto, per_stream, shared", *v));
    run.tx_buffers = *buffers;
  }
  in.finish();
}

}  // namespace lr::profile
