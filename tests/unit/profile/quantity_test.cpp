#include "lib/profile/quantity.hpp"

#include <gtest/gtest.h>

namespace lr::profile {
namespace {

using api::RateKind;

TEST(Quantity, Rates) {
  EXPECT_EQ(parse_rate("10%")->kind, RateKind::kPercentOfLine);
  EXPECT_EQ(parse_rate("100%")->value, 100.0);
  EXPECT_EQ(parse_rate("1Mpps")->value, 1e6);
  EXPECT_EQ(parse_rate("1.5kpps")->value, 1500.0);
  EXPECT_EQ(parse_rate("250pps")->kind, RateKind::kPps);
  EXPECT_EQ(parse_rate("5Gbps")->kind, RateKind::kL1Bps);
  EXPECT_EQ(parse_rate("5Gbps")->value, 5e9);
  EXPECT_EQ(parse_rate("5Gbps-l2")->kind, RateKind::kL2Bps);
  EXPECT_EQ(parse_rate("max")->kind, RateKind::kMax);
  for (const char* bad : {"", "10", "101%", "0%", "-1Mpps", "5Gbit", "5Xbps", "1Mpps-l2", "fast", "nan%"})
    EXPECT_FALSE(parse_rate(bad).has_value()) << bad;
}

TEST(Quantity, Durations) {
  EXPECT_EQ(parse_duration_ns("5s"), 5'000'000'000u);
  EXPECT_EQ(parse_duration_ns("100ms"), 100'000'000u);
  EXPECT_EQ(parse_duration_ns("20us"), 20'000u);
  EXPECT_EQ(parse_duration_ns("1.5s"), 1'500'000'000u);
  EXPECT_EQ(parse_duration_ns("2m"), 120'000'000'000u);
  for (const char* bad : {"5", "s", "5 parsecs", "-1s", "1e30h"}) EXPECT_FALSE(parse_duration_ns(bad).has_value()) << bad;
}

TEST(Quantity, Bytes) {
  EXPECT_EQ(parse_bytes("1500B"), 1500u);
  EXPECT_EQ(parse_bytes("64KB"), 64'000u);
  EXPECT_EQ(parse_bytes("1.5MB"), 1'500'000u);
  EXPECT_EQ(parse_bytes("64KiB"), 65'536u);
  EXPECT_EQ(parse_bytes("2MiB"), 2'097'152u);
  EXPECT_EQ(parse_bytes("1GB"), 1'000'000'000u);
  EXPECT_EQ(parse_bytes("64kb"), std::nullopt);   // units are case-sensitive: kb is kilobits elsewhere
  EXPECT_EQ(parse_bytes("1.5B"), std::nullopt);   // whole bytes only
  EXPECT_EQ(parse_bytes("64"), std::nullopt);     // a string needs its unit; integers are bytes
  EXPECT_EQ(parse_bytes("-1KB"), std::nullopt);
}

TEST(Quantity, LinkSpeeds) {
  EXPECT_EQ(parse_link_speed_bps("40G"), 40'000'000'000u);
  EXPECT_EQ(parse_link_speed_bps("25Gbps"), 25'000'000'000u);
  EXPECT_EQ(parse_link_speed_bps("100M"), 100'000'000u);
  EXPECT_FALSE(parse_link_speed_bps("40").has_value());
}

TEST(Quantity, Addresses) {
  EXPECT_EQ(parse_ipv4("198.18.0.1"), 0xC6120001u);
  EXPECT_FALSE(parse_ipv4("198.18.0").has_value());
  EXPECT_EQ((*parse_ipv6("2001:db8::1"))[15], 1);
  EXPECT_FALSE(parse_ipv6("2001:::1").has_value());
  EXPECT_EQ((*parse_mac("02:aB:00:00:00:ff"))[1], 0xAB);
  EXPECT_FALSE(parse_mac("02:ab:00:00:00:fg").has_value());
}

}  // namespace
}  // namespace lr::profile
