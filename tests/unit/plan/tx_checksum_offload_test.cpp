// A port's TX checksum offload: which streams' frames are flagged for it, and the mbuf
// fields that tell the NIC where the headers are (l2_len, l3_len, l4_len).

#include <gtest/gtest.h>
#include <rte_mbuf.h>

#include <string>

#include "lib/frames/stream_builder.hpp"
#include "dataplane/plan/tx_checksum_offload.hpp"
#include "lib/profile/load_toml.hpp"

namespace lr::plan {
namespace {

wire::TxStreamPlan plan_of(const std::string& keys) {
  const std::string text = "[[port]]\nname = \"p0\"\ndevice = \"net_ring0\"\nspeed = \"40G\"\n"
                           "[[stream]]\nname = \"s\"\ntx_port = \"p0\"\n" + keys;
  return build_stream_plan(profile::load_profile_text(text, "test.toml").streams.at(0), 0);
}

// tx_offload's bit fields (rte_mbuf.h): l2_len 7 bits, l3_len 9, l4_len 8.
constexpr uint64_t header_lengths(uint64_t l2, uint64_t l3, uint64_t l4) { return l2 | l3 << 7 | l4 << 16; }

TEST(TxChecksumOffload, Ipv4UdpFramesAskForBothChecksums) {
  wire::TxStreamPlan plan = plan_of("vlan = { id = 100 }\n");
  ASSERT_TRUE(offload_checksums(plan));
  EXPECT_TRUE(plan.hw_checksum);
  EXPECT_EQ(plan.ol_flags, RTE_MBUF_F_TX_UDP_CKSUM | RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM);
  EXPECT_EQ(plan.tx_offload, header_lengths(18, 20, 8));  // 802.1Q tag: the IPv4 header at 18
}

TEST(TxChecksumOffload, Ipv6UdpFramesAskForTheUdpChecksumOnly) {
  wire::TxStreamPlan plan = plan_of("ipv6 = { src = \"2001:db8::1\" }\nframe_size = 128\n");
  ASSERT_TRUE(offload_checksums(plan));
  EXPECT_EQ(plan.ol_flags, RTE_MBUF_F_TX_UDP_CKSUM | RTE_MBUF_F_TX_IPV6);  // IPv6 has no header checksum
  EXPECT_EQ(plan.tx_offload, header_lengths(14, 40, 8));
}

// A NIC told to finish the checksums of a PFC or PAUSE frame would write "checksums" into
// its class-enable vector and quanta; RoCEv2 sends UDP checksum 0; the ports offload UDP only.
TEST(TxChecksumOffload, MacControlRoceAndTcpFramesAreNotFlagged) {
  for (const char* keys : {"kind = \"pfc\"\npriorities = [3]\n", "kind = \"pause\"\n",
                           "roce = { dest_qp = 3 }\nframe_size = 78\n", "tcp = { dst = 80 }\nframe_size = 128\n"}) {
    wire::TxStreamPlan plan = plan_of(keys);
    EXPECT_FALSE(offload_checksums(plan)) << keys;
    EXPECT_FALSE(plan.hw_checksum) << keys;
    EXPECT_EQ(plan.ol_flags, 0u) << keys;
    EXPECT_EQ(plan.tx_offload, 0u) << keys;
  }
}

}  // namespace
}  // namespace lr::plan
