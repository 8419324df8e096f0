#include "control/suites/bench/rfc2889_section.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <utility>

#include "lib/profile/device_table.hpp"
#include "lib/profile/load_toml.hpp"
#include "lib/profile/quantity.hpp"

namespace lr::bench {

using profile::ConfigError;
using profile::kDurationHelp;
using profile::loc_of;
using profile::parse_duration_ns;
using profile::parse_rate;
using profile::TableReader;

namespace {

constexpr unsigned kFcsAndHeaderBytes = 18;  // Ethernet header and FCS: the MTU counts the rest

std::vector<double> read_loads(TableReader& in) {
  const toml::node* node = in.find("loads");
  const toml::array* list = node->as_array();
  if (list == nullptr || list->empty()) in.fail(node, "loads", "expected a non-empty array of loads, e.g. [\"50%\", \"100%\"]");
  std::vector<double> loads;
  for (const toml::node& item : *list) {
    const auto rate = item.is_string() ? parse_rate(item.as_string()->get()) : std::nullopt;
    if (!rate || rate->kind != api::RateKind::kPercentOfLine || rate->value <= 0 || rate->value > 100)
      in.fail(&item, "loads", "expected a share of each port's line rate, e.g. '50%' (above 0, at most 100 %)");
    loads.push_back(rate->value);
  }
  std::sort(loads.begin(), loads.end());
  loads.erase(std::unique(loads.begin(), loads.end()), loads.end());
  return loads;
}

double read_fps(TableReader& in, const char* key, double fallback) {
  return in.number(key, 1, 1e9).value_or(fallback);
}

// `devices`: each port of `ports` on exactly one of two or more devices.
void read_devices(TableReader& in, Rfc2889Cfg& cfg) {
  const toml::node* node = in.find("devices");
  if (node == nullptr) return;
  constexpr const char* kHelp = "expected an array of two or more arrays of port names, e.g. [[\"t1\", \"t2\"], [\"t3\", \"t4\"]]";
  const toml::array* list = node->as_array();
  if (list == nullptr || list->size() < 2) in.fail(node, "devices", kHelp);
  for (const toml::node& item : *list) {
    const toml::array* ports = item.as_array();
    if (ports == nullptr || ports->empty()) in.fail(&item, "devices", kHelp);
    std::vector<std::string>& device = cfg.devices.emplace_back();
    for (const toml::node& port : *ports) {
      if (!port.is_string()) in.fail(&port, "devices", kHelp);
      device.push_back(port.as_string()->get());
    }
  }
  for (const std::string& port : cfg.ports) {
    size_t found = 0;
    for (const std::vector<std::string>& device : cfg.devices) found += std::count(device.begin(), device.end(), port);
    if (found != 1)
      in.fail(node, "devices", fmt::format("port '{}' is on {} devices: each of `ports` is on exactly one", port, found));
  }
  size_t named = 0;
  for (const std::vector<std::string>& device : cfg.devices) named += device.size();
  if (named != cfg.ports.size()) in.fail(node, "devices", "names a port that is not in `ports`");
}

// The neighbour tests' search, rates and flap (their devices are checked against the profile).
void read_neighbor_keys(TableReader& in, Rfc2889Cfg& cfg) {
  if (auto v = in.integer<uint32_t>("min_hosts", 1, profile::kMaxProfileHosts)) cfg.min_hosts = *v;
  if (auto v = in.integer<uint32_t>("max_hosts", 1, profile::kMaxProfileHosts)) cfg.max_hosts = *v;
  if (cfg.max_hosts != 0 && cfg.min_hosts > cfg.max_hosts)
    in.fail(in.find("min_hosts"), "min_hosts", fmt::format("{} is above max_hosts ({})", cfg.min_hosts, cfg.max_hosts));
  cfg.host_rate_fps = read_fps(in, "host_rate", cfg.host_rate_fps);
  if (auto v = in.integer<uint32_t>("reresolution_hosts", 1, kMaxReresolutionHosts)) cfg.reresolution_hosts = *v;
  cfg.reresolution_rate_fps = read_fps(in, "reresolution_rate", cfg.reresolution_rate_fps);
  if (auto v = in.parsed<uint64_t>("link_down", parse_duration_ns, kDurationHelp)) cfg.link_down_ns = *v;
  if (cfg.link_down_ns < 10'000'000 || cfg.link_down_ns > 60'000'000'000)
    in.fail(in.find("link_down"), "link_down", "from 10ms to 60s: how long the hosts' port's link stays down");
}

// The neighbour tests' two devices: named [[device]]s on two ports, with IPv4, the sender's
// with a gateway, the hosts off its subnet (else the frames are not routed), enough of them.
template <class Fail>
void validate_neighbor_devices(const profile::Profile& profile, const Rfc2889Cfg& cfg, Fail&& fail) {
  const auto device_named = [&](const char* key, const std::string& name) -> const api::DeviceSpec& {
    for (const api::DeviceSpec& d : profile.devices)
      if (d.name == name) {
        if (!d.first.ipv4) fail(key, fmt::format("[[device]] '{}' has no ipv4: the neighbour tests send IPv4", name));
        return d;
      }
    fail(key, fmt::format("no [[device]] is named '{}'", name));
    __builtin_unreachable();
  };
  const api::DeviceSpec& sender = device_named("sender_device", cfg.sender_device);
  const api::DeviceSpec& hosts = device_named("hosts_device", cfg.hosts_device);
  if (sender.first.port == hosts.first.port)
    fail("hosts_device", fmt::format("'{}' is on port '{}', as sender_device is: the frames must cross the device "
                                     "from one port to another",
                                     hosts.name, hosts.first.port));
  if (!sender.first.ipv4->gateway)
    fail("sender_device",
         fmt::format("[[device]] '{}' has no ipv4 gateway: its frames go to the router it resolves", sender.name));
  const uint8_t prefix = sender.first.ipv4->prefix;
  const uint32_t mask = prefix == 0 ? 0 : ~uint32_t{0} << (32 - prefix);
  // Every host, not the first only: a step can take a later one onto the sender's subnet.
  for (uint32_t i = 0; i < hosts.count; ++i) {
    const uint32_t address = hosts.first.ipv4->address + i * hosts.ipv4_step;
    if ((sender.first.ipv4->address & mask) != (address & mask)) continue;
    const std::string which = i == 0 ? fmt::format("'{}'", hosts.name)
                                     : fmt::format("'{}[{}]' ({}.{}.{}.{})", hosts.name, i, address >> 24,
                                                   (address >> 16) & 255, (address >> 8) & 255, address & 255);
    fail("hosts_device",
         fmt::format("{} is on sender_device's own subnet (/{}): the frames would not be routed", which, prefix));
  }
  // min_hosts above a written max_hosts was refused as read: past the count is all that is left.
  for (const auto& [key, n] : {std::pair{"max_hosts", cfg.max_hosts}, std::pair{"min_hosts", cfg.min_hosts}})
    if (n > hosts.count)
      fail(key, fmt::format("{} is more than [[device]] '{}' has (count = {})", n, hosts.name, hosts.count));
}

}  // namespace

double address_wait_s(uint32_t addresses, double learning_fps, double test_fps) {
  // Address i is learned at i / learning_fps after the first and tested at n / learning_fps
  // + the pause + i / test_fps: the first or the last waits longest.
  return static_cast<double>(kLearnToTestNs) / 1e9 + addresses / std::min(learning_fps, test_fps);
}

Rfc2889Cfg read_rfc2889(TableReader& in) {
  Rfc2889Cfg cfg;
  cfg.loc = loc_of(in.table());
  cfg.learning_frames = 0;  // each run's hellos teach the device the stations
  cfg.rest_ns = 1'000'000'000;
  if (auto v = in.strings("tests", "expected an array of test names, e.g. [\"fully_meshed\", \"address_caching\"]")) {
    for (const std::string& t : *v)
      if (std::find(std::begin(Rfc2889Cfg::kTests), std::end(Rfc2889Cfg::kTests), t) == std::end(Rfc2889Cfg::kTests))
        in.fail(in.find("tests"), "tests",
                fmt::format("'{}' is not a test of [rfc2889]: {}", t,
                            fmt::join(std::begin(Rfc2889Cfg::kTests), std::end(Rfc2889Cfg::kTests), ", ")));
    if (v->empty()) in.fail(in.find("tests"), "tests", "name at least one test");
    cfg.tests = std::move(*v);
  }
  if (auto v = in.strings("ports", "expected an array of the tester's port names, e.g. [\"t1\", \"t2\", \"t3\", \"t4\"]"))
    cfg.ports = std::move(*v);
  read_devices(in, cfg);
  if (auto v = in.string("sender_device")) cfg.sender_device = *v;
  if (auto v = in.string("hosts_device")) cfg.hosts_device = *v;
  const auto neighbor_test = [](std::string_view t) {
    return std::find(std::begin(Rfc2889Cfg::kNeighborTests), std::end(Rfc2889Cfg::kNeighborTests), t) !=
           std::end(Rfc2889Cfg::kNeighborTests);
  };
  if (cfg.tests.empty())
    for (const char* t : Rfc2889Cfg::kTests)
      if ((std::string_view(t) != "multiple_devices" || !cfg.devices.empty()) &&
          (!neighbor_test(t) || !cfg.hosts_device.empty()))
        cfg.tests.emplace_back(t);
  for (const char* key : {"sender_device", "hosts_device"})
    if (std::ranges::any_of(cfg.tests, neighbor_test) && in.find(key) == nullptr)
      in.fail(in.find("tests"), "tests",
              fmt::format("the neighbour tests need `{}`: the [[device]] whose {} (sender_device = \"left\", "
                          "hosts_device = \"right\")",
                          key,
                          std::string_view(key) == "sender_device" ? "first host sends through the device"
                                                                   : "hosts the frames go to through the device"));
  if (cfg.runs("multiple_devices") && cfg.devices.empty())
    in.fail(in.find("tests"), "tests", "multiple_devices needs `devices`: the ports on each device, e.g. "
                                       "devices = [[\"t1\", \"t2\"], [\"t3\", \"t4\"]]");
  if (cfg.ports.size() < 2)
    in.fail(in.find("ports"), "ports", "name at least two of the tester's ports, each cabled to a port of the device");
  for (size_t i = 0; i < cfg.ports.size(); ++i)
    for (size_t j = i + 1; j < cfg.ports.size(); ++j)
      if (cfg.ports[i] == cfg.ports[j]) in.fail(in.find("ports"), "ports", fmt::format("'{}' is named twice", cfg.ports[i]));
  if (const toml::node* node = in.find("frame_sizes")) {
    const toml::array* list = node->as_array();
    if (list == nullptr || list->empty()) in.fail(node, "frame_sizes", "expected a non-empty array of frame sizes, e.g. [64, 1518]");
    cfg.frame_sizes.clear();
    for (const toml::node& item : *list) cfg.frame_sizes.push_back(in.integer_of<uint16_t>(&item, "frame_sizes", 64, 9600));
  }
  if (in.find("loads") != nullptr) cfg.loads_percent = read_loads(in);
  if (auto v = in.parsed<uint64_t>("trial_duration", parse_duration_ns, kDurationHelp)) cfg.trial_duration_ns = *v;
  if (cfg.trial_duration_ns < 10'000'000) in.fail(in.find("trial_duration"), "trial_duration", "a trial must last at least 10ms");
  if (auto v = in.parsed<uint64_t>("rest", parse_duration_ns, kDurationHelp)) cfg.rest_ns = *v;
  if (auto v = in.percent("resolution", 0.001, 50)) cfg.resolution_percent = *v;
  if (auto v = in.parsed<uint64_t>("age_time", parse_duration_ns, kDurationHelp)) cfg.age_time_ns = *v;
  cfg.address_rate_fps = read_fps(in, "address_rate", cfg.address_rate_fps);
  if (auto v = in.integer<uint32_t>("min_addresses", 1, api::kMaxMacTableSize * 4)) cfg.min_addresses = *v;
  if (auto v = in.integer<uint32_t>("max_addresses", 1, api::kMaxMacTableSize * 4)) cfg.max_addresses = *v;
  if (cfg.min_addresses > cfg.max_addresses)
    in.fail(in.find("min_addresses"), "min_addresses",
            fmt::format("{} is above max_addresses ({})", cfg.min_addresses, cfg.max_addresses));
  if (auto v = in.integer<uint32_t>("learning_addresses", 1, api::kMaxMacTableSize * 4)) cfg.learning_addresses = *v;
  cfg.min_learning_rate_fps = read_fps(in, "min_learning_rate", cfg.min_learning_rate_fps);
  cfg.max_learning_rate_fps = read_fps(in, "max_learning_rate", cfg.max_learning_rate_fps);
  if (cfg.min_learning_rate_fps >= cfg.max_learning_rate_fps)
    in.fail(in.find("min_learning_rate"), "min_learning_rate",
            fmt::format("{} frames/s is not below max_learning_rate ({})", cfg.min_learning_rate_fps, cfg.max_learning_rate_fps));
  if (auto v = in.percent("learning_resolution", 0.01, 50)) cfg.learning_resolution_percent = *v;
  if (auto v = in.integer<uint16_t>("oversize_frame", 65, 9600)) cfg.oversize_bytes = *v;
  if (auto v = in.percent("broadcast_load", 0.001, 100)) cfg.broadcast_load_percent = *v;
  read_neighbor_keys(in, cfg);
  cfg.key_locs = in.key_locs();
  in.finish();
  return cfg;
}

// The ports exist and can carry the frames; the address tests know the device's aging
// time and fit within it; each test has the ports it needs.
void validate_rfc2889(const profile::Profile& profile, const Rfc2889Cfg& cfg) {
  const auto fail = [&](std::string_view key, const std::string& why) {
    throw ConfigError(profile.path, cfg.loc_of(key), fmt::format("rfc2889.{}", key), why);
  };
  for (const std::string& name : cfg.ports) {
    const api::PortSpec* port = profile.find_port(name);
    if (port == nullptr) fail("ports", fmt::format("no [[port]] is named '{}'", name));
    const unsigned mtu = port->mtu != 0 ? port->mtu : 1500;
    for (const uint16_t bytes : cfg.frame_sizes)
      if (bytes - kFcsAndHeaderBytes > mtu)
        fail("frame_sizes", fmt::format("{}-byte frames carry {}-byte packets, above port '{}''s MTU of {}: set its "
                                        "[[port]] mtu", bytes, bytes - kFcsAndHeaderBytes, name, mtu));
  }
  const auto needs = [&](const char* test, size_t ports, const char* why) {
    if (cfg.runs(test) && cfg.ports.size() < ports)
      fail("ports", fmt::format("{} needs {} ports ({}); {} named", test, ports, why, cfg.ports.size()));
  };
  needs("congestion_control", 4, "two senders, a congested and an uncongested receiver");
  needs("address_caching", 3, "a learning port, a test port and a monitor port");
  needs("address_learning", 3, "a learning port, a test port and a monitor port");
  needs("partially_meshed", 3, "one port to many, and many to one");
  if (cfg.runs("neighbor_caching") || cfg.runs("neighbor_reresolution")) validate_neighbor_devices(profile, cfg, fail);
  for (const char* test : {"address_caching", "address_learning"}) {
    if (!cfg.runs(test)) continue;
    if (cfg.age_time_ns == 0)
      fail("age_time", fmt::format("is required for {}: the device's address aging time, waited out between trials so "
                                   "that each starts with an empty table (e.g. '300s')", test));
  }
  if (cfg.runs("address_caching")) {
    const double wait_s = address_wait_s(cfg.max_addresses, cfg.address_rate_fps, cfg.address_rate_fps);
    if (wait_s * 1e9 >= static_cast<double>(cfg.age_time_ns))
      fail("max_addresses", fmt::format("{} addresses at {:g} frames/s wait up to {:.3f} s between their learning and "
                                        "test frames, not within age_time ({:g} s): they would age first; raise "
                                        "address_rate or lower max_addresses", cfg.max_addresses, cfg.address_rate_fps,
                                        wait_s, static_cast<double>(cfg.age_time_ns) / 1e9));
  }
  // With address_caching's count (learning_addresses unset) the suite checks it once known.
  if (cfg.runs("address_learning") && cfg.learning_addresses != 0) {
    const uint32_t addresses = cfg.learning_addresses;
    const double wait_s = address_wait_s(addresses, cfg.min_learning_rate_fps, cfg.address_rate_fps);
    if (wait_s * 1e9 >= static_cast<double>(cfg.age_time_ns))
      fail("min_learning_rate", fmt::format("{} addresses at {:g} frames/s (tested at address_rate) wait up to {:.3f} s "
                                            "for their test frames, not within age_time ({:g} s): they would age "
                                            "first; raise min_learning_rate or set fewer learning_addresses",
                                            addresses, cfg.min_learning_rate_fps, wait_s,
                                            static_cast<double>(cfg.age_time_ns) / 1e9));
  }
}

}  // namespace lr::bench
