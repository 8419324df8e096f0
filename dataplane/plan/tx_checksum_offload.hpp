#pragma once
// Which of a stream's frames a port with TX checksum offload (IPv4 header and UDP) may
// finish: the plan's mbuf flags, set once when its pool is filled.

#include <rte_mbuf.h>

#include "lib/wire/tx_stream_plan.hpp"

namespace lr::plan {

/// Flags the plan's frames for the port's IPv4 and UDP checksum offload, and says whether
/// it did. Not a RoCEv2 frame (UDP checksum 0; its IPv4 one is cheap), not TCP (the ports
/// offload UDP only), not a MAC Control frame (no IP or UDP: a NIC would write its
/// "checksums" into a PFC frame's class vector and quanta).
inline bool offload_checksums(wire::TxStreamPlan& plan) noexcept {
  if (plan.roce || plan.tcp || plan.mac_control) return false;
  plan.hw_checksum = true;
  plan.ol_flags = RTE_MBUF_F_TX_UDP_CKSUM | (plan.ipv6 ? RTE_MBUF_F_TX_IPV6 : RTE_MBUF_F_TX_IPV4 | RTE_MBUF_F_TX_IP_CKSUM);
  plan.tx_offload = rte_mbuf_tx_offload(plan.l3_offset, plan.l4_offset - plan.l3_offset, 8, 0, 0, 0, 0);
  return true;
}

}  // namespace lr::plan
