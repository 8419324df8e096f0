#include "control/cli/setup_differences.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "lib/profile/port_spec_json.hpp"
#include "lib/profile/switch_spec_json.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

template <class T>
const T* named(const std::vector<T>& items, const std::string& name) {
  const auto it = std::find_if(items.begin(), items.end(), [&](const T& item) { return item.name == name; });
  return it == items.end() ? nullptr : &*it;
}

std::string value_text(const json& object, const std::string& key) {
  const auto it = object.find(key);
  if (it == object.end()) return "unset";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

// Key by key, the two JSON forms of one spec (their keys are the profile's), but `skip`.
void key_differences(const std::string& what, const json& want, const json& have, const std::set<std::string>& skip,
                     std::vector<std::string>& out) {
  std::set<std::string> keys;
  for (const auto& [key, value] : want.items()) keys.insert(key);
  for (const auto& [key, value] : have.items()) keys.insert(key);
  for (const std::string& key : keys) {
    if (skip.contains(key) || want.value(key, json()) == have.value(key, json())) continue;
    out.push_back(fmt::format("{}: {} is {} in the profile, {} in the data plane", what, key, value_text(want, key),
                              value_text(have, key)));
  }
}

void port_differences(const profile::Profile& profile, const ServedSetup& served, std::vector<std::string>& out) {
  for (const api::PortSpec& want : profile.ports) {
    const api::PortReport* have = named(served.ports, want.name);
    if (have == nullptr) {
      out.push_back(fmt::format("port '{}' ({}) is not one of the data plane's", want.name, want.device));
      continue;
    }
    if (have->device != want.device)
      out.push_back(
          fmt::format("port '{}': device {} in the profile, {} in the data plane", want.name, want.device, have->device));
    // The speed rates refer to: the data plane's is its profile's, else the link's.
    if (want.speed_bps != 0 && have->speed_bps != want.speed_bps)
      out.push_back(fmt::format("port '{}': speed {} Gbit/s in the profile, {} Gbit/s in the data plane", want.name,
                                static_cast<double>(want.speed_bps) / 1e9, static_cast<double>(have->speed_bps) / 1e9));
    if (const api::PortSpec* spec = named(served.port_specs, want.name))
      key_differences(fmt::format("port '{}'", want.name), profile::to_json(want), profile::to_json(*spec),
                      {"name", "device", "speed"}, out);
  }
}

void switch_differences(const profile::Profile& profile, const ServedSetup& served, std::vector<std::string>& out) {
  for (const api::SwitchSpec& want : profile.switches) {
    if (const api::SwitchSpec* have = named(served.switches, want.name))
      key_differences(fmt::format("switch '{}'", want.name), profile::to_json(want), profile::to_json(*have), {"name"},
                      out);
    else
      out.push_back(fmt::format("switch '{}' is not one of the data plane's", want.name));
  }
  for (const api::SwitchSpec& have : served.switches) {
    if (named(profile.switches, have.name) != nullptr) continue;
    // A switch the profile does not know sits between the profile's ports when one of
    // its ports is cabled to one of theirs.
    for (const api::SwitchPortSpec& port : have.ports) {
      const auto cable = profile::cable_name(port.device);
      const bool joins = cable && std::any_of(profile.ports.begin(), profile.ports.end(), [&](const api::PortSpec& p) {
                           return profile::cable_name(p.device) == cable;
                         });
      if (!joins) continue;
      out.push_back(fmt::format("the data plane runs switch '{}' on cable '{}', which the profile has no [[switch]] for",
                                have.name, *cable));
      break;
    }
  }
}

}  // namespace

std::vector<std::string> setup_differences(const profile::Profile& profile, const ServedSetup& served) {
  std::vector<std::string> out;
  port_differences(profile, served, out);
  switch_differences(profile, served, out);
  return out;
}

}  // namespace lr::ctl
