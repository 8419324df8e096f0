#pragma once
// The address-table tests' binary search (RFC 2889 §5.7, §5.8, and the neighbour table's
// capacity after them): a trial at one value (a count of addresses or hosts, a rate) that
// passes or not, or that no run measured; the largest value that passes, by bisection.

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "control/reports/rfc2889_report.hpp"

namespace lr::bench::rfc2889 {

/// One trial of an address search: its row of `trials`, and whether it passed.
struct AddressTrial {
  bool valid = false;
  std::string invalid;
  uint64_t addresses = 0;
  double learning_fps = 0;
  uint64_t flooded = 0;   ///< test frames seen at the monitor port (or any but the learning port)
  int64_t lost = 0;       ///< test frames the learning port did not receive
  int64_t learning_lost = 0;
  bool passed() const { return valid && flooded == 0 && lost <= 0; }
  AddressTrialRow row() const {
    AddressTrialRow r{addresses, learning_fps, std::nullopt, flooded, lost, learning_lost, passed()};
    if (!valid) r.invalid = invalid;
    return r;
  }
};

// The largest value in [lo, hi] whose trial passes, by bisection (`close` says when to
// stop), each trial into `trials`; none when lo fails; stops early when a trial had no
// valid run (then `why`).
template <class Value, class Trial, class Close>
std::optional<Value> search(Value lo, Value hi, Trial&& trial, Close&& close, std::vector<AddressTrialRow>& trials,
                            std::string& why, bool& capped) {
  const auto run = [&](Value v) -> std::optional<bool> {
    const AddressTrial t = trial(v);
    trials.push_back(t.row());
    if (!t.valid) {
      why = t.invalid;
      return std::nullopt;
    }
    return t.passed();
  };
  const auto at_hi = run(hi);
  if (!at_hi) return std::nullopt;
  if (*at_hi) {
    capped = true;
    return hi;
  }
  const auto at_lo = run(lo);
  if (!at_lo || !*at_lo) return std::nullopt;
  while (!close(lo, hi)) {
    const Value mid = lo + (hi - lo) / 2;
    const auto passed = run(mid);
    if (!passed) return lo;  // what is known so far; `why` says the search stopped
    (*passed ? lo : hi) = mid;
  }
  return lo;
}

// A search that stopped at a trial the host spoiled three times: `found` is only a bound
// (`bound`), and the result SKIPPED with what it did show.
template <class Value>
void cut_short(Result& result, std::optional<Value>& bound, Value found, const std::string& why,
               const std::string& shown) {
  result.verdict = "SKIPPED";
  bound = found;
  result.why = fmt::format("the search stopped at a trial the host spoiled three times ({}); {}", why, shown);
}

}  // namespace lr::bench::rfc2889
