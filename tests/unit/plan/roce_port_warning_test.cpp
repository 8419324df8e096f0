// A plain signed stream to or from UDP 4791 is said to look like malformed RoCEv2; a
// RoCEv2 stream (a roce table) is not.
#include <gtest/gtest.h>

#include <string>

#include "lib/frames/stream_builder.hpp"
#include "lib/profile/load_toml.hpp"

namespace lr::plan {
namespace {

api::StreamSpec stream(const std::string& keys) {
  return profile::load_profile_text("[[port]]\nname = \"p0\"\ndevice = \"net_ring0\"\n[[stream]]\nname = \"s\"\n"
                                    "tx_port = \"p0\"\n" + keys,
                                    "test.toml")
      .streams.at(0);
}

TEST(RocePortWarning, PlainPayloadToOrFrom4791IsNamed) {
  EXPECT_EQ(roce_port_warning(stream("udp = { dst = 4791 }\n")),
            "stream 's' uses UDP destination port 4791 (RoCEv2) without an InfiniBand BTH: Wireshark and RoCE-aware "
            "devices will read its frames as malformed RoCEv2; give the stream a roce table to send RoCEv2 (BTH and "
            "ICRC), or another port");
  // A RoCEv2 stream goes to 4791 by definition: nothing to warn of.
  EXPECT_EQ(roce_port_warning(stream("roce = { dest_qp = 3 }\nframe_size = 78\n")), "");
  EXPECT_NE(roce_port_warning(stream("udp = { src = 4791, dst = 5000 }\n")).find("UDP source port 4791"),
            std::string::npos);
  EXPECT_EQ(roce_port_warning(stream("udp = { dst = 4792 }\n")), "");
  EXPECT_EQ(roce_port_warning(stream("")), "");
}

}  // namespace
}  // namespace lr::plan
