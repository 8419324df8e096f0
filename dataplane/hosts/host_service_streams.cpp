// The host service's side of streams with eth.src / eth.dst "auto": which host sends
// them, and the MAC their next hop resolved to.
#include <fmt/format.h>

#include <thread>

#include "dataplane/hosts/host_port.hpp"
#include "dataplane/hosts/host_service.hpp"
#include "lib/hosts/address_text.hpp"
#include "lib/hosts/stream_source.hpp"

namespace lr::dp {

namespace {

std::string auto_key(const api::StreamSpec& stream) { return stream.eth_dst_auto ? "eth.dst" : "eth.src"; }

}  // namespace

Result<void> HostService::prepare_stream(const api::StreamSpec& stream) {
  std::lock_guard lock(mutex_);
  HostPort* port = port_named(stream.tx_port);
  if (port == nullptr)
    return make_error(Errc::kInvalid, fmt::format("stream '{}': {} 'auto': port '{}' has no emulated hosts (add a "
                                                  "[[device]] on it, or load one with device.load)",
                                                  stream.name, auto_key(stream), stream.tx_port));
  const auto source = hosts::stream_source(port->setup.hosts, stream);
  if (!source) return make_error(Errc::kInvalid, source.error());
  if (stream.eth_dst_auto) port->hosts->want(source->host, source->next_hop, hosts_now_ns());
  return {};  // its first request goes out at the thread's next poll, within a millisecond
}

Result<StreamMacs> HostService::stream_macs(const api::StreamSpec& stream, std::chrono::milliseconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      HostPort* port = port_named(stream.tx_port);
      if (port == nullptr)
        return make_error(Errc::kInvalid, fmt::format("stream '{}': its port's hosts went", stream.name));
      const auto source = hosts::stream_source(port->setup.hosts, stream);
      if (!source) return make_error(Errc::kInvalid, source.error());
      const api::HostSpec& host = port->setup.hosts[source->host];
      if (!stream.eth_dst_auto) return StreamMacs{host.mac, stream.eth_dst};
      if (const auto mac = port->hosts->neighbor_mac(source->host, source->next_hop))
        return StreamMacs{stream.eth_src_auto ? host.mac : stream.eth_src, *mac};
      const bool resolving = port->hosts->resolving(source->host, source->next_hop);
      if (!resolving || std::chrono::steady_clock::now() >= deadline) {
        const std::string address = host.ipv4 && std::holds_alternative<uint32_t>(source->next_hop)
                                        ? hosts::ipv4_text(host.ipv4->address)
                                    : host.ipv6 ? hosts::ipv6_text(host.ipv6->address)
                                                : "no address";
        return make_error(
            Errc::kInvalid,
            fmt::format("stream '{}': eth.dst 'auto': host {} ({}) on port '{}' has not resolved {} {}: "
                        "{}",
                        stream.name, hosts::host_name(host), address, stream.tx_port,
                        source->via_gateway ? "its gateway" : "its neighbour", hosts::ip_text(source->next_hop),
                        port->hosts->unresolved_reason(source->host, source->next_hop)));
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

}  // namespace lr::dp
