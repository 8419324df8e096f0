#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// Single-writer counters (VPP counter.h): the owner lcore adds with a relaxed load and
// store, never a locked read-modify-write; mgmt reads with a relaxed load. Relaxed is
// enough: each counter is one aligned 64-bit word (no tearing) and readers want a
// recent value, not an ordering with other memory.

#include <cstdint>

namespace lr::fast {

inline void counter_add(uint64_t& counter, uint64_t n) noexcept {
  __atomic_store_n(&counter, __atomic_load_n(&counter, __ATOMIC_RELAXED) + n, __ATOMIC_RELAXED);
}

inline void counter_set(uint64_t& counter, uint64_t value) noexcept {
  __atomic_store_n(&counter, value, __ATOMIC_RELAXED);
}

/// A watermark: the largest value seen.
inline void counter_raise(uint64_t& counter, uint64_t value) noexcept {
  if (value > __atomic_load_n(&counter, __ATOMIC_RELAXED)) __atomic_store_n(&counter, value, __ATOMIC_RELAXED);
}

inline uint64_t counter_read(const uint64_t& counter) noexcept {
  return __atomic_load_n(&counter, __ATOMIC_RELAXED);
}

}  // namespace lr::fast
