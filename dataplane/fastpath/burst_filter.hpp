#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// A capture's filter (classic BPF, as libpcap's pcap_compile writes it) run over a whole
// burst at once: each instruction is decoded once and applied to every frame at it, so a
// burst whose frames take one path through the program (a capture that matches nothing
// in traffic of one kind) costs a few loads and compares per frame and no call per frame.
// Frames part where a jump's condition differs between them, and each part runs on alone.
// The programs libpcap writes jump only forward (but for `protochain`'s loop, which
// check() refuses), so every part ends at a return.
//
// The verdicts are libpcap's (bpf_filter): the packet is the mbuf's data, pkt_len bytes
// over its segments; a load past its end, or a division by a zero X, rejects the frame;
// a shift by 32 or more gives 0; the return value kept or not by whether it is non-zero
// (a capture cuts to its own snaplen).

#include <rte_mbuf.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace lr::fast {

/// One classic BPF instruction, laid out as libpcap's `struct bpf_insn`.
struct BpfInsn {
  uint16_t code = 0;
  uint8_t jt = 0;
  uint8_t jf = 0;
  uint32_t k = 0;
};

class BurstFilter {
 public:
  /// The most frames one call filters.
  static constexpr uint16_t kMaxBurst = 32;
  /// Classic BPF's scratch memory words.
  static constexpr uint32_t kMemWords = 16;

  /// Checks `program` as libpcap's bpf_validate does (known instructions, jumps inside the
  /// program, scratch words in range, no division by a constant 0, a return at the end),
  /// and refuses a jump backwards.
  /// Returns an empty string, or why it is refused, naming the instruction.
  static std::string check(std::span<const BpfInsn> program);

  /// `program` must have passed check(). Thread: any (the filter is read only).
  explicit BurstFilter(std::span<const BpfInsn> program);

  /// Writes to `kept` the frames of `pkts[0, n)` the program keeps, in their order, and
  /// returns how many. n <= kMaxBurst. Thread: worker lcore; several at once.
  uint16_t keep(rte_mbuf* const* pkts, uint16_t n, rte_mbuf** kept) const noexcept;

  std::span<const BpfInsn> program() const noexcept { return program_; }

 private:
  std::vector<BpfInsn> program_;
  bool uses_memory_ = false;
};

}  // namespace lr::fast
