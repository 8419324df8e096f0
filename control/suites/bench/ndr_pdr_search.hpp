#pragma once
// NDR and PDR in one search: the no-drop rate (loss within a small tolerance, often 0)
// and the partial-drop rate (loss within a larger one, e.g. 0.1 %), each optionally
// also bounded by a p99 latency. The PDR search runs first; every trial it runs also
// narrows the NDR's bounds (a trial that loses nothing passes both, one within the PDR
// tolerance only fails the NDR), so the NDR usually needs a few more trials, not a
// search of its own.

#include <optional>

#include "control/suites/bench/throughput_search.hpp"

namespace lr::bench {

class NdrPdrSearch {
 public:
  /// `ndr` and `pdr` differ in their tolerance and latency bound; the PDR's tolerance is
  /// the larger one.
  NdrPdrSearch(SearchSettings ndr, SearchSettings pdr);

  std::optional<double> next() const noexcept { return pdr_.done() ? ndr_.next() : pdr_.next(); }
  bool done() const noexcept { return pdr_.done() && ndr_.done(); }
  /// Which answer the next trial is searching for: "pdr" or "ndr".
  const char* phase() const noexcept { return pdr_.done() ? "ndr" : "pdr"; }
  void record(const TrialResult& trial);

  const ThroughputSearch& ndr() const noexcept { return ndr_; }
  const ThroughputSearch& pdr() const noexcept { return pdr_; }

 private:
  ThroughputSearch ndr_;
  ThroughputSearch pdr_;
};

}  // namespace lr::bench
