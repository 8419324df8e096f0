// RoCEv2 frames from the plan and the packet writer, byte for byte against frames that
// scapy built with its own BTH and ICRC (tests/fixtures/frames/make_reference_frames.py;
// for IPv6, where scapy 2.5 computes no ICRC, the script computes it by the annex's rule;
// there the UDP checksum is computed too, as IPv6 forbids a zero one).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lib/wire/packet_writer.hpp"
#include "lib/frames/stream_builder.hpp"
#include "lib/profile/quantity.hpp"
#include "tests/support/hex_string.hpp"

namespace lr::fast {
namespace {

constexpr const char* kRoceRcSendVlan =
    "020000000002020000000001810060640800456a006c000040004011adefc6120001c6130001c00012b7005800000400ffff00000011000000690000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000524c03000005000000785634121fb6865097";
constexpr const char* kRoceUcWriteReth =
    "020000000002020000000001080045000050000040004011ae75c6120001c6130001c00012b7003c00002a00ffff0000002200ffffff00000000000010000000123400000014000000000000524c010000010000000700000002930ae70c";
constexpr const char* kRoceUdSendDeth =
    "020000000002020000000001080045000048000040004011ae7dc6120001c6130001c00212b7003400006400ffff00000033000000021111111100000002000000000000524c02000002000000090000000e3631111b";
constexpr const char* kRoceIpv6 =
    "02000000000202000000000186dd66912345002c11402001020000000000000000000000000120010200000000000000000000000002c00012b7002c2f210400ffff0000001100000007000000000000524c04000107000000feca0000d7d534bd42";

using test::hex;

api::StreamSpec roce_stream(uint8_t opcode, uint32_t dest_qp, uint32_t psn, uint16_t frame_size) {
  api::StreamSpec s;
  s.frame.sizes = {frame_size};
  s.udp = {49152, wire::kRoceV2Port};
  s.roce = api::RoceSpec{};
  s.roce->opcode = opcode;
  s.roce->dest_qp = dest_qp;
  s.roce->psn = psn;
  return s;
}

// Frame `seq` of lane `lane`, written into a buffer that held the frames before it.
std::string write(const wire::TxStreamPlan& plan, std::vector<uint8_t>& buffer, uint8_t lane, uint64_t seq,
                  uint32_t tx_ns) {
  const FrameCursor cursor = cursor_at(plan, seq);
  uint16_t unused = 0;
  write_frame<false, false>(buffer.data(), plan, plan.sizes[0], unused,
                            wire::Signature{plan.stream_id, lane, static_cast<uint32_t>(seq), tx_ns}, cursor);
  return hex(buffer.data(), plan.sizes[0].data_len);
}

TEST(RoceFrames, RcSendOnlyWithVlanAndEcnMatchesScapy) {
  api::StreamSpec s = roce_stream(0x04, 0x11, 100, 130);
  s.vlan = api::VlanSpec{100, 3};
  s.ipv4.dscp = 26;
  s.ipv4.ecn = 2;
  const wire::TxStreamPlan plan = plan::build_stream_plan(s, 3);
  EXPECT_FALSE(headers_fixed(plan));
  std::vector<uint8_t> buffer(plan.template_bytes.begin(), plan.template_bytes.end());
  write(plan, buffer, 0, 4, 1);  // an earlier frame in the same buffer changes nothing
  EXPECT_EQ(write(plan, buffer, 0, 5, 0x12345678), kRoceRcSendVlan);
}

TEST(RoceFrames, UcWriteOnlyCarriesARethAndItsPsnWraps) {
  api::StreamSpec s = roce_stream(0x2A, 0x22, 0xFFFFFE, 98);
  s.roce->va = 0x1000;
  s.roce->rkey = 0x1234;
  const wire::TxStreamPlan plan = plan::build_stream_plan(s, 1);
  std::vector<uint8_t> buffer(plan.template_bytes.begin(), plan.template_bytes.end());
  EXPECT_EQ(write(plan, buffer, 0, 1, 7), kRoceUcWriteReth);
  write(plan, buffer, 0, 2, 7);
  EXPECT_EQ(wire::load_be32(buffer.data() + 14 + 20 + 8 + 8) & 0xFFFFFF, 0u) << "PSN 0xFFFFFE + 2 wraps to 0";
}

TEST(RoceFrames, UdSendOnlyCarriesADethAndVariesItsUdpSource) {
  api::StreamSpec s = roce_stream(0x64, 0x33, 0, 90);
  s.roce->qkey = 0x11111111;
  s.roce->src_qp = 2;
  s.vary.push_back({api::VaryField::kUdpSrc, api::VaryOp::kIncrement, 4, 1, {}});
  const wire::TxStreamPlan plan = plan::build_stream_plan(s, 2);
  std::vector<uint8_t> buffer(plan.template_bytes.begin(), plan.template_bytes.end());
  EXPECT_EQ(write(plan, buffer, 0, 2, 9), kRoceUdSendDeth);
}

TEST(RoceFrames, Ipv6MatchesTheAnnexIcrc) {
  api::StreamSpec s = roce_stream(0x04, 0x11, 0, 102);
  s.ip_version = api::IpVersion::kV6;
  s.ipv6.dscp = 26;
  s.ipv6.ecn = 1;
  s.ipv6.flow_label = 0x12345;
  s.lanes = 2;
  const wire::TxStreamPlan plan = plan::build_stream_plan(s, 4);
  std::vector<uint8_t> buffer(plan.template_bytes.begin(), plan.template_bytes.end());
  EXPECT_EQ(write(plan, buffer, 1, 7, 0xCAFE), kRoceIpv6);
}

TEST(RoceFrames, SmallestFrameHoldsHeadersSignatureAndIcrcInWholeWords) {
  // IPv4: 54 bytes of headers + 16 of payload (14 of signature, rounded to words) + ICRC + FCS.
  EXPECT_EQ(profile::min_frame_bytes(roce_stream(0x04, 1, 0, 64)), 78);
  EXPECT_EQ(profile::min_frame_bytes(roce_stream(0x2A, 1, 0, 64)), 94);  // + RETH
  EXPECT_EQ(profile::min_frame_bytes(roce_stream(0x64, 1, 0, 64)), 86);  // + DETH
  EXPECT_EQ(profile::roce_payload_bytes(roce_stream(0x04, 1, 0, 64), 1086), 1024);
}

}  // namespace
}  // namespace lr::fast
