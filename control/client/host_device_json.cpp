#include "control/client/host_device_json.hpp"

#include "lib/hosts/address_text.hpp"

namespace lr::ctl {

using nlohmann::json;

json to_device_json(const api::DeviceSpec& device) {
  const api::HostSpec& first = device.first;
  json out = {{"name", device.name},
              {"port", first.port},
              {"mac", hosts::mac_text(first.mac)},
              {"count", device.count},
              {"mac_step", hosts::mac_text(device.mac_step)}};
  if (first.vlan) {
    out["vlan"] = *first.vlan;
    out["vlan_step"] = device.vlan_step;
  }
  if (first.ipv4) {
    json ipv4 = {{"address", hosts::ipv4_text(first.ipv4->address)}, {"prefix", first.ipv4->prefix}};
    if (first.ipv4->gateway) ipv4["gateway"] = hosts::ipv4_text(*first.ipv4->gateway);
    out["ipv4"] = std::move(ipv4);
    out["ipv4_step"] = hosts::ipv4_text(device.ipv4_step);
  }
  if (first.ipv6) {
    json ipv6 = {{"address", hosts::ipv6_text(first.ipv6->address)}, {"prefix", first.ipv6->prefix}};
    if (first.ipv6->gateway) ipv6["gateway"] = hosts::ipv6_text(*first.ipv6->gateway);
    out["ipv6"] = std::move(ipv6);
    out["ipv6_step"] = hosts::ipv6_text(device.ipv6_step);
  }
  return out;
}

json to_device_json(const std::vector<api::DeviceSpec>& devices) {
  json out = json::array();
  for (const api::DeviceSpec& device : devices) out.push_back(to_device_json(device));
  return out;
}

}  // namespace lr::ctl
