// Frames from the template + incremental checksum path, byte for byte against frames
// that scapy built and checksummed (tests/fixtures/frames/make_reference_frames.py).

#include <gtest/gtest.h>
#include <rte_ip.h>

#include <string>
#include <vector>

#include "dataplane/fastpath/packet_writer.hpp"
#include "dataplane/plan/stream_builder.hpp"
#include "dataplane/profile/quantity.hpp"

namespace lr::fast {
namespace {

  constexpr const char* kVlanIpv4Min =
      "0200000000020200000000018100606408004568002a000040004011ae33c6120001c6130001040012b70016a1d3524c000000050000007856341212";
  constexpr const char* kIpv6OddLength =
      "02000000000202000000000186dd62912345002b11402001020000000000000000000000000120010200000000000000000000000002138b1389002b6086000000000000000000000000000000000000000000524c07000203000000efbeadde47";
  constexpr const char* kImixSeq0 =
      "02000000000202000000001008004500002e000040004011ae97c6120001c613000104000400001a142f00000000524c01000000000000e80300002f";
  constexpr const char* kImixSeq1 =
      "02000000000202000000000f08004500006e000040004011ae55c6120001c613000304000400005a13b10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000524c01000001000000e903000029";
  constexpr const char* kImixSeq2 =
      "02000000000202000000000e08004500002e000040004011ae93c6120001c613000504000400001a142b00000000524c01000002000000ea0300002b";
  constexpr const char* kImixSeq3 =
      "02000000000202000000000d08004500006e000040004011ae51c6120001c613000704000400005a139d0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000524c01000003000000eb03000035";

std::string hex(const uint8_t* data, size_t len) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < len; ++i) {
    out += digits[data[i] >> 4];
    out += digits[data[i] & 15];
  }
  return out;
}

// Writes frame `seq` of `plan` into `buffer` (which keeps what earlier frames left).
std::string write(const plan::TxStreamPlan& plan, std::vector<uint8_t>& buffer, uint16_t& last_sig, uint8_t lane,
                  uint64_t seq, uint32_t tx_ns) {
  const plan::SizeEntry& size = plan.sizes[size_index(plan, seq, lane)];
  write_frame(buffer.data(), plan, size, last_sig, Signature{plan.stream_id, lane, static_cast<uint32_t>(seq), tx_ns}, seq);
  return hex(buffer.data(), size.data_len);
}

TEST(PacketWriter, VlanIpv4MinimumFrameMatchesReference) {
  profile::StreamCfg s;
  s.frame.sizes = {64};
  s.vlan = profile::VlanCfg{100, 3};
  s.ipv4.dscp = 26;
  s.udp = {1024, 4791};
  const plan::TxStreamPlan plan = plan::build_stream_plan(s, 0);
  std::vector<uint8_t> buffer = plan.template_bytes;
  uint16_t last_sig = 0;
  EXPECT_EQ(write(plan, buffer, last_sig, 0, 5, 0x12345678), kVlanIpv4Min);
  // The fixed-size variant the TX loop uses for this stream writes the same bytes.
  std::vector<uint8_t> fixed = plan.template_bytes;
  uint16_t unused = 0;
  write_frame<false, false>(fixed.data(), plan, plan.sizes[0], unused, Signature{0, 0, 5, 0x12345678}, 5);
  EXPECT_EQ(hex(fixed.data(), fixed.size()), kVlanIpv4Min);
}

TEST(PacketWriter, Ipv6SignatureAtOddOffsetMatchesReference) {
  profile::StreamCfg s;
  s.frame.sizes = {101};
  s.ip_version = profile::IpVersion::kV6;
  s.ipv6.dscp = 10;
  s.ipv6.ecn = 1;
  s.ipv6.flow_label = 0x12345;
  s.udp = {5000, 5001};
  s.lanes = 3;
  s.vary.push_back({profile::VaryField::kUdpSrc, profile::VaryOp::kIncrement, 64, 1});
  const plan::TxStreamPlan plan = plan::build_stream_plan(s, 7);
  std::vector<uint8_t> buffer = plan.template_bytes;
  uint16_t last_sig = 0;
  EXPECT_EQ(write(plan, buffer, last_sig, 2, 3, 0xDEADBEEF), kIpv6OddLength);
}

TEST(PacketWriter, ImixFramesReuseOneBufferAndKeepChecksumsExact) {
  profile::StreamCfg s;
  s.frame.kind = profile::FrameSizeKind::kImix;
  s.frame.sizes = {64, 128};
  s.frame.weights = {1, 1};
  s.eth_src = *profile::parse_mac("02:00:00:00:00:10");
  s.vary.push_back({profile::VaryField::kIpDst, profile::VaryOp::kIncrement, 10, 2});
  s.vary.push_back({profile::VaryField::kEthSrc, profile::VaryOp::kDecrement, 4, 1});
  const plan::TxStreamPlan plan = plan::build_stream_plan(s, 1);
  ASSERT_TRUE(plan.multi_size);
  // One buffer for all four frames, as an mbuf that returns to its pool each time:
  // the longer frames must not carry the shorter frames' old signatures in their payload.
  std::vector<uint8_t> buffer = plan.template_bytes;
  uint16_t last_sig = 0;
  EXPECT_EQ(write(plan, buffer, last_sig, 0, 0, 1000), kImixSeq0);
  EXPECT_EQ(write(plan, buffer, last_sig, 0, 1, 1001), kImixSeq1);
  EXPECT_EQ(write(plan, buffer, last_sig, 0, 2, 1002), kImixSeq2);
  EXPECT_EQ(write(plan, buffer, last_sig, 0, 3, 1003), kImixSeq3);
}

TEST(PacketWriter, RandomFieldStaysInRangeAndRepeatsForSameSequence) {
  profile::StreamCfg s;
  s.udp.dst = 2000;
  s.vary.push_back({profile::VaryField::kUdpDst, profile::VaryOp::kRandom, 100, 1});
  const plan::TxStreamPlan plan = plan::build_stream_plan(s, 0);
  std::vector<uint8_t> buffer = plan.template_bytes;
  uint16_t last_sig = 0;
  std::vector<bool> seen(100, false);
  for (uint64_t seq = 0; seq < 2000; ++seq) {
    write(plan, buffer, last_sig, 0, seq, 0);
    const uint16_t port = load_be16(buffer.data() + 36);
    ASSERT_GE(port, 2000);
    ASSERT_LT(port, 2100);
    seen[port - 2000] = true;
    // A frame the queue refused is rebuilt with the same sequence: same value.
    write(plan, buffer, last_sig, 0, seq, 0);
    ASSERT_EQ(load_be16(buffer.data() + 36), port);
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 100);
}

// With TX checksum offload the IPv4 checksum is 0 and the UDP checksum field holds the
// pseudo-header sum, exactly what DPDK's own rte_ipv4/6_phdr_cksum compute.
TEST(PacketWriter, HardwareChecksumLeavesPseudoHeaderSumForTheNic) {
  for (const bool v6 : {false, true}) {
    profile::StreamCfg s;
    s.frame.kind = profile::FrameSizeKind::kImix;
    s.frame.sizes = {90, 333};
    s.frame.weights = {1, 1};
    if (v6) s.ip_version = profile::IpVersion::kV6;
    s.vary.push_back({profile::VaryField::kIpSrc, profile::VaryOp::kRandom, 1000, 1});
    s.vary.push_back({profile::VaryField::kUdpSrc, profile::VaryOp::kIncrement, 7, 1});
    plan::TxStreamPlan plan = plan::build_stream_plan(s, 3);
    plan.hw_checksum = true;
    std::vector<uint8_t> buffer = plan.template_bytes;
    uint16_t last_sig = 0;
    for (uint64_t seq = 0; seq < 50; ++seq) {
      const plan::SizeEntry& size = plan.sizes[size_index(plan, seq, 0)];
      write_frame<true>(buffer.data(), plan, size, last_sig, Signature{3, 0, static_cast<uint32_t>(seq), 0}, seq);
      uint16_t expected;
      if (v6) {
        expected = rte_ipv6_phdr_cksum(reinterpret_cast<const rte_ipv6_hdr*>(buffer.data() + 14), 0);
      } else {
        EXPECT_EQ(load_be16(buffer.data() + 14 + 10), 0) << "IPv4 checksum left to the NIC";
        expected = rte_ipv4_phdr_cksum(reinterpret_cast<const rte_ipv4_hdr*>(buffer.data() + 14), 0);
      }
      // DPDK returns the sum in network order as stored in memory.
      uint16_t stored;
      std::memcpy(&stored, buffer.data() + plan.l4_offset + 6, 2);
      ASSERT_EQ(stored, expected) << (v6 ? "IPv6" : "IPv4") << " seq " << seq;
    }
  }
}

TEST(StreamBuilder, ImixScheduleInterleavesByWeight) {
  EXPECT_EQ(plan::imix_schedule({7, 4, 1}).size(), 12u);
  const std::vector<uint16_t> order = plan::imix_schedule({70, 40, 10});
  ASSERT_EQ(order.size(), 12u);
  EXPECT_EQ(std::count(order.begin(), order.end(), 0), 7);
  EXPECT_EQ(std::count(order.begin(), order.end(), 1), 4);
  EXPECT_EQ(std::count(order.begin(), order.end(), 2), 1);
  // Never more than two small frames in a row at 7:4:1.
  for (size_t i = 0; i + 2 < order.size(); ++i) EXPECT_FALSE(order[i] == 0 && order[i + 1] == 0 && order[i + 2] == 0);
}

TEST(StreamBuilder, RangeHasOneEntryPerSize) {
  profile::StreamCfg s;
  s.frame.kind = profile::FrameSizeKind::kRange;
  s.frame.min = 64;
  s.frame.max = 1518;
  s.frame.order = profile::RangeOrder::kIncrement;
  const plan::TxStreamPlan plan = plan::build_stream_plan(s, 0);
  ASSERT_EQ(plan.sizes.size(), 1455u);
  EXPECT_EQ(plan.template_bytes.size(), 1514u);
  EXPECT_EQ(plan.sizes[size_index(plan, 0, 0)].data_len, 60);
  EXPECT_EQ(plan.sizes[size_index(plan, 1454, 0)].data_len, 1514);
  EXPECT_EQ(plan.sizes[size_index(plan, 1455, 0)].data_len, 60);
}

}  // namespace
}  // namespace lr::fast
