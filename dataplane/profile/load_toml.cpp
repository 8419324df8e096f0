// The profile's sections read and cross-checked: each key with its range, default and the
// file:line:column error that names it ([[stream]] tables: stream_table.cpp).
#include "dataplane/profile/load_toml.hpp"

#include <fmt/format.h>

#include <algorithm>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <toml++/toml.h>

#include "dataplane/common/line_rate.hpp"
#include "dataplane/wire/mac_control.hpp"
#include "dataplane/wire/roce.hpp"
#include "dataplane/wire/signature.hpp"
#include "dataplane/profile/quantity.hpp"
#include "dataplane/profile/shared_keys.hpp"
#include "dataplane/profile/stream_table.hpp"
#include "dataplane/profile/table_reader.hpp"

namespace lr::profile {

using api::RateKind;
using api::SourceLoc;
using api::StreamKind;
using api::StreamSpec;

ConfigError::ConfigError(std::string file, SourceLoc loc, std::string key, std::string reason)
    : std::runtime_error(fmt::format("{}{}: {}{}{}", file,
                                     loc.line == 0 ? std::string() : fmt::format(":{}:{}", loc.line, loc.column),
                                     key.empty() ? "" : "key '", key.empty() ? "" : key + "': ", reason)),
      file_(std::move(file)), loc_(loc), key_(std::move(key)), reason_(std::move(reason)) {}

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

void read_run(TableReader& in, RunCfg& run) {
  if (auto v = in.parsed<uint64_t>("drain", parse_duration_ns, kDurationHelp)) run.drain_ns = *v;
  if (auto v = in.boolean("live")) run.live = *v;
  if (auto v = in.parsed<uint64_t>("timeline", parse_duration_ns, kDurationHelp)) {
    if (*v < 1000) in.fail(in.find("timeline"), "timeline", "a bin is at least 1us (e.g. '1ms')");
    run.timeline_bin_ns = *v;
  }
  if (auto v = in.parsed<uint64_t>("timeline_span", parse_duration_ns, kDurationHelp)) {
    if (run.timeline_bin_ns == 0) in.fail(in.find("timeline_span"), "timeline_span", "needs timeline (the bin width)");
    if (*v / run.timeline_bin_ns > kMaxTimelineBins)
      in.fail(in.find("timeline_span"), "timeline_span",
              fmt::format("{} bins of {} ns is more than the {} a timeline holds: widen the bins or shorten the span",
                          *v / run.timeline_bin_ns, run.timeline_bin_ns, kMaxTimelineBins));
    run.timeline_span_ns = *v;
  }
  in.finish();
}

// `dscp_to_priority = { 26 = 3 }`: DSCP (0-63) -> priority (0-7).
std::map<uint8_t, uint8_t> read_dscp_map(TableReader& in, const toml::table& map) {
  std::map<uint8_t, uint8_t> out;
  for (auto&& [key, value] : map) {
    const std::string dscp_text(key.str());
    const std::string where = "dscp_to_priority." + dscp_text;
    unsigned dscp = 64;
    const auto [end, ec] = std::from_chars(dscp_text.data(), dscp_text.data() + dscp_text.size(), dscp);
    if (ec != std::errc() || end != dscp_text.data() + dscp_text.size() || dscp > 63)
      in.fail(&value, where, "a DSCP is 0-63, e.g. dscp_to_priority = { 26 = 3 }");
    out[static_cast<uint8_t>(dscp)] = in.integer_of<uint8_t>(&value, where, 0, 7);
  }
  return out;
}

// The same as a mask: bit p for priority p.
std::optional<uint8_t> read_priority_mask(TableReader& in, const char* key, const char* not_an_array) {
  const auto priorities = read_priorities(in, key, not_an_array);
  if (!priorities) return std::nullopt;
  uint8_t mask = 0;
  for (uint8_t p : *priorities) mask |= static_cast<uint8_t>(1u << p);
  return mask;
}

PortCfg read_port(TableReader& in) {
  PortCfg port;
  port.loc = loc_of(in.table());
  port.name = in.required_string("name");
  port.device = in.required_string("device");
  if (auto v = in.integer<uint16_t>("rx_queues", 0, 64)) port.rx_queues = *v;  // 0: transmit-only port
  if (auto v = in.integer<uint16_t>("tx_queues", 1, 64)) port.tx_queues = *v;
  if (auto v = in.integer<uint16_t>("rx_descriptors", 64, 16384)) port.rx_descriptors = *v;
  if (auto v = in.integer<uint16_t>("tx_descriptors", 64, 16384)) port.tx_descriptors = *v;
  if (auto v = in.integer<uint16_t>("mtu", 68, 9600)) port.mtu = *v;
  if (auto v = in.boolean("promiscuous")) port.promiscuous = *v;
  if (auto v = in.boolean("checksum_offload")) port.checksum_offload = *v;
  if (auto v = in.parsed<uint64_t>("speed", parse_link_speed_bps, "a link speed: write e.g. '10G', '40G' or '50Gbps'"))
    port.speed_bps = *v;
  for (const char* key : {"rx_lcores", "tx_lcores"}) {
    const toml::node* node = in.find(key);
    if (node == nullptr) continue;
    const toml::array* array = node->as_array();
    if (array == nullptr || array->empty()) in.fail(node, key, "expected a non-empty array of lcore ids, e.g. [1, 2]");
    auto& lcores = std::string_view(key) == "rx_lcores" ? port.rx_lcores : port.tx_lcores;
    for (const toml::node& item : *array) lcores.push_back(in.integer_of<unsigned>(&item, key, 0, 1023));
  }
  if (auto v = in.boolean("autoneg")) {
    if (!*v && port.speed_bps == 0) in.fail(in.find("autoneg"), "autoneg", "false needs a speed to force: set speed too");
    port.autoneg = *v;
  }
  if (auto v = in.string("fec")) {
    if (*v != "off" && *v != "baser" && *v != "rs" && *v != "llrs" && *v != "auto")
      in.fail(in.find("fec"), "fec", fmt::format("'{}' is not one of off, baser, rs, llrs, auto", *v));
    port.fec = *v;
  }
  if (auto v = in.string("pause")) {
    if (*v != "rx" && *v != "tx" && *v != "both" && *v != "off")
      in.fail(in.find("pause"), "pause", fmt::format("'{}' is not one of rx, tx, both, off", *v));
    port.pause = *v;
  }
  if (const auto pfc = read_priorities(in, "pfc", "expected an array of priorities 0-7, e.g. [3, 4] ([] turns PFC off)"))
    port.pfc_priorities.emplace(pfc->begin(), pfc->end());
  if (auto v = in.boolean("pfc_honour")) {
    if (*v && port.rx_queues == 0)
      in.fail(in.find("pfc_honour"), "pfc_honour", "needs the port to receive (rx_queues = 0 hears no PFC frame)");
    port.pfc_honour = *v;
  }
  if (const toml::node* node = in.find("pfc_reaction_delay")) {
    if (node->is_integer()) port.pfc_reaction_delay_quanta = in.integer_of<uint32_t>(node, "pfc_reaction_delay", 0, 65535);
    else port.pfc_reaction_delay_ns = *in.parsed<uint64_t>("pfc_reaction_delay", parse_duration_ns,
                                                           "quanta (an integer) or a duration such as '5us'");
    if (!port.pfc_honour) in.fail(node, "pfc_reaction_delay", "needs pfc_honour = true");
  }
  if (const toml::table* map = in.subtable("dscp_to_priority")) port.dscp_to_priority = read_dscp_map(in, *map);
  if (auto v = in.string("mac_control_tx")) {
    if (*v == "auto") port.mac_control_tx = MacControlTx::kAuto;
    else if (*v == "pmd") port.mac_control_tx = MacControlTx::kPmd;
    else if (*v == "netdev") port.mac_control_tx = MacControlTx::kNetdev;
    else in.fail(in.find("mac_control_tx"), "mac_control_tx", fmt::format("'{}' is not auto, pmd or netdev", *v));
  }
  if (auto v = in.strings("flow_rules",
                          "expected an array of rules, e.g. [\"pattern eth / udp dst is 4791 actions queue index 1\"]"))
    port.flow_rules = std::move(*v);
  if (auto v = in.boolean("flow_isolate")) port.flow_isolate = *v;
  if (auto v = in.boolean("keep")) port.keep = *v;
  port.key_locs = in.key_locs();
  in.finish();
  return port;
}

SwitchPortCfg read_switch_port(TableReader& in) {
  SwitchPortCfg port;
  port.loc = loc_of(in.table());
  port.name = in.required_string("name");
  port.device = in.required_string("device");
  if (auto v = in.parsed<uint64_t>("speed", parse_link_speed_bps, "a link speed: write e.g. '10G', '40G' or '50Gbps'"))
    port.speed_bps = *v;
  if (auto text = in.string("shape")) {
    const auto rate = parse_rate(*text);
    if (!rate || (rate->kind != RateKind::kPercentOfLine && rate->kind != RateKind::kL1Bps))
      in.fail(in.find("shape"), "shape",
              fmt::format("'{}' is not an egress rate: write a share of the port's speed ('50%') or an L1 bit rate "
                          "('5Gbps')", *text));
    port.shape = rate;
  }
  in.finish();
  return port;
}

SwitchCfg read_switch(TableReader& in) {
  SwitchCfg sw;
  sw.loc = loc_of(in.table());
  sw.name = in.required_string("name");
  if (auto v = in.integer<unsigned>("lcore", 0, 1023)) sw.lcore = *v;
  const toml::node* ports = in.find("ports");
  const toml::array* array = ports != nullptr ? ports->as_array() : nullptr;
  if (array == nullptr || array->size() < 2)
    in.fail(ports, "ports", "expected an array of at least two ports, e.g. [{ name = \"s1\", device = \"cable:a\" }, ...]");
  for (size_t i = 0; i < array->size(); ++i) {
    const toml::table* table = (*array)[i].as_table();
    if (table == nullptr) in.fail(&(*array)[i], "ports", "each port is a table: { name = \"s1\", device = \"cable:a\" }");
    TableReader r(*table, fmt::format("{}ports[{}].", in.prefix(), i), in.file());
    sw.ports.push_back(read_switch_port(r));
  }
  const toml::node* forward = in.find("forward");
  if (forward == nullptr)
    in.fail(nullptr, "forward", "is required: \"learn\", or which port each ingress port forwards to, e.g. "
                                "forward = { s1 = \"s3\" }");
  if (forward->is_string() && forward->as_string()->get() == "learn") {
    sw.learn = true;
  } else if (const toml::table* map = forward->as_table()) {
    for (auto&& [key, value] : *map) {
      const std::string where = "forward." + std::string(key.str());
      if (!value.is_string()) in.fail(&value, where, "expected the egress port's name, e.g. forward = { s1 = \"s3\" }");
      sw.forward[std::string(key.str())] = value.as_string()->get();
    }
  } else {
    in.fail(forward, "forward", "expected \"learn\" (by destination MAC, flooding unknown ones) or a table of ingress "
                                "port = egress port, e.g. forward = { s1 = \"s3\" }");
  }
  if (auto v = in.string("classify")) {
    if (*v == "pcp") sw.classify = SwitchClassify::kPcp;
    else if (*v == "dscp") sw.classify = SwitchClassify::kDscp;
    else in.fail(in.find("classify"), "classify", fmt::format("'{}' is not one of pcp, dscp", *v));
  }
  if (const toml::table* map = in.subtable("dscp_to_priority")) {
    if (sw.classify != SwitchClassify::kDscp)
      in.fail(in.find("dscp_to_priority"), "dscp_to_priority", "needs classify = \"dscp\"");
    sw.dscp_to_priority = read_dscp_map(in, *map);
  }
  sw.lossless = read_priority_mask(in, "lossless", "expected an array of priorities 0-7, e.g. [3, 4]").value_or(0);
  if (auto v = read_bytes(in, "buffer")) sw.buffer_bytes = *v;
  if (auto v = read_bytes(in, "queue_limit")) sw.queue_limit_bytes = *v;
  if (auto v = read_bytes(in, "xoff")) sw.xoff_bytes = *v;
  if (auto v = read_bytes(in, "xon")) sw.xon_bytes = *v;
  if (auto v = read_bytes(in, "headroom")) sw.headroom_bytes = *v;
  if (sw.xoff_bytes == 0) in.fail(in.find("xoff"), "xoff", "must be above 0 bytes");
  if (sw.xon_bytes >= sw.xoff_bytes)
    in.fail(in.find("xon") != nullptr ? in.find("xon") : in.find("xoff"), "xon",
            fmt::format("{} bytes is not below xoff ({} bytes): XON must come after the buffer drained", sw.xon_bytes,
                        sw.xoff_bytes));
  if (auto v = in.integer<uint16_t>("pfc_quanta", 1, 65535)) sw.pfc_quanta = *v;
  sw.pfc_honour = read_priority_mask(in, "pfc_honour", "expected an array of priorities 0-7 whose PFC it obeys, e.g. [3]");
  if (auto v = in.boolean("pause_honour")) sw.pause_honour = *v;
  if (auto v = in.parsed<uint64_t>("pause_reaction", parse_duration_ns, kDurationHelp)) {
    if (*v > 1'000'000'000) in.fail(in.find("pause_reaction"), "pause_reaction", "at most 1s");
    sw.pause_reaction_ns = *v;
  }
  if (auto text = in.string("pfc_refresh")) {
    if (*text != "auto") {
      const auto ns = parse_duration_ns(*text);
      if (!ns || *ns == 0) in.fail(in.find("pfc_refresh"), "pfc_refresh", fmt::format("'{}' is not 'auto' or {}", *text, kDurationHelp));
      sw.pfc_refresh_ns = *ns;
    }
  }
  if (const toml::table* ecn = in.subtable("ecn")) {
    TableReader r(*ecn, in.prefix() + "ecn.", in.file());
    const EcnCurve curve = read_ecn_curve(r, "is required");
    r.finish();
    sw.ecn = true;
    sw.ecn_kmin_bytes = curve.kmin_bytes;
    sw.ecn_kmax_bytes = curve.kmax_bytes;
    sw.ecn_pmax = curve.pmax;
  }
  if (const toml::table* watchdog = in.subtable("watchdog")) {
    TableReader r(*watchdog, in.prefix() + "watchdog.", in.file());
    const WatchdogTimes w = read_watchdog(r);
    r.finish();
    sw.watchdog = true;
    sw.watchdog_detect_ns = w.detect_ns;
    sw.watchdog_restore_ns = w.restore_ns;
    sw.watchdog_forward = w.forward;
  }
  if (auto v = in.integer<uint64_t>("seed", 1, std::numeric_limits<int64_t>::max())) sw.seed = *v;
  sw.key_locs = in.key_locs();
  in.finish();
  return sw;
}

// The streams of `profile` against a running data plane's ports: its own [[port]]
// tables (if any) must name ports that exist there, and so must every stream. The
// ports and switches are then the data plane's (its cables join them).
void use_running_ports(Profile& profile, const Profile& running) {
  const std::vector<PortCfg>& known = running.ports;
  std::string have;
  for (const PortCfg& port : known) have += (have.empty() ? "" : ", ") + port.name;
  const auto exists = [&](const std::string& name) {
    return std::any_of(known.begin(), known.end(), [&](const PortCfg& p) { return p.name == name; });
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
}

template <class Fn>
void for_each_table(const toml::table& root, const char* key, const std::string& file, Fn fn) {
  const toml::node* node = root.get(key);
  if (node == nullptr) return;
  const toml::array* array = node->as_array();
  if (array == nullptr)
    throw ConfigError(file, loc_of(*node), key, fmt::format("write it as [[{}]] tables", key));
  size_t index = 0;
  for (const toml::node& item : *array) {
    if (!item.is_table())
      throw ConfigError(file, loc_of(item), key, fmt::format("write it as [[{}]] tables", key));
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
  for (const char* suite : {"rfc2544", "ndr", "lossless", "qualify", "report"}) in.find(suite);
  in.find("port");
  in.find("stream");
  in.find("switch");
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
  for (const PortCfg& p : profile.ports) port_names[p.name] = "a [[port]]";
  std::map<std::string, std::vector<std::pair<std::string, SourceLoc>>> cable_ends;
  for (const PortCfg& p : profile.ports)
    if (auto cable = cable_name(p.device)) cable_ends[*cable].push_back({p.name, p.loc_of("device")});
  std::set<std::string, std::less<>> switch_names;
  for (size_t i = 0; i < profile.switches.size(); ++i) {
    const SwitchCfg& sw = profile.switches[i];
    const std::string key = fmt::format("switch[{}].", i);
    if (!switch_names.insert(sw.name).second)
      throw ConfigError(file, sw.loc_of("name"), key + "name", fmt::format("switch name '{}' is used twice", sw.name));
    for (size_t j = 0; j < sw.ports.size(); ++j) {
      const SwitchPortCfg& p = sw.ports[j];
      if (const auto it = port_names.find(p.name); it != port_names.end())
        throw ConfigError(file, p.loc, fmt::format("{}ports[{}].name", key, j),
                          fmt::format("port name '{}' is already {}: every port, tester's or switch's, needs its own name",
                                      p.name, it->second));
      port_names[p.name] = fmt::format("a port of switch '{}'", sw.name);
      if (auto cable = cable_name(p.device)) cable_ends[*cable].push_back({p.name, p.loc});
      if (p.shape && p.shape->kind == RateKind::kL1Bps && p.speed_bps != 0 && p.shape->value > static_cast<double>(p.speed_bps))
        throw ConfigError(file, p.loc, fmt::format("{}ports[{}].shape", key, j),
                          fmt::format("{:g} bit/s is above the port's speed", p.shape->value));
    }
    const auto switch_port = [&](const std::string& name) {
      return std::any_of(sw.ports.begin(), sw.ports.end(), [&](const SwitchPortCfg& p) { return p.name == name; });
    };
    for (const auto& [in, out] : sw.forward) {
      const std::string where = key + "forward." + in;
      if (!switch_port(in))
        throw ConfigError(file, sw.loc_of("forward"), where, fmt::format("switch '{}' has no port '{}'", sw.name, in));
      if (!switch_port(out))
        throw ConfigError(file, sw.loc_of("forward"), where, fmt::format("switch '{}' has no port '{}'", sw.name, out));
      if (in == out)
        throw ConfigError(file, sw.loc_of("forward"), where, "a port cannot forward to itself");
    }
    for (const SwitchCfg& other : profile.switches)
      if (&other != &sw && sw.lcore && other.lcore == sw.lcore)
        throw ConfigError(file, sw.loc_of("lcore"), key + "lcore",
                          fmt::format("lcore {} also runs switch '{}': each switch needs its own", *sw.lcore, other.name));
  }
  for (const auto& [cable, ends] : cable_ends) {
    if (ends.size() == 2) continue;
    const auto& [name, loc] = ends.size() > 2 ? ends[2] : ends[0];
    throw ConfigError(file, loc, "device",
                      ends.size() > 2
                          ? fmt::format("cable '{}' already joins ports '{}' and '{}': port '{}' needs a cable of its own",
                                        cable, ends[0].first, ends[1].first, name)
                          : fmt::format("cable '{}' has one end only (port '{}'): give another port device = \"cable:{}\"",
                                        cable, name, cable));
  }
}

}  // namespace

void validate_profile(const Profile& profile) {
  const std::string& file = profile.path;
  if (profile.ports.empty() && profile.switches.empty())
    throw ConfigError(file, {1, 1}, "port", "the profile has no [[port]] (nor a [[switch]] to run alone)");
  std::set<std::string, std::less<>> names;
  for (size_t i = 0; i < profile.ports.size(); ++i) {
    const PortCfg& port = profile.ports[i];
    if (!names.insert(port.name).second)
      throw ConfigError(file, port.loc_of("name"), fmt::format("port[{}].name", i), fmt::format("port name '{}' is used twice", port.name));
  }
  names.clear();
  if (profile.streams.size() > 65535)
    throw ConfigError(file, {1, 1}, "stream", "at most 65535 streams fit the signature's stream id");
  for (size_t i = 0; i < profile.streams.size(); ++i) {
    const StreamSpec& s = profile.streams[i];
    const std::string& stream_file = s.file.empty() ? file : s.file;  // RPC streams name their own source
    const std::string key = fmt::format("stream[{}].", i);
    if (!names.insert(s.name).second)
      throw ConfigError(stream_file, s.loc_of("name"), key + "name", fmt::format("stream name '{}' is used twice", s.name));
    const PortCfg* tx = profile.find_port(s.tx_port);
    if (tx == nullptr)
      throw ConfigError(stream_file, s.loc_of("tx_port"), key + "tx_port", fmt::format("stream '{}': no [[port]] is named '{}'", s.name, s.tx_port));
    if (s.rx_port) {
      const PortCfg* rx = profile.find_port(*s.rx_port);
      if (rx == nullptr)
        throw ConfigError(stream_file, s.loc_of("rx_port"), key + "rx_port", fmt::format("stream '{}': no [[port]] is named '{}'", s.name, *s.rx_port));
      if (rx->rx_queues == 0)
        throw ConfigError(stream_file, s.loc_of("rx_port"), key + "rx_port",
                          fmt::format("stream '{}' is received on port '{}', which has rx_queues = 0", s.name, rx->name));
    }
    if (s.lanes > tx->tx_queues)
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
      throw ConfigError(stream_file, s.loc_of("count"), key + "count", fmt::format("stream '{}': count {} is below lanes {}", s.name, s.count, s.lanes));
  }
  validate_switches(profile);
}

toml::table parse_profile_toml(std::string_view text, const std::string& path) {
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& error) {
    throw ConfigError(path, {static_cast<uint32_t>(error.source().begin.line), static_cast<uint32_t>(error.source().begin.column)},
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

Profile load_profile_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path, {0, 0}, "", fmt::format("cannot open the profile file: {}", std::strerror(errno)));
  std::stringstream text;
  text << in.rdbuf();
  return load_profile_text(text.str(), path);
}

}  // namespace lr::profile
