#include "lib/hosts/next_hop.hpp"

#include <fmt/format.h>

#include "lib/hosts/address_text.hpp"
#include "lib/hosts/host_expansion.hpp"

namespace lr::hosts {

std::expected<uint32_t, std::string> next_hop_ipv4(const api::HostSpec& host, uint32_t dst) {
  if (!host.ipv4)
    return std::unexpected(fmt::format("port '{}', host {} has no IPv4 address to reach {} from", host.port,
                                       host_name(host), ipv4_text(dst)));
  const uint32_t mask = ipv4_mask(host.ipv4->prefix);
  if ((dst & mask) == (host.ipv4->address & mask)) return dst;
  if (host.ipv4->gateway) return *host.ipv4->gateway;
  return std::unexpected(fmt::format("port '{}', host {} ({}/{}) has no gateway, and {} is not on its subnet",
                                     host.port, host_name(host), ipv4_text(host.ipv4->address), host.ipv4->prefix,
                                     ipv4_text(dst)));
}

std::expected<api::Ipv6Addr, std::string> next_hop_ipv6(const api::HostSpec& host, const api::Ipv6Addr& dst) {
  if (is_link_local(dst)) return dst;
  if (!host.ipv6)
    return std::unexpected(fmt::format("port '{}', host {} has no IPv6 address to reach {} from", host.port,
                                       host_name(host), ipv6_text(dst)));
  if (same_ipv6_prefix(dst, host.ipv6->address, host.ipv6->prefix)) return dst;
  if (host.ipv6->gateway) return *host.ipv6->gateway;
  return std::unexpected(fmt::format("port '{}', host {} ({}/{}) has no gateway, and {} is not on its subnet",
                                     host.port, host_name(host), ipv6_text(host.ipv6->address), host.ipv6->prefix,
                                     ipv6_text(dst)));
}

}  // namespace lr::hosts
