#pragma once
// HOT PATH: worker lcores only. No alloc, throw, log, lock, syscall.
//
// The way from a worker's RX loop to the emulated hosts (dataplane/hosts): a received frame
// without the tester's signature that is ARP, ICMP or ICMPv6 (lib/hosts/slow_path_frame.hpp)
// is handed over on the port's ring, its mbuf kept by a reference the host service drops.
// The ring is multi-producer (every lcore polling one of the port's RX queues), single
// consumer (the host service's thread). A full ring drops the frame, counted.

#include <rte_mbuf.h>
#include <rte_ring.h>

#include <atomic>
#include <cstdint>

#include "lib/hosts/slow_path_frame.hpp"

namespace lr::fast {

struct SlowPath {
  rte_ring* ring = nullptr;
  std::atomic<uint64_t> dropped{0};  ///< frames the full ring refused
};

/// Hands `m` to the hosts when it is theirs: true when it was theirs (handed or dropped).
/// The caller still frees `m` as usual: a handed frame holds one more reference. A frame
/// in one direct segment with one reference is this lcore's alone, so the second is a plain
/// store, not an atomic add. Any other (a chain, whose later segments the caller's free
/// would free under the service; one held elsewhere) is counted dropped, not handed.
inline bool hand_to_slow_path(SlowPath& path, rte_mbuf* m) noexcept {
  if (!hosts::is_slow_path_frame(rte_pktmbuf_mtod(m, const uint8_t*), m->data_len)) return false;
  if (m->nb_segs != 1 || rte_mbuf_refcnt_read(m) != 1) [[unlikely]] {
    path.dropped.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  rte_mbuf_refcnt_set(m, 2);
  if (rte_ring_mp_enqueue(path.ring, m) != 0) [[unlikely]] {
    rte_mbuf_refcnt_set(m, 1);
    path.dropped.fetch_add(1, std::memory_order_relaxed);
  }
  return true;
}

}  // namespace lr::fast
