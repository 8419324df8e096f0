#include "dataplane/fastpath/filter_memo.hpp"

#include <algorithm>

namespace lr::fast {

namespace {

static_assert(std::endian::native == std::endian::little, "the paths' words are the frame's bytes, little-endian");

// Classic BPF's encoding (pcap/bpf.h).
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
  kSrcX = 0x08,
  kRetA = 0x10,
  kRetX = 0x08,
  kTax = 0x00,
  kTxa = 0x80,
};
constexpr uint32_t kWindow = 64;  // the bytes a path's checks may read
constexpr unsigned kMemory = 16;  // BPF_MEMWORDS

// Where a value came from: decided (a constant, or computed from bits already pinned), a
// load (its bytes, big-endian, then `mask`), or the frame's length.
struct Source {
  enum Kind : uint8_t { kDecided, kLoad, kLength } kind = kDecided;
  uint8_t size = 0;
  uint16_t offset = 0;
  uint32_t mask = 0;
};

struct Tracer {
  const uint8_t* bytes;
  uint32_t readable;  // the first segment's bytes of the frame
  uint32_t length;    // the frame's
  FilterPath& path;
  uint8_t pinned[kWindow] = {};  // per byte: the bits the path depends on exactly

  // The value `s` came from made exact: its bits pinned (a load), or the length.
  void pin(Source& s) {
    if (s.kind == Source::kLoad)
      for (unsigned j = 0; j < s.size; ++j)
        pinned[s.offset + j] |= static_cast<uint8_t>(s.mask >> (8 * (s.size - 1 - j)));
    else if (s.kind == Source::kLength) path.length_pinned = true, path.length = length;
    s = Source{};
  }

  // A comparison of the value from `s` with `k` whose outcome was `outcome`.
  void compare(Source& s, FilterPath::Op op, uint32_t k, bool outcome) {
    if (s.kind == Source::kDecided) return;
    if (s.kind == Source::kLoad && op == FilterPath::kEq && outcome) {
      pin(s);  // equal: the masked bits are K's
      return;
    }
    if (s.kind == Source::kLoad && op == FilterPath::kSet && !outcome) {
      Source tested = s;  // none of K's bits set: those bits are pinned, to zero
      tested.mask &= k;
      pin(tested);
      return;
    }
    if (path.n_checks == FilterPath::kChecks) {
      pin(s);
      return;
    }
    FilterPath::Check& c = path.checks[path.n_checks++];
    c.offset = s.kind == Source::kLength ? FilterPath::kLength : s.offset;
    c.size = s.size;
    c.mask = s.kind == Source::kLength ? 0xFFFFFFFFu : s.mask;
    c.op = op;
    c.k = k;
    c.want = outcome;
  }

  // A load of `size` bytes at `offset`: its value, or none where it is past the frame or
  // the window (libpcap's filter rejects the frame there; not remembered).
  bool load(uint64_t offset, uint32_t size, uint32_t& value, Source& s) {
    if (offset + size > kWindow || offset + size > readable) return false;
    value = 0;
    for (uint32_t j = 0; j < size; ++j) value = value << 8 | bytes[offset + j];
    s = Source{Source::kLoad, static_cast<uint8_t>(size), static_cast<uint16_t>(offset),
               size == 4 ? 0xFFFFFFFFu : (1u << (8 * size)) - 1};
    path.min_bytes = std::max(path.min_bytes, static_cast<uint32_t>(offset + size));
    return true;
  }

  // The words of the first 64 bytes with a bit pinned, with this frame's bits.
  void write_words() {
    for (unsigned w = 0; w < FilterPath::kWords; ++w) {
      uint64_t mask = 0;
      std::memcpy(&mask, pinned + 8 * w, 8);
      if (mask == 0) continue;
      uint64_t word = 0;
      std::memcpy(&word, bytes + 8 * w, std::min<uint32_t>(8, readable > 8 * w ? readable - 8 * w : 0));
      path.word[path.n_words] = static_cast<uint8_t>(w);
      path.mask[path.n_words] = mask;
      path.value[path.n_words] = word & mask;
      ++path.n_words;
      path.min_bytes = std::max(path.min_bytes, 8 * w + 8);
    }
    // A check whose bits were all pinned later (`!= 0x86dd`, then `== 0x800`) holds for every
    // frame that passes the words.
    unsigned kept = 0;
    for (unsigned i = 0; i < path.n_checks; ++i) {
      const FilterPath::Check& c = path.checks[i];
      bool implied = c.offset != FilterPath::kLength;
      for (unsigned j = 0; implied && j < c.size; ++j) {
        const auto bits = static_cast<uint8_t>(c.mask >> (8 * (c.size - 1 - j)));
        implied = (pinned[c.offset + j] & bits) == bits;
      }
      if (!implied) path.checks[kept++] = c;
    }
    path.n_checks = static_cast<uint8_t>(kept);
  }
};

uint32_t size_of(uint16_t code) { return (code & 0x18) == kW ? 4 : (code & 0x18) == kH ? 2 : 1; }

}  // namespace

bool trace_filter_path(std::span<const BpfInsn> program, const uint8_t* bytes, uint32_t first_segment, uint32_t length,
                       FilterPath& path) noexcept {
  path = FilterPath{};
  Tracer t{bytes, std::min(first_segment, length), length, path};
  uint32_t a = 0, x = 0;
  Source as, xs;
  uint32_t mem[kMemory] = {};
  Source mems[kMemory];
  for (size_t pc = 0; pc < program.size(); ++pc) {
    const BpfInsn& in = program[pc];
    const uint16_t cls = in.code & 0x07;
    switch (cls) {
      case kLd:
      case kLdx: {
        uint32_t& r = cls == kLd ? a : x;
        Source& rs = cls == kLd ? as : xs;
        switch (in.code & 0xe0) {
          case kImm: r = in.k, rs = Source{}; break;
          case kLen: r = length, rs = Source{Source::kLength}; break;
          case kMem:
            if (in.k >= kMemory) return false;
            r = mem[in.k], rs = mems[in.k];
            break;
          case kAbs:
            if (cls != kLd || !t.load(in.k, size_of(in.code), r, rs)) return false;
            break;
          case kInd:
            if (cls != kLd) return false;
            t.pin(xs);  // the offset must be the same
            if (!t.load(uint64_t{x} + in.k, size_of(in.code), r, rs)) return false;
            break;
          case kMsh: {
            if (cls != kLdx || !t.load(in.k, 1, r, rs)) return false;
            rs.mask = 0x0F;
            t.pin(rs);
            r = 4 * (r & 0x0F);
            break;
          }
          default: return false;
        }
        break;
      }
      case kSt:
      case kStx:
        if (in.k >= kMemory) return false;
        mem[in.k] = cls == kSt ? a : x;
        mems[in.k] = cls == kSt ? as : xs;
        break;
      case kAlu: {
        const uint16_t op = in.code & 0xf0;
        const bool by_x = (in.code & kSrcX) != 0 && op != kNeg;
        const uint32_t k = by_x ? x : in.k;
        if (op == kAnd && !by_x && as.kind == Source::kLoad) {
          as.mask &= k;  // still one load, fewer bits
          a &= k;
          break;
        }
        t.pin(as);
        if (by_x) t.pin(xs);
        switch (op) {
          case kAdd: a += k; break;
          case kSub: a -= k; break;
          case kMul: a *= k; break;
          case kDiv:
            if (k == 0) return false;
            a /= k;
            break;
          case kMod:
            if (k == 0) return false;
            a %= k;
            break;
          case kOr: a |= k; break;
          case kAnd: a &= k; break;
          case kXor: a ^= k; break;
          case kLsh:
            if (k >= 32) return false;
            a <<= k;
            break;
          case kRsh:
            if (k >= 32) return false;
            a >>= k;
            break;
          case kNeg: a = 0u - a; break;
          default: return false;
        }
        break;
      }
      case kJmp: {
        const uint16_t op = in.code & 0xf0;
        if (op == kJa) {
          pc += in.k;
          break;
        }
        if ((in.code & kSrcX) != 0) t.pin(xs);
        const uint32_t k = (in.code & kSrcX) != 0 ? x : in.k;
        FilterPath::Op cmp = FilterPath::kEq;
        bool outcome = false;
        switch (op) {
          case kJeq: cmp = FilterPath::kEq, outcome = a == k; break;
          case kJgt: cmp = FilterPath::kGt, outcome = a > k; break;
          case kJge: cmp = FilterPath::kGe, outcome = a >= k; break;
          case kJset: cmp = FilterPath::kSet, outcome = (a & k) != 0; break;
          default: return false;
        }
        t.compare(as, cmp, k, outcome);
        pc += outcome ? in.jt : in.jf;
        break;
      }
      case kRet: {
        const uint16_t from = in.code & 0x18;
        uint32_t verdict = in.k;
        if (from == kRetA) t.pin(as), verdict = a;
        else if (from == kRetX) t.pin(xs), verdict = x;
        path.keep = verdict != 0;
        t.write_words();
        return true;
      }
      case kMisc:
        if ((in.code & 0xf8) == kTax) x = a, xs = as;
        else if ((in.code & 0xf8) == kTxa) a = x, as = xs;
        else return false;
        break;
      default: return false;
    }
  }
  return false;  // ran off the end: not a program libpcap writes
}

void FilterMemo::learn(std::span<const BpfInsn> program, const uint8_t* bytes, uint32_t first_segment, uint32_t length,
                       bool keep) noexcept {
  FilterPath traced;
  if (!trace_filter_path(program, bytes, first_segment, length, traced)) return;
  if (traced.keep != keep) {  // the interpreter and the filter disagree: trust neither path again
    off = true;
    n_paths = 0;
    return;
  }
  paths[next] = traced;
  next = static_cast<uint8_t>((next + 1) % kPaths);
  if (n_paths < kPaths) ++n_paths;
}

}  // namespace lr::fast
