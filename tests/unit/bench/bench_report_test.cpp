// The benchmark report's codec: every type written and read back equal, over random
// values (each optional set and unset, sizes as bytes and as a mix's name); a report as
// the suite writes it (explicit nulls, missing keys) read with its defaults.
#include "control/reports/bench_report.hpp"

#include <gtest/gtest.h>

#include <random>

#include "lib/api/json_fields.hpp"

namespace lr::bench {
namespace {

using nlohmann::json;

class Random {
 public:
  explicit Random(uint32_t seed) : rng_(seed) {}
  double number() { return std::uniform_real_distribution<double>(-1e6, 1e6)(rng_); }
  uint64_t count() { return std::uniform_int_distribution<uint64_t>(0, 1ULL << 40)(rng_); }
  bool coin() { return std::bernoulli_distribution(0.5)(rng_); }
  std::string text() { return coin() ? "" : "text " + std::to_string(count()); }
  std::optional<double> maybe() { return coin() ? std::optional<double>(number()) : std::nullopt; }
  std::optional<uint64_t> maybe_count() { return coin() ? std::optional<uint64_t>(count()) : std::nullopt; }
  FrameSizeName size() { return {coin() ? std::to_string(64 + count() % 9537) : "imix"}; }
  std::optional<LatencyNs> latency() {
    if (coin()) return std::nullopt;
    return LatencyNs{count(), number(), number(), number(), number(), number(), number(), number()};
  }

 private:
  std::mt19937 rng_;
};

BenchReport random_report(Random& r) {
  BenchReport out;
  out.suite = r.coin() ? "rfc2544" : "ndr";
  out.loss_tolerance_percent = r.number();
  out.pdr_loss_tolerance_percent = r.number();
  for (int i = 0; i < 3; ++i) {
    out.layout.push_back({r.text(), r.text(), r.text()});
    for (std::vector<RateAnswer>* list : {&out.throughput, &out.ndr, &out.pdr})
      list->push_back({r.size(), r.number(), r.maybe(), r.maybe(), r.maybe(), r.maybe(), r.maybe(), r.maybe(),
                       r.maybe_count(), r.text(), r.text(), {r.number(), r.number()}, r.latency()});
    out.latency.push_back({r.size(), r.maybe(), r.maybe(), r.count(), r.count(), static_cast<int64_t>(r.count()) - (1LL << 39),
                           r.latency(), r.text()});
    out.frame_loss.push_back({r.size(), r.number(), r.number(), r.number(), r.coin()});
    out.back_to_back.push_back({r.size(), r.count(), {r.count(), r.count()}, r.maybe(), r.maybe_count(), r.maybe_count(),
                                r.count(), r.number(), r.maybe(), r.maybe(), r.maybe(), r.maybe(), r.text()});
    out.mlrsearch.push_back({r.size(),
                             {{r.text(), r.number(), r.number(), r.maybe(), r.maybe(), r.maybe(), r.maybe(), r.coin(),
                               r.text()},
                              {r.text(), r.number(), r.number(), r.maybe(), r.maybe(), r.maybe(), r.maybe(), r.coin(),
                               r.text()}}});
    TrialRow t;
    t.test = r.coin() ? "latency" : "throughput";
    t.frame_size = r.size();
    t.frame_bytes_mean = r.number();
    t.rate_percent = r.number();
    t.offered_percent = r.number();
    t.offered_pps = r.number();
    t.offered_l1_bps = r.number();
    t.loss_percent = r.number();
    t.duration_s = r.maybe();
    t.warm_up_s = r.maybe();
    t.burst_frames = r.maybe_count();
    t.tx_packets = r.count();
    t.rx_packets = r.count();
    t.lost = -static_cast<int64_t>(r.count());
    t.passed = r.coin();
    t.confirmation = r.coin();
    t.valid = r.coin();
    t.lost_though_sent_short = r.coin();
    t.interrupted = r.coin();
    t.invalid_reason = r.text();
    t.latency_ns = r.latency();
    out.trials.push_back(t);
    out.warnings.push_back(r.text());
  }
  return out;
}

TEST(BenchReport, EveryTypeReadsBackWhatWasWritten) {
  Random r(20261203);
  for (int i = 0; i < 500; ++i) {
    const BenchReport report = random_report(r);
    const BenchReport back = bench_report_from_json(json::parse(to_json(report).dump()));
    ASSERT_EQ(back, report) << "case " << i << ": " << to_json(report).dump().substr(0, 400);
  }
  // A field dropped from the codec would not come back: the test sees it.
  BenchReport report = random_report(r);
  json written = to_json(report);
  written["trials"][0].erase("tx_packets");
  report.trials[0].tx_packets += 1;
  EXPECT_NE(bench_report_from_json(written).trials[0].tx_packets, report.trials[0].tx_packets);
}

TEST(BenchReport, AReportAsTheSuiteWritesItReadsWithItsDefaults) {
  const json written = json::parse(R"({
    "suite": "rfc2544", "settings": {"loss_tolerance_percent": 0.5},
    "throughput": [{"frame_size": 64, "frame_bytes_mean": 64.0, "tester_limited_at_percent": [], "percent_line_rate": null,
                    "why": "frames were lost even at the lower bound"},
                   {"frame_size": "imix", "frame_bytes_mean": 353.83, "percent_line_rate": 26.9, "rate_percent": 26.8,
                    "pps": 40097.0, "l1_bps": 2.6e7, "l2_bps": 2.0e7, "limited_by": "device", "tester_limited_at_percent": [99.5],
                    "latency_ns": {"samples": 10, "min": 1424.0, "mean": 1719.6, "p50": 1655.0, "p99": 2831.0,
                                   "p999": 7967.0, "max": 54820.0, "jitter": 139.7}, "trials": 9}],
    "latency": [{"frame_size": 64, "rate_percent": 26.8, "offered_percent": null, "trials": 0, "invalid_trials": 2, "lost": 0}],
    "trials": [{"test": "throughput", "frame_size": 64, "rate_percent": 100.0, "valid": false,
                "invalid_reason": "the sending lcore could not keep up", "report": {"streams": []}}],
    "warnings": ["a warning", {"not": "text"}]})");
  const BenchReport r = bench_report_from_json(written);
  EXPECT_EQ(r.suite, "rfc2544");
  EXPECT_DOUBLE_EQ(r.loss_tolerance_percent, 0.5);
  ASSERT_EQ(r.throughput.size(), 2u);
  EXPECT_EQ(r.throughput[0].frame_size.text, "64");
  EXPECT_FALSE(r.throughput[0].percent_line_rate);
  EXPECT_EQ(r.throughput[0].why, "frames were lost even at the lower bound");
  EXPECT_EQ(r.throughput[1].frame_size.text, "imix");
  EXPECT_DOUBLE_EQ(*r.throughput[1].percent_line_rate, 26.9);
  EXPECT_EQ(r.throughput[1].trials, 9u);
  EXPECT_DOUBLE_EQ(r.throughput[1].latency_ns->p99, 2831.0);
  EXPECT_EQ(r.throughput[1].tester_limited_at_percent, std::vector<double>{99.5});
  EXPECT_FALSE(r.latency[0].offered_percent);
  EXPECT_FALSE(r.latency[0].across_trials);
  EXPECT_EQ(r.latency[0].invalid_trials, 2u);
  ASSERT_EQ(r.trials.size(), 1u);
  EXPECT_FALSE(r.trials[0].counted());
  EXPECT_EQ(r.trials[0].invalid_reason, "the sending lcore could not keep up");
  EXPECT_EQ(r.warnings, (std::vector<std::string>{"a warning", R"({"not":"text"})"}));
  // Sizes keep their form: bytes as a number, a mix by its name.
  EXPECT_EQ(to_json(r.throughput[0])["frame_size"], 64);
  EXPECT_EQ(to_json(r.throughput[1])["frame_size"], "imix");
  RateAnswer huge;
  huge.frame_size.text = "99999999999999999999999";  // not a uint64: kept as text
  EXPECT_EQ(to_json(huge)["frame_size"], "99999999999999999999999");
  // A value of the wrong type, or a result without its size, is refused where it is.
  const auto refusal = [](const char* text) {
    try {
      bench_report_from_json(json::parse(text));
    } catch (const json::exception& e) {
      return api::json_error_text(e);
    }
    return std::string("(accepted)");
  };
  EXPECT_EQ(refusal(R"({"trials": [{"frame_size": 64}, {"frame_size": 64, "tx_packets": "many"}]})"),
            "trials[1].tx_packets: type must be number, but is string");
  EXPECT_EQ(refusal(R"({"latency": [{"frame_size": 64, "across_trials": {"p99": true}}]})"),
            "latency[0].across_trials.p99: type must be number, but is boolean");
  EXPECT_EQ(refusal(R"({"frame_loss": [{"loss_percent": 1}]})"), "frame_loss[0].frame_size: key 'frame_size' not found");
}

}  // namespace
}  // namespace lr::bench
