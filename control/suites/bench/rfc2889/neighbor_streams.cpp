#include "control/suites/bench/rfc2889/neighbor_streams.hpp"

#include <fmt/format.h>

#include <stdexcept>

namespace lr::bench::rfc2889 {

namespace {

constexpr uint16_t kNeighborFrameBytes = 64;

}  // namespace

const api::DeviceSpec& device_named(const profile::Profile& profile, const std::string& name) {
  for (const api::DeviceSpec& d : profile.devices)
    if (d.name == name) return d;
  throw std::runtime_error(fmt::format("no [[device]] is named '{}'", name));
}

uint32_t host_ipv4(const api::DeviceSpec& device, uint32_t index) {
  return device.first.ipv4->address + index * device.ipv4_step;
}

std::string ipv4_text(uint32_t a) {
  return fmt::format("{}.{}.{}.{}", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255);
}

api::StreamSpec routed_stream(const Plan& p, const std::string& name, uint32_t to) {
  const api::DeviceSpec& sender = device_named(p.profile, p.cfg.sender_device);
  const api::DeviceSpec& hosts = device_named(p.profile, p.cfg.hosts_device);
  api::StreamSpec s;
  s.name = name;
  s.tx_port = sender.first.port;
  s.rx_port = hosts.first.port;
  s.eth_src_auto = s.eth_dst_auto = true;
  s.ipv4.src = sender.first.ipv4->address;
  s.ipv4.dst = to;
  s.frame.sizes = {kNeighborFrameBytes};
  s.catch_up = false;  // a burst of new destinations is not the rate asked
  return s;
}

std::vector<api::DeviceSpec> devices_with_hosts(const Plan& p, uint32_t n) {
  std::vector<api::DeviceSpec> devices = p.profile.devices;
  for (api::DeviceSpec& d : devices)
    if (d.name == p.cfg.hosts_device) d.count = n;
  return devices;
}

}  // namespace lr::bench::rfc2889
