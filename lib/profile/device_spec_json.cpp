#include "lib/profile/device_spec_json.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "lib/hosts/address_text.hpp"
#include "lib/profile/device_table.hpp"
#include "lib/profile/json_table.hpp"
#include "lib/profile/load_toml.hpp"

namespace lr::profile {

using nlohmann::json;

namespace {

// An IPv6 step as it is written ("::1", "::1:0"): inet_ntop would write a small one as an
// IPv4-compatible address ("::0.1.0.0"), which RFC 4291 deprecated.
std::string ipv6_step_text(const api::Ipv6Addr& step) {
  const bool small = std::all_of(step.begin(), step.begin() + 12, [](uint8_t b) { return b == 0; });
  if (!small) return hosts::ipv6_text(step);
  const unsigned high = step[12] << 8 | step[13];
  const unsigned low = step[14] << 8 | step[15];
  if (high != 0) return fmt::format("::{:x}:{:x}", high, low);
  return low != 0 ? fmt::format("::{:x}", low) : "::";
}

}  // namespace

json to_json(const api::DeviceSpec& d) {
  const api::HostSpec& h = d.first;
  json out = {{"name", d.name},
              {"port", h.port},
              {"mac", hosts::mac_text(h.mac)},
              {"count", d.count},
              {"mac_step", hosts::mac_text(d.mac_step)}};
  if (h.vlan) {
    out["vlan"] = *h.vlan;
    out["vlan_step"] = d.vlan_step;
  }
  if (h.ipv4) {
    out["ipv4"] = {{"address", hosts::ipv4_text(h.ipv4->address)}, {"prefix", h.ipv4->prefix}};
    if (h.ipv4->gateway) out["ipv4"]["gateway"] = hosts::ipv4_text(*h.ipv4->gateway);
    out["ipv4_step"] = hosts::ipv4_text(d.ipv4_step);
  }
  if (h.ipv6) {
    out["ipv6"] = {{"address", hosts::ipv6_text(h.ipv6->address)}, {"prefix", h.ipv6->prefix}};
    if (h.ipv6->gateway) out["ipv6"]["gateway"] = hosts::ipv6_text(*h.ipv6->gateway);
    out["ipv6_step"] = ipv6_step_text(d.ipv6_step);
  }
  return out;
}

json to_json(const std::vector<api::DeviceSpec>& devices) {
  json out = json::array();
  for (const api::DeviceSpec& d : devices) out.push_back(to_json(d));
  return out;
}

std::vector<api::DeviceSpec> devices_from_json(const json& devices, const std::string& where, const Profile& running) {
  if (!devices.is_array())
    throw ConfigError(where, {}, "devices",
                      fmt::format("expected an array of device objects, found {}", devices.type_name()));
  // The running profile's ports, and the new devices alone: read_device checks each
  // against those read before it (names, the hosts' total), check_device_hosts all.
  Profile checked;
  checked.path = where;
  checked.ports = running.ports;
  for (size_t i = 0; i < devices.size(); ++i)
    checked.devices.push_back(read_json_section(devices[i], where, fmt::format("devices[{}]", i),
                                                "a [[device]] table's keys",
                                                [&](TableReader& in) { return read_device(in, checked); }));
  check_device_hosts(checked, "devices");
  return checked.devices;
}

}  // namespace lr::profile
