// The engine's emulated hosts: the devices loaded onto the ports (each port with hosts
// gets a TX queue of their own and the host service drives them), the neighbours they
// resolved, and the MACs of the streams whose eth.src / eth.dst is "auto".
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <utility>

#include "dataplane/engine/engine_state.hpp"
#include "lib/hosts/host_expansion.hpp"
#include "lib/profile/device_spec_json.hpp"
#include "lib/profile/device_table.hpp"

namespace lr::dp {

namespace {

// How long a start waits for a neighbour still being resolved: the resolver gives up after
// 3 requests 1 s apart (resolver.hpp), and says so.
constexpr std::chrono::milliseconds kResolveWait{4000};

Result<std::vector<api::HostSpec>> hosts_of_port(const std::vector<api::DeviceSpec>& devices, const std::string& port) {
  std::vector<api::HostSpec> out;
  for (const api::DeviceSpec& d : devices) {
    if (d.first.port != port) continue;
    auto hosts = hosts::expand_device(d);
    if (!hosts)
      return make_error(Errc::kInvalid,
                        fmt::format("device '{}': {}: {}", d.name, hosts.error().key, hosts.error().message));
    out.insert(out.end(), hosts->begin(), hosts->end());
  }
  return out;
}

}  // namespace

Result<uint32_t> Engine::set_devices(const std::vector<api::DeviceSpec>& devices) {
  State& st = *state_;
  if (st.launched) return make_error(Errc::kBusy, "traffic is running: stop it before changing the emulated hosts");
  for (const api::DeviceSpec& d : devices)
    if (!st.port_named(d.first.port))
      return make_error(Errc::kInvalid, fmt::format("device '{}': no port is named '{}'", d.name, d.first.port));
  uint32_t total = 0;  // each device is `count` hosts (checked when it was read)
  for (const api::DeviceSpec& d : devices) total += d.count;
  // The same devices again (each `linerate run` on a service sends its profile's): the hosts
  // go on as they are, their neighbours resolved, instead of starting over.
  if (st.hosts && profile::to_json(devices) == profile::to_json(st.profile.devices)) return total;
  profile::Profile candidate = st.profile;
  candidate.devices = devices;
  try {
    profile::check_device_hosts(candidate);
  } catch (const profile::ConfigError& error) {
    return make_error(Errc::kInvalid, error.reason());
  }
  // Every port's hosts checked before any port is reconfigured for them.
  std::vector<std::pair<size_t, std::vector<api::HostSpec>>> by_port;
  for (size_t p = 0; p < st.ports.size(); ++p) {
    auto hosts = hosts_of_port(devices, st.ports[p].name());
    if (!hosts) return std::unexpected(hosts.error());
    if (!hosts->empty()) by_port.emplace_back(p, std::move(*hosts));
  }
  std::vector<HostPortSetup> setups;
  for (auto& [p, hosts] : by_port) {
    EthdevPort& port = st.ports[p];
    auto queue = port.add_host_tx_queue();
    if (!queue) return std::unexpected(queue.error());
    setups.push_back(
        HostPortSetup{&port, *queue, rx_not_polled_reason(port, {}).empty(), st.kernel_netdev(p), std::move(hosts)});
  }
  if (!st.hosts && !setups.empty()) st.hosts = std::make_unique<HostService>();
  if (st.hosts)
    if (auto ok = st.hosts->set_hosts(std::move(setups)); !ok) return std::unexpected(ok.error());
  st.profile.devices = devices;
  // The on-link neighbours of the streams loaded already are asked for from now.
  for (const api::StreamSpec& s : st.profile.streams)
    if ((s.eth_src_auto || s.eth_dst_auto) && st.hosts) (void)st.hosts->prepare_stream(s);
  return total;
}

Result<std::vector<api::PortNeighbors>> Engine::neighbors(const std::optional<std::string>& port) const {
  const State& st = *state_;
  if (port && std::none_of(st.ports.begin(), st.ports.end(), [&](const EthdevPort& p) { return p.name() == *port; }))
    return make_error(Errc::kInvalid, fmt::format("no port is named '{}'", *port));
  std::vector<api::PortNeighbors> out = st.hosts ? st.hosts->neighbors(port) : std::vector<api::PortNeighbors>{};
  if (port && out.empty())
    return make_error(Errc::kInvalid, fmt::format("port '{}' has no emulated hosts (a [[device]] on it, or "
                                                  "device.load, gives it some)",
                                                  *port));
  return out;
}

void Engine::State::hand_rx_to_workers() {
  for (LcoreState& l : run.lcores)
    for (size_t i = 0; i < l.rxqs.size(); ++i)
      l.rxqs[i].slow_path = hosts ? hosts->slow_path(l.rxqs[i].port_id) : nullptr;
  if (hosts) hosts->hand_rx_to_workers();
}

Result<void> Engine::State::resolve_auto_streams(const std::vector<std::string>& only_streams) {
  const auto runs = [&](const api::StreamSpec& s) {
    return (s.eth_src_auto || s.eth_dst_auto) &&
           (only_streams.empty() || std::find(only_streams.begin(), only_streams.end(), s.name) != only_streams.end());
  };
  // Most runs have none: their streams are not copied at each start.
  if (std::none_of(profile.streams.begin(), profile.streams.end(), runs)) return {};
  std::vector<api::StreamSpec> streams = profile.streams;
  for (const api::StreamSpec& s : streams) {
    if (!runs(s)) continue;
    if (!hosts)
      return make_error(Errc::kInvalid, fmt::format("stream '{}': {} 'auto' needs emulated hosts on port '{}': none "
                                                    "are loaded ([[device]], or device.load)",
                                                    s.name, s.eth_dst_auto ? "eth.dst" : "eth.src", s.tx_port));
    // Every stream's next hop asked for at once: the wait below is one for all of them.
    if (auto ok = hosts->prepare_stream(s); !ok) return ok;
  }
  const auto deadline = std::chrono::steady_clock::now() + kResolveWait;
  bool changed = false;
  for (api::StreamSpec& s : streams) {
    if (!runs(s)) continue;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    auto macs = hosts->stream_macs(s, std::max(left, std::chrono::milliseconds(0)));
    if (!macs) return std::unexpected(macs.error());
    changed |= s.eth_src != macs->src || s.eth_dst != macs->dst;
    s.eth_src = macs->src;
    s.eth_dst = macs->dst;
  }
  if (!changed) return {};
  profile.streams = std::move(streams);
  auto built = build_run_state();
  if (!built) finished = true;  // the next start builds the run again
  return built;
}

}  // namespace lr::dp
