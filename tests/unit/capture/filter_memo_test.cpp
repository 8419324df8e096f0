// FilterMemo against libpcap's own interpreter (pcap_offline_filter): the path the tracer
// writes down gives the filter's verdict, and every frame that passes a path's checks gets
// that path's verdict from libpcap too, over frames of many kinds mutated at random.
#include "dataplane/fastpath/filter_memo.hpp"

#include <gtest/gtest.h>
#include <pcap/pcap.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace lr::fast {
namespace {

class Filter {
 public:
  explicit Filter(const std::string& expression) {
    pcap_t* dead = pcap_open_dead(DLT_EN10MB, 1518);
    EXPECT_EQ(pcap_compile(dead, &program_, expression.c_str(), 1, PCAP_NETMASK_UNKNOWN), 0) << expression;
    pcap_close(dead);
    for (u_int i = 0; i < program_.bf_len; ++i) {
      const bpf_insn& in = program_.bf_insns[i];
      insns_.push_back(BpfInsn{in.code, in.jt, in.jf, in.k});
    }
  }
  ~Filter() { pcap_freecode(&program_); }
  Filter(const Filter&) = delete;
  Filter& operator=(const Filter&) = delete;

  bool keeps(const std::vector<uint8_t>& frame) const {
    pcap_pkthdr header{};
    header.caplen = header.len = static_cast<bpf_u_int32>(frame.size());
    return pcap_offline_filter(&program_, &header, frame.data()) != 0;
  }
  std::span<const BpfInsn> insns() const { return insns_; }

 private:
  bpf_program program_{};
  std::vector<BpfInsn> insns_;
};

std::vector<uint8_t> udp4(uint16_t src_port, uint16_t dst_port, size_t size = 64, bool vlan = false) {
  std::vector<uint8_t> f(size, 0);
  uint8_t* p = f.data();
  std::memcpy(p, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01", 12);
  size_t l3 = 14;
  if (vlan) {
    p[12] = 0x81, p[13] = 0x00, p[14] = 0x00, p[15] = 100;
    l3 = 18;
  }
  p[l3 - 2] = 0x08, p[l3 - 1] = 0x00;
  p[l3] = 0x45;
  p[l3 + 2] = static_cast<uint8_t>((size - l3) >> 8), p[l3 + 3] = static_cast<uint8_t>(size - l3);
  p[l3 + 8] = 64, p[l3 + 9] = 17;
  std::memcpy(p + l3 + 12, "\xc6\x12\x00\x01\xc6\x13\x00\x01", 8);
  p[l3 + 20] = static_cast<uint8_t>(src_port >> 8), p[l3 + 21] = static_cast<uint8_t>(src_port);
  p[l3 + 22] = static_cast<uint8_t>(dst_port >> 8), p[l3 + 23] = static_cast<uint8_t>(dst_port);
  return f;
}

std::vector<uint8_t> udp6(uint16_t dst_port, size_t size = 78) {
  std::vector<uint8_t> f(size, 0);
  uint8_t* p = f.data();
  p[12] = 0x86, p[13] = 0xdd, p[14] = 0x60, p[20] = 17, p[21] = 64;
  p[22 + 15] = 1, p[38 + 15] = 2;
  p[54 + 2] = static_cast<uint8_t>(dst_port >> 8), p[54 + 3] = static_cast<uint8_t>(dst_port);
  return f;
}

bool traced_holds(const FilterPath& path, const std::vector<uint8_t>& frame) {
  return filter_path_holds(path, frame.data(), static_cast<uint32_t>(frame.size()),
                           static_cast<uint32_t>(frame.size()));
}

TEST(FilterMemo, AFilterThatMatchesNothingIsAFewMaskedWordsAndOneOpenComparison) {
  const Filter filter("udp dst port 9");
  FilterPath path;
  const std::vector<uint8_t> frame = udp4(1024, 5001);
  ASSERT_TRUE(trace_filter_path(filter.insns(), frame.data(), 64, 64, path));
  EXPECT_FALSE(path.keep);
  ASSERT_EQ(path.n_checks, 1);  // the port != 9; the EtherType's != 0x86dd is implied by its == 0x800
  EXPECT_EQ(path.checks[0].offset, 36);
  EXPECT_EQ(path.checks[0].k, 9u);
  EXPECT_FALSE(path.checks[0].want);
  EXPECT_EQ(path.n_words, 2);  // bytes 8-15 (EtherType, IHL) and 16-23 (fragment, protocol)
  EXPECT_FALSE(path.length_pinned);
  // Every other port but 9, any source port, any length: the same path, the same verdict.
  EXPECT_TRUE(traced_holds(path, udp4(7, 5002)));
  EXPECT_TRUE(traced_holds(path, udp4(7, 8, 1518)));
  EXPECT_FALSE(traced_holds(path, udp4(7, 9)));            // the port it looks for
  EXPECT_FALSE(traced_holds(path, udp4(7, 5001, 64, true)));  // VLAN-tagged: another path
  EXPECT_FALSE(traced_holds(path, udp6(5001)));
  std::vector<uint8_t> fragment = udp4(1024, 5001);
  fragment[21] = 0x10;  // a fragment offset: another path
  EXPECT_FALSE(traced_holds(path, fragment));
  std::vector<uint8_t> options = udp4(1024, 5001);
  options[14] = 0x46;  // 24 bytes of IPv4 header: the ports elsewhere
  EXPECT_FALSE(traced_holds(path, options));
  std::vector<uint8_t> short_frame = udp4(1024, 5001);
  short_frame.resize(37);  // the port's last byte missing: libpcap rejects it another way
  EXPECT_FALSE(traced_holds(path, short_frame));
}

TEST(FilterMemo, APathThatKeepsTheFrame) {
  const Filter filter("udp dst port 9 or vlan 100");
  FilterPath path;
  const std::vector<uint8_t> frame = udp4(1024, 9);
  ASSERT_TRUE(trace_filter_path(filter.insns(), frame.data(), 64, 64, path));
  EXPECT_TRUE(path.keep);
  EXPECT_TRUE(traced_holds(path, udp4(77, 9, 200)));
  EXPECT_FALSE(traced_holds(path, udp4(77, 10)));
}

TEST(FilterMemo, WhatItCannotWriteDownIsNotRemembered) {
  const Filter past_window("ether[100] = 1");
  FilterPath path;
  const std::vector<uint8_t> frame = udp4(1, 2, 128);
  EXPECT_FALSE(trace_filter_path(past_window.insns(), frame.data(), 128, 128, path));  // past 64 bytes
  const Filter port("udp dst port 9");
  const std::vector<uint8_t> short_frame(20, 0x08);
  std::vector<uint8_t> ip = udp4(1, 2);
  EXPECT_TRUE(trace_filter_path(port.insns(), ip.data(), 64, 64, path));
  EXPECT_FALSE(trace_filter_path(port.insns(), ip.data(), 30, 64, path));  // the port past the first segment
  FilterMemo memo;
  memo.learn(port.insns(), ip.data(), 30, 64, false);
  EXPECT_EQ(memo.n_paths, 0);
  memo.learn(port.insns(), ip.data(), 64, 64, true);  // told another verdict than the path's: turned off
  EXPECT_TRUE(memo.off);
  EXPECT_EQ(memo.n_paths, 0);
}

TEST(FilterMemo, ItTurnsItselfOffWhereTheFramesMissItsPaths) {
  FilterMemo memo;
  for (uint32_t i = 0; i < FilterMemo::kJudgedAfter; ++i) memo.count(i % 8 != 0);  // one in 8 missed: pays
  EXPECT_FALSE(memo.off);
  FilterMemo missing;
  for (uint32_t i = 0; i < FilterMemo::kJudgedAfter; ++i) missing.count(i % 7 != 0);  // more than one in 8
  EXPECT_TRUE(missing.off);
}

// The property: over many filters and frames mutated at random, a path gives libpcap's
// verdict for the frame it was written from and for every frame that passes its checks.
TEST(FilterMemo, EveryFrameThatPassesAPathGetsLibpcapsVerdict) {
  const std::vector<std::string> expressions = {"udp dst port 9",
                                                "udp",
                                                "tcp port 80",
                                                "ip src 198.18.0.1",
                                                "vlan 100 and udp dst port 5001",
                                                "ip6 and udp",
                                                "ip[2:2] > 100",
                                                "len > 100",
                                                "greater 200",
                                                "ether[12:2] & 0xff00 = 0x0800",
                                                "udp[0:2] & 1 = 1",
                                                "not ip",
                                                "ether src 02:00:00:00:00:01",
                                                "udp src portrange 1000-2000",
                                                "ip[1] & 0xfc != 0",
                                                "(udp dst port 9 or tcp) and ip[8] > 10",
                                                "icmp",
                                                "ip proto 17 and len < 70",
                                                "ether[14] & 0xf0 = 0x40",
                                                "udp[2:2] = 5001 and ip[6:2] & 0x1fff = 0"};
  std::mt19937 random(20261207);
  const std::vector<std::vector<uint8_t>> bases = {udp4(1024, 5001), udp4(1500, 9, 128), udp4(7, 5001, 64, true),
                                                   udp6(9),          udp6(5001, 90),     udp4(80, 80, 60)};
  size_t held = 0, traced = 0, frames = 0;
  for (const std::string& expression : expressions) {
    const Filter filter(expression);
    for (int round = 0; round < 300; ++round) {
      std::vector<uint8_t> a = bases[random() % bases.size()];
      for (int flips = static_cast<int>(random() % 4); flips > 0; --flips)
        a[random() % std::min<size_t>(a.size(), 64)] = static_cast<uint8_t>(random());
      FilterPath path;
      const auto len = static_cast<uint32_t>(a.size());
      if (!trace_filter_path(filter.insns(), a.data(), len, len, path)) continue;
      ++traced;
      ASSERT_EQ(path.keep, filter.keeps(a)) << expression;
      ASSERT_TRUE(traced_holds(path, a)) << expression;
      for (int k = 0; k < 40; ++k) {
        std::vector<uint8_t> b = a;
        if (random() % 4 == 0) b.resize(40 + random() % 200, 0);
        for (int flips = static_cast<int>(random() % 3); flips > 0; --flips) {
          const size_t at = random() % std::min<size_t>(b.size(), 64);
          b[at] =
              random() % 2 == 0 ? static_cast<uint8_t>(random()) : static_cast<uint8_t>(b[at] ^ (1u << (random() % 8)));
        }
        ++frames;
        if (!traced_holds(path, b)) continue;
        ++held;
        ASSERT_EQ(path.keep, filter.keeps(b)) << expression << ", round " << round << ", mutation " << k;
      }
    }
  }
  // The property was exercised: most traces written, many mutated frames passing them.
  EXPECT_GT(traced, expressions.size() * 200);
  EXPECT_GT(held, frames / 5);
}

}  // namespace
}  // namespace lr::fast
