#pragma once
// A capture filter's verdicts remembered by the path they took. The filter (a tcpdump
// expression, classic BPF from libpcap) is a pure function of the frame's bytes it loads and
// of its length: a frame that agrees with an earlier one on every comparison the program made
// along its path gets the same verdict. So, once a frame's verdict is known (from the filter
// itself, JIT-compiled), the program is run again here, in a tracing interpreter, which writes
// its path down as checks on the frame's first 64 bytes: the bits a comparison pinned (an
// equality, a bit test that failed, what an offset or a computed value came from), compared
// as masked 64-bit words, and the comparisons that leave a range open (`!=`, `>`, `>=`, a bit
// test that held) kept as they are. A frame that passes an entry's checks is decided without
// the filter: "udp dst port 9" on UDP traffic to another port is a masked compare of five
// words and one `!= 9`, where the JIT'd program loads each field through a bounds check.
// A path the interpreter cannot write down (a load past 64 bytes or past the frame, a
// division by zero) is not remembered: those frames go to the filter every time.
// Thread: one per capture tap, the tap's worker's alone.

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>

namespace lr::fast {

/// A classic BPF instruction, laid out as libpcap's struct bpf_insn.
struct BpfInsn {
  uint16_t code = 0;
  uint8_t jt = 0;
  uint8_t jf = 0;
  uint32_t k = 0;
};

/// One remembered path and its verdict.
struct FilterPath {
  static constexpr unsigned kWords = 8;   ///< the frame's first 64 bytes, as 8 words
  static constexpr unsigned kChecks = 8;  ///< open comparisons
  static constexpr uint16_t kLength = 0xFFFF;  ///< a check's offset: the frame's length
  enum Op : uint8_t { kEq, kGt, kGe, kSet };
  struct Check {
    uint16_t offset = 0;  ///< kLength: the frame's length
    uint8_t size = 0;     ///< 1, 2 or 4 bytes, big-endian
    Op op = kEq;
    bool want = false;    ///< the comparison's outcome on the path
    uint32_t mask = 0;    ///< applied to the loaded value first
    uint32_t k = 0;
  };
  uint8_t n_words = 0;
  uint8_t n_checks = 0;
  bool keep = false;          ///< the verdict
  bool length_pinned = false;
  uint32_t length = 0;        ///< with length_pinned: the frame's length, exactly
  uint32_t min_bytes = 0;     ///< the bytes of the first segment the checks read
  uint8_t word[kWords] = {};  ///< which word of the first 64 bytes
  uint64_t mask[kWords] = {};
  uint64_t value[kWords] = {};
  Check checks[kChecks];
};

/// Writes down the path `program` takes on the frame `bytes` (its first segment) of
/// `length` bytes in all, into `path`. False where it cannot (see above).
bool trace_filter_path(std::span<const BpfInsn> program, const uint8_t* bytes, uint32_t first_segment, uint32_t length,
                       FilterPath& path) noexcept;

/// Whether a frame passes `path`'s checks: then its verdict is path.keep.
[[gnu::always_inline]] inline bool filter_path_holds(const FilterPath& path, const uint8_t* bytes,
                                                     uint32_t first_segment, uint32_t length) noexcept {
  if (first_segment < path.min_bytes || length < path.min_bytes) return false;
  if (path.length_pinned && length != path.length) return false;
  uint64_t differ = 0;
  for (unsigned i = 0; i < path.n_words; ++i) {
    uint64_t word;
    std::memcpy(&word, bytes + 8 * path.word[i], 8);
    differ |= (word & path.mask[i]) ^ path.value[i];
  }
  if (differ != 0) return false;
  for (unsigned i = 0; i < path.n_checks; ++i) {
    const FilterPath::Check& c = path.checks[i];
    uint32_t v = length;
    if (c.offset != FilterPath::kLength) {
      const uint8_t* at = bytes + c.offset;
      v = c.size == 1   ? at[0]
          : c.size == 2 ? uint32_t{at[0]} << 8 | at[1]
                        : uint32_t{at[0]} << 24 | uint32_t{at[1]} << 16 | uint32_t{at[2]} << 8 | at[3];
    }
    v &= c.mask;
    const bool outcome = c.op == FilterPath::kEq   ? v == c.k
                         : c.op == FilterPath::kGt ? v > c.k
                         : c.op == FilterPath::kGe ? v >= c.k
                                                   : (v & c.k) != 0;
    if (outcome != c.want) return false;
  }
  return true;
}

/// A tap's remembered paths, newest replacing the oldest, and whether they pay: where more
/// than one frame in 8 of the first 4,096 misses them (the frames differ in what the filter
/// compares exactly), the tap stops looking and every frame goes to the filter.
struct FilterMemo {
  static constexpr unsigned kPaths = 4;
  static constexpr uint32_t kJudgedAfter = 4096;
  FilterPath paths[kPaths];
  uint8_t n_paths = 0;
  uint8_t next = 0;
  bool off = false;      ///< not paying, or the interpreter disagreed with the filter once
  uint32_t seen = 0;     ///< frames looked up, up to kJudgedAfter
  uint32_t missed = 0;   ///< of those, not decided by a path

  /// The verdict of a remembered path the frame passes: 1 keep, 0 not; -1 none.
  [[gnu::always_inline]] int lookup(const uint8_t* bytes, uint32_t first_segment, uint32_t length) noexcept {
    for (unsigned i = 0; i < n_paths; ++i)
      if (filter_path_holds(paths[i], bytes, first_segment, length)) return paths[i].keep ? 1 : 0;
    return -1;
  }

  /// After a miss: the filter's verdict `keep` for the frame, and its path remembered where
  /// the interpreter writes one that agrees.
  void learn(std::span<const BpfInsn> program, const uint8_t* bytes, uint32_t first_segment, uint32_t length,
             bool keep) noexcept;

  /// Counts a lookup (`hit` or not) and turns the memo off where it does not pay.
  void count(bool hit) noexcept {
    if (seen >= kJudgedAfter) return;
    missed += hit ? 0 : 1;
    if (++seen == kJudgedAfter && missed * 8 > kJudgedAfter) off = true;
  }
};

}  // namespace lr::fast
