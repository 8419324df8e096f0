#pragma once
// The emulated host a stream with eth.src or eth.dst "auto" is sent from, and the
// neighbour its frames go to: the host on the stream's TX port whose address is the
// stream's IP source (IPv4: its address; IPv6: its address or its link-local one) on the
// stream's VLAN, and that host's next hop to the stream's IP destination (next_hop.hpp).
// Thread: any (control path).

#include <cstdint>
#include <expected>
#include <optional>
#include <span>
#include <string>

#include "lib/api/host_spec.hpp"
#include "lib/api/stream_spec.hpp"
#include "lib/hosts/resolver.hpp"

namespace lr::hosts {

struct StreamSource {
  uint32_t host = 0;    ///< its place in the span given
  IpAddress next_hop;   ///< the destination itself on the host's subnet (or link-local), else its gateway
  bool via_gateway = false;
};

/// The stream's VLAN as hosts are keyed by it: none for an untagged stream, or for a VLAN
/// tag with VID 0 (a priority tag, as frame_vlan reads it).
std::optional<uint16_t> stream_vlan(const api::StreamSpec& stream) noexcept;

/// The host among `hosts` that sends `stream` (see above) and its next hop. Refused,
/// naming the stream, the auto key ("eth.dst" when eth.dst is auto, else "eth.src"), the
/// port and the address: no host on the port has the stream's IP source on its VLAN (a
/// host that has it on another VLAN is named); with eth.dst auto, a destination the host
/// cannot reach (off its subnet without a gateway). With eth.src auto alone the next hop
/// is not needed: one that cannot be found is then the destination, via_gateway false.
std::expected<StreamSource, std::string> stream_source(std::span<const api::HostSpec> hosts,
                                                       const api::StreamSpec& stream);

}  // namespace lr::hosts
