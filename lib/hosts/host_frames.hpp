#pragma once
// The frames an emulated host sends: its ARP and neighbour discovery messages (requests,
// replies, announcements, DAD probes) and its echo replies, each from the host's MAC on
// its VLAN (PCP 0). Thread: any (allocates).

#include <cstdint>
#include <span>
#include <vector>

#include "lib/hosts/host_table.hpp"
#include "lib/wire/ethernet.hpp"
#include "lib/wire/ip_headers.hpp"

namespace lr::hosts {

using Frame = std::vector<uint8_t>;

/// Hop limit / TTL of the echo replies a host sends (Linux's default).
inline constexpr uint8_t kHostTtl = 64;

/// Broadcast ARP request for `target_ip` (resolution of a gateway or neighbour).
Frame arp_request(const Host& host, uint32_t target_ip);
/// Gratuitous ARP (RFC 5227 section 3): a broadcast request, sender = target = own address.
Frame gratuitous_arp(const Host& host);
/// ARP reply to a request from (`to_mac`, `to_ip`).
Frame arp_reply(const Host& host, const wire::Mac& to_mac, uint32_t to_ip);

/// NS for `target` from `src` (one of the host's preferred addresses) to the target's
/// solicited-node group, with the host's MAC as source link-layer address.
Frame neighbor_solicitation(const Host& host, const wire::Ipv6& src, const wire::Ipv6& target);
/// DAD probe (RFC 4862 section 5.4.2): NS for a tentative address from ::, to its
/// solicited-node group, without a source link-layer address option.
Frame dad_probe(const Host& host, const wire::Ipv6& tentative);
/// NA for `target` (the host's) to (`dst`, `dst_mac`) with `flags` and the host's MAC as
/// target link-layer address.
Frame neighbor_advertisement(const Host& host, const wire::Ipv6& target, const wire::Ipv6& dst,
                             const wire::Mac& dst_mac, uint8_t flags);
/// Unsolicited NA (RFC 4861 section 7.2.6) to all-nodes, O set.
Frame unsolicited_na(const Host& host, const wire::Ipv6& address);

/// Echo replies: same identifier, sequence and data; from `src` (the address asked) to the asker.
Frame echo4_reply(const Host& host, const wire::Mac& dst_mac, uint32_t src, uint32_t dst, uint16_t id, uint16_t seq,
                  std::span<const uint8_t> data);
Frame echo6_reply(const Host& host, const wire::Mac& dst_mac, const wire::Ipv6& src, const wire::Ipv6& dst, uint16_t id,
                  uint16_t seq, std::span<const uint8_t> data);

}  // namespace lr::hosts
