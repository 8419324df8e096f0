#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// The mbufs of an accounted RX burst go back to their pools here.

#include <rte_mbuf.h>

#include <cstdint>

namespace lr::fast {

/// Frees the `n` mbufs of a received burst (any segments, clones and pools).
inline void free_received(rte_mbuf** pkts, uint16_t n) noexcept { rte_pktmbuf_free_bulk(pkts, n); }

}  // namespace lr::fast
