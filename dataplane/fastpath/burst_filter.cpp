#include "dataplane/fastpath/burst_filter.hpp"

#include <bit>
#include <climits>
#include <cstring>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace lr::fast {

namespace {

// Classic BPF's encoding (pcap/bpf.h): class, size, mode, operation, source.
enum : uint16_t {
  kLd = 0x00,
  kLdx = 0x01,
  kSt = 0x02,
  kStx = 0x03,
  kAlu = 0x04,
  kJmp = 0x05,
  kRet = 0x06,
  kMisc = 0x07,
  kW = 0x00,
  kH = 0x08,
  kB = 0x10,
  kImm = 0x00,
  kAbs = 0x20,
  kInd = 0x40,
  kMem = 0x60,
  kLen = 0x80,
  kMsh = 0xa0,
  kAdd = 0x00,
  kSub = 0x10,
  kMul = 0x20,
  kDiv = 0x30,
  kOr = 0x40,
  kAnd = 0x50,
  kLsh = 0x60,
  kRsh = 0x70,
  kNeg = 0x80,
  kMod = 0x90,
  kXor = 0xa0,
  kJa = 0x00,
  kJeq = 0x10,
  kJgt = 0x20,
  kJge = 0x30,
  kJset = 0x40,
  kK = 0x00,
  kX = 0x08,
  kRetA = 0x10,
  kTax = 0x00,
  kTxa = 0x80,
};

constexpr uint16_t class_of(uint16_t code) { return code & 0x07; }

// Whether the instruction reads or writes a scratch word (its k).
constexpr bool touches_scratch(uint16_t code) {
  return code == (kLd | kMem) || code == (kLdx | kMem) || class_of(code) == kSt || class_of(code) == kStx;
}

bool known_alu(uint16_t code) {
  const uint16_t op = code & 0xf0;
  if ((code & ~uint16_t{0xf8}) != kAlu) return false;
  if (op == kNeg) return (code & kX) == 0;
  return op <= kXor;
}

bool known(uint16_t code) {
  switch (code) {
    case kLd | kW | kAbs:
    case kLd | kH | kAbs:
    case kLd | kB | kAbs:
    case kLd | kW | kInd:
    case kLd | kH | kInd:
    case kLd | kB | kInd:
    case kLd | kW | kLen:
    case kLdx | kW | kLen:
    case kLd | kImm:
    case kLdx | kImm:
    case kLd | kMem:
    case kLdx | kMem:
    case kLdx | kB | kMsh:
    case kSt:
    case kStx:
    case kJmp | kJa:
    case kJmp | kJeq | kK:
    case kJmp | kJgt | kK:
    case kJmp | kJge | kK:
    case kJmp | kJset | kK:
    case kJmp | kJeq | kX:
    case kJmp | kJgt | kX:
    case kJmp | kJge | kX:
    case kJmp | kJset | kX:
    case kRet | kK:
    case kRet | kRetA:
    case kMisc | kTax:
    case kMisc | kTxa: return true;
    default: return known_alu(code);
  }
}

constexpr unsigned kBurst = BurstFilter::kMaxBurst;

// The burst's registers, indexed by each frame's place in the burst.
struct Frames {
  rte_mbuf* const* mbufs;
  uint32_t ax[2][kBurst];  // A, then X: one array, zeroed in one go
  uint32_t mem[BurstFilter::kMemWords][kBurst];
};

// Frames at one instruction: a bit per place in the burst. `whole`: every frame of the
// burst, walked without a bit scan (the common case, and the one worth a fast loop).
struct Part {
  uint16_t pc;
  uint32_t mask;
};

template <class Step>
void each(uint32_t mask, uint32_t whole, Step step) {
  if (mask == whole) {
    const unsigned n = static_cast<unsigned>(std::bit_width(whole));
    for (unsigned i = 0; i < n; ++i) step(i);
  } else {
    for (uint32_t m = mask; m != 0; m &= m - 1) step(static_cast<unsigned>(std::countr_zero(m)));
  }
}

template <unsigned kSize>
uint32_t big_endian(const uint8_t* p) {
  if constexpr (kSize == 4) return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | p[3];
  if constexpr (kSize == 2) return uint32_t{p[0]} << 8 | p[1];
  return p[0];
}

// The packet's kSize bytes at `offset` (uint64_t: X + k may pass 2^32), or false past its end.
// The fast path checks the first segment's data_len alone: a PMD never makes it longer than
// the packet (pkt_len), and a byte read within it is within the mbuf's buffer either way.
template <unsigned kSize>
bool load(const rte_mbuf* m, uint64_t offset, uint32_t& value) {
  if (offset + kSize <= m->data_len) [[likely]] {
    value = big_endian<kSize>(rte_pktmbuf_mtod(m, const uint8_t*) + offset);
    return true;
  }
  if (offset + kSize > m->pkt_len) return false;
  uint8_t bytes[kSize];
  const auto* p = static_cast<const uint8_t*>(rte_pktmbuf_read(m, static_cast<uint32_t>(offset), kSize, bytes));
  if (p == nullptr) return false;
  value = big_endian<kSize>(p);
  return true;
}

// Applies `step` to each frame of `part`, dropping those it rejects (false).
template <class Step>
void each_or_reject(Part& part, uint32_t whole, Step step) {
  uint32_t rejected = 0;
  each(part.mask, whole, [&](unsigned i) { rejected |= (step(i) ? 0u : 1u) << i; });
  part.mask &= ~rejected;
}

// A jump to `pc_true` for the frames in `held`, to `pc_false` for the others of `part`.
// When they part, those going to `pc_true` wait in `pending`.
void branch(Part& part, uint32_t held, uint16_t pc_true, uint16_t pc_false, Part* pending, unsigned& n_pending) {
  if (held == 0) {
    part.pc = pc_false;
  } else if (held == part.mask) {
    part.pc = pc_true;
  } else {
    pending[n_pending++] = Part{pc_true, held};
    part.mask &= ~held;
    part.pc = pc_false;
  }
}

uint32_t shifted_left(uint32_t a, uint32_t by) { return by < 32 ? a << by : 0; }
uint32_t shifted_right(uint32_t a, uint32_t by) { return by < 32 ? a >> by : 0; }

// One ALU instruction over `part` (a division by a zero X rejects the frame).
void alu(uint16_t code, uint32_t k, Frames& f, Part& part, uint32_t whole) {
  uint32_t* const a = f.ax[0];
  const uint32_t* const x = f.ax[1];
  const uint32_t mask = part.mask;
  switch (code & 0xf8) {
    case kAdd | kK: each(mask, whole, [&](unsigned i) { a[i] += k; }); break;
    case kSub | kK: each(mask, whole, [&](unsigned i) { a[i] -= k; }); break;
    case kMul | kK: each(mask, whole, [&](unsigned i) { a[i] *= k; }); break;
    case kDiv | kK: each(mask, whole, [&](unsigned i) { a[i] /= k; }); break;  // check(): k != 0
    case kMod | kK: each(mask, whole, [&](unsigned i) { a[i] %= k; }); break;
    case kOr | kK: each(mask, whole, [&](unsigned i) { a[i] |= k; }); break;
    case kAnd | kK: each(mask, whole, [&](unsigned i) { a[i] &= k; }); break;
    case kXor | kK: each(mask, whole, [&](unsigned i) { a[i] ^= k; }); break;
    case kLsh | kK: each(mask, whole, [&](unsigned i) { a[i] = shifted_left(a[i], k); }); break;
    case kRsh | kK: each(mask, whole, [&](unsigned i) { a[i] = shifted_right(a[i], k); }); break;
    case kNeg: each(mask, whole, [&](unsigned i) { a[i] = 0u - a[i]; }); break;
    case kAdd | kX: each(mask, whole, [&](unsigned i) { a[i] += x[i]; }); break;
    case kSub | kX: each(mask, whole, [&](unsigned i) { a[i] -= x[i]; }); break;
    case kMul | kX: each(mask, whole, [&](unsigned i) { a[i] *= x[i]; }); break;
    case kOr | kX: each(mask, whole, [&](unsigned i) { a[i] |= x[i]; }); break;
    case kAnd | kX: each(mask, whole, [&](unsigned i) { a[i] &= x[i]; }); break;
    case kXor | kX: each(mask, whole, [&](unsigned i) { a[i] ^= x[i]; }); break;
    case kLsh | kX: each(mask, whole, [&](unsigned i) { a[i] = shifted_left(a[i], x[i]); }); break;
    case kRsh | kX: each(mask, whole, [&](unsigned i) { a[i] = shifted_right(a[i], x[i]); }); break;
    case kDiv | kX: each_or_reject(part, whole, [&](unsigned i) { return x[i] != 0 && (a[i] /= x[i], true); }); break;
    case kMod | kX: each_or_reject(part, whole, [&](unsigned i) { return x[i] != 0 && (a[i] %= x[i], true); }); break;
    default: break;  // check() let no other through
  }
}

// A load of the packet into A.
// (The pointers copied first: the stores to A would otherwise have them read again.)
template <unsigned kSize>
void load_a(uint16_t mode, uint32_t k, Frames& f, Part& part, uint32_t whole) {
  rte_mbuf* const* const mbufs = f.mbufs;
  uint32_t* const a = f.ax[0];
  const uint32_t* const x = f.ax[1];
  if (mode == kAbs) each_or_reject(part, whole, [=](unsigned i) { return load<kSize>(mbufs[i], k, a[i]); });
  else each_or_reject(part, whole, [=](unsigned i) { return load<kSize>(mbufs[i], uint64_t{x[i]} + k, a[i]); });
}

#if defined(__SSE2__)
// Unsigned compares from SSE2's signed ones: both sides' top bits flipped.
inline __m128i flip(__m128i v) { return _mm_xor_si128(v, _mm_set1_epi32(INT32_MIN)); }
inline __m128i negated(__m128i v) { return _mm_xor_si128(v, _mm_set1_epi32(-1)); }
#endif

struct Equal {
  static bool scalar(uint32_t a, uint32_t b) { return a == b; }
#if defined(__SSE2__)
  static __m128i four(__m128i a, __m128i b) { return _mm_cmpeq_epi32(a, b); }
#endif
};
struct Greater {
  static bool scalar(uint32_t a, uint32_t b) { return a > b; }
#if defined(__SSE2__)
  static __m128i four(__m128i a, __m128i b) { return _mm_cmpgt_epi32(flip(a), flip(b)); }
#endif
};
struct GreaterOrEqual {
  static bool scalar(uint32_t a, uint32_t b) { return a >= b; }
#if defined(__SSE2__)
  static __m128i four(__m128i a, __m128i b) { return negated(_mm_cmpgt_epi32(flip(b), flip(a))); }
#endif
};
struct AnyBitSet {
  static bool scalar(uint32_t a, uint32_t b) { return (a & b) != 0; }
#if defined(__SSE2__)
  static __m128i four(__m128i a, __m128i b) {
    return negated(_mm_cmpeq_epi32(_mm_and_si128(a, b), _mm_setzero_si128()));
  }
#endif
};

// The frames of `mask` for which A `Op` K (or X, `rhs`) holds. Over the whole burst, four
// frames a compare: the compares were most of what a filter that matches nothing cost.
template <class Op>
uint32_t holding(const Frames& f, uint32_t mask, uint32_t whole, const uint32_t* rhs, uint32_t k) {
  uint32_t held = 0;
#if defined(__SSE2__)
  if (mask == whole) {  // the registers of the places past the burst are 0 (keep())
    const __m128i k4 = _mm_set1_epi32(static_cast<int>(k));
    for (unsigned i = 0; i < kBurst; i += 4) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(f.ax[0] + i));
      const __m128i b = rhs == nullptr ? k4 : _mm_loadu_si128(reinterpret_cast<const __m128i*>(rhs + i));
      held |= static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(Op::four(a, b)))) << i;
    }
    return held & whole;
  }
#endif
  each(mask, whole, [&](unsigned i) { held |= (Op::scalar(f.ax[0][i], rhs == nullptr ? k : rhs[i]) ? 1u : 0u) << i; });
  return held;
}

// A conditional jump's instruction.
void jump(const BpfInsn& in, const Frames& f, Part& part, uint32_t whole, Part* pending, unsigned& n_pending) {
  const auto next = static_cast<uint16_t>(part.pc + 1);
  const auto pc_true = static_cast<uint16_t>(next + in.jt);
  const auto pc_false = static_cast<uint16_t>(next + in.jf);
  const uint32_t* const rhs = (in.code & kX) != 0 ? f.ax[1] : nullptr;
  uint32_t held = 0;
  switch (in.code & 0xf0) {
    case kJeq: held = holding<Equal>(f, part.mask, whole, rhs, in.k); break;
    case kJgt: held = holding<Greater>(f, part.mask, whole, rhs, in.k); break;
    case kJge: held = holding<GreaterOrEqual>(f, part.mask, whole, rhs, in.k); break;
    default: held = holding<AnyBitSet>(f, part.mask, whole, rhs, in.k); break;
  }
  branch(part, held, pc_true, pc_false, pending, n_pending);
}

// Runs `part` until its frames return, setting the bits of those kept in `keep_mask`.
void run_part(const BpfInsn* program, Frames& f, Part part, uint32_t whole, Part* pending, unsigned& n_pending,
              uint32_t& keep_mask) noexcept {
  while (part.mask != 0) {
    const BpfInsn& in = program[part.pc];
    const uint32_t k = in.k;
    const uint32_t mask = part.mask;
    switch (in.code) {
      case kLd | kW | kAbs:
      case kLd | kW | kInd: load_a<4>(in.code & 0xe0, k, f, part, whole); break;
      case kLd | kH | kAbs:
      case kLd | kH | kInd: load_a<2>(in.code & 0xe0, k, f, part, whole); break;
      case kLd | kB | kAbs:
      case kLd | kB | kInd: load_a<1>(in.code & 0xe0, k, f, part, whole); break;
      case kLdx | kB | kMsh:
        each_or_reject(part, whole, [&](unsigned i) {
          uint32_t byte = 0;
          if (!load<1>(f.mbufs[i], k, byte)) return false;
          f.ax[1][i] = (byte & 0xf) << 2;
          return true;
        });
        break;
      case kLd | kW | kLen: each(mask, whole, [&](unsigned i) { f.ax[0][i] = f.mbufs[i]->pkt_len; }); break;
      case kLdx | kW | kLen: each(mask, whole, [&](unsigned i) { f.ax[1][i] = f.mbufs[i]->pkt_len; }); break;
      case kLd | kImm: each(mask, whole, [&](unsigned i) { f.ax[0][i] = k; }); break;
      case kLdx | kImm: each(mask, whole, [&](unsigned i) { f.ax[1][i] = k; }); break;
      case kLd | kMem: each(mask, whole, [&](unsigned i) { f.ax[0][i] = f.mem[k][i]; }); break;
      case kLdx | kMem: each(mask, whole, [&](unsigned i) { f.ax[1][i] = f.mem[k][i]; }); break;
      case kSt: each(mask, whole, [&](unsigned i) { f.mem[k][i] = f.ax[0][i]; }); break;
      case kStx: each(mask, whole, [&](unsigned i) { f.mem[k][i] = f.ax[1][i]; }); break;
      case kMisc | kTax: each(mask, whole, [&](unsigned i) { f.ax[1][i] = f.ax[0][i]; }); break;
      case kMisc | kTxa: each(mask, whole, [&](unsigned i) { f.ax[0][i] = f.ax[1][i]; }); break;
      case kJmp | kJa: part.pc = static_cast<uint16_t>(part.pc + 1 + k); continue;
      case kRet | kK:
        if (k != 0) keep_mask |= mask;
        return;
      case kRet | kRetA: each(mask, whole, [&](unsigned i) { keep_mask |= (f.ax[0][i] != 0 ? 1u : 0u) << i; }); return;
      default:
        if (class_of(in.code) == kJmp) {
          jump(in, f, part, whole, pending, n_pending);
          continue;
        }
        alu(in.code, k, f, part, whole);
        break;
    }
    ++part.pc;
  }
}

// libpcap starts A and X at 0; here past the burst's frames too (holding() reads them).
// In vector stores: the compiler's `rep stos` took a third of the filter's time.
void zero_registers(Frames& f) noexcept {
#if defined(__SSE2__)
  static_assert(sizeof Frames::ax == 16 * sizeof(__m128i));
  auto* p = reinterpret_cast<__m128i*>(&f.ax);
  // Written out, not a loop: GCC turns a loop of these back into `rep stos`.
  [p]<size_t... kI>(std::index_sequence<kI...>) {
    (_mm_storeu_si128(p + kI, _mm_setzero_si128()), ...);
  }(std::make_index_sequence<2 * kBurst / 4>{});
#else
  std::memset(&f.ax, 0, sizeof f.ax);
#endif
}

}  // namespace

std::string BurstFilter::check(std::span<const BpfInsn> program) {
  if (program.empty()) return "the program is empty";
  if (program.size() > 4096) return std::to_string(program.size()) + " instructions, past classic BPF's 4,096";
  for (size_t pc = 0; pc < program.size(); ++pc) {
    const BpfInsn& in = program[pc];
    const size_t left = program.size() - pc - 1;  // instructions after this one
    const std::string at = "instruction " + std::to_string(pc) + ": ";
    if (!known(in.code)) return at + "unknown code " + std::to_string(in.code);
    const uint16_t cls = class_of(in.code);
    if (in.code == (kJmp | kJa) && in.k >= 0x80000000u)  // libpcap writes them for `protochain`
      return at + "a jump backwards, which the filter does not run (libpcap writes them for 'protochain')";
    const bool past_end = in.code == (kJmp | kJa) ? in.k >= left : cls == kJmp && (in.jt >= left || in.jf >= left);
    if (past_end) return at + "a jump past the program's end";
    if (touches_scratch(in.code) && in.k >= kMemWords)
      return at + "scratch word " + std::to_string(in.k) + " of " + std::to_string(kMemWords);
    const uint16_t op = in.code & 0xf0;
    if (cls == kAlu && (op == kDiv || op == kMod) && (in.code & kX) == 0 && in.k == 0)
      return at + "a division by the constant 0";
    if (cls == kAlu && (op == kLsh || op == kRsh) && (in.code & kX) == 0 && in.k >= 32)
      return at + "a shift by " + std::to_string(in.k) + " bits";  // libpcap refuses more than 31 too
  }
  if (class_of(program.back().code) != kRet) return "the program does not end with a return";
  return {};
}

BurstFilter::BurstFilter(std::span<const BpfInsn> program) : program_(program.begin(), program.end()) {
  // A word read before any store reads 0 (libpcap zeroes them too).
  for (const BpfInsn& in : program_) uses_memory_ = uses_memory_ || touches_scratch(in.code);
}

uint16_t BurstFilter::keep(rte_mbuf* const* pkts, uint16_t n, rte_mbuf** kept) const noexcept {
  if (n == 0) return 0;
  Frames f;  // NOLINT(cppcoreguidelines-pro-type-member-init): what a frame's instructions read, they wrote
  f.mbufs = pkts;
  zero_registers(f);
  if (uses_memory_) std::memset(f.mem, 0, sizeof f.mem);
  const uint32_t whole = n == kBurst ? ~0u : (1u << n) - 1;
  Part pending[kBurst];
  unsigned n_pending = 0;
  uint32_t keep_mask = 0;
  run_part(program_.data(), f, Part{0, whole}, whole, pending, n_pending, keep_mask);
  while (n_pending != 0) {
    --n_pending;
    run_part(program_.data(), f, pending[n_pending], whole, pending, n_pending, keep_mask);
  }
  if (keep_mask == 0) return 0;  // the common case: a capture keeps few frames
  uint16_t n_kept = 0;
  for (unsigned i = 0; i < n; ++i) {
    kept[n_kept] = pkts[i];
    n_kept += (keep_mask >> i) & 1;
  }
  return n_kept;
}

}  // namespace lr::fast
