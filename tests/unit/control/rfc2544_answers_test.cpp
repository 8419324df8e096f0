// The RFC 2544 procedures' answers as they fill them from a trial: the port pairs summed
// stream by stream, and the rate answer's JSON text, keys and number types, as the
// report has always held it (reports/bench_report's codec writes what the suite filled).
#include <gtest/gtest.h>

#include "control/suites/bench/rfc2544_procedures.hpp"

namespace lr::bench {
namespace {

api::StreamReport stream(const char* tx, const char* rx, uint64_t sent, uint64_t received, double pps) {
  api::StreamReport s;
  s.tx_port = tx;
  s.rx_port = rx;
  s.tx_packets = sent;
  s.rx_packets = received + 1;  // one duplicate: not a distinct frame
  s.duplicate = 1;
  s.lost = static_cast<int64_t>(sent) - static_cast<int64_t>(received);
  s.tx_pps_achieved = pps;
  s.tx_l1_bps_achieved = pps * 672;
  return s;
}

TEST(Rfc2544Answers, PairsSumTheirStreamsAndTheAnswerIsWrittenAsBefore) {
  Trial at;
  at.run.streams = {stream("a", "b", 1000, 990, 500), stream("b", "a", 1000, 1000, 500),
                    stream("a", "b", 1000, 1000, 500)};
  at.result.offered_percent = 49.75;
  at.offered_pps = 1500;
  at.offered_l1_bps = 1'008'000;
  at.latency.stats = {10, 1000, 1500, 3000, 1400, 2000, 2500, 50};
  const std::vector<PairFigures> pairs = pair_figures(at.run);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_EQ(pairs[0], (PairFigures{"a", "b", 2, 2000, 1990, 10, 1000, 672000}));
  EXPECT_EQ(pairs[1], (PairFigures{"b", "a", 1, 1000, 1000, 0, 500, 336000}));

  const BenchFrameSize size{"64", {64}, {}};
  EXPECT_EQ(to_json(rate_answer(size, 50, at, "device")).dump(),
            R"({"frame_bytes_mean":64.0,"frame_size":64,"l1_bps":1008000.0,"l2_bps":768000.0,"latency_ns":)"
            R"({"jitter":50.0,"max":3000.0,"mean":1500.0,"min":1000.0,"p50":1400.0,"p99":2000.0,"p999":2500.0,)"
            R"("samples":10},"limited_by":"device","per_pair":[{"l1_bps":672000.0,"lost":10,"pps":1000.0,)"
            R"("rx_packets":1990,"rx_port":"b","streams":2,"tx_packets":2000,"tx_port":"a"},{"l1_bps":336000.0,)"
            R"("lost":0,"pps":500.0,"rx_packets":1000,"rx_port":"a","streams":1,"tx_packets":1000,"tx_port":"b"}],)"
            R"("percent_line_rate":49.75,"pps":1500.0,"rate_percent":50.0,"tester_limited_at_percent":[]})");
  const BenchFrameSize imix{"imix", {64, 1518}, {7, 1}};
  EXPECT_EQ(to_json(rate_answer(imix, "frames were lost even at the lower bound")).dump(),
            R"({"frame_bytes_mean":245.75,"frame_size":"imix","percent_line_rate":null,)"
            R"("tester_limited_at_percent":[],"why":"frames were lost even at the lower bound"})");
}

}  // namespace
}  // namespace lr::bench
