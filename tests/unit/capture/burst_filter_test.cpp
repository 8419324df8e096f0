// The burst filter against libpcap's own interpreter (pcap_offline_filter): over many
// filters and frames of many kinds, mutated and cut short at random, in bursts of mixed
// frames (so that frames part at the program's jumps) and in mbufs of one to three
// segments, each frame's verdict is libpcap's. Programs libpcap would not write are refused.
#include "dataplane/fastpath/burst_filter.hpp"

#include <gtest/gtest.h>
#include <pcap/pcap.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "dataplane/capture/packet_filter.hpp"

namespace lr::fast {
namespace {

class Compiled {
 public:
  explicit Compiled(const std::string& expression) {
    pcap_t* dead = pcap_open_dead(DLT_EN10MB, 1518);
    EXPECT_EQ(pcap_compile(dead, &program_, expression.c_str(), 1, PCAP_NETMASK_UNKNOWN), 0)
        << expression << ": " << pcap_geterr(dead);
    pcap_close(dead);
    for (u_int i = 0; i < program_.bf_len; ++i) {
      const bpf_insn& in = program_.bf_insns[i];
      insns_.push_back(BpfInsn{in.code, in.jt, in.jf, in.k});
    }
  }
  ~Compiled() { pcap_freecode(&program_); }
  Compiled(const Compiled&) = delete;
  Compiled& operator=(const Compiled&) = delete;

  bool libpcap_keeps(const std::vector<uint8_t>& frame) const {
    pcap_pkthdr header{};
    header.caplen = header.len = static_cast<bpf_u_int32>(frame.size());
    return pcap_offline_filter(&program_, &header, frame.data()) != 0;
  }
  const std::vector<BpfInsn>& insns() const { return insns_; }

 private:
  bpf_program program_{};
  std::vector<BpfInsn> insns_;
};

void put16(uint8_t* p, unsigned v) {
  p[0] = static_cast<uint8_t>(v >> 8);
  p[1] = static_cast<uint8_t>(v);
}

// An Ethernet frame of `size` bytes: IPv4 (`proto`, IHL of `ihl` words) or IPv6, with a
// VLAN tag or not; ports and flags where the transport has them.
std::vector<uint8_t> frame(bool ipv6, bool vlan, uint8_t proto, size_t size, unsigned ihl = 5) {
  std::vector<uint8_t> f(size, 0);
  uint8_t* p = f.data();
  std::memcpy(p, "\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01", 12);
  size_t l3 = 14;
  if (vlan) {
    put16(p + 12, 0x8100);
    put16(p + 14, 100);
    l3 = 18;
  }
  put16(p + l3 - 2, ipv6 ? 0x86dd : 0x0800);
  size_t l4 = 0;
  if (ipv6) {
    p[l3] = 0x60;
    put16(p + l3 + 4, static_cast<unsigned>(size - l3 - 40));
    p[l3 + 6] = proto;
    p[l3 + 7] = 64;
    p[l3 + 8 + 15] = 1;
    p[l3 + 24 + 15] = 2;
    l4 = l3 + 40;
  } else {
    p[l3] = static_cast<uint8_t>(0x40 | ihl);
    put16(p + l3 + 2, static_cast<unsigned>(size - l3));
    p[l3 + 8] = 64;
    p[l3 + 9] = proto;
    std::memcpy(p + l3 + 12, "\xc6\x12\x00\x01\xc6\x13\x00\x01", 8);
    l4 = l3 + 4 * ihl;
  }
  put16(p + l4, 1024);
  put16(p + l4 + 2, 9);
  if (proto == 6) p[l4 + 13] = 0x02;  // SYN
  return f;
}

std::vector<std::vector<uint8_t>> frames_of_many_kinds(std::mt19937& random) {
  std::vector<std::vector<uint8_t>> kinds;
  for (const bool vlan : {false, true}) {
    for (const uint8_t proto : {uint8_t{17}, uint8_t{6}, uint8_t{1}}) {
      kinds.push_back(frame(false, vlan, proto, 64));
      kinds.push_back(frame(false, vlan, proto, 600, 6));  // an IPv4 option: the ports elsewhere
      kinds.push_back(frame(true, vlan, proto, 90));
    }
  }
  std::vector<uint8_t> arp(60, 0);
  put16(arp.data() + 12, 0x0806);
  kinds.push_back(arp);
  std::vector<uint8_t> fragment = frame(false, false, 17, 200);
  fragment[20] = 0x20;  // more fragments
  kinds.push_back(fragment);
  std::vector<std::vector<uint8_t>> frames;
  std::uniform_int_distribution<size_t> byte(0, 255);
  for (int copy = 0; copy < 40; ++copy) {
    for (const std::vector<uint8_t>& kind : kinds) {
      std::vector<uint8_t> f = kind;
      // Mutations: a byte or two of the first 64 changed, or the frame cut short.
      const int what = static_cast<int>(random() % 4);
      if (what == 1) f[random() % std::min<size_t>(64, f.size())] = static_cast<uint8_t>(byte(random));
      if (what == 2) {
        f[12 + random() % 30] = static_cast<uint8_t>(byte(random));
        f[random() % f.size()] = static_cast<uint8_t>(byte(random));
      }
      if (what == 3) f.resize(1 + random() % f.size());
      frames.push_back(std::move(f));
    }
  }
  return frames;
}

// Frames in hand-made mbufs (no EAL): one segment, or cut into up to three.
class Mbufs {
 public:
  rte_mbuf* make(const std::vector<uint8_t>& bytes, unsigned n_segs, std::mt19937& random) {
    std::vector<size_t> cuts{0};
    for (unsigned s = 1; s < n_segs && bytes.size() > 1; ++s) cuts.push_back(1 + random() % (bytes.size() - 1));
    cuts.push_back(bytes.size());
    std::sort(cuts.begin(), cuts.end());
    rte_mbuf* first = nullptr;
    rte_mbuf* last = nullptr;
    for (size_t s = 0; s + 1 < cuts.size(); ++s) {
      auto slot = std::make_unique<Slot>();
      std::memset(slot->mbuf_bytes, 0, sizeof slot->mbuf_bytes);
      auto* m = reinterpret_cast<rte_mbuf*>(slot->mbuf_bytes);
      m->buf_addr = slot->data;
      m->buf_len = sizeof slot->data;
      m->data_off = RTE_PKTMBUF_HEADROOM;
      m->data_len = static_cast<uint16_t>(cuts[s + 1] - cuts[s]);
      std::memcpy(slot->data + RTE_PKTMBUF_HEADROOM, bytes.data() + cuts[s], m->data_len);
      m->nb_segs = 1;
      if (first == nullptr) {
        first = m;
      } else {
        last->next = m;
        ++first->nb_segs;
      }
      last = m;
      slots_.push_back(std::move(slot));
    }
    first->pkt_len = static_cast<uint32_t>(bytes.size());
    return first;
  }

 private:
  // An mbuf and its buffer after it, as a pool lays them out.
  struct alignas(64) Slot {
    uint8_t mbuf_bytes[sizeof(rte_mbuf)];
    uint8_t data[RTE_PKTMBUF_HEADROOM + 2048];
  };
  std::vector<std::unique_ptr<Slot>> slots_;
};

// A program over every frame, in bursts of 1 to 32 frames in random order: the frames the
// burst filter keeps are those `libpcap_keeps`, in burst order.
template <class LibpcapKeeps>
void expect_same_verdicts(const std::string& what, const std::vector<BpfInsn>& program, LibpcapKeeps libpcap_keeps,
                          unsigned max_segs, uint32_t seed) {
  std::mt19937 random(seed);
  ASSERT_EQ(BurstFilter::check(program), "") << what;
  const BurstFilter filter(program);
  std::vector<std::vector<uint8_t>> frames = frames_of_many_kinds(random);
  std::shuffle(frames.begin(), frames.end(), random);
  Mbufs mbufs;
  size_t kept_by_libpcap = 0;
  for (size_t at = 0; at < frames.size();) {
    const size_t n = std::min<size_t>(1 + random() % BurstFilter::kMaxBurst, frames.size() - at);
    rte_mbuf* burst[BurstFilter::kMaxBurst];
    std::vector<rte_mbuf*> expected;
    for (size_t i = 0; i < n; ++i) {
      burst[i] = mbufs.make(frames[at + i], 1 + static_cast<unsigned>(random() % max_segs), random);
      if (libpcap_keeps(frames[at + i])) expected.push_back(burst[i]);
    }
    rte_mbuf* kept[BurstFilter::kMaxBurst];
    const uint16_t n_kept = filter.keep(burst, static_cast<uint16_t>(n), kept);
    ASSERT_EQ(std::vector<rte_mbuf*>(kept, kept + n_kept), expected) << what << ", burst at frame " << at;
    kept_by_libpcap += expected.size();
    at += n;
  }
  // Each program keeps some frames and not others: a test that cannot tell them apart tests nothing.
  EXPECT_GT(kept_by_libpcap, 0u) << what;
  EXPECT_LT(kept_by_libpcap, frames.size()) << what;
}

void expect_libpcaps_verdicts(const std::string& expression, unsigned max_segs, uint32_t seed) {
  const Compiled compiled(expression);
  expect_same_verdicts(
      expression, compiled.insns(), [&](const std::vector<uint8_t>& f) { return compiled.libpcap_keeps(f); }, max_segs,
      seed);
}

// A program written by hand, run by libpcap's bpf_filter itself.
void expect_libpcaps_verdicts(const std::string& what, const std::vector<BpfInsn>& program, uint32_t seed) {
  std::vector<bpf_insn> insns;
  for (const BpfInsn& in : program) insns.push_back(bpf_insn{in.code, in.jt, in.jf, in.k});
  const auto keeps = [&](const std::vector<uint8_t>& f) {
    const auto len = static_cast<u_int>(f.size());
    return bpf_filter(insns.data(), f.data(), len, len) != 0;
  };
  expect_same_verdicts(what, program, keeps, 3, seed);
}

const char* const kFilters[] = {
    "udp dst port 9",
    "tcp port 1024",
    "ip",
    "ip6 and udp",
    "vlan 100",
    "vlan and udp dst port 9",
    "arp",
    "icmp",
    "len > 100",
    "less 64",
    "greater 200",
    "ether host 02:00:00:00:00:02",
    "net 198.18.0.0/16",
    "portrange 1000-2000",
    "ip[8] < 100",
    "udp[2:2] = 9",
    "tcp[tcpflags] & tcp-syn != 0",
    "ether[39] & 1 = 1",
    "ip[6:2] & 0x1fff != 0 or ip[6] & 0x20 != 0",
    "ip[2:2] / 3 > 20",
    "ip[2:2] % 7 = 1",
    "(ip[2:2] - 20) * 2 > 100",
    "ip[2:2] / (ip[8] & 0x41) > 5",   // X is 0 where the TTL is mutated so: the frame rejected
    "ip[2:2] % (ip[8] & 0x41) = 50",
    "udp[0:2] >> 2 = 256",
    "ip[2:2] << 1 > 200",
    "ip[1] | 3 = 3",
    "ip[9] ^ 0x11 = 0",
    "len - 14 = ip[2:2]",
    "ip[2:2] & (ip[0] + 1) != 0",
    "ip[0] & 0xf > 5",
    "ether[12:4] = 0x81000064",
    "ether[12:4] > 0x1000",  // unsigned: a tag's 0x8100... is more, not less
    "ether[12:4] >= 0x08004501",
    "ether[12:4] & 0x80000000 != 0",
    "ether[13] & 0x02 != 0",
    "ip[0:4] >> (ip[0] & 0x7) > 1000",
    "not udp",
};

TEST(BurstFilter, EachFrameGetsLibpcapsVerdictInOneSegment) {
  uint32_t seed = 1;
  for (const char* expression : kFilters) expect_libpcaps_verdicts(expression, 1, seed++);
}

TEST(BurstFilter, EachFrameGetsLibpcapsVerdictOverSegments) {
  uint32_t seed = 100;
  for (const char* expression : kFilters) expect_libpcaps_verdicts(expression, 3, seed++);
}

// Instructions pcap_compile does not write for the filters above (or not in these
// forms), each in a program whose verdicts differ between frames, against libpcap's own.
TEST(BurstFilter, HandWrittenProgramsGetLibpcapsVerdicts) {
  constexpr uint32_t kKeep = 0xFFFF;
  // A = the IP header's first byte's low nibble (ldb [14]; and #0xf): 5 for untagged IPv4.
  expect_libpcaps_verdicts("ret a", {{0x30, 0, 0, 14}, {0x54, 0, 0, 0x0f}, {0x16, 0, 0, 0}}, 1);
  // 1 << byte 14 (0x45 = 69 for IPv4: a shift past 31 gives 0), 0x80000000 >> it.
  expect_libpcaps_verdicts("lsh x",
                           {{0x30, 0, 0, 14}, {0x07, 0, 0, 0}, {0x00, 0, 0, 1}, {0x6c, 0, 0, 0}, {0x16, 0, 0, 0}}, 2);
  expect_libpcaps_verdicts(
      "rsh x", {{0x30, 0, 0, 14}, {0x07, 0, 0, 0}, {0x00, 0, 0, 0x80000000}, {0x7c, 0, 0, 0}, {0x16, 0, 0, 0}}, 3);
  // -TTL = -64 for untagged IPv4.
  expect_libpcaps_verdicts(
      "neg", {{0x30, 0, 0, 22}, {0x84, 0, 0, 0}, {0x15, 0, 1, 0xFFFFFFC0}, {0x06, 0, 0, kKeep}, {0x06, 0, 0, 0}}, 4);
  // A tagged frame jumps over the drop.
  expect_libpcaps_verdicts(
      "ja", {{0x30, 0, 0, 12}, {0x15, 0, 1, 0x81}, {0x05, 0, 0, 1}, {0x06, 0, 0, 0}, {0x06, 0, 0, kKeep}}, 5);
  // X = the packet's length, into A, over 100.
  expect_libpcaps_verdicts(
      "ldx len", {{0x81, 0, 0, 0}, {0x87, 0, 0, 0}, {0x25, 0, 1, 100}, {0x06, 0, 0, kKeep}, {0x06, 0, 0, 0}}, 6);
}

TEST(BurstFilter, AScratchWordReadBeforeAnyStoreIsZero) {
  // One program leaves 0xdead in M[3] of its frames; the next reads M[3] first. Both run
  // in the same stack frame here, so an M[] left as the first one wrote it would show.
  const std::vector<BpfInsn> writes{{0x00, 0, 0, 0xdead}, {0x02, 0, 0, 3}, {0x06, 0, 0, 0}};
  const std::vector<BpfInsn> reads{{0x60, 0, 0, 3}, {0x15, 0, 1, 0}, {0x06, 0, 0, 0xFFFF}, {0x06, 0, 0, 0}};
  const BurstFilter writer(writes);
  const BurstFilter reader(reads);
  std::mt19937 random(9);
  Mbufs mbufs;
  rte_mbuf* burst[32];
  for (auto*& m : burst) m = mbufs.make(frame(false, false, 17, 64), 1, random);
  rte_mbuf* kept[32];
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(writer.keep(burst, 32, kept), 0);
    EXPECT_EQ(reader.keep(burst, 32, kept), 32);
  }
}

TEST(BurstFilter, ABurstOfOneKindTakesOnePathAndFramesThatDifferPart) {
  const Compiled compiled("udp dst port 9");
  const BurstFilter filter(compiled.insns());
  std::mt19937 random(5);
  Mbufs mbufs;
  rte_mbuf* burst[32];
  for (int i = 0; i < 32; ++i) burst[i] = mbufs.make(frame(false, i % 5 == 0, 17, 64), 1, random);
  rte_mbuf* kept[32];
  // Untagged frames to port 9 kept; the tagged ones (every fifth) are not "udp" to libpcap.
  ASSERT_EQ(filter.keep(burst, 32, kept), 25);
  EXPECT_EQ(kept[0], burst[1]);
  EXPECT_EQ(kept[24], burst[31]);
  EXPECT_EQ(filter.keep(burst, 0, kept), 0);
  EXPECT_EQ(filter.keep(burst + 5, 1, kept), 0);  // one tagged frame alone
  EXPECT_EQ(filter.keep(burst + 6, 1, kept), 1);
}

TEST(BurstFilter, ProgramsLibpcapWouldNotWriteAreRefused) {
  const BpfInsn ret_keep{0x06, 0, 0, 0xffff};
  EXPECT_EQ(BurstFilter::check({}), "the program is empty");
  EXPECT_EQ(BurstFilter::check(std::vector<BpfInsn>{{0x28, 0, 0, 12}}), "the program does not end with a return");
  EXPECT_EQ(BurstFilter::check(std::vector<BpfInsn>{{0xff, 0, 0, 0}, ret_keep}), "instruction 0: unknown code 255");
  EXPECT_EQ(BurstFilter::check(std::vector<BpfInsn>{{0x15, 1, 0, 0x800}, ret_keep}),  // jeq past the end
            "instruction 0: a jump past the program's end");
  EXPECT_EQ(BurstFilter::check(std::vector<BpfInsn>{{0x05, 0, 0, 1}, ret_keep}),  // ja past the end
            "instruction 0: a jump past the program's end");
  EXPECT_EQ(BurstFilter::check(std::vector<BpfInsn>{{0x02, 0, 0, 16}, ret_keep}),
            "instruction 0: scratch word 16 of 16");
  EXPECT_EQ(BurstFilter::check(std::vector<BpfInsn>{{0x34, 0, 0, 0}, ret_keep}),  // A /= 0
            "instruction 0: a division by the constant 0");
  EXPECT_EQ(BurstFilter::check(std::vector<BpfInsn>(4097, ret_keep)), "4097 instructions, past classic BPF's 4,096");
  EXPECT_EQ(BurstFilter::check(std::vector<BpfInsn>{{0x05, 0, 0, 0xFFFFFFFF}, ret_keep}),  // protochain's loop
            "instruction 0: a jump backwards, which the filter does not run (libpcap writes them for 'protochain')");
  EXPECT_EQ(BurstFilter::check(std::vector<BpfInsn>{{0x64, 0, 0, 32}, ret_keep}), "instruction 0: a shift by 32 bits");
  for (const uint16_t code : {0x8c, 0x0e, 0x08, 0xb4, 0x104})  // neg x, ret x, ld h imm, past xor, past a byte
    EXPECT_EQ(BurstFilter::check(std::vector<BpfInsn>{{code, 0, 0, 0}, ret_keep}),
              "instruction 0: unknown code " + std::to_string(code));
  // What libpcap may write at the edges: the last scratch word, 4,096 instructions, a shift by 31.
  EXPECT_EQ(BurstFilter::check(std::vector<BpfInsn>{{0x02, 0, 0, 15}, {0x64, 0, 0, 31}, ret_keep}), "");
  EXPECT_EQ(BurstFilter::check(std::vector<BpfInsn>(4096, ret_keep)), "");
  EXPECT_EQ(BurstFilter::check(std::vector<BpfInsn>{{0x15, 0, 0, 0x800}, ret_keep}), "");
}

TEST(PacketFilter, ExpressionsLibpcapRefusesSayWhy) {
  const auto bad = capture::PacketFilter::compile("udp dst port seven", 1518);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, Errc::kInvalid);
  EXPECT_EQ(bad.error().context.rfind("filter 'udp dst port seven': ", 0), 0u) << bad.error().context;
  const auto none = capture::PacketFilter::compile("", 1518);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->burst_filter(), nullptr);
  const auto some = capture::PacketFilter::compile("udp", 1518);
  ASSERT_TRUE(some);
  EXPECT_NE(some->burst_filter(), nullptr);
}

}  // namespace
}  // namespace lr::fast
