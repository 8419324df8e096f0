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

}  // namespace
}  // namespace lr::ctl
