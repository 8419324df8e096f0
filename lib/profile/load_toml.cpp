// The profile's sections read and cross-checked: each key with its range, default and the
// file:line:column error that names it ([[stream]] tables: stream_table.cpp).
#include "lib/profile/load_toml.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "lib/common/line_rate.hpp"
#include "lib/profile/capture_table.hpp"
#include "lib/profile/device_table.hpp"
#include "lib/profile/port_table.hpp"
#include "lib/profile/quantity.hpp"
#include "lib/profile/run_table.hpp"
#include "lib/profile/shared_keys.hpp"
#include "lib/profile/stream_hosts.hpp"
#include "lib/profile/stream_table.hpp"
#include "lib/profile/switch_table.hpp"
#include "lib/profile/table_reader.hpp"
#include "lib/wire/mac_control.hpp"
#include "lib/wire/roce.hpp"
#include "lib/wire/signature.hpp"

namespace lr::profile {

using api::RateKind;
using api::SourceLoc;
using api::StreamKind;
using api::StreamSpec;

ConfigError::ConfigError(std::string file, SourceLoc loc, std::string key, std::string reason)
    : std::runtime_error(fmt::format("{}{}: {}{}{}", file,
                                     loc.line == 0 ? std::string() : fmt::format(":{}:{}", loc.line, loc.column),
                                     key.empty() ? "" : "key '", key.empty() ? "" : key + "': ", reason)),
      file_(std::move(file)),
      loc_(loc),
      key_(std::move(key)),
      reason_(std::move(reason)) {}

namespace {

void read_eal(TableReader& in, EalCfg& eal) {
  if (auto v = in.string("lcores")) eal.lcores = *v;
  if (auto v = in.integer<uint32_t>("memory_mb", 64, 1 << 20)) eal.memory_mb = *v;
  if (auto v = in.string("file_prefix")) eal.file_prefix = *v;
  if (auto v = in.string("huge_pages")) {
    if (*v == "auto") eal.huge_pages = HugePages::kAuto;
    else if (*v == "on") eal.huge_pages = HugePages::kOn;
    else if (*v == "off") eal.huge_pages = HugePages::kOff;
    else in.fail(in.find("huge_pages"), "huge_pages", fmt::format("'{}' is not one of auto, on, off", *v));
  }
  if (auto v = in.boolean("huge_unlink")) eal.huge_unlink = *v;
  if (auto v = in.boolean("allow_cross_numa")) eal.allow_cross_numa = *v;
  if (auto v = in.strings("extra_args", "expected an array of strings")) eal.extra_args = std::move(*v);
  in.finish();
}

// The streams of `profile` against a running data plane's ports: its own [[port]]
// tables (if any) must name ports that exist there, and so must every stream. The
// ports, switches and devices are then the data plane's (its cables join them, its
// emulated hosts send the streams whose eth is "auto").
void use_running_ports(Profile& profile, const Profile& running) {
  const std::vector<api::PortSpec>& known = running.ports;
  std::string have;
  for (const api::PortSpec& port : known) have += (have.empty() ? "" : ", ") + port.name;
  const auto exists = [&](const std::string& name) {
    return std::any_of(known.begin(), known.end(), [&](const api::PortSpec& p) { return p.name == name; });
  };
  for (size_t i = 0; i < profile.ports.size(); ++i)
    if (!exists(profile.ports[i].name))
      throw ConfigError(profile.path, profile.ports[i].loc_of("name"), fmt::format("port[{}].name", i),
                        fmt::format("this data plane has no port '{}' (it has {})", profile.ports[i].name, have));
  for (size_t i = 0; i < profile.streams.size(); ++i) {
    const StreamSpec& s = profile.streams[i];
    for (const std::string& port : {s.tx_port, s.rx_port.value_or(s.tx_port)})
      if (!exists(port))
        throw ConfigError(s.file.empty() ? profile.path : s.file, s.loc_of(port == s.tx_port ? "tx_port" : "rx_port"),
                          fmt::format("stream[{}].{}", i, port == s.tx_port ? "tx_port" : "rx_port"),
                          fmt::format("stream '{}' uses port '{}', which this data plane does not have (it has {})",
                                      s.name, port, have));
  }
  profile.ports = known;
  profile.switches = running.switches;
  profile.devices = running.devices;  // its emulated hosts: what device.load set last
}

template <class Fn>
void for_each_table(const toml::table& root, const char* key, const std::string& file, Fn fn) {
  const toml::node* node = root.get(key);
  if (node == nullptr) return;
  const toml::array* array = node->as_array();
  if (array == nullptr) throw ConfigError(file, loc_of(*node), key, fmt::format("write it as [[{}]] tables", key));
  size_t index = 0;
  for (const toml::node& item : *array) {
    if (!item.is_table()) throw ConfigError(file, loc_of(item), key, fmt::format("write it as [[{}]] tables", key));
    fn(*item.as_table(), index++);
  }
}

// `running`: a running data plane's profile. Streams are then read against its ports:
// [[port]] tables in the text must name one of them, and the ports and switches are its.
Profile read_sections(const toml::table& root, const std::string& file) {
  Profile profile;
  profile.path = file;
  TableReader in(root, "", file);
  if (const toml::table* eal = in.subtable("eal")) {
    TableReader r(*eal, "eal.", file);
    read_eal(r, profile.eal);
  }
  if (const toml::table* run = in.subtable("run")) {
    TableReader r(*run, "run.", file);
    read_run(r, profile.run);
  }
  if (const toml::table* control = in.subtable("control")) {
    TableReader r(*control, "control.", file);
    if (auto v = r.string("socket")) {
      if (v->empty() || v->size() > 107)
        r.fail(r.find("socket"), "socket", "a Unix socket path must have 1 to 107 characters");
      profile.control.socket = *v;
    }
    if (auto v = r.string("group")) profile.control.group = *v;
    r.finish();
  }
  // The suites' sections are theirs, read by them in control/ (bench_sections, qualify_section,
  // report_section): the data plane runs streams and ignores them.
  for (const char* suite : {"rfc2544", "ndr", "lossless", "rfc2889", "qualify", "report"}) in.find(suite);
  in.find("port");
  in.find("stream");
  in.find("switch");
  in.find("capture");
  in.find("device");
  in.finish();
  for_each_table(root, "port", file, [&](const toml::table& table, size_t index) {
    TableReader r(table, fmt::format("port[{}].", index), file);
    profile.ports.push_back(read_port(r));
  });
  for_each_table(root, "stream", file, [&](const toml::table& table, size_t index) {
    TableReader r(table, fmt::format("stream[{}].", index), file);
    profile.streams.push_back(read_stream(r));
    profile.streams.back().file = file;
  });
  for_each_table(root, "switch", file, [&](const toml::table& table, size_t index) {
    TableReader r(table, fmt::format("switch[{}].", index), file);
    profile.switches.push_back(read_switch(r));
  });
  for_each_table(root, "capture", file, [&](const toml::table& table, size_t index) {
    TableReader r(table, fmt::format("capture[{}].", index), file);
    profile.captures.push_back(read_capture(r, profile));
  });
  for_each_table(root, "device", file, [&](const toml::table& table, size_t index) {
    TableReader r(table, fmt::format("device[{}].", index), file);
    profile.devices.push_back(read_device(r, profile));
  });
  check_device_hosts(profile);
  return profile;
}

Profile read_root(const toml::table& root, const std::string& file, const Profile* running = nullptr) {
  Profile profile = read_sections(root, file);
  if (running != nullptr) use_running_ports(profile, *running);
  validate_profile(profile);
  return profile;
}

}  // namespace

namespace {

// The switches: names that resolve, a forwarding entry per port that makes sense, and an
// lcore of their own; every cable with exactly two ends, among tester and switch ports.
void validate_switches(const Profile& profile) {
  const std::string& file = profile.path;
  std::map<std::string, std::string, std::less<>> port_names;  // every port, tester or switch -> what it is
  for (const api::PortSpec& p : profile.ports) port_names[p.name] = "a [[port]]";
  std::map<std::string, std::vector<std::pair<std::string, SourceLoc>>> cable_ends;
  for (const api::PortSpec& p : profile.ports)
    if (auto cable = cable_name(p.device)) cable_ends[*cable].push_back({p.name, p.loc_of("device")});
  std::set<std::string, std::less<>> switch_names;
  for (size_t i = 0; i < profile.switches.size(); ++i) {
    const api::SwitchSpec& sw = profile.switches[i];
    const std::string key = fmt::format("switch[{}].", i);
    if (!switch_names.insert(sw.name).second)
      throw ConfigError(file, sw.loc_of("name"), key + "name", fmt::format("switch name '{}' is used twice", sw.name));
    for (size_t j = 0; j < sw.ports.size(); ++j) {
      const api::SwitchPortSpec& p = sw.ports[j];
      if (const auto it = port_names.find(p.name); it != port_names.end())
        throw ConfigError(
            file, p.loc, fmt::format("{}ports[{}].name", key, j),
            fmt::format("port name '{}' is already {}: every port, tester's or switch's, needs its own name", p.name,
                        it->second));
      port_names[p.name] = fmt::format("a port of switch '{}'", sw.name);
      if (auto cable = cable_name(p.device)) cable_ends[*cable].push_back({p.name, p.loc});
      if (p.shape && p.shape->kind == RateKind::kL1Bps && p.speed_bps != 0 &&
          p.shape->value > static_cast<double>(p.speed_bps))
        throw ConfigError(file, p.loc, fmt::format("{}ports[{}].shape", key, j),
                          fmt::format("{:g} bit/s is above the port's speed", p.shape->value));
    }
    const auto switch_port = [&](const std::string& name) {
      return std::any_of(sw.ports.begin(), sw.ports.end(),
                         [&](const api::SwitchPortSpec& p) { return p.name == name; });
    };
    for (const auto& [in, out] : sw.forward) {
      const std::string where = key + "forward." + in;
      if (!switch_port(in))
        throw ConfigError(file, sw.loc_of("forward"), where, fmt::format("switch '{}' has no port '{}'", sw.name, in));
      if (!switch_port(out))
        throw ConfigError(file, sw.loc_of("forward"), where, fmt::format("switch '{}' has no port '{}'", sw.name, out));
      if (in == out) throw ConfigError(file, sw.loc_of("forward"), where, "a port cannot forward to itself");
    }
    for (const api::SwitchSpec& other : profile.switches)
      if (&other != &sw && sw.lcore && other.lcore == sw.lcore)
        throw ConfigError(
            file, sw.loc_of("lcore"), key + "lcore",
            fmt::format("lcore {} also runs switch '{}': each switch needs its own", *sw.lcore, other.name));
  }
  // With ports by location, a switch's cable ends on a port of its own data plane, which
  // this profile names by location: that data plane's profile joined it.
  const bool located = std::any_of(profile.ports.begin(), profile.ports.end(),
                                   [](const api::PortSpec& p) { return !p.location.empty(); });
  for (const auto& [cable, ends] : cable_ends) {
    if (ends.size() == 2 || (located && ends.size() == 1)) continue;
    const auto& [name, loc] = ends.size() > 2 ? ends[2] : ends[0];
    throw ConfigError(
        file, loc, "device",
        ends.size() > 2
            ? fmt::format("cable '{}' already joins ports '{}' and '{}': port '{}' needs a cable of its own", cable,
                          ends[0].first, ends[1].first, name)
            : fmt::format("cable '{}' has one end only (port '{}'): give another port device = \"cable:{}\"", cable,
                          name, cable));
  }
}

}  // namespace

void validate_profile(const Profile& profile) {
  const std::string& file = profile.path;
  if (profile.ports.empty() && profile.switches.empty())
    throw ConfigError(file, {1, 1}, "port", "the profile has no [[port]] (nor a [[switch]] to run alone)");
  std::set<std::string, std::less<>> names;
  for (size_t i = 0; i < profile.ports.size(); ++i) {
    const api::PortSpec& port = profile.ports[i];
    if (!names.insert(port.name).second)
      throw ConfigError(file, port.loc_of("name"), fmt::format("port[{}].name", i),
                        fmt::format("port name '{}' is used twice", port.name));
  }
  names.clear();
  if (profile.streams.size() > 65535)
    throw ConfigError(file, {1, 1}, "stream", "at most 65535 streams fit the signature's stream id");
  for (size_t i = 0; i < profile.streams.size(); ++i) {
    const StreamSpec& s = profile.streams[i];
    const std::string& stream_file = s.file.empty() ? file : s.file;  // RPC streams name their own source
    const std::string key = fmt::format("stream[{}].", i);
    if (!names.insert(s.name).second)
      throw ConfigError(stream_file, s.loc_of("name"), key + "name",
                        fmt::format("stream name '{}' is used twice", s.name));
    const api::PortSpec* tx = profile.find_port(s.tx_port);
    if (tx == nullptr)
      throw ConfigError(stream_file, s.loc_of("tx_port"), key + "tx_port",
                        fmt::format("stream '{}': no [[port]] is named '{}'", s.name, s.tx_port));
    if (s.rx_port) {
      const api::PortSpec* rx = profile.find_port(*s.rx_port);
      if (rx == nullptr)
        throw ConfigError(stream_file, s.loc_of("rx_port"), key + "rx_port",
                          fmt::format("stream '{}': no [[port]] is named '{}'", s.name, *s.rx_port));
      if (rx->rx_queues == 0)
        throw ConfigError(
            stream_file, s.loc_of("rx_port"), key + "rx_port",
            fmt::format("stream '{}' is received on port '{}', which has rx_queues = 0", s.name, rx->name));
    }
    if (s.lanes > tx->tx_queues && !s.receive_only)  // a received stream's lanes are its sender's
      throw ConfigError(stream_file, s.loc_of("lanes"), key + "lanes",
                        fmt::format("stream '{}' wants {} lanes but port '{}' has tx_queues = {}", s.name, s.lanes,
                                    tx->name, tx->tx_queues));
    const uint16_t min_frame = min_frame_bytes(s);
    if (s.frame.smallest() < min_frame)
      throw ConfigError(stream_file, s.loc_of("frame_size"), key + "frame_size",
                        fmt::format("stream '{}': a {}-byte frame cannot hold its {} bytes of headers, the {}-byte "
                                    "signature{} and the FCS; the smallest frame for this stream is {} bytes",
                                    s.name, s.frame.smallest(), header_bytes(s), wire::kSignatureBytes,
                                    s.roce ? ", the ICRC" : "", min_frame));
    if (s.count != 0 && s.count < s.lanes)
      throw ConfigError(stream_file, s.loc_of("count"), key + "count",
                        fmt::format("stream '{}': count {} is below lanes {}", s.name, s.count, s.lanes));
  }
  check_stream_hosts(profile);
  validate_switches(profile);
}

toml::table parse_profile_toml(std::string_view text, const std::string& path) {
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& error) {
    throw ConfigError(
        path, {static_cast<uint32_t>(error.source().begin.line), static_cast<uint32_t>(error.source().begin.column)},
        "", std::string(error.description()));
  }
}

void validate_streams(const std::vector<StreamSpec>& streams, const std::string& where, const Profile& running) {
  Profile profile;
  profile.path = where;
  profile.streams = streams;
  use_running_ports(profile, running);
  validate_profile(profile);
}

Profile load_profile_text(std::string_view text, const std::string& path) {
  return read_root(parse_profile_toml(text, path), path);
}

std::vector<StreamSpec> load_streams_text(std::string_view text, const std::string& path, const Profile& running) {
  return read_root(parse_profile_toml(text, path), path, &running).streams;
}

std::vector<StreamSpec> read_stream_tables(std::string_view text, const std::string& path) {
  return read_sections(parse_profile_toml(text, path), path).streams;
}

std::optional<api::RunSpec> read_run_table(std::string_view text, const std::string& path) {
  const toml::table root = parse_profile_toml(text, path);
  if (root.get("run") == nullptr) return std::nullopt;
  return read_sections(root, path).run;
}

std::string profile_file_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path, {0, 0}, "", fmt::format("cannot open the profile file: {}", std::strerror(errno)));
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Profile load_profile_file(const std::string& path) { return load_profile_text(profile_file_text(path), path); }

}  // namespace lr::profile
