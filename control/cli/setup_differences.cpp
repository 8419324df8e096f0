#include "control/cli/setup_differences.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

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

// The speed rates refer to: the data plane's is its profile's, else the link's.
void speed_difference(const std::string& what, const api::PortSpec& want, const api::PortReport& have,
                      std::vector<std::string>& out) {
  if (want.speed_bps != 0 && have.speed_bps != want.speed_bps)
    out.push_back(fmt::format("{}: speed {} Gbit/s in the profile, {} Gbit/s in the data plane", what,
                              static_cast<double>(want.speed_bps) / 1e9, static_cast<double>(have.speed_bps) / 1e9));
}

// Whether one of `devices` is an end of `cable`.
bool on_cable(const std::vector<std::string>& devices, const std::string& cable) {
  return std::any_of(devices.begin(), devices.end(),
                     [&](const std::string& device) { return profile::cable_name(device) == cable; });
}

void port_differences(const profile::Profile& profile, const ServedSetup& served, std::vector<std::string>& out) {
  for (const api::PortSpec& want : profile.ports) {
    const api::PortReport* have = named(served.ports, want.name);
    if (have == nullptr) {
      out.push_back(fmt::format("port '{}' ({}) is not one of the data plane's", want.name, want.device));
      continue;
    }
    if (have->device != want.device)
      out.push_back(fmt::format("port '{}': device {} in the profile, {} in the data plane", want.name, want.device,
                                have->device));
    speed_difference(fmt::format("port '{}'", want.name), want, *have, out);
    if (const api::PortSpec* spec = named(served.port_specs, want.name))
      key_differences(fmt::format("port '{}'", want.name), profile::to_json(want), profile::to_json(*spec),
                      {"name", "device", "speed"}, out);
  }
}

// A switch of a data plane's that the profile does not name sits between the profile's
// ports when one of its ports is cabled to one of theirs (`devices`, their devices there).
void unnamed_switches(const std::vector<api::SwitchSpec>& named_in_profile, const ServedSetup& served,
                      const std::vector<std::string>& devices, const std::string& data_plane,
                      std::vector<std::string>& out) {
  for (const api::SwitchSpec& have : served.switches) {
    if (named(named_in_profile, have.name) != nullptr) continue;
    for (const api::SwitchPortSpec& port : have.ports) {
      const auto cable = profile::cable_name(port.device);
      if (!cable || !on_cable(devices, *cable)) continue;
      out.push_back(fmt::format("{} runs switch '{}' on cable '{}', which the profile has no [[switch]] for",
                                data_plane, have.name, *cable));
      break;
    }
  }
}

void switch_differences(const profile::Profile& profile, const ServedSetup& served, std::vector<std::string>& out) {
  for (const api::SwitchSpec& want : profile.switches) {
    if (const api::SwitchSpec* have = named(served.switches, want.name))
      key_differences(fmt::format("switch '{}'", want.name), profile::to_json(want), profile::to_json(*have), {"name"},
                      out);
    else out.push_back(fmt::format("switch '{}' is not one of the data plane's", want.name));
  }
  std::vector<std::string> devices;
  for (const api::PortSpec& p : profile.ports) devices.push_back(p.device);
  unnamed_switches(profile.switches, served, devices, "the data plane", out);
}

// A located port's keys that the profile sets (those its [[port]] table gives; from JSON,
// with no keys known, those other than a port's defaults) against its data plane's port
// `local` there.
void located_port_differences(const api::PortSpec& want, const std::string& local, const ServedSetup& served,
                              const std::string& data_plane, std::vector<std::string>& out) {
  const std::string what = fmt::format("port '{}' ({};{})", want.name, data_plane, local);
  const api::PortReport* have = named(served.ports, local);
  if (have == nullptr) return;  // the fleet found it there: a data plane that lists none
  speed_difference(what, want, *have, out);
  const api::PortSpec* spec = named(served.port_specs, local);
  if (spec == nullptr) return;
  const json given = profile::to_json(want), defaults = profile::to_json(api::PortSpec{});
  json set = json::object(), theirs = json::object();
  const json there = profile::to_json(*spec);
  const auto given_here = [&](const std::string& key, const json& value) {
    return want.key_locs.empty() ? defaults.value(key, json()) != value : want.key_locs.contains(key);
  };
  for (const auto& [key, value] : given.items()) {
    if (key == "name" || key == "device" || key == "speed" || !given_here(key, value)) continue;
    set[key] = value;
    if (there.contains(key)) theirs[key] = there.at(key);  // else "unset" in the line
  }
  key_differences(what, set, theirs, {}, out);
}

// Each cable of switch `sw` ends at a port of the run (`devices`, their devices) on the data
// plane at `address`, which runs it: else the switch sits beside the run, not in it.
void cables_to_the_run(const api::SwitchSpec& sw, const std::vector<std::string>& devices, const std::string& address,
                       std::vector<std::string>& out) {
  for (const api::SwitchPortSpec& port : sw.ports)
    if (const auto cable = profile::cable_name(port.device); cable && !on_cable(devices, *cable))
      out.push_back(fmt::format("switch '{}' port '{}': cable '{}' ends at no port of the run on the data plane at {}",
                                sw.name, port.name, *cable, address));
}

}  // namespace

std::vector<std::string> setup_differences(const profile::Profile& profile, const ServedSetup& served) {
  std::vector<std::string> out;
  port_differences(profile, served, out);
  switch_differences(profile, served, out);
  return out;
}

std::vector<std::string> fleet_setup_differences(const profile::Profile& profile,
                                                 const std::vector<EngineSetup>& engines) {
  std::vector<std::string> out;
  std::vector<std::vector<std::string>> devices(engines.size());  // of the profile's ports on each
  for (size_t e = 0; e < engines.size(); ++e) {
    const EngineSetup& engine = engines[e];
    for (const auto& [local, profile_name] : engine.ports) {
      if (const api::PortSpec* want = named(profile.ports, profile_name))
        located_port_differences(*want, local, engine.served, engine.address, out);
      if (const api::PortReport* have = named(engine.served.ports, local)) devices[e].push_back(have->device);
    }
    unnamed_switches(profile.switches, engine.served, devices[e], fmt::format("the data plane at {}", engine.address),
                     out);
  }
  for (const api::SwitchSpec& want : profile.switches) {
    std::vector<size_t> running;
    for (size_t e = 0; e < engines.size(); ++e)
      if (named(engines[e].served.switches, want.name) != nullptr) running.push_back(e);
    if (running.size() == 1) {
      const EngineSetup& there = engines[running[0]];
      key_differences(fmt::format("switch '{}' (the data plane at {})", want.name, there.address),
                      profile::to_json(want), profile::to_json(*named(there.served.switches, want.name)), {"name"},
                      out);
      cables_to_the_run(want, devices[running[0]], there.address, out);
      continue;
    }
    std::vector<std::string> runs;  // what each data plane runs
    for (const EngineSetup& engine : engines) {
      std::vector<std::string> names;
      for (const api::SwitchSpec& sw : engine.served.switches) names.push_back("'" + sw.name + "'");
      runs.push_back(names.empty() ? engine.address + " runs none"
                                   : fmt::format("{} runs {}", engine.address, fmt::join(names, ", ")));
    }
    out.push_back(
        fmt::format("switch '{}' is {} of the run's data planes ({}): run it on one, beside ports the run uses",
                    want.name, running.empty() ? "not run by any" : "run by more than one", fmt::join(runs, "; ")));
  }
  return out;
}

}  // namespace lr::ctl
