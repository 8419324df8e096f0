#include "control/suites/bench/lossless_verdicts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "lib/api/json_fields.hpp"

namespace lr::bench {

using nlohmann::json;

namespace {

std::string number_text(double v) { return fmt::format("{:.6g}", v); }

}  // namespace

CaseOutcome judge(std::string name, std::vector<Check> checks, const std::string& pass_text) {
  CaseOutcome out{std::move(name), CaseVerdict::kPass, pass_text, std::move(checks)};
  const auto judged = std::find_if(out.checks.begin(), out.checks.end(), [](const Check& c) { return c.not_judged.empty(); });
  if (judged == out.checks.end() && !out.checks.empty()) {
    out.verdict = CaseVerdict::kSkipped;
    out.explanation = fmt::format("no check could tell a device that does nothing apart: {}: {}", out.checks.front().what,
                                  out.checks.front().not_judged);
    return out;
  }
  for (const Check& c : out.checks) {
    if (c.ok || !c.not_judged.empty()) continue;
    out.verdict = CaseVerdict::kFail;
    out.explanation = fmt::format("{}: {} {}, bound {}", c.what, number_text(c.value), c.unit, c.bound);
    break;
  }
  return out;
}

CaseOutcome skipped(std::string name, std::string why) {
  return CaseOutcome{std::move(name), CaseVerdict::kSkipped, std::move(why), {}};
}

CaseOutcome unless_told_apart(CaseOutcome out, bool told_apart, std::string why) {
  if (out.verdict != CaseVerdict::kPass || told_apart) return out;
  out.verdict = CaseVerdict::kSkipped;
  out.explanation = std::move(why);
  return out;
}

const char* verdict_text(CaseVerdict v) noexcept {
  switch (v) {
    case CaseVerdict::kPass: return "PASS";
    case CaseVerdict::kFail: return "FAIL";
    case CaseVerdict::kSkipped: return "SKIPPED";
  }
  return "?";
}

namespace {
constexpr auto check_fields = LR_JSON_FIELDS(what, value, unit, bound, ok, not_judged);
}  // namespace

json to_json(const Check& c) {
  json out = api::write_fields(c, check_fields);
  if (c.not_judged.empty()) out.erase("not_judged");  // said only of a check not judged
  return out;
}

Check check_from_json(const json& j) { return api::read_fields<Check>(j, check_fields); }

CaseOutcome case_outcome_from_json(const json& j) {
  CaseOutcome c;
  const auto read = api::reader(j);
  read("case", c.name);
  read("explanation", c.explanation);
  std::string verdict;
  read("verdict", verdict);
  c.verdict = verdict == "PASS" ? CaseVerdict::kPass : verdict == "FAIL" ? CaseVerdict::kFail : CaseVerdict::kSkipped;
  api::read_items(j, "checks", c.checks, check_from_json);
  return c;
}

json to_json(const CaseOutcome& c) {
  return {{"case", c.name},
          {"verdict", verdict_text(c.verdict)},
          {"explanation", c.explanation},
          {"checks", api::json_array(c.checks)}};
}

Check at_most(std::string what, double value, double bound, std::string unit) {
  return {std::move(what), value, unit, fmt::format("<= {} {}", number_text(bound), unit), value <= bound};
}

Check at_least(std::string what, double value, double bound, std::string unit) {
  return {std::move(what), value, unit, fmt::format(">= {} {}", number_text(bound), unit), value >= bound};
}

Check exactly(std::string what, double value, double expected, std::string unit) {
  return {std::move(what), value, unit, fmt::format("= {} {}", number_text(expected), unit), value == expected};
}

double quanta_seconds(uint32_t quanta, uint64_t speed_bps) noexcept {
  return speed_bps == 0 ? 0.0 : static_cast<double>(quanta) * 512.0 / static_cast<double>(speed_bps);
}

std::optional<uint32_t> standard_reaction_quanta(uint64_t speed_bps) noexcept {
  switch (speed_bps) {
    case 10'000'000:
    case 100'000'000: return 1;
    case 1'000'000'000: return 2;
    case 10'000'000'000: return 67;
    case 40'000'000'000: return 118;
    case 100'000'000'000: return 394;
    default: return std::nullopt;
  }
}

uint64_t frames_within(const std::vector<uint64_t>& bins, double bin_s, double from_s, double to_s) noexcept {
  if (bin_s <= 0 || to_s <= from_s) return 0;
  const auto first = static_cast<size_t>(std::max(0.0, std::ceil(from_s / bin_s - 1e-9)));
  const auto end = static_cast<size_t>(std::max(0.0, std::floor(to_s / bin_s + 1e-9)));
  uint64_t sum = 0;
  for (size_t i = first; i < std::min(end, bins.size()); ++i) sum += bins[i];
  return sum;
}

double ecn_mark_probability(uint64_t depth, uint64_t kmin, uint64_t kmax, double pmax) noexcept {
  if (depth <= kmin) return 0;
  if (depth >= kmax) return 1;
  return pmax * static_cast<double>(depth - kmin) / static_cast<double>(kmax - kmin);
}

ExpectedMarks expected_ecn_marks(uint64_t frames, uint32_t frame_bytes, uint64_t kmin, uint64_t kmax,
                                 double pmax) noexcept {
  ExpectedMarks out;
  double variance = 0;
  for (uint64_t i = 0; i < frames; ++i) {
    const double p = ecn_mark_probability(i * frame_bytes, kmin, kmax, pmax);
    out.mean += p;
    variance += p * (1 - p);
  }
  out.allowed = 4 * std::sqrt(variance) + 1;
  return out;
}

bool zero_marks_allowed(const ExpectedMarks& expected) noexcept { return expected.mean <= expected.allowed; }

uint64_t shallowest_telling_ecn_fill(uint32_t frame_bytes, uint64_t kmin, uint64_t kmax, double pmax) noexcept {
  // expected_ecn_marks(frames) grown one frame at a time. From kmax on every frame is
  // marked (mean + 1, variance + 0), so the loop ends.
  if (frame_bytes == 0) return 0;
  double mean = 0, variance = 0;
  for (uint64_t frames = 1;; ++frames) {
    const double p = ecn_mark_probability((frames - 1) * frame_bytes, kmin, kmax, pmax);
    mean += p;
    variance += p * (1 - p);
    if (mean > 4 * std::sqrt(variance) + 1) return frames * frame_bytes;
  }
}

std::optional<uint32_t> shortest_telling_quanta(uint64_t speed_bps, double tolerance_percent, double tolerance_s,
                                                double unseen_silence_s) noexcept {
  if (speed_bps == 0) return std::nullopt;
  for (uint32_t quanta = 1; quanta <= 65535; ++quanta) {
    const double pause_s = quanta_seconds(quanta, speed_bps);
    // What is left of the pause beyond its tolerance (the larger of the two).
    const double beyond_s = std::min(pause_s * (1 - tolerance_percent / 100), pause_s - tolerance_s);
    if (beyond_s > unseen_silence_s) return quanta;
  }
  return std::nullopt;
}

}  // namespace lr::bench
