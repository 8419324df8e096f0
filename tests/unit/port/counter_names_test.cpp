// One canonical name per meaning across mlx5, i40e / ice, ethdev and ethtool FEC stats.

#include "lib/host/counter_names.hpp"

#include <gtest/gtest.h>

#include "lib/host/port_settings.hpp"

namespace lr::dp {
namespace {

TEST(CounterNames, DriversNamesMapToOneScheme) {
  EXPECT_EQ(canonical_counter_name("ethtool", "rx_prio3_pause"), "rx_pause_prio3");
  EXPECT_EQ(canonical_counter_name("xstats", "rx_priority3_xoff_packets"), "rx_pause_prio3");
  EXPECT_EQ(canonical_counter_name("ethtool", "port.rx_priority_3_xoff"), "rx_pause_prio3");
  EXPECT_EQ(canonical_counter_name("ethtool", "tx_prio7_pause"), "tx_pause_prio7");
  EXPECT_EQ(canonical_counter_name("ethtool", "rx_prio3_pause_duration"), "rx_pause_duration_us_prio3");
  EXPECT_EQ(canonical_counter_name("ethtool", "rx_corrected_bits_phy"), "fec_corrected_bits");
  EXPECT_EQ(canonical_counter_name("fec", "corrected_bits"), "fec_corrected_bits");
  EXPECT_EQ(canonical_counter_name("fec", "uncorrectable_blocks_lane2"), "fec_uncorrectable_blocks_lane2");
  EXPECT_EQ(canonical_counter_name("ethtool", "rx_err_lane_1_phy"), "rx_bit_errors_lane1");
  EXPECT_EQ(canonical_counter_name("ethtool", "rx_pcs_symbol_err_phy"), "rx_pcs_symbol_errors");
  EXPECT_EQ(canonical_counter_name("ethtool", "link_down_events_phy"), "link_down_events");
  EXPECT_EQ(canonical_counter_name("ethdev", "ipackets"), "rx_packets");
  EXPECT_EQ(canonical_counter_name("xstats", "rx_good_bytes"), "rx_bytes");
  EXPECT_EQ(canonical_counter_name("ethdev", "imissed"), "rx_missed");
  EXPECT_EQ(canonical_counter_name("ethtool", "peer_ifindex"), "");
  EXPECT_EQ(canonical_counter_name("ethtool", "rx_prio9_pause"), "");  // no priority 9
}

TEST(FecNames, RoundTripAndRefusal) {
  EXPECT_EQ(fec_names(kFecRs | kFecBaseR), "baser|rs");
  EXPECT_EQ(parse_fec_mode("rs"), uint32_t{kFecRs});
  EXPECT_EQ(parse_fec_mode("auto"), uint32_t{kFecAuto});
  EXPECT_EQ(parse_fec_mode("RS528"), std::nullopt);
}

}  // namespace
}  // namespace lr::dp
