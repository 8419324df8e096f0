#pragma once
// Which neighbour a host's frames to a destination go to: the destination itself when it
// is on the host's subnet (IPv6: or link-local), else the host's gateway. A destination
// off the subnet of a host without a gateway, or of a family the host has no address of,
// is an error naming the host and the address. Thread: any.

#include <expected>
#include <string>

#include "lib/api/host_spec.hpp"

namespace lr::hosts {

std::expected<uint32_t, std::string> next_hop_ipv4(const api::HostSpec& host, uint32_t dst);
std::expected<api::Ipv6Addr, std::string> next_hop_ipv6(const api::HostSpec& host, const api::Ipv6Addr& dst);

}  // namespace lr::hosts
