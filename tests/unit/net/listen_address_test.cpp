// `--listen ADDRESS:PORT` as the data plane's TCP control and linerate's HTTP servers read
// it: each wrong part named exactly; a bound endpoint said and judged.
#include "lib/net/listen_address.hpp"

#include <gtest/gtest.h>

#include <string>

namespace lr::net {
namespace {

std::string error_of(const std::string& text) {
  const auto parsed = parse_listen_address(text, "127.0.0.1:9477");
  return parsed ? "" : parsed.error().context;
}

TEST(ListenAddress, ReadsIpv4Ipv6AndPortZero) {
  EXPECT_EQ(endpoint_text(*parse_listen_address("127.0.0.1:9477", "")), "127.0.0.1:9477");
  EXPECT_EQ(endpoint_text(*parse_listen_address("[::1]:8443", "")), "[::1]:8443");
  EXPECT_EQ(parse_listen_address("0.0.0.0:0", "")->port(), 0);
}

TEST(ListenAddress, NamesTheWrongPart) {
  EXPECT_EQ(error_of("9477"), "--listen '9477': give ADDRESS:PORT (e.g. 127.0.0.1:9477, or [::1]:PORT)");
  EXPECT_EQ(error_of("127.0.0.1:http"), "--listen '127.0.0.1:http': port 'http' is not a number from 0 to 65535");
  EXPECT_EQ(error_of("127.0.0.1:65536"), "--listen '127.0.0.1:65536': port '65536' is not a number from 0 to 65535");
  EXPECT_EQ(error_of("dp1:7300"),
            "--listen 'dp1:7300': 'dp1' is not an IP address (IPv6 goes in brackets: [::1]:PORT)");
}

TEST(ListenAddress, LoopbackIsNotReachableFromOtherHosts) {
  for (const char* local : {"127.0.0.1:1", "[::1]:1", "[::ffff:127.0.0.1]:1"})
    EXPECT_FALSE(reachable_from_other_hosts(*parse_listen_address(local, ""))) << local;
  for (const char* open : {"0.0.0.0:1", "[::]:1", "192.0.2.7:1"})
    EXPECT_TRUE(reachable_from_other_hosts(*parse_listen_address(open, ""))) << open;
}

}  // namespace
}  // namespace lr::net
