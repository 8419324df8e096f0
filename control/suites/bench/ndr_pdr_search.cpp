#include "control/suites/bench/ndr_pdr_search.hpp"

namespace lr::bench {

NdrPdrSearch::NdrPdrSearch(SearchSettings ndr, SearchSettings pdr) : ndr_(ndr), pdr_(pdr) {}

void NdrPdrSearch::record(const TrialResult& trial) {
  if (pdr_.done()) {
    ndr_.record(trial);
    return;
  }
  const double rate = *pdr_.next();
  pdr_.record(trial);
  ndr_.learn(rate, trial);
}

}  // namespace lr::bench
