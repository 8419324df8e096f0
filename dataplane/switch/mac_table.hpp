#pragma once
// HOT PATH: the switch lcore. No alloc, throw, log, lock or syscall after construction.
//
// A learning switch's address table: source MAC -> the port it was last seen on, as a
// switch ASIC keeps it, with the three figures RFC 2889 measures:
// - a capacity: at most `capacity` addresses; a new one beyond that is not learned
//   (counted, its frames flood) rather than evicting one;
// - a learning rate: new addresses are taken at most `learn_per_s` per second, with a
//   burst of kLearnBurst (a hardware learn queue); one beyond is not learned, counted;
// - aging: an address not seen for `age_tsc` is gone (lookups miss it at once; a sweep,
//   a few slots per loop, frees its slot).
// Linear probing over at least twice the capacity, so a probe always ends at an empty
// slot and the capacity is exact whatever the addresses hash to; removal shifts the run
// back (no tombstones).

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "dataplane/fastpath/counters.hpp"

namespace lr::sw {

struct MacTableParams {
  uint32_t capacity = 8192;         ///< addresses it holds at most
  uint64_t age_tsc = 0;             ///< 0: addresses never age
  uint64_t learn_interval_tsc = 0;  ///< one new address per this many cycles at most (0: no limit)
};

class MacTable {
 public:
  static constexpr int16_t kUnknown = -1;
  /// New addresses it takes at once above its rate (what a learn queue holds).
  static constexpr uint32_t kLearnBurst = 16;

  explicit MacTable(MacTableParams params = {})
      : params_(params), slots_(std::bit_ceil(std::max<uint64_t>(uint64_t{params.capacity} * 2, 64))),
        mask_(static_cast<uint32_t>(slots_.size() - 1)) {}

  /// `mac` (48 bits, first byte in the most significant position) was seen on `port` at `now`.
  void learn(uint64_t mac, int16_t port, uint64_t now) noexcept {
    uint32_t at = hash(mac);
    for (; slots_[at].key != 0; at = (at + 1) & mask_) {
      Slot& s = slots_[at];
      if (mac_of(s) != mac) continue;
      const bool aged = stale(s, now);
      if (aged && !may_learn(now)) return;  // gone: learning it again is a new address
      s.key = key_of(mac, port);  // moved (or seen again)
      s.seen = now;
      if (aged) fast::counter_add(learned_, 1);
      return;
    }
    if (entries_ >= params_.capacity) {
      fast::counter_add(full_, 1);
      return;
    }
    if (!may_learn(now)) return;
    slots_[at] = Slot{key_of(mac, port), now};
    fast::counter_set(entries_, entries_ + 1);
    fast::counter_add(learned_, 1);
  }

  /// The port `mac` was last seen on, or kUnknown (never seen, or aged).
  int16_t lookup(uint64_t mac, uint64_t now) const noexcept {
    for (uint32_t at = hash(mac); slots_[at].key != 0; at = (at + 1) & mask_) {
      const Slot& s = slots_[at];
      if (mac_of(s) == mac) return stale(s, now) ? kUnknown : port_of(s);
    }
    return kUnknown;
  }

  /// Frees the slots of aged addresses, looking at `budget` slots from where it stopped.
  void sweep(uint64_t now, uint32_t budget) noexcept {
    if (params_.age_tsc == 0) return;
    for (uint32_t n = 0; n < budget; ++n) {
      Slot& s = slots_[cursor_];
      if (s.key != 0 && stale(s, now)) {
        remove(cursor_);  // a later address may have moved into it: looked at next
        fast::counter_add(aged_, 1);
        continue;
      }
      cursor_ = (cursor_ + 1) & mask_;
    }
  }
  /// Every slot (between runs).
  void sweep_all(uint64_t now) noexcept { sweep(now, static_cast<uint32_t>(slots_.size()) * 2); }

  /// The run's counters back to 0 (the addresses stay).
  void reset_counters() noexcept {
    fast::counter_set(learned_, 0);
    fast::counter_set(full_, 0);
    fast::counter_set(rate_limited_, 0);
    fast::counter_set(aged_, 0);
  }

  /// Single-writer counters (fastpath/counters.hpp): read them with counter_read.
  const uint64_t& entries() const noexcept { return entries_; }            ///< addresses held now
  const uint64_t& learned() const noexcept { return learned_; }            ///< new addresses taken
  const uint64_t& full() const noexcept { return full_; }                  ///< new addresses refused: table full
  const uint64_t& rate_limited() const noexcept { return rate_limited_; }  ///< refused: above the learning rate
  const uint64_t& aged() const noexcept { return aged_; }                  ///< slots freed by aging

  /// A frame's MAC at `bytes` (6 bytes) as the table's key.
  static uint64_t key(const uint8_t* bytes) noexcept {
    uint64_t mac = 0;
    for (int i = 0; i < 6; ++i) mac = mac << 8 | bytes[i];
    return mac;
  }
  /// Group addresses (broadcast, multicast) have the first byte's low bit set.
  static bool is_group(uint64_t mac) noexcept { return (mac >> 40) & 1; }

 private:
  struct Slot {
    uint64_t key = 0;  ///< mac << 16 | (port + 1); 0: empty
    uint64_t seen = 0;
  };
  static uint64_t key_of(uint64_t mac, int16_t port) noexcept {
    return mac << 16 | static_cast<uint16_t>(port + 1);
  }
  static uint64_t mac_of(const Slot& s) noexcept { return s.key >> 16; }
  static int16_t port_of(const Slot& s) noexcept { return static_cast<int16_t>((s.key & 0xFFFF) - 1); }
  bool stale(const Slot& s, uint64_t now) const noexcept {
    return params_.age_tsc != 0 && now > s.seen + params_.age_tsc;
  }
  uint32_t hash(uint64_t mac) const noexcept {
    return static_cast<uint32_t>((mac * 0x9E3779B97F4A7C15ull) >> 32) & mask_;
  }
  // The learning rate as a virtual schedule (GCRA): a new address is due at `due_`, or up
  // to kLearnBurst intervals earlier; each one taken moves it one interval on.
  bool may_learn(uint64_t now) noexcept {
    const uint64_t interval = params_.learn_interval_tsc;
    if (interval == 0) return true;
    const uint64_t allowance = interval * (kLearnBurst - 1);
    if (due_ > now + allowance) {
      fast::counter_add(rate_limited_, 1);
      return false;
    }
    due_ = std::max(due_, now) + interval;
    return true;
  }
  // Backward-shift removal: the addresses after `hole` in its run move up where their
  // probe allows, so every lookup still ends at an empty slot.
  void remove(uint32_t hole) noexcept {
    for (uint32_t next = (hole + 1) & mask_; slots_[next].key != 0; next = (next + 1) & mask_) {
      const uint32_t home = hash(mac_of(slots_[next]));
      // `next` may move to `hole` unless its home lies cyclically in (hole, next].
      const bool stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next);
      if (stays) continue;
      slots_[hole] = slots_[next];
      hole = next;
    }
    slots_[hole] = Slot{};
    fast::counter_set(entries_, entries_ - 1);
  }

  MacTableParams params_;
  std::vector<Slot> slots_;
  uint32_t mask_;
  uint32_t cursor_ = 0;
  uint64_t due_ = 0;
  uint64_t entries_ = 0;
  uint64_t learned_ = 0;
  uint64_t full_ = 0;
  uint64_t rate_limited_ = 0;
  uint64_t aged_ = 0;
};

}  // namespace lr::sw
