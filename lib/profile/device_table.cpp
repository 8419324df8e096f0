#include "lib/profile/device_table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "lib/hosts/host_expansion.hpp"
#include "lib/profile/load_toml.hpp"
#include "lib/profile/quantity.hpp"

namespace lr::profile {

namespace {

constexpr const char* kMacHelp = "a MAC address: write e.g. '02:00:00:00:00:01'";
constexpr const char* kIpv4Help = "an IPv4 address: write e.g. '192.0.2.1'";
constexpr const char* kIpv6Help = "an IPv6 address: write e.g. '2001:db8::1'";

template <class T, class Parse>
T required(TableReader& in, const char* key, Parse parse, const char* help) {
  const std::optional<T> value = in.parsed<T>(key, parse, help);
  if (!value) in.fail(nullptr, key, "is required");
  return *value;
}

// ipv4 = { address, prefix, gateway }.
void read_ipv4(TableReader& in, api::HostSpec& host) {
  const toml::table* table = in.subtable("ipv4");
  if (table == nullptr) return;
  TableReader v(*table, in.prefix() + "ipv4.", in.file());
  api::HostIpv4 ip;
  ip.address = required<uint32_t>(v, "address", parse_ipv4, kIpv4Help);
  if (auto p = v.integer<uint8_t>("prefix", 0, 32)) ip.prefix = *p;
  ip.gateway = v.parsed<uint32_t>("gateway", parse_ipv4, kIpv4Help);
  v.finish();
  host.ipv4 = ip;
}

// ipv6 = { address, prefix, gateway }.
void read_ipv6(TableReader& in, api::HostSpec& host) {
  const toml::table* table = in.subtable("ipv6");
  if (table == nullptr) return;
  TableReader v(*table, in.prefix() + "ipv6.", in.file());
  api::HostIpv6 ip;
  ip.address = required<api::Ipv6Addr>(v, "address", parse_ipv6, kIpv6Help);
  if (auto p = v.integer<uint8_t>("prefix", 0, 128)) ip.prefix = *p;
  ip.gateway = v.parsed<api::Ipv6Addr>("gateway", parse_ipv6, kIpv6Help);
  v.finish();
  host.ipv6 = ip;
}

// count and the steps; a step goes with what it steps.
void read_range(TableReader& in, api::DeviceSpec& d) {
  if (auto v = in.integer<uint32_t>("count", 1, kMaxProfileHosts)) d.count = *v;
  if (auto v = in.parsed<api::MacAddr>("mac_step", parse_mac, kMacHelp)) d.mac_step = *v;
  if (auto v = in.parsed<uint32_t>("ipv4_step", parse_ipv4, "an IPv4 address as a step: write e.g. '0.0.0.1'"))
    d.ipv4_step = *v;
  if (auto v = in.parsed<api::Ipv6Addr>("ipv6_step", parse_ipv6, "an IPv6 address as a step: write e.g. '::1'"))
    d.ipv6_step = *v;
  if (auto v = in.integer<uint16_t>("vlan_step", 0, 4094)) d.vlan_step = *v;
  const struct {
    const char* step;
    bool stepped;
    const char* needs;
  } steps[] = {{"ipv4_step", d.first.ipv4.has_value(), "ipv4 = { address = ... }"},
               {"ipv6_step", d.first.ipv6.has_value(), "ipv6 = { address = ... }"},
               {"vlan_step", d.first.vlan.has_value(), "vlan"}};
  for (const auto& s : steps)
    if (!s.stepped && in.find(s.step) != nullptr)
      in.fail(in.find(s.step), s.step, fmt::format("goes with {}", s.needs));
}

// The key an expansion error blames: a step the table does not write is its default's,
// and then the count is what took the range too far.
std::string blamed_key(const api::DeviceSpec& d, const std::string& key) {
  return key.ends_with("_step") && !d.key_locs.contains(key) ? "count" : key;
}

std::string port_names(const Profile& profile) {
  std::string have;
  for (const api::PortSpec& port : profile.ports) have += (have.empty() ? "" : ", ") + port.name;
  return have.empty() ? "none" : have;
}

}  // namespace

api::DeviceSpec read_device(TableReader& in, const Profile& profile) {
  api::DeviceSpec d;
  d.loc = loc_of(in.table());
  d.name = in.required_string("name");
  for (const api::DeviceSpec& other : profile.devices)
    if (other.name == d.name) in.fail(in.find("name"), "name", fmt::format("device name '{}' is used twice", d.name));
  d.first.port = in.required_string("port");
  if (profile.find_port(d.first.port) == nullptr)
    in.fail(in.find("port"), "port",
            fmt::format("device '{}' is on port '{}', which the profile does not have (it has {})", d.name,
                        d.first.port, port_names(profile)));
  d.first.mac = required<api::MacAddr>(in, "mac", parse_mac, kMacHelp);
  if (auto v = in.integer<uint16_t>("vlan", 1, 4094)) d.first.vlan = *v;
  read_ipv4(in, d.first);
  read_ipv6(in, d.first);
  read_range(in, d);
  in.finish();
  d.key_locs = in.key_locs();
  uint64_t hosts = d.count;
  for (const api::DeviceSpec& other : profile.devices) hosts += other.count;
  if (hosts > kMaxProfileHosts)
    in.fail(in.find("count"), "count",
            fmt::format("the devices hold {} hosts with this one, at most {}", hosts, kMaxProfileHosts));
  if (auto expanded = hosts::expand_device(d); !expanded) {
    const std::string key = blamed_key(d, expanded.error().key);
    in.fail(in.find(key.c_str()), key, expanded.error().message);
  }
  return d;
}

void check_device_hosts(const Profile& profile, std::string_view table) {
  std::vector<api::HostSpec> all;
  for (const api::DeviceSpec& d : profile.devices)
    if (auto hosts = hosts::expand_device(d)) all.insert(all.end(), hosts->begin(), hosts->end());
  const auto distinct = hosts::check_distinct(all);
  if (distinct) return;
  // The message names both hosts; the error points at the device of the second.
  const std::string& device = all[distinct.error().host].device;
  const auto i = static_cast<size_t>(std::find_if(profile.devices.begin(), profile.devices.end(),
                                                  [&](const api::DeviceSpec& d) { return d.name == device; }) -
                                     profile.devices.begin());
  const std::string key = blamed_key(profile.devices[i], distinct.error().key);
  throw ConfigError(profile.path, profile.devices[i].loc_of(key), fmt::format("{}[{}].{}", table, i, key),
                    distinct.error().message);
}

}  // namespace lr::profile
