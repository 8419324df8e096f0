// Frames from the template + incremental checksum path, byte for byte against frames
// that scapy built and checksummed (tests/fixtures/frames/make_reference_frames.py).

#include "lib/wire/packet_writer.hpp"

#include <gtest/gtest.h>
#include <rte_ip.h>

#include <string>
#include <vector>

#include "dataplane/plan/tx_checksum_offload.hpp"
#include "lib/frames/stream_builder.hpp"
#include "lib/profile/quantity.hpp"
#include "tests/support/hex_string.hpp"

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

using test::hex;

// Writes frame `seq` of `plan` into `buffer` (which keeps what earlier frames left).
std::string write(const wire::TxStreamPlan& plan, std::vector<uint8_t>& buffer, uint16_t& last_sig, uint8_t lane,
                  uint64_t seq, uint32_t tx_ns) {
  const FrameCursor cursor = cursor_at(plan, seq);
  const wire::SizeEntry& size = plan.sizes[size_index(plan, cursor, lane)];
  write_frame(buffer.data(), plan, size, last_sig, wire::Signature{plan.stream_id, lane, static_cast<uint32_t>(seq), tx_ns},
              cursor);
  return hex(buffer.data(), size.data_len);
}

TEST(PacketWriter, VlanIpv4MinimumFrameMatchesReference) {
  api::StreamSpec s;
  s.frame.sizes = {64};
  s.vlan = api::VlanSpec{100, 3};
  s.ipv4.dscp = 26;
  s.udp = {1024, 4791};
  const wire::TxStreamPlan plan = plan::build_stream_plan(s, 0);
  std::vector<uint8_t> buffer(plan.template_bytes.begin(), plan.template_bytes.end());
  uint16_t last_sig = 0;
  EXPECT_EQ(write(plan, buffer, last_sig, 0, 5, 0x12345678), kVlanIpv4Min);
  // The fixed-size variant the TX loop uses for this stream writes the same bytes.
  std::vector<uint8_t> fixed(plan.template_bytes.begin(), plan.template_bytes.end());
  uint16_t unused = 0;
  write_frame<false, false>(fixed.data(), plan, plan.sizes[0], unused, wire::Signature{0, 0, 5, 0x12345678},
                            cursor_at(plan, 5));
  EXPECT_EQ(hex(fixed.data(), fixed.size()), kVlanIpv4Min);
}

TEST(PacketWriter, Ipv6SignatureAtOddOffsetMatchesReference) {
  api::StreamSpec s;
  s.frame.sizes = {101};
  s.ip_version = api::IpVersion::kV6;
  s.ipv6.dscp = 10;
  s.ipv6.ecn = 1;
  s.ipv6.flow_label = 0x12345;
  s.udp = {5000, 5001};
  s.lanes = 3;
  s.vary.push_back({api::VaryField::kUdpSrc, api::VaryOp::kIncrement, 64, 1, {}});
  const wire::TxStreamPlan plan = plan::build_stream_plan(s, 7);
  std::vector<uint8_t> buffer(plan.template_bytes.begin(), plan.template_bytes.end());
  uint16_t last_sig = 0;
  EXPECT_EQ(write(plan, buffer, last_sig, 2, 3, 0xDEADBEEF), kIpv6OddLength);
}

TEST(PacketWriter, ImixFramesReuseOneBufferAndKeepChecksumsExact) {
  api::StreamSpec s;
  s.frame.kind = api::FrameSizeKind::kImix;
  s.frame.sizes = {64, 128};
  s.frame.weights = {1, 1};
  s.eth_src = *profile::parse_mac("02:00:00:00:00:10");
  s.vary.push_back({api::VaryField::kIpDst, api::VaryOp::kIncrement, 10, 2, {}});
  s.vary.push_back({api::VaryField::kEthSrc, api::VaryOp::kDecrement, 4, 1, {}});
  const wire::TxStreamPlan plan = plan::build_stream_plan(s, 1);
  ASSERT_TRUE(plan.multi_size);
  // One buffer for all four frames, as an mbuf that returns to its pool each time:
  // the longer frames must not carry the shorter frames' old signatures in their payload.
  std::vector<uint8_t> buffer(plan.template_bytes.begin(), plan.template_bytes.end());
  uint16_t last_sig = 0;
  EXPECT_EQ(write(plan, buffer, last_sig, 0, 0, 1000), kImixSeq0);
  EXPECT_EQ(write(plan, buffer, last_sig, 0, 1, 1001), kImixSeq1);
  EXPECT_EQ(write(plan, buffer, last_sig, 0, 2, 1002), kImixSeq2);
  EXPECT_EQ(write(plan, buffer, last_sig, 0, 3, 1003), kImixSeq3);
}

TEST(PacketWriter, RandomFieldStaysInRangeAndRepeatsForSameSequence) {
  api::StreamSpec s;
  s.udp.dst = 2000;
  s.vary.push_back({api::VaryField::kUdpDst, api::VaryOp::kRandom, 100, 1, {}});
  const wire::TxStreamPlan plan = plan::build_stream_plan(s, 0);
  std::vector<uint8_t> buffer(plan.template_bytes.begin(), plan.template_bytes.end());
  uint16_t last_sig = 0;
  std::vector<bool> seen(100, false);
  for (uint64_t seq = 0; seq < 2000; ++seq) {
    write(plan, buffer, last_sig, 0, seq, 0);
    const uint16_t port = wire::load_be16(buffer.data() + 36);
    ASSERT_GE(port, 2000);
    ASSERT_LT(port, 2100);
    seen[port - 2000] = true;
    // A frame the queue refused is rebuilt with the same sequence: same value.
    write(plan, buffer, last_sig, 0, seq, 0);
    ASSERT_EQ(wire::load_be16(buffer.data() + 36), port);
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), true), 100);
}

// A list of values: frame n takes values[n mod size] of each listed field, and the IPv4
// and UDP checksums stay right with them.
TEST(PacketWriter, ListedValuesTakeTurnsWithChecksumsRight) {
  api::StreamSpec s;
  s.frame.sizes = {128};
  s.vlan = api::VlanSpec{7, 5};
  s.vary.push_back({api::VaryField::kIpDst, api::VaryOp::kList, 3, 1, {0x0A000001, 0x0A0000FE, 0xC0A80101}});
  s.vary.push_back({api::VaryField::kUdpSrc, api::VaryOp::kList, 2, 1, {53, 4791}});
  s.vary.push_back({api::VaryField::kVlanId, api::VaryOp::kList, 4, 1, {1, 4095, 100, 2}});
  const wire::TxStreamPlan plan = plan::build_stream_plan(s, 0);
  std::vector<uint8_t> buffer(plan.template_bytes.begin(), plan.template_bytes.end());
  uint16_t last_sig = 0;
  for (uint64_t seq = 0; seq < 24; ++seq) {
    write(plan, buffer, last_sig, 0, seq, 0);
    EXPECT_EQ(wire::load_be16(buffer.data() + 14), (5u << 13) | s.vary[2].values[seq % 4]) << "seq " << seq;
    EXPECT_EQ(wire::load_be32(buffer.data() + 18 + 16), s.vary[0].values[seq % 3]) << "seq " << seq;
    EXPECT_EQ(wire::load_be16(buffer.data() + 38), s.vary[1].values[seq % 2]) << "seq " << seq;
    auto* ip = reinterpret_cast<rte_ipv4_hdr*>(buffer.data() + 18);
    const uint16_t ip_sum = ip->hdr_checksum;
    ip->hdr_checksum = 0;
    EXPECT_EQ(rte_ipv4_cksum(ip), ip_sum) << "seq " << seq;
    ip->hdr_checksum = ip_sum;
    const uint16_t udp_sum = wire::load_be16(buffer.data() + 38 + 6);
    wire::store_be16(buffer.data() + 38 + 6, 0);
    EXPECT_EQ(rte_be_to_cpu_16(rte_ipv4_udptcp_cksum(ip, buffer.data() + 38)), udp_sum) << "seq " << seq;
    wire::store_be16(buffer.data() + 38 + 6, udp_sum);
  }
}

// A TCP stream: protocol 6, the header's fields, no length field, and the TCP checksum
// right (as DPDK computes it) over IPv4 and IPv6, with a varying port and several sizes.
TEST(PacketWriter, TcpSegmentsHaveTheirFieldsAndChecksum) {
  for (const bool v6 : {false, true}) {
    api::StreamSpec s;
    s.frame.kind = api::FrameSizeKind::kImix;
    s.frame.sizes = {128, 333};
    s.frame.weights = {1, 1};
    if (v6) s.ip_version = api::IpVersion::kV6;
    s.tcp = api::TcpSpec{40000, 443, 0x01020304, 0x0A0B0C0D, 0x18, 512};
    s.vary.push_back({api::VaryField::kUdpSrc, api::VaryOp::kIncrement, 5, 3, {}});
    const wire::TxStreamPlan plan = plan::build_stream_plan(s, 2);
    EXPECT_EQ((std::tuple{plan.tcp, plan.header_bytes}), (std::tuple{true, static_cast<uint16_t>(v6 ? 74 : 54)}));
    std::vector<uint8_t> buffer(plan.template_bytes.begin(), plan.template_bytes.end());
    uint16_t last_sig = 0;
    for (uint64_t seq = 0; seq < 10; ++seq) {
      write(plan, buffer, last_sig, 0, seq, 0);
      uint8_t* tcp = buffer.data() + plan.l4_offset;
      EXPECT_EQ(buffer[14 + (v6 ? 6 : 9)], 6);
      EXPECT_EQ((std::tuple{wire::load_be16(tcp), wire::load_be16(tcp + 2), wire::load_be32(tcp + 4),
                            wire::load_be32(tcp + 8), tcp[12], tcp[13], wire::load_be16(tcp + 14)}),
                (std::tuple{static_cast<uint16_t>(40000 + seq % 5 * 3), uint16_t{443}, 0x01020304u, 0x0A0B0C0Du,
                            uint8_t{0x50}, uint8_t{0x18}, uint16_t{512}}));
      const uint16_t sent = wire::load_be16(tcp + 16);
      wire::store_be16(tcp + 16, 0);
      const void* ip = buffer.data() + 14;
      const uint16_t expected = v6 ? rte_ipv6_udptcp_cksum(static_cast<const rte_ipv6_hdr*>(ip), tcp)
                                   : rte_ipv4_udptcp_cksum(static_cast<const rte_ipv4_hdr*>(ip), tcp);
      EXPECT_EQ(sent, rte_be_to_cpu_16(expected)) << (v6 ? "IPv6" : "IPv4") << " seq " << seq;
      wire::store_be16(tcp + 16, sent);
    }
  }
}

// With TX checksum offload the IPv4 checksum is 0 and the UDP checksum field holds the
// pseudo-header sum, exactly what DPDK's own rte_ipv4/6_phdr_cksum compute.
TEST(PacketWriter, HardwareChecksumLeavesPseudoHeaderSumForTheNic) {
  for (const bool v6 : {false, true}) {
    api::StreamSpec s;
    s.frame.kind = api::FrameSizeKind::kImix;
    s.frame.sizes = {90, 333};
    s.frame.weights = {1, 1};
    if (v6) s.ip_version = api::IpVersion::kV6;
    s.vary.push_back({api::VaryField::kIpSrc, api::VaryOp::kRandom, 1000, 1, {}});
    s.vary.push_back({api::VaryField::kUdpSrc, api::VaryOp::kIncrement, 7, 1, {}});
    wire::TxStreamPlan plan = plan::build_stream_plan(s, 3);
    plan.hw_checksum = true;
    std::vector<uint8_t> buffer(plan.template_bytes.begin(), plan.template_bytes.end());
    uint16_t last_sig = 0;
    for (uint64_t seq = 0; seq < 50; ++seq) {
      const FrameCursor cursor = cursor_at(plan, seq);
      const wire::SizeEntry& size = plan.sizes[size_index(plan, cursor, 0)];
      write_frame<true>(buffer.data(), plan, size, last_sig, wire::Signature{3, 0, static_cast<uint32_t>(seq), 0}, cursor);
      uint16_t expected;
      if (v6) {
        expected = rte_ipv6_phdr_cksum(reinterpret_cast<const rte_ipv6_hdr*>(buffer.data() + 14), 0);
      } else {
        EXPECT_EQ(wire::load_be16(buffer.data() + 14 + 10), 0) << "IPv4 checksum left to the NIC";
        expected = rte_ipv4_phdr_cksum(reinterpret_cast<const rte_ipv4_hdr*>(buffer.data() + 14), 0);
      }
      // DPDK returns the sum in network order as stored in memory.
      uint16_t stored;
      std::memcpy(&stored, buffer.data() + plan.l4_offset + 6, 2);
      ASSERT_EQ(stored, expected) << (v6 ? "IPv6" : "IPv4") << " seq " << seq;
    }
  }
}

// A fixed-header stream's TX loop writes only the signature and the UDP checksum into
// a frame written whole once: the bytes must equal write_frame's for every frame, with
// the signature at an even and an odd offset in the datagram, IPv4 and IPv6, software
// and offloaded checksums, across the sequence's byte carries and its 32-bit wrap, on
// several lanes and clocks.
TEST(PacketWriter, FixedHeaderFramesEqualWholeFrames) {
  int odd_seen = 0;
  for (const uint16_t frame_size : {64, 65, 101, 1518}) {
    for (const bool v6 : {false, true}) {
      for (const int variant : {0, 1, 2}) {  // checksum in software, offloaded, TCP (in software)
        const bool hw = variant == 1;
        api::StreamSpec s;
        s.frame.sizes = {frame_size};
        if (!v6) s.vlan = api::VlanSpec{100, 3};
        if (v6) s.ip_version = api::IpVersion::kV6;
        if (variant == 2) s.tcp = api::TcpSpec{};
        // The smallest frame: 80 bytes over IPv6 (92 with TCP), 76 over IPv4 with a VLAN and TCP.
        s.frame.sizes = {std::max(frame_size, profile::min_frame_bytes(s))};
        wire::TxStreamPlan plan = plan::build_stream_plan(s, 513);
        plan.hw_checksum = hw;
        ASSERT_TRUE(headers_fixed(plan));
        const wire::SizeEntry& size = plan.sizes[0];
        std::vector<uint8_t> fixed(plan.template_bytes.begin(), plan.template_bytes.end());
        fixed.resize(fixed.size() + kTxTailroom);  // as a TX buffer has
        uint16_t none = 0;
        if (hw) write_frame<true, false>(fixed.data(), plan, size, none, wire::Signature{513, 0, 0, 0}, FrameCursor{});
        else write_frame<false, false>(fixed.data(), plan, size, none, wire::Signature{513, 0, 0, 0}, FrameCursor{});
        odd_seen += ((size.data_len - wire::kSignatureBytes - plan.l4_offset) & 1);
        for (const uint32_t first : {0u, 0xFFu, 0xFFFFF0u, 0x7FFFFFF8u, 0xFFFFFFF0u}) {
          for (const uint8_t lane : {uint8_t{0}, uint8_t{7}}) {
            for (const uint32_t tx_ns : {0u, 0x12345678u, 0xFFFFFFFFu}) {
              const FixedBurst burst = fixed_burst(plan, lane, tx_ns);
              FixedFrameBytes bytes;  // a whole burst's, as the TX loop computes them
              if (hw) fixed_frame_bytes<false>(burst, first, kFixedFrames, bytes);
              else fixed_frame_bytes<true>(burst, first, kFixedFrames, bytes);
              for (uint32_t k = 0; k < kFixedFrames; ++k) {
                const uint32_t seq = first + k;
                if (hw) store_fixed_frame<false>(fixed.data(), burst, bytes, k);
                else store_fixed_frame<true>(fixed.data(), burst, bytes, k);
                std::vector<uint8_t> whole(plan.template_bytes.begin(), plan.template_bytes.end());
                const wire::Signature sig{513, lane, seq, tx_ns};
                if (hw) write_frame<true, false>(whole.data(), plan, size, none, sig, cursor_at(plan, seq));
                else write_frame<false, false>(whole.data(), plan, size, none, sig, cursor_at(plan, seq));
                ASSERT_EQ(hex(fixed.data(), size.data_len), hex(whole.data(), size.data_len))
                    << frame_size << " B " << (v6 ? "IPv6" : "IPv4") << " variant " << variant << " seq " << seq
                    << " lane " << int{lane} << " tx_ns " << tx_ns;
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(odd_seen, 0) << "no signature at an odd offset was tried";
}

// A stream of one size whose fields vary, written as the TX loop writes it into mbufs its
// pool filled whole: the varied fields over the frame an mbuf held before, then the burst's
// signatures and UDP checksums with the fields' share. Byte for byte the whole writer's.
TEST(PacketWriter, VariedOneSizeFramesEqualWholeFrames) {
  using api::VaryField;
  using api::VaryOp;
  struct Case {
    const char* name;
    std::vector<api::VarySpec> vary;
    bool v6 = false, tcp = false;
  };
  const std::vector<Case> cases = {
      {"udp.src up", {{VaryField::kUdpSrc, VaryOp::kIncrement, 1000, 1, {}}}},
      {"ipv4.src and udp.src",
       {{VaryField::kIpSrc, VaryOp::kIncrement, 300, 7, {}}, {VaryField::kUdpSrc, VaryOp::kIncrement, 1000, 1, {}}}},
      // The whole address space: from frame 0xFFFFFFE0 on, the burst wraps the count where
      // the field's index plus the burst passes 2^32.
      {"ipv4.dst over 2^32 - 1 addresses", {{VaryField::kIpDst, VaryOp::kIncrement, 0xFFFFFFFFu, 1, {}}}},
      {"ipv4.dst down, udp.dst random",
       {{VaryField::kIpDst, VaryOp::kDecrement, 50, 1, {}}, {VaryField::kUdpDst, VaryOp::kRandom, 4000, 1, {}}}},
      {"vlan, eth.src, eth.dst listed",
       {{VaryField::kVlanId, VaryOp::kIncrement, 4000, 1, {}},
        {VaryField::kEthSrc, VaryOp::kIncrement, 5, 1, {}},
        {VaryField::kEthDst, VaryOp::kList, 3, 1, {0x020000000001, 0x02000000ffff, 0x0a}}}},
      {"ipv6 src and dst",
       {{VaryField::kIpSrc, VaryOp::kIncrement, 70000, 3, {}}, {VaryField::kIpDst, VaryOp::kRandom, 9, 1, {}}},
       true},
      {"tcp ports",
       {{VaryField::kUdpSrc, VaryOp::kIncrement, 9, 1, {}}, {VaryField::kUdpDst, VaryOp::kDecrement, 9, 2, {}}},
       false,
       true},
  };
  for (const Case& c : cases) {
    for (const uint16_t frame_size : {64, 65, 101, 1518}) {
      api::StreamSpec s;
      if (!c.v6) s.vlan = api::VlanSpec{100, 3};
      if (c.v6) s.ip_version = api::IpVersion::kV6;
      if (c.tcp) s.tcp = api::TcpSpec{};
      s.vary = c.vary;
      s.frame.sizes = {std::max(frame_size, profile::min_frame_bytes(s))};
      const wire::TxStreamPlan plan = plan::build_stream_plan(s, 513);
      ASSERT_TRUE(one_size_varied(plan)) << c.name;
      ASSERT_FALSE(headers_fixed(plan)) << c.name;
      const wire::SizeEntry& size = plan.sizes[0];
      // The burst's mbufs, each filled whole once (sequence 0), as the pool's filling does.
      std::vector<std::vector<uint8_t>> mbufs(
          kFixedFrames, std::vector<uint8_t>(plan.template_bytes.begin(), plan.template_bytes.end()));
      for (std::vector<uint8_t>& m : mbufs) {
        m.resize(m.size() + kTxTailroom);
        uint16_t none = 0;
        write_frame<false, false>(m.data(), plan, size, none, wire::Signature{513, 0, 0, 0}, FrameCursor{});
      }
      for (const uint32_t first : {0u, 999u, 0xFFFFF0u, 0xFFFFFFE0u}) {
        for (const uint8_t lane : {uint8_t{0}, uint8_t{7}}) {
          const uint32_t tx_ns = 0x12345678u + first;
          FrameCursor cursor = cursor_at(plan, first);
          uint8_t* frames[kFixedFrames];
          for (uint32_t k = 0; k < kFixedFrames; ++k) frames[k] = mbufs[k].data();
          uint32_t varied[kFixedFrames];
          write_varied_fields(frames, kFixedFrames, plan, cursor, lane, varied);
          ASSERT_EQ(cursor.seq, cursor_at(plan, uint64_t{first} + kFixedFrames).seq);
          for (size_t f = 0; f < plan.vary.size(); ++f)
            ASSERT_EQ(cursor.vary_k[f], cursor_at(plan, uint64_t{first} + kFixedFrames).vary_k[f])
                << c.name << " field " << f;
          const FixedBurst burst = fixed_burst(plan, lane, tx_ns);
          FixedFrameBytes bytes;
          fixed_frame_bytes<true>(burst, first, kFixedFrames, bytes, varied);
          for (uint32_t k = 0; k < kFixedFrames; ++k) {
            store_fixed_frame<true>(mbufs[k].data(), burst, bytes, k);
            const uint32_t seq = first + k;
            std::vector<uint8_t> whole(plan.template_bytes.begin(), plan.template_bytes.end());
            uint16_t none = 0;
            write_frame<false, false>(whole.data(), plan, size, none, wire::Signature{513, lane, seq, tx_ns},
                                      cursor_at(plan, seq));
            ASSERT_EQ(hex(mbufs[k].data(), size.data_len), hex(whole.data(), size.data_len))
                << c.name << ", " << frame_size << " B, seq " << seq << ", lane " << int{lane};
          }
        }
      }
    }
  }
}

// Any varying field or second size needs the whole writer.
TEST(PacketWriter, VaryingFieldsOrSizesAreNotFixedHeaders) {
  api::StreamSpec s;
  EXPECT_TRUE(headers_fixed(plan::build_stream_plan(s, 0)));
  s.vary.push_back({api::VaryField::kUdpSrc, api::VaryOp::kIncrement, 7, 1, {}});
  EXPECT_FALSE(headers_fixed(plan::build_stream_plan(s, 0)));
  s.vary.clear();
  s.frame.kind = api::FrameSizeKind::kImix;
  s.frame.sizes = {90, 333};
  s.frame.weights = {1, 1};
  EXPECT_FALSE(headers_fixed(plan::build_stream_plan(s, 0)));
}

// A few sizes with fixed headers: a pool per size (sized_frames), where the sizes keep the
// signature at one parity; not with varied fields, hardware checksums or many sizes.
TEST(PacketWriter, AFewSizesOfOneParityAreSizedFrames) {
  api::StreamSpec s;
  s.frame.kind = api::FrameSizeKind::kImix;
  s.frame.sizes = {64, 594, 1518};
  s.frame.weights = {7, 4, 1};
  EXPECT_TRUE(sized_frames(plan::build_stream_plan(s, 0)));
  s.frame.sizes = {64, 65, 1518};
  EXPECT_FALSE(sized_frames(plan::build_stream_plan(s, 0)));  // 65: the other parity
  s.frame.sizes = {64, 128, 256, 512, 1024};
  s.frame.weights = {1, 1, 1, 1, 1};
  EXPECT_FALSE(sized_frames(plan::build_stream_plan(s, 0)));  // past kMaxSizePools
  s.frame.sizes = {64, 594, 1518};
  s.frame.weights = {7, 4, 1};
  s.vary.push_back({api::VaryField::kUdpSrc, api::VaryOp::kIncrement, 7, 1, {}});
  EXPECT_FALSE(sized_frames(plan::build_stream_plan(s, 0)));
  s.vary.clear();
  wire::TxStreamPlan offloaded = plan::build_stream_plan(s, 0);
  plan::offload_checksums(offloaded);
  EXPECT_FALSE(sized_frames(offloaded));
  s.frame = {};
  EXPECT_FALSE(sized_frames(plan::build_stream_plan(s, 0)));  // one size: headers_fixed
}

// The sized path's bytes: each size's frame written whole once (its pool's filling), then
// per frame the first size's burst bytes with the frame's size's share of the UDP sum and
// its signature at its size's place, equal to the whole writer's frame byte for byte.
TEST(PacketWriter, SizedFramesEqualTheWholeWriter) {
  api::StreamSpec s;
  s.vlan = api::VlanSpec{100, 3};
  s.frame.kind = api::FrameSizeKind::kImix;
  s.frame.sizes = {64, 594, 1518};
  s.frame.weights = {7, 4, 1};
  const wire::TxStreamPlan plan = plan::build_stream_plan(s, 77);
  ASSERT_TRUE(sized_frames(plan));
  std::vector<std::vector<uint8_t>> filled;  // per size, as fill_sized_template writes it
  for (const wire::SizeEntry& size : plan.sizes) {
    std::vector<uint8_t>& m = filled.emplace_back(plan.template_bytes.begin(), plan.template_bytes.end());
    m.resize(m.size() + kTxTailroom);
    uint16_t none = 0;
    write_frame<false, true>(m.data(), plan, size, none, wire::Signature{77, 0, 0, 0}, FrameCursor{});
  }
  for (const uint32_t first : {0u, 999u, 0xFFFFFFE0u}) {
    const uint32_t tx_ns = 0x9abcdef0u ^ first;
    FixedBurst bursts[kMaxSizePools];
    uint32_t share[kMaxSizePools];
    for (size_t k = 0; k < plan.sizes.size(); ++k) {
      bursts[k] = fixed_burst(plan, plan.sizes[k], 2, tx_ns);
      share[k] = bursts[k].udp_base + (0xFFFFu - bursts[0].udp_base);
    }
    FrameCursor cursor = cursor_at(plan, first);
    uint32_t sizes[kFixedFrames];
    uint32_t varied[kFixedFrames];
    for (uint32_t i = 0; i < kFixedFrames; ++i, advance(plan, cursor)) {
      sizes[i] = size_index(plan, cursor, 2);
      varied[i] = share[sizes[i]];
    }
    FixedFrameBytes bytes;
    fixed_frame_bytes<true>(bursts[0], first, kFixedFrames, bytes, varied);
    for (uint32_t i = 0; i < kFixedFrames; ++i) {
      const wire::SizeEntry& size = plan.sizes[sizes[i]];
      std::vector<uint8_t> frame = filled[sizes[i]];
      store_fixed_frame<true>(frame.data(), bursts[sizes[i]], bytes, i);
      std::vector<uint8_t> whole(plan.template_bytes.begin(), plan.template_bytes.end());
      uint16_t none = 0;
      write_frame<false, true>(whole.data(), plan, size, none, wire::Signature{77, 2, first + i, tx_ns},
                               cursor_at(plan, uint64_t{first} + i));
      ASSERT_EQ(hex(frame.data(), size.data_len), hex(whole.data(), size.data_len))
          << size.data_len << " B, seq " << first + i;
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
  api::StreamSpec s;
  s.frame.kind = api::FrameSizeKind::kRange;
  s.frame.min = 64;
  s.frame.max = 1518;
  s.frame.order = api::RangeOrder::kIncrement;
  const wire::TxStreamPlan plan = plan::build_stream_plan(s, 0);
  ASSERT_EQ(plan.sizes.size(), 1455u);
  EXPECT_EQ(plan.template_bytes.size(), 1514u);
  EXPECT_EQ(plan.sizes[size_index(plan, cursor_at(plan, 0), 0)].data_len, 60);
  EXPECT_EQ(plan.sizes[size_index(plan, cursor_at(plan, 1454), 0)].data_len, 1514);
  EXPECT_EQ(plan.sizes[size_index(plan, cursor_at(plan, 1455), 0)].data_len, 60);
}

// The TX loop steps a cursor frame by frame instead of dividing: after any number of
// steps it is exactly the cursor computed from the sequence, for IMIX schedules and
// every field's count (one, odd, a power of two, the largest), also from a start far
// into the sequence.
TEST(FrameCursor, SteppingEqualsComputingFromTheSequence) {
  api::StreamSpec s;
  s.frame.kind = api::FrameSizeKind::kImix;
  s.frame.sizes = {64, 594, 1518};
  s.frame.weights = {7, 4, 1};
  s.vlan = api::VlanSpec{100, 3};
  s.vary.push_back({api::VaryField::kUdpSrc, api::VaryOp::kIncrement, 1, 1, {}});
  s.vary.push_back({api::VaryField::kUdpDst, api::VaryOp::kDecrement, 7, 3, {}});
  s.vary.push_back({api::VaryField::kVlanId, api::VaryOp::kIncrement, 4096, 1, {}});
  s.vary.push_back({api::VaryField::kIpSrc, api::VaryOp::kIncrement, 4294967295u, 1, {}});
  s.vary.push_back({api::VaryField::kIpDst, api::VaryOp::kRandom, 1000, 2, {}});
  const wire::TxStreamPlan plan = plan::build_stream_plan(s, 0);
  for (const uint64_t start : {uint64_t{0}, uint64_t{4294967290}, uint64_t{1} << 40}) {
    FrameCursor stepped = cursor_at(plan, start);
    for (uint64_t seq = start; seq < start + 20000; ++seq) {
      const FrameCursor computed = cursor_at(plan, seq);
      ASSERT_EQ(stepped.seq, seq);
      ASSERT_EQ(stepped.size_pos, computed.size_pos) << "seq " << seq;
      for (uint32_t i = 0; i < plan.vary.size(); ++i) {
        ASSERT_EQ(stepped.vary_k[i], computed.vary_k[i]) << "seq " << seq << " field " << i;
        ASSERT_EQ(vary_value(plan, plan.vary[i], stepped, 0, i), vary_value(plan, plan.vary[i], computed, 0, i));
      }
      advance(plan, stepped);
    }
  }
  // The values the profile asks for: increment and decrement by step, modulo count.
  const FrameCursor at = cursor_at(plan, 100);
  EXPECT_EQ(vary_value(plan, plan.vary[0], at, 0, 0), s.udp.src);
  EXPECT_EQ(static_cast<uint16_t>(vary_value(plan, plan.vary[1], at, 0, 1)), static_cast<uint16_t>(s.udp.dst - (100 % 7) * 3));
  EXPECT_EQ(vary_value(plan, plan.vary[2], at, 0, 2), 100u + 100u);
}

// Hashed indexes (random sizes and fields) stay in [0, count) and use all of it.
TEST(FrameCursor, HashedIndexesCoverTheirRange) {
  std::vector<int> hits(1000);
  for (uint64_t seq = 0; seq < 100000; ++seq) {
    const uint32_t k = hash_to_index(mix64(seq), 1000);
    ASSERT_LT(k, 1000u);
    ++hits[k];
  }
  for (int h : hits) EXPECT_GT(h, 50);  // 100 expected each
  EXPECT_EQ(hash_to_index(~uint64_t{0}, 4294967295u), 4294967294u);
}

}  // namespace
}  // namespace lr::fast
