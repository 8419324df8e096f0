// linerate's stream and port reports in OTG's metric objects: every field from its count,
// loss in percent, latency and timestamps in ns, the config's port names.
#include "control/otg/otg_metrics.hpp"

#include <gtest/gtest.h>

#include <tuple>

namespace lr::otg {
namespace {

using nlohmann::json;

api::StreamReport report() {
  api::StreamReport s;
  s.name = "f1";
  s.tx_port = "p0";
  s.rx_port = "p1";
  s.tx_packets = 1000;
  s.tx_bytes = 128000;
  s.tx_pps_achieved = 50000;
  s.rx_packets = 990;
  s.rx_bytes = 126720;
  s.lost = 10;
  s.latency.samples = 990;
  s.latency.min_ns = 40;
  s.latency.max_ns = 9000;
  s.latency.mean_ns = 120.5;
  s.timeline = api::TimelineReport{0.01, {1000}, {990}, 0, 0, std::nullopt, std::pair{0.0125, 0.0325}};
  return s;
}

TEST(OtgMetrics, AFlowsMetricIsItsStreamsCounts) {
  const json m = flow_metric(report(), {50000, 49500}, "stopped", {{"p0", "tx"}, {"p1", "rx"}}, true);
  EXPECT_EQ(m, (json{{"name", "f1"}, {"port_tx", "tx"}, {"port_rx", "rx"}, {"transmit", "stopped"},
                     {"frames_tx", 1000}, {"frames_rx", 990}, {"bytes_tx", 128000}, {"bytes_rx", 126720},
                     {"frames_tx_rate", 50000.0}, {"frames_rx_rate", 49500.0}, {"loss", 1.0},
                     {"latency", {{"minimum_ns", 40.0}, {"maximum_ns", 9000.0}, {"average_ns", 120.5}}},
                     {"timestamps", {{"first_timestamp_ns", 12500000.0}, {"last_timestamp_ns", 32500000.0}}}}));
}

TEST(OtgMetrics, TimestampsOnlyWhereAskedAndEmptyBeforeAFrame) {
  api::StreamReport s = report();
  EXPECT_FALSE(flow_metric(s, {}, "started", {}, false).contains("timestamps"));
  s.timeline->rx_span_s.reset();
  s.latency = {};
  const json m = flow_metric(s, {}, "started", {}, true);
  EXPECT_EQ(m["timestamps"], json::object());
  EXPECT_FALSE(m.contains("latency"));
  EXPECT_EQ((std::pair{m["port_tx"], m["port_rx"]}), (std::pair{json("p0"), json("p1")}));  // no config names: its own
}

TEST(OtgMetrics, APortsMetricIsWhatItSentAndReceived) {
  api::PortTraffic t;
  t.tx_packets = 5;
  t.rx_packets = 7;
  t.tx_bytes = 320;
  t.rx_bytes = 448;
  EXPECT_EQ(port_metric("tx", "p0", t, {8, 8, 512, 512}, false, true, "started"),
            (json{{"name", "tx"}, {"location", "p0"}, {"link", "down"}, {"capture", "started"}, {"frames_tx", 5},
                  {"frames_rx", 7}, {"bytes_tx", 320}, {"bytes_rx", 448}, {"frames_tx_rate", 8.0},
                  {"frames_rx_rate", 8.0}, {"bytes_tx_rate", 512.0}, {"bytes_rx_rate", 512.0}, {"transmit", "started"}}));
}

TEST(OtgMetrics, RatesAreOverTheIntervalBetweenSamplesAtLeast100msApart) {
  RateSampler sampler;
  const RateSampler::Clock::time_point t0{};
  using std::chrono::milliseconds;
  EXPECT_EQ(sampler.rates("p", {100, 50}, t0 + milliseconds(1000)), (std::vector<double>{0, 0}));  // the first sample
  EXPECT_EQ(sampler.rates("p", {1100, 550}, t0 + milliseconds(1500)), (std::vector<double>{2000, 1000}));
  // 50 ms later: the same interval's rates again, not a noisy short one.
  EXPECT_EQ(sampler.rates("p", {1200, 560}, t0 + milliseconds(1550)), (std::vector<double>{2000, 1000}));
  EXPECT_EQ(sampler.rates("p", {1300, 600}, t0 + milliseconds(1750)), (std::vector<double>{800, 200}));
  // A new run's counts start again: no rate across it; other keys are apart.
  EXPECT_EQ(sampler.rates("p", {10, 5}, t0 + milliseconds(2000)), (std::vector<double>{0, 0}));
  EXPECT_EQ(sampler.rates("q", {7}, t0 + milliseconds(2000)), (std::vector<double>{0}));
}

}  // namespace
}  // namespace lr::otg
