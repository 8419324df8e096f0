#pragma once
// HOT PATH: the switch lcore. No alloc, throw, log, lock or syscall after construction.
//
// A learning switch's address table: source MAC -> the port it was last seen on. Open
// addressing over a fixed power-of-two table with a bounded probe, so a lookup never
// walks far; a full neighbourhood learns nothing more (counted) rather than evicting.
// Entries do not age: a run is short, and a station that moves is re-learned at once.

#include <cstdint>
#include <vector>

#include "dataplane/fastpath/counters.hpp"

namespace lr::sw {

class MacTable {
 public:
  static constexpr int16_t kUnknown = -1;

  explicit MacTable(uint32_t slots_pow2 = 4096) : slots_(slots_pow2), mask_(slots_pow2 - 1) {}

  /// `mac` (48 bits, first byte in the most significant position) was seen on `port`.
  void learn(uint64_t mac, int16_t port) noexcept {
    for (uint32_t i = 0, at = hash(mac); i < kProbe; ++i, at = (at + 1) & mask_) {
      Slot& s = slots_[at];
      if (s.port == kUnknown) {
        s = Slot{mac, port};
        fast::counter_add(learned_, 1);
        return;
      }
      if (s.mac == mac) {
        s.port = port;  // moved (or seen again)
        return;
      }
    }
    fast::counter_add(full_, 1);
  }

  /// The port `mac` was last seen on, or kUnknown.
  int16_t lookup(uint64_t mac) const noexcept {
    for (uint32_t i = 0, at = hash(mac); i < kProbe; ++i, at = (at + 1) & mask_) {
      const Slot& s = slots_[at];
      if (s.port == kUnknown) return kUnknown;
      if (s.mac == mac) return s.port;
    }
    return kUnknown;
  }

  /// Single-writer counters (fastpath/counters.hpp): read them with counter_read.
  const uint64_t& learned() const noexcept { return learned_; }
  const uint64_t& full() const noexcept { return full_; }  ///< times an address found no room

  /// A frame's MAC at `bytes` (6 bytes) as the table's key.
  static uint64_t key(const uint8_t* bytes) noexcept {
    uint64_t mac = 0;
    for (int i = 0; i < 6; ++i) mac = mac << 8 | bytes[i];
    return mac;
  }
  /// Group addresses (broadcast, multicast) have the first byte's low bit set.
  static bool is_group(uint64_t mac) noexcept { return (mac >> 40) & 1; }

 private:
  static constexpr uint32_t kProbe = 16;
  struct Slot {
    uint64_t mac = 0;
    int16_t port = kUnknown;
  };
  uint32_t hash(uint64_t mac) const noexcept {
    return static_cast<uint32_t>((mac * 0x9E3779B97F4A7C15ull) >> 40) & mask_;
  }

  std::vector<Slot> slots_;
  uint32_t mask_;
  uint64_t learned_ = 0;
  uint64_t full_ = 0;
};

}  // namespace lr::sw
