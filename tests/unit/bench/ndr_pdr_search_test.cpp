// NDR and PDR found in one search against simulated devices: a device with a cliff
// (no loss up to R, then loss growing with the excess), one losing a small fixed share,
// and a latency bound that lowers the answer below the loss-free rate.

#include "control/suites/bench/ndr_pdr_search.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace lr::bench {
namespace {

NdrPdrSearch run(SearchSettings ndr, SearchSettings pdr, const std::function<TrialResult(double)>& device,
                 int* trials = nullptr) {
  NdrPdrSearch search(ndr, pdr);
  int n = 0;
  for (; search.next() && n < 200; ++n) search.record(device(*search.next()));
  EXPECT_TRUE(search.done());
  if (trials != nullptr) *trials = n;
  return search;
}

// No loss up to 50 %; above it a loss that grows slowly (0.1 % of frames at 50.5 %, as a
// queue that overflows now and then), then the capacity cap.
TrialResult soft_cliff(double rate) {
  const double loss = rate <= 50 ? 0 : std::min(0.5, (rate - 50) * 0.002);
  return {rate, rate * (1 - loss), loss, true};
}

TEST(NdrPdrSearch, BothAreFoundAndTheNdrReusesThePdrTrials) {
  SearchSettings ndr;                  // loss 0
  SearchSettings pdr;
  pdr.loss_tolerance = 0.001;          // 0.1 %: passes up to 50.5 %
  int trials = 0;
  const NdrPdrSearch search = run(ndr, pdr, soft_cliff, &trials);
  ASSERT_TRUE(search.ndr().result() && search.pdr().result());
  EXPECT_NEAR(*search.pdr().result(), 50.5, 0.1);
  EXPECT_LE(*search.pdr().result(), 50.5);
  EXPECT_NEAR(*search.ndr().result(), 50.0, 0.1);
  EXPECT_LE(*search.ndr().result(), 50.0);
  // Two independent searches would take about twice the PDR's trials.
  EXPECT_LT(static_cast<size_t>(trials), 2 * search.pdr().steps().size());
  EXPECT_LT(search.ndr().steps().size(), search.pdr().steps().size());
}

TEST(NdrPdrSearch, ALatencyBoundLowersTheAnswer) {
  // Latency rises with load: p99 = 10 us + 1 us per %; a bound of 40 us caps at 30 %.
  const auto device = [](double rate) {
    TrialResult r = soft_cliff(rate);
    r.latency_p99_ns = 10'000 + rate * 1'000;
    return r;
  };
  SearchSettings ndr;
  ndr.max_latency_p99_ns = 40'000;
  SearchSettings pdr;
  pdr.loss_tolerance = 0.001;
  const NdrPdrSearch search = run(ndr, pdr, device);
  EXPECT_NEAR(*search.ndr().result(), 30.0, 0.1);
  EXPECT_LE(*search.ndr().result(), 30.0);
  EXPECT_NEAR(*search.pdr().result(), 50.5, 0.1);
}

TEST(NdrPdrSearch, ADeviceThatAlwaysLosesALittleHasAPdrButNoNdr) {
  SearchSettings pdr;
  pdr.loss_tolerance = 0.001;
  const NdrPdrSearch search = run({}, pdr, [](double rate) { return TrialResult{rate, rate * 0.9995, 0.0005, true}; });
  EXPECT_DOUBLE_EQ(*search.pdr().result(), 100.0);
  EXPECT_FALSE(search.ndr().result());
}

}  // namespace
}  // namespace lr::bench
