#pragma once
// The lossless suite's judgement, pure: each case's measured numbers held to their
// bounds as checks, a case passing only when every check does; the arithmetic the bounds
// come from (pause quanta as time, the reaction the standard allows, the ECN curve's
// expected marks); and what a timeline says between two instants.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace lr::bench {

enum class CaseVerdict { kPass, kFail, kSkipped };

/// One measured number next to the bound it was held to.
struct Check {
  std::string what;   ///< "test frames lost"
  double value = 0;
  std::string unit;   ///< "frames", "us", "%"
  std::string bound;  ///< "= 0", "<= 500 us"
  bool ok = false;
  /// Why the check is shown but left out of the verdict, or "": a bound that holds the
  /// null result too (a device that never marks, a pause of 0 us) cannot fail a device
  /// that does nothing, and proves nothing.
  std::string not_judged = {};
};

struct CaseOutcome {
  std::string name;         ///< "pfc_pause"
  CaseVerdict verdict = CaseVerdict::kSkipped;
  std::string explanation;  ///< one line: why it passed, the first check that failed, or why it was skipped
  std::vector<Check> checks;
};

/// PASS with `pass_text` when every judged check holds; else FAIL naming the first that
/// did not. Checks marked `not_judged` count for neither; when no check is judged, the
/// case is SKIPPED with the first one's reason.
CaseOutcome judge(std::string name, std::vector<Check> checks, const std::string& pass_text);
CaseOutcome skipped(std::string name, std::string why);
/// A PASS where no judged check would have failed a device that does nothing (`told_apart`
/// false) proves nothing: SKIPPED with `why`, its checks kept. Other verdicts as they are.
CaseOutcome unless_told_apart(CaseOutcome out, bool told_apart, std::string why);

const char* verdict_text(CaseVerdict v) noexcept;
nlohmann::json to_json(const Check& c);
nlohmann::json to_json(const CaseOutcome& c);
/// Read back from report.json; a verdict it does not name is SKIPPED (no pass). Throws
/// nlohmann::json::exception on a field of the wrong type.
Check check_from_json(const nlohmann::json& j);
CaseOutcome case_outcome_from_json(const nlohmann::json& j);

Check at_most(std::string what, double value, double bound, std::string unit);
Check at_least(std::string what, double value, double bound, std::string unit);
Check exactly(std::string what, double value, double expected, std::string unit);

/// One pause quantum is 512 bit times at the link's speed.
double quanta_seconds(uint32_t quanta, uint64_t speed_bps) noexcept;

/// The most pause_quanta IEEE 802.3 (Annex 31B, which PFC's Annex 31D follows) lets a
/// station take to stop sending after a pause frame arrives, at the speeds it names;
/// none for other speeds (the user must give response_time).
std::optional<uint32_t> standard_reaction_quanta(uint64_t speed_bps) noexcept;

/// Frames counted in the bins that lie wholly within [from_s, to_s) of a timeline whose
/// bins are `bin_s` wide from the run's start.
uint64_t frames_within(const std::vector<uint64_t>& bins, double bin_s, double from_s, double to_s) noexcept;

/// WRED's marking probability at a queue depth: 0 up to kmin, pmax x (depth - kmin) /
/// (kmax - kmin) between, 1 from kmax.
double ecn_mark_probability(uint64_t depth, uint64_t kmin, uint64_t kmax, double pmax) noexcept;

/// The CE marks expected of `frames` frames of `frame_bytes` queued one after another into
/// an empty paused queue (frame i finds i x frame_bytes before it), and how far a count
/// may stray from it: four standard deviations of the sum of their Bernoulli draws, plus
/// one frame.
struct ExpectedMarks {
  double mean = 0;
  double allowed = 0;
};
ExpectedMarks expected_ecn_marks(uint64_t frames, uint32_t frame_bytes, uint64_t kmin, uint64_t kmax, double pmax) noexcept;

/// Whether a count of 0 CE marks lies within what `expected` allows: a device that never
/// marks would pass such a check.
bool zero_marks_allowed(const ExpectedMarks& expected) noexcept;

/// The shallowest fill (bytes, whole frames) whose expected marks leave 0 outside their
/// allowance: the least a fill must be to tell a device that never marks apart.
uint64_t shallowest_telling_ecn_fill(uint32_t frame_bytes, uint64_t kmin, uint64_t kmax, double pmax) noexcept;

/// The fewest pause_quanta whose pause, at `speed_bps`, exceeds its tolerance (the larger
/// of `tolerance_percent` of it and `tolerance_s`) by `unseen_silence_s` or more: the
/// longest silence a run has without a report of it (a host's hold-up under the stall
/// rule, api::kStallNs). Below that, a device that ignores the PFC (a pause of 0 us, or
/// such a hold-up) passes. None when no quanta does.
std::optional<uint32_t> shortest_telling_quanta(uint64_t speed_bps, double tolerance_percent, double tolerance_s,
                                                double unseen_silence_s) noexcept;

}  // namespace lr::bench
