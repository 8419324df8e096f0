#include "control/client/fleet_clocks.hpp"

#include <fmt/format.h>

namespace lr::ctl {

using nlohmann::json;

std::string grandmaster_of(const json& clock) {
  const auto ptp = clock.find("ptp");
  return ptp != clock.end() && ptp->is_object() ? ptp->value("gm_identity", std::string()) : std::string();
}

namespace {

uint64_t magnitude(int64_t v) { return v < 0 ? static_cast<uint64_t>(-(v + 1)) + 1 : static_cast<uint64_t>(v); }

}  // namespace

LatencyAcross latency_across(const json& sender, const std::string& sender_at, const json& receiver,
                             const std::string& receiver_at) {
  LatencyAcross out;
  for (const auto& [clock, at] : {std::pair{&sender, &sender_at}, std::pair{&receiver, &receiver_at}})
    if (!clock->value("synchronised", false)) {
      out.why = fmt::format(
          "one-way latency between data planes needs both clocks on one PTP grandmaster; the "
          "clock of the data plane at {} is not vouched for: {}",
          *at, clock->value("why", std::string("it says nothing of its clock")));
      return out;
    }
  const std::string gm_s = grandmaster_of(sender);
  const std::string gm_r = grandmaster_of(receiver);
  if (gm_s.empty() || gm_s != gm_r) {
    out.why = fmt::format(
        "one-way latency between data planes needs both clocks on one PTP grandmaster; the data "
        "plane at {} follows {}, the one at {} follows {}",
        sender_at, gm_s.empty() ? "none named" : gm_s, receiver_at, gm_r.empty() ? "none named" : gm_r);
    return out;
  }
  if (!sender.contains("latency_clock_offset_ns") || !receiver.contains("latency_clock_offset_ns")) {
    out.why = "one-way latency between data planes needs each one's latency clock offset (an earlier release)";
    return out;
  }
  out.measured = true;
  out.why = fmt::format("both clocks follow PTP grandmaster {}", gm_s);
  out.shift_ns =
      receiver.at("latency_clock_offset_ns").get<int64_t>() - sender.at("latency_clock_offset_ns").get<int64_t>();
  out.bound_ns = sender.value("error_ns", uint64_t{0}) + receiver.value("error_ns", uint64_t{0}) +
                 sender.value("tsc_utc_error_ns", uint64_t{0}) + receiver.value("tsc_utc_error_ns", uint64_t{0});
  return out;
}

uint64_t drift_apart_ns(const json& sender_before, const json& sender_after, const json& receiver_before,
                        const json& receiver_after) {
  const auto offset = [](const json& clock) { return clock.value("latency_clock_offset_ns", int64_t{0}); };
  const int64_t sender = offset(sender_after) - offset(sender_before);
  const int64_t receiver = offset(receiver_after) - offset(receiver_before);
  return magnitude(receiver - sender) + sender_after.value("tsc_utc_error_ns", uint64_t{0}) +
         receiver_after.value("tsc_utc_error_ns", uint64_t{0});
}

}  // namespace lr::ctl
