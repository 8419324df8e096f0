// The CLI's tables of JSON answers: the speed rates refer to next to the link's, and
// columns as wide as their longest entry.

#include "control/cli/tables.hpp"

#include <gtest/gtest.h>

namespace lr::ctl {
namespace {

TEST(PortsTable, ShowsTheProfilesSpeedNextToTheLinksAndAlignsLongDevices) {
  const nlohmann::json ports = nlohmann::json::parse(R"([
    {"name": "a", "device": "net_af_packet0,iface=veth-long-name,qdisc_bypass=0", "driver": "net_af_packet",
     "socket": 0, "link_up": true, "link_speed_bps": 10000000000, "speed_bps": 1000000000,
     "speed_from_profile": true, "owner": null},
    {"name": "b", "device": "0000:3b:00.0", "driver": "mlx5_pci", "socket": 1, "link_up": false,
     "link_speed_bps": 0, "speed_bps": 50000000000, "speed_from_profile": false, "owner": 3}])");
  EXPECT_EQ(ports_table(ports),
            "port         device                                             driver         socket  link link_Gbit/s "
            "rate_Gbit/s   owner\n"
            "a            net_af_packet0,iface=veth-long-name,qdisc_bypass=0 net_af_packet       0    up          10 "
            "         1*       -\n"
            "b            0000:3b:00.0                                       mlx5_pci            1  down           0 "
            "         50       3\n"
            "(* the profile's speed)\n");
}

TEST(HistogramText, SummaryAndPowerOfTwoRangesOrEveryBucket) {
  const nlohmann::json h = nlohmann::json::parse(R"({"stream": "s", "samples": 100, "buckets": [
    {"low_ns": 40, "high_ns": 40, "count": 50}, {"low_ns": 50, "high_ns": 50, "count": 25},
    {"low_ns": 70, "high_ns": 71, "count": 24}, {"low_ns": 4000, "high_ns": 4063, "count": 1}]})");
  const api::LatencySummary l{100, 40, 100.5, 40, 70, 71, 4000, 4000, 4063, 12.5};
  EXPECT_EQ(histogram_text(h, l, false),
            "stream 's': 100 samples; min 40 ns, mean 100.5 ns, p50 40 ns, p90 70 ns, p99 71 ns, p99.9 4000 ns, "
            "p99.99 4000 ns, max 4063 ns, jitter 12.5 ns\n"
            "               latency         frames    share\n"
            "              32-63 ns             75   75.00% ##############################\n"
            "             64-127 ns             24   24.00% ##########\n"
            "          2048-4095 ns              1    1.00% \n");
  EXPECT_EQ(histogram_text(h, l, true).substr(histogram_text(h, l, true).find('\n') + 1),
            "       from_ns          to_ns         frames\n"
            "            40             40             50\n"
            "            50             50             25\n"
            "            70             71             24\n"
            "          4000           4063              1\n");
}

}  // namespace
}  // namespace lr::ctl
