#include "lib/hosts/stream_source.hpp"

#include <fmt/format.h>

#include "lib/hosts/address_text.hpp"
#include "lib/hosts/host_table.hpp"
#include "lib/hosts/next_hop.hpp"
#include "lib/wire/ipv6_nd.hpp"

namespace lr::hosts {

namespace {

bool v4(const api::StreamSpec& s) { return s.ip_version == api::IpVersion::kV4; }

bool has_source(const api::HostSpec& h, const api::StreamSpec& s) {
  if (v4(s)) return h.ipv4 && h.ipv4->address == s.ipv4.src;
  return (h.ipv6 && h.ipv6->address == s.ipv6.src) || wire::link_local_from_mac(h.mac) == s.ipv6.src;
}

std::string vlan_text(const std::optional<uint16_t>& vlan) {
  return vlan ? fmt::format("VLAN {}", *vlan) : std::string("untagged");
}

// Why no host sends the stream: the port has none, or none with its source address on
// its VLAN (one that has it on another VLAN is named, the likelier mistake).
std::string no_host(std::span<const api::HostSpec> hosts, const api::StreamSpec& s, const char* key) {
  const std::optional<uint16_t> vlan = stream_vlan(s);
  const std::string source = v4(s) ? ipv4_text(s.ipv4.src) : ipv6_text(s.ipv6.src);
  const std::string head = fmt::format("stream '{}': {} 'auto' needs an emulated host with address {} on port {} ({})",
                                       s.name, key, source, s.tx_port, vlan_text(vlan));
  size_t on_port = 0;
  const api::HostSpec* elsewhere = nullptr;
  for (const api::HostSpec& h : hosts) {
    if (h.port != s.tx_port) continue;
    ++on_port;
    if (elsewhere == nullptr && has_source(h, s)) elsewhere = &h;
  }
  if (on_port == 0) return head + fmt::format(": port {} has no emulated hosts; add a [[device]] on it", s.tx_port);
  std::string why = fmt::format(": none of its {} host{} has it", on_port, on_port == 1 ? "" : "s");
  if (elsewhere != nullptr)
    why += fmt::format(" ({} has it {}: give the stream that VLAN)", host_name(*elsewhere),
                       elsewhere->vlan ? fmt::format("on VLAN {}", *elsewhere->vlan) : std::string("untagged"));
  return head + why + fmt::format("; add a [[device]] or set {} to one of theirs", v4(s) ? "ipv4.src" : "ipv6.src");
}

}  // namespace

std::optional<uint16_t> stream_vlan(const api::StreamSpec& stream) noexcept {
  // The VID as a TCI (PCP and DEI 0): frame_vlan reads VID 0 as untagged.
  return stream.vlan ? frame_vlan(stream.vlan->id) : std::nullopt;
}

std::expected<StreamSource, std::string> stream_source(std::span<const api::HostSpec> hosts,
                                                       const api::StreamSpec& stream) {
  const char* key = stream.eth_dst_auto ? "eth.dst" : "eth.src";
  const std::optional<uint16_t> vlan = stream_vlan(stream);
  for (uint32_t i = 0; i < hosts.size(); ++i) {
    const api::HostSpec& h = hosts[i];
    if (h.port != stream.tx_port || h.vlan != vlan || !has_source(h, stream)) continue;
    StreamSource out{i, IpAddress{}, false};
    std::string unreachable;
    if (v4(stream)) {
      const auto hop = next_hop_ipv4(h, stream.ipv4.dst);
      out.next_hop = hop.value_or(stream.ipv4.dst);
      out.via_gateway = hop && *hop != stream.ipv4.dst;
      if (!hop) unreachable = hop.error();
    } else {
      const auto hop = next_hop_ipv6(h, stream.ipv6.dst);
      out.next_hop = hop.value_or(stream.ipv6.dst);
      out.via_gateway = hop && *hop != stream.ipv6.dst;
      if (!hop) unreachable = hop.error();
    }
    if (!unreachable.empty() && stream.eth_dst_auto)
      return std::unexpected(fmt::format("stream '{}': eth.dst 'auto': {}", stream.name, unreachable));
    return out;
  }
  return std::unexpected(no_host(hosts, stream, key));
}

}  // namespace lr::hosts
