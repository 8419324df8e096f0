#include "dataplane/hosts/host_port.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <rte_errno.h>
#include <rte_mbuf.h>

#include <chrono>
#include <utility>
#include <variant>

#include "lib/hosts/address_text.hpp"
#include "lib/hosts/host_expansion.hpp"

namespace lr::dp {

namespace {

constexpr size_t kEventsKept = 64;

// A steady-clock instant (ns) as UTC, ISO 8601 with milliseconds.
std::string utc_of(uint64_t steady_ns) {
  const auto ago = std::chrono::nanoseconds(static_cast<int64_t>(hosts_now_ns() - steady_ns));
  const auto at = std::chrono::floor<std::chrono::milliseconds>(std::chrono::system_clock::now() - ago);
  const auto seconds = std::chrono::floor<std::chrono::seconds>(at);
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03}Z", seconds, (at - seconds).count());
}

api::NeighborEntry entry_of(const hosts::PortHosts& port_hosts, const hosts::Neighbor& n) {
  const api::HostSpec& host = port_hosts.table().host(n.host).spec;
  api::NeighborEntry e;
  e.host = hosts::host_name(host);
  e.host_mac = hosts::mac_text(host.mac);
  e.vlan = host.vlan;
  e.address = hosts::ip_text(n.address);
  if (const auto* v4 = std::get_if<uint32_t>(&n.address)) {
    e.host_address = hosts::ipv4_text(host.ipv4->address);
    e.role = host.ipv4->gateway == *v4 ? "gateway" : "on-link";
  } else {
    const auto& v6 = std::get<api::Ipv6Addr>(n.address);
    const bool link_local = hosts::is_link_local(v6);
    e.host_address =
        hosts::ipv6_text(link_local || !host.ipv6 ? port_hosts.table().host(n.host).link_local : host.ipv6->address);
    e.role = host.ipv6 && host.ipv6->gateway == v6 ? "gateway" : "on-link";
  }
  e.state = n.state == hosts::NeighborState::kResolved ? "resolved"
            : n.state == hosts::NeighborState::kFailed ? "failed"
                                                       : "incomplete";
  if (n.state == hosts::NeighborState::kResolved) {
    e.mac = hosts::mac_text(n.mac);
    e.resolved_at = utc_of(n.resolved_ns);
  }
  e.tries = n.tries;
  return e;
}

}  // namespace

HostPort::HostPort(HostPortSetup s) : setup(std::move(s)) {}

HostPort::~HostPort() {
  if (slow_path.ring == nullptr) return;
  free_handed_frames();
  rte_ring_free(slow_path.ring);
}

void HostPort::free_handed_frames() {
  void* m = nullptr;
  while (rte_ring_sc_dequeue(slow_path.ring, &m) == 0) rte_pktmbuf_free(static_cast<rte_mbuf*>(m));
}

Result<std::unique_ptr<HostPort>> HostPort::create(HostPortSetup setup, uint32_t generation, unsigned ring_size) {
  std::unique_ptr<HostPort> port(new HostPort(std::move(setup)));
  const std::string name = fmt::format("lr_hosts_{}_{}", port->setup.ethdev->port_id(), generation);
  port->slow_path.ring = rte_ring_create(name.c_str(), ring_size, port->setup.ethdev->info().socket, RING_F_SC_DEQ);
  if (port->slow_path.ring == nullptr)
    return make_error(Errc::kNoMemory, fmt::format("port '{}': the emulated hosts' ring", port->setup.ethdev->name()),
                      -rte_errno);
  port->hosts = std::make_unique<hosts::PortHosts>(port->setup.hosts, hosts::PortHostsConfig{});
  return port;
}

void HostPort::remember(hosts::HostEvent event, uint64_t now_ns) {
  events_.push_back(fmt::format("{} {}", utc_of(now_ns), event.message));
  if (events_.size() > kEventsKept) events_.pop_front();
}

api::PortNeighbors HostPort::report() const {
  api::PortNeighbors out;
  out.port = setup.ethdev->name();
  out.hosts = static_cast<uint32_t>(hosts->table().size());
  out.tx_queue = setup.tx_queue;
  const auto& verdicts = hosts->counts();
  const auto count = [&](hosts::RxVerdict v) { return verdicts[static_cast<size_t>(v)]; };
  out.counts.answered = count(hosts::RxVerdict::kAnswered);
  out.counts.no_reply = count(hosts::RxVerdict::kNoReply);
  out.counts.not_for_us = count(hosts::RxVerdict::kNotForUs);
  out.counts.malformed = count(hosts::RxVerdict::kMalformed);
  out.counts.unsupported = count(hosts::RxVerdict::kUnsupported);
  out.counts.dropped = slow_path.dropped.load(std::memory_order_relaxed);
  out.counts.sent = sent;
  out.counts.send_failed = send_failed;
  for (size_t i = 0; i < hosts->resolver().size(); ++i)
    out.neighbors.push_back(entry_of(*hosts, hosts->resolver().neighbor(static_cast<uint32_t>(i))));
  out.events.assign(events_.begin(), events_.end());
  return out;
}

}  // namespace lr::dp
