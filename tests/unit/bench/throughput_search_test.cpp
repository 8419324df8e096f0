// The RFC 2544 throughput search against simulated devices: the answer within the
// resolution, few trials, drift caught by the confirmation, a device that loses frames
// at every rate, and the tester's own limit kept apart from the device's.

#include "control/suites/bench/throughput_search.hpp"

#include <gtest/gtest.h>

#include <functional>

namespace lr::bench {
namespace {

// A device forwarding everything up to `capacity` % of line rate, and only that above.
TrialResult capped(double offered, double capacity) {
  const double forwarded = std::min(offered, capacity);
  return {offered, forwarded, (offered - forwarded) / offered, true};
}

ThroughputSearch run(SearchSettings settings, const std::function<TrialResult(double, size_t)>& device) {
  ThroughputSearch search(settings);
  for (size_t trial = 0; search.next() && trial < 200; ++trial) search.record(device(*search.next(), trial));
  EXPECT_TRUE(search.done());
  return search;
}

TEST(ThroughputSearch, ALossFreeDeviceUpToRIsFoundWithinTheResolution) {
  for (const double capacity : {100.0, 99.95, 73.21, 12.5, 1.3}) {
    const ThroughputSearch search = run({}, [&](double rate, size_t) { return capped(rate, capacity); });
    ASSERT_TRUE(search.result()) << capacity;
    EXPECT_LE(*search.result(), capacity) << capacity;
    EXPECT_GE(*search.result(), capacity - 0.1) << capacity;
  }
}

TEST(ThroughputSearch, TheForwardedRateOfTheFirstTrialIsTheNextGuess) {
  // A device that forwards exactly 60 %: the second trial is at 60 % and passes; the
  // search then only has to show that 60.1 % does not.
  const ThroughputSearch search = run({}, [](double rate, size_t) { return capped(rate, 60.0); });
  ASSERT_GE(search.steps().size(), 2u);
  EXPECT_DOUBLE_EQ(search.steps()[0].rate_percent, 100.0);
  EXPECT_DOUBLE_EQ(search.steps()[1].rate_percent, 60.0);
  EXPECT_TRUE(search.steps()[1].passed);
  EXPECT_DOUBLE_EQ(*search.result(), 60.0);
  EXPECT_LE(search.steps().size(), 12u);
}

TEST(ThroughputSearch, AnInvalidFirstTrialDoesNotLoseTheGuess) {
  // The first trial the tester could not drive; its retry is the first valid one, and what
  // the device forwarded in it is still the next offer.
  const auto device = [](double rate, size_t trial) {
    if (trial == 0) return TrialResult{rate, 0.0, 0.0, false};
    return capped(rate, 27.06);
  };
  const ThroughputSearch search = run({}, device);
  ASSERT_GE(search.steps().size(), 3u);
  EXPECT_FALSE(search.steps()[0].trial.valid);
  EXPECT_DOUBLE_EQ(search.steps()[1].rate_percent, 100.0);
  EXPECT_DOUBLE_EQ(search.steps()[2].rate_percent, 27.06);
  EXPECT_TRUE(search.steps()[2].passed);
}

TEST(ThroughputSearch, AGuessAHairTooHighStepsDownInsteadOfHalving) {
  // 0.5 % of frames lost above 97.6 %: the first trial forwards 99.5 %, and that guess
  // fails by a hair too. Stepping down by 0.2, 0.4, 0.8, 1.6 % reaches a pass at 96.5 %,
  // then a binary search in 96.5-98.1 %: 9 trials, where halving from 99.5 % towards the
  // lower bound would take 11.
  const auto device = [](double rate, size_t) {
    const double loss = rate > 97.6 ? 0.005 : 0.0;
    return TrialResult{rate, rate * (1 - loss), loss, true};
  };
  SearchSettings settings;
  settings.resolution_percent = 0.2;
  const ThroughputSearch search = run(settings, device);
  const std::vector<double> expected{100, 99.5, 99.3, 98.9, 98.1, 96.5, 97.3, 97.7, 97.5};
  ASSERT_EQ(search.steps().size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(search.steps()[i].rate_percent, expected[i], 1e-9) << i;
  EXPECT_NEAR(*search.result(), 97.5, 1e-9);
}

TEST(ThroughputSearch, AToleranceAcceptsLossWithinIt) {
  // 0.1 % of frames lost at every rate: refused with tolerance 0, the line rate with 0.1 %.
  const auto lossy = [](double rate, size_t) { return TrialResult{rate, rate * 0.999, 0.001, true}; };
  EXPECT_FALSE(run({}, lossy).result());
  SearchSettings tolerant;
  tolerant.loss_tolerance = 0.001;
  EXPECT_DOUBLE_EQ(*run(tolerant, lossy).result(), 100.0);
}

TEST(ThroughputSearch, ADeviceLosingFramesAtEveryRateHasNoThroughput) {
  const ThroughputSearch search = run({}, [](double rate, size_t) { return TrialResult{rate, rate / 2, 0.5, true}; });
  EXPECT_FALSE(search.result());
  EXPECT_DOUBLE_EQ(search.steps().back().rate_percent, 1.0);  // the lower bound was tried last
}

TEST(ThroughputSearch, TheConfirmationCatchesADeviceThatDrifts) {
  // 80 % for its first trials, 70 % after: without confirmation the search ends at 80 %,
  // with three confirmations it finds the rate that holds.
  const auto drifting = [](double rate, size_t trial) { return capped(rate, trial < 4 ? 80.0 : 70.0); };
  EXPECT_NEAR(*run({}, drifting).result(), 80.0, 0.1);
  SearchSettings confirmed;
  confirmed.confirmations = 3;
  const ThroughputSearch search = run(confirmed, drifting);
  ASSERT_TRUE(search.result());
  EXPECT_LE(*search.result(), 70.0);
  EXPECT_GE(*search.result(), 69.9);
  EXPECT_TRUE(search.steps().back().confirmation);
}

TEST(ThroughputSearch, AnInvalidTrialIsRepeatedOnceThenNamedAsTheTestersLimit) {
  // The tester cannot offer more than 90 %: its trials above are invalid, not device loss.
  const auto limited = [](double rate, size_t) {
    if (rate > 90.0) return TrialResult{90.0, 90.0, 0.0, false};
    return capped(rate, 100.0);
  };
  const ThroughputSearch search = run({}, limited);
  ASSERT_TRUE(search.result());
  EXPECT_NEAR(*search.result(), 90.0, 0.1);
  ASSERT_FALSE(search.tester_limited().empty());
  EXPECT_DOUBLE_EQ(search.tester_limited()[0], 100.0);
  EXPECT_FALSE(search.steps()[0].trial.valid);
  EXPECT_DOUBLE_EQ(search.steps()[1].rate_percent, 100.0);  // repeated once
  EXPECT_STREQ(search.limited_by(), "tester");
}

TEST(ThroughputSearch, ADeviceThatLostFramesAboveTheAnswerIsTheLimitEvenAfterATesterLimitedTrial) {
  // The tester cannot drive line rate, but the device loses frames above 60 % anyway.
  const auto device = [](double rate, size_t) {
    if (rate > 90.0) return TrialResult{90.0, 90.0, 0.0, false};
    return capped(rate, 60.0);
  };
  const ThroughputSearch search = run({}, device);
  EXPECT_NEAR(*search.result(), 60.0, 0.1);
  EXPECT_STREQ(search.limited_by(), "device");
  EXPECT_STREQ(run({}, [](double rate, size_t) { return capped(rate, 100.0); }).limited_by(), "line rate");
}

TEST(ThroughputSearch, TheTesterIsTheLimitWhenItFellShortBelowTheRatesTheDeviceLost) {
  // The device loses frames above 47 %, but the tester cannot offer more than 9 % (a busy
  // host): line rate fails on the device, every rate from 47 % down to 9 % on the tester.
  // What the device forwards between 9 % and 47 % was never measured: the tester is the limit.
  const auto starved = [](double rate, size_t) {
    if (rate > 9.0 && rate <= 47.0) return TrialResult{9.0, 9.0, 0.0, false};
    return capped(rate, 47.0);
  };
  const ThroughputSearch search = run({}, starved);
  ASSERT_TRUE(search.result());
  EXPECT_LE(*search.result(), 9.0);
  EXPECT_FALSE(search.steps()[0].passed);  // line rate: the device's loss
  ASSERT_FALSE(search.tester_limited().empty());
  EXPECT_STREQ(search.limited_by(), "tester");
}

TEST(ThroughputSearch, FramesLostAlthoughTheTesterSentShortFailTheRateAtOnce) {
  // Above 90 % the tester falls short, but the device (capacity 50 %) loses far more than
  // that could cost it: the rate fails on the first trial, not repeated, not the tester's.
  const auto device = [](double rate, size_t) {
    TrialResult r = capped(std::min(rate, 90.0), 50.0);
    if (rate > 90.0) {
      r.valid = false;
      r.lost_anyway = true;
    }
    return r;
  };
  const ThroughputSearch search = run({}, device);
  EXPECT_NEAR(*search.result(), 50.0, 0.1);
  EXPECT_TRUE(search.tester_limited().empty());
  EXPECT_DOUBLE_EQ(search.steps()[0].rate_percent, 100.0);
  EXPECT_TRUE(search.steps()[0].trial.valid);  // counted
  EXPECT_FALSE(search.steps()[0].passed);
  EXPECT_NE(search.steps()[1].rate_percent, 100.0);  // not repeated
  EXPECT_STREQ(search.limited_by(), "device");
  // Within the tolerance, the loss could pass at the rate asked or not: the trial stays
  // invalid and is repeated.
  ThroughputSearch tolerant({1.0, 100.0, 0.1, 0.01, 0, 0});
  TrialResult within{90.0, 89.5, 0.005, false};
  within.lost_anyway = true;
  tolerant.record(within);
  EXPECT_FALSE(tolerant.steps()[0].trial.valid);
  EXPECT_DOUBLE_EQ(*tolerant.next(), 100.0);
}

}  // namespace
}  // namespace lr::bench
