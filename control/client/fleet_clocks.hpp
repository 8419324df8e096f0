#pragma once
// Whether a stream from one data plane to another may have its one-way latency measured:
// its frames carry the sender's clock, its receiver reads its own, and the two agree only
// as far as PTP vouches for each. Measured only when both follow the same grandmaster, with
// a bound of |offset A| + |offset B| (each clock's last offset from it) + each TSC-to-UTC
// map's error, widened by how far the two drifted apart over the run (read again at its
// end: each latency clock runs at its TSC's rate measured against UTC, so the drift is
// steady, and the two are furthest apart at the end); withheld otherwise, saying why.
// Pure: `hello`'s clock sections in, the verdict out.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace lr::ctl {

struct LatencyAcross {
  bool measured = false;
  std::string why;              ///< withheld: the reason; measured: which grandmaster vouches
  int64_t shift_ns = 0;         ///< the receiver's StreamSpec::latency_shift_ns: its offset minus the sender's
  uint64_t bound_ns = 0;        ///< before the run's drift (latency_bound_ns)
};

/// The grandmaster a hello clock follows (ptp.gm_identity), or "" where it names none.
std::string grandmaster_of(const nlohmann::json& clock);

/// `sender` and `receiver`: hello's clock of each, `*_at` their addresses for the words.
LatencyAcross latency_across(const nlohmann::json& sender, const std::string& sender_at, const nlohmann::json& receiver,
                             const std::string& receiver_at);

/// How far the sender's and the receiver's latency clocks drifted apart between their hello
/// clocks before the run and after it (each one's change of latency_clock_offset_ns, the
/// difference of the two), plus the errors of the readings after: what a measured
/// latency's bound widens by.
uint64_t drift_apart_ns(const nlohmann::json& sender_before, const nlohmann::json& sender_after,
                        const nlohmann::json& receiver_before, const nlohmann::json& receiver_after);

}  // namespace lr::ctl
