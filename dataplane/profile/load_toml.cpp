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

// An array of PFC priorities (0-7), in the order given; `not_an_array` says what to write.
std::optional<std::vector<uint8_t>> read_priorities(TableReader& in, const char* key, const char* not_an_array) {
  const toml::node* node = in.find(key);
  if (node == nullptr) return std::nullopt;
  const toml::array* list = node->as_array();
  if (list == nullptr) in.fail(node, key, not_an_array);
  std::vector<uint8_t> out;
  for (const toml::node& item : *list) out.push_back(in.integer_of<uint8_t>(&item, key, 0, 7));
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

// A size in bytes: an integer, or a string with its unit ("64KB", "1MiB").
std::optional<uint64_t> read_bytes(TableReader& in, const char* key) {
  const toml::node* node = in.find(key);
  if (node == nullptr) return std::nullopt;
  if (node->is_integer()) return in.integer_of<uint64_t>(node, key, 0, int64_t{1} << 50);
  return in.parsed<uint64_t>(key, parse_bytes, "a size: write bytes as an integer, or e.g. '64KB', '1.5MB', '64KiB'");
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

struct EcnCurve {
  uint64_t kmin_bytes = 0;
  uint64_t kmax_bytes = 0;
  double pmax = 0;
};

// WRED's curve: `ecn = { kmin, kmax, pmax }`, all three required (`required` says so).
EcnCurve read_ecn_curve(TableReader& r, const char* required) {
  const auto kmin = read_bytes(r, "kmin");
  const auto kmax = read_bytes(r, "kmax");
  const auto pmax = r.number("pmax", 0, 1);
  if (!kmin || !kmax || !pmax) r.fail(nullptr, !kmin ? "kmin" : !kmax ? "kmax" : "pmax", required);
  if (*kmin >= *kmax) r.fail(r.find("kmax"), "kmax", fmt::format("{} bytes is not above kmin ({} bytes)", *kmax, *kmin));
  return {*kmin, *kmax, *pmax};
}

struct WatchdogTimes {
  uint64_t detect_ns = 0;
  uint64_t restore_ns = 0;
  bool forward = false;  ///< false: drop during a storm
};

// A PFC watchdog: `watchdog = { detect, restore, action? }` (a switch's, or what a plan
// expects of the device's).
WatchdogTimes read_watchdog(TableReader& r) {
  const auto detect = r.parsed<uint64_t>("detect", parse_duration_ns, kDurationHelp);
  const auto restore = r.parsed<uint64_t>("restore", parse_duration_ns, kDurationHelp);
  if (!detect || !restore) r.fail(nullptr, !detect ? "detect" : "restore", "is required");
  WatchdogTimes w{*detect, *restore, false};
  if (auto action = r.string("action")) {
    if (*action != "drop" && *action != "forward")
      r.fail(r.find("action"), "action", fmt::format("'{}' is not one of drop, forward", *action));
    w.forward = *action == "forward";
  }
  return w;
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

// The frame sizes of a procedure: integers, or "imix" (the simple IMIX: 64, 594 and
// 1518 bytes as 7 : 4 : 1).
std::vector<BenchFrameSize> read_bench_frame_sizes(TableReader& in, const toml::node* node) {
  const toml::array* array = node->as_array();
  if (array == nullptr || array->empty())
    in.fail(node, "frame_sizes", "expected a non-empty array of frame sizes, e.g. [64, 1518, \"imix\"]");
  std::vector<BenchFrameSize> sizes;
  for (const toml::node& item : *array) {
    if (const auto* name = item.as_string()) {
      if (name->get() != "imix")
        in.fail(&item, "frame_sizes", fmt::format("'{}' is not a frame size: write bytes (64-9600) or \"imix\"", name->get()));
      sizes.push_back({"imix", {64, 594, 1518}, {7, 4, 1}});
      continue;
    }
    const auto bytes = in.integer_of<uint16_t>(&item, "frame_sizes", 64, 9600);
    sizes.push_back({std::to_string(bytes), {bytes}, {}});
  }
  return sizes;
}

void read_search(TableReader& in, SearchCfg& cfg) {
  cfg.loc = loc_of(in.table());
  if (const toml::node* node = in.find("frame_sizes")) cfg.frame_sizes = read_bench_frame_sizes(in, node);
  if (auto v = in.parsed<uint64_t>("trial_duration", parse_duration_ns, kDurationHelp)) cfg.trial_duration_ns = *v;
  if (auto v = in.parsed<uint64_t>("rest", parse_duration_ns, kDurationHelp)) cfg.rest_ns = *v;
  if (auto v = in.number("resolution", 0.001, 50)) cfg.resolution_percent = *v;
  if (auto v = in.number("loss_tolerance", 0, 100)) cfg.loss_tolerance_percent = *v;
  if (auto v = in.number("lower_bound", 0.001, 100)) cfg.lower_bound_percent = *v;
  if (auto v = in.integer<unsigned>("confirmations", 0, 100)) cfg.confirmations = *v;
  if (auto v = in.integer<uint32_t>("learning_frames", 0, 1'000'000)) cfg.learning_frames = *v;
  if (auto v = in.parsed<uint64_t>("warm_up", parse_duration_ns, kDurationHelp)) cfg.warm_up_ns = *v;
  if (cfg.trial_duration_ns < 10'000'000)
    in.fail(in.find("trial_duration"), "trial_duration", "a trial must last at least 10ms");
}

Rfc2544Cfg read_rfc2544(TableReader& in) {
  Rfc2544Cfg cfg;
  cfg.frame_sizes = {{"64", {64}, {}},     {"128", {128}, {}},   {"256", {256}, {}}, {"512", {512}, {}},
                     {"1024", {1024}, {}}, {"1280", {1280}, {}}, {"1518", {1518}, {}}};
  read_search(in, cfg);
  if (auto v = in.strings("tests", "expected an array of test names, e.g. [\"throughput\", \"latency\"]")) {
    for (const std::string& test : *v)
      if (test != "throughput" && test != "latency" && test != "frame_loss" && test != "back_to_back")
        in.fail(in.find("tests"), "tests",
                fmt::format("'{}' is not an RFC 2544 test: throughput, latency, frame_loss or back_to_back", test));
    if (v->empty()) in.fail(in.find("tests"), "tests", "name at least one test");
    cfg.tests = std::move(*v);
    if (cfg.runs("latency") && !cfg.runs("throughput"))
      in.fail(in.find("tests"), "tests", "latency is measured at each size's throughput (RFC 2544 §26.2): add \"throughput\"");
  }
  if (auto v = in.integer<unsigned>("latency_trials", 1, 1000)) cfg.latency_trials = *v;
  if (auto v = in.number("frame_loss_step", 0.1, 100)) cfg.frame_loss_step_percent = *v;
  if (auto v = in.integer<unsigned>("back_to_back_trials", 1, 1000)) cfg.back_to_back_trials = *v;
  if (auto v = in.parsed<uint64_t>("back_to_back_duration", parse_duration_ns, kDurationHelp))
    cfg.back_to_back_duration_ns = *v;
  cfg.key_locs = in.key_locs();
  in.finish();
  return cfg;
}

// A load as a percentage of line rate ("20%"): the cases size their queues from it.
double read_percent(TableReader& in, const char* key, double fallback) {
  const auto text = in.string(key);
  if (!text) return fallback;
  const auto rate = parse_rate(*text);
  if (!rate || rate->kind != RateKind::kPercentOfLine || rate->value <= 0 || rate->value > 100)
    in.fail(in.find(key), key, fmt::format("'{}' is not a share of line rate: write e.g. '20%'", *text));
  return rate->value;
}

LosslessCfg read_lossless(TableReader& in) {
  LosslessCfg cfg;
  cfg.loc = loc_of(in.table());
  cfg.rest_ns = 100'000'000;
  if (auto v = in.strings("senders", "expected an array of port names, e.g. [\"sender-a\", \"sender-b\"]")) cfg.senders = *v;
  if (cfg.senders.empty()) in.fail(in.find("senders"), "senders", "name the tester ports that send through the device");
  cfg.receiver = in.required_string("receiver");
  cfg.lossless = read_priorities(in, "lossless", "expected an array of priorities 0-7, e.g. [3]").value_or(std::vector<uint8_t>{});
  cfg.lossy = read_priorities(in, "lossy", "expected an array of priorities 0-7, e.g. [0]").value_or(std::vector<uint8_t>{});
  if (cfg.lossless.empty()) in.fail(in.find("lossless"), "lossless", "name the device's lossless priorities, e.g. [3]");
  for (uint8_t p : cfg.lossy)
    if (std::find(cfg.lossless.begin(), cfg.lossless.end(), p) != cfg.lossless.end())
      in.fail(in.find("lossy"), "lossy", fmt::format("priority {} is also lossless", p));
  if (auto v = in.strings("cases", "expected an array of case names, e.g. [\"pfc_pause\", \"ecn\"]")) {
    for (const std::string& c : *v)
      if (std::find(std::begin(LosslessCfg::kCases), std::end(LosslessCfg::kCases), c) == std::end(LosslessCfg::kCases))
        in.fail(in.find("cases"), "cases",
                fmt::format("'{}' is not a case: {} or {}", c,
                            fmt::join(std::begin(LosslessCfg::kCases), std::end(LosslessCfg::kCases) - 1, ", "),
                            std::end(LosslessCfg::kCases)[-1]));
    if (v->empty()) in.fail(in.find("cases"), "cases", "name at least one case");
    cfg.cases = *v;
  }
  if (cfg.lossy.empty())
    for (const char* c : {"lossy_not_paused", "incast"})
      if (cfg.runs(c)) in.fail(in.find("lossy"), "lossy", fmt::format("case {} needs a lossy priority", c));
  if (auto v = in.integer<uint16_t>("frame_size", 64, 9600)) cfg.frame_size = *v;
  cfg.rate_percent = read_percent(in, "rate", cfg.rate_percent);
  cfg.incast_rate_percent = read_percent(in, "incast_rate", cfg.incast_rate_percent);
  if (auto v = in.parsed<uint64_t>("duration", parse_duration_ns, kDurationHelp)) cfg.duration_ns = *v;
  if (auto v = in.parsed<uint64_t>("storm", parse_duration_ns, kDurationHelp)) cfg.storm_ns = *v;
  if (cfg.duration_ns < 20'000'000) in.fail(in.find("duration"), "duration", "a case's traffic lasts at least 20ms");
  if (cfg.storm_ns * 2 > cfg.duration_ns)
    in.fail(in.find("storm"), "storm", "the storm runs in the middle of the traffic: at most half the duration");
  if (auto v = in.parsed<uint64_t>("rest", parse_duration_ns, kDurationHelp)) cfg.rest_ns = *v;
  if (auto v = in.integer<uint32_t>("learning_frames", 0, 1'000'000)) cfg.learning_frames = *v;
  if (auto v = in.string("global_pause")) {
    if (*v != "ignored" && *v != "honoured")
      in.fail(in.find("global_pause"), "global_pause", fmt::format("'{}' is not 'ignored' or 'honoured'", *v));
    cfg.global_pause_honoured = *v == "honoured";
  }
  if (auto v = in.string("response_time"); v && *v != "auto") {
    const auto ns = parse_duration_ns(*v);
    if (!ns || *ns == 0) in.fail(in.find("response_time"), "response_time", fmt::format("'{}' is not 'auto' or {}", *v, kDurationHelp));
    cfg.response_time_ns = *ns;
  }
  if (const toml::node* node = in.find("quanta")) {
    const toml::array* list = node->as_array();
    if (list == nullptr || list->empty()) in.fail(node, "quanta", "expected a non-empty array of quanta 0-65535");
    cfg.quanta.clear();
    for (const toml::node& item : *list) cfg.quanta.push_back(in.integer_of<uint32_t>(&item, "quanta", 0, 65535));
  }
  if (auto v = in.number("quanta_tolerance_percent", 0, 100)) cfg.quanta_tolerance_percent = *v;
  if (auto v = in.parsed<uint64_t>("quanta_tolerance", parse_duration_ns, kDurationHelp)) cfg.quanta_tolerance_ns = *v;
  if (const toml::table* ecn = in.subtable("ecn")) {
    TableReader r(*ecn, in.prefix() + "ecn.", in.file());
    const EcnCurve curve = read_ecn_curve(r, "is required (the device's curve)");
    cfg.ecn = true;
    cfg.ecn_kmin_bytes = curve.kmin_bytes;
    cfg.ecn_kmax_bytes = curve.kmax_bytes;
    cfg.ecn_pmax = curve.pmax;
    if (const toml::node* node = r.find("fill")) {
      const toml::array* list = node->as_array();
      if (list == nullptr || list->empty()) r.fail(node, "fill", "expected an array of queue depths, e.g. [\"100KB\", \"300KB\"]");
      for (const toml::node& item : *list) {
        const auto bytes = item.is_integer() ? std::optional<uint64_t>(item.as_integer()->get())
                           : item.is_string() ? parse_bytes(item.as_string()->get()) : std::nullopt;
        if (!bytes || *bytes == 0) r.fail(&item, "fill", "expected a queue depth, e.g. '100KB'");
        cfg.ecn_fill_bytes.push_back(*bytes);
      }
    } else {
      // Across the ramp, and above it.
      cfg.ecn_fill_bytes = {(curve.kmin_bytes + curve.kmax_bytes) / 2,
                            curve.kmax_bytes + (curve.kmax_bytes - curve.kmin_bytes) / 2};
    }
    r.finish();
  }
  if (auto v = read_bytes(in, "headroom")) cfg.headroom_bytes = *v;
  if (const toml::node* node = in.find("headroom_delays")) {
    const toml::array* list = node->as_array();
    if (list == nullptr || list->empty())
      in.fail(node, "headroom_delays", "expected an array of delays, e.g. [\"1ms\", \"4ms\"]");
    for (const toml::node& item : *list) {
      const auto ns = item.is_string() ? parse_duration_ns(item.as_string()->get()) : std::nullopt;
      if (!ns) in.fail(&item, "headroom_delays", kDurationHelp);
      cfg.headroom_delays_ns.push_back(*ns);
    }
    std::sort(cfg.headroom_delays_ns.begin(), cfg.headroom_delays_ns.end());
  }
  if (const toml::table* watchdog = in.subtable("watchdog")) {
    TableReader r(*watchdog, in.prefix() + "watchdog.", in.file());
    const WatchdogTimes w = read_watchdog(r);
    if (auto v = r.parsed<uint64_t>("tolerance", parse_duration_ns, kDurationHelp)) cfg.watchdog_tolerance_ns = *v;
    r.finish();
    cfg.watchdog = true;
    cfg.watchdog_detect_ns = w.detect_ns;
    cfg.watchdog_restore_ns = w.restore_ns;
    cfg.watchdog_forward = w.forward;
  }
  cfg.key_locs = in.key_locs();
  in.finish();
  return cfg;
}

NdrCfg read_ndr(TableReader& in) {
  NdrCfg cfg;
  cfg.frame_sizes = {{"64", {64}, {}}};
  cfg.trial_duration_ns = 30'000'000'000;
  read_search(in, cfg);
  if (auto v = in.number("pdr_loss_tolerance", 0, 100)) cfg.pdr_loss_tolerance_percent = *v;
  if (auto v = in.parsed<uint64_t>("ndr_latency_p99", parse_duration_ns, kDurationHelp)) cfg.ndr_latency_p99_ns = *v;
  if (auto v = in.parsed<uint64_t>("pdr_latency_p99", parse_duration_ns, kDurationHelp)) cfg.pdr_latency_p99_ns = *v;
  if (cfg.pdr_loss_tolerance_percent < cfg.loss_tolerance_percent)
    in.fail(in.find("pdr_loss_tolerance"), "pdr_loss_tolerance",
            fmt::format("{} % is below the NDR's loss_tolerance ({} %): the partial-drop rate allows more loss",
                        cfg.pdr_loss_tolerance_percent, cfg.loss_tolerance_percent));
  cfg.key_locs = in.key_locs();
  in.finish();
  return cfg;
}

QualifyCfg read_qualify(TableReader& in) {
  QualifyCfg cfg;
  cfg.loc = loc_of(in.table());
  if (auto v = in.strings("ports", "expected an array of port names, e.g. [\"p0\", \"p1\"]")) cfg.ports = std::move(*v);
  if (auto v = in.parsed<uint64_t>("speed", parse_link_speed_bps, "a link speed: write e.g. '40G' or '50G'"))
    cfg.speed_bps = *v;
  if (auto v = in.string("fec")) {
    if (*v != "off" && *v != "baser" && *v != "rs" && *v != "llrs")
      in.fail(in.find("fec"), "fec", fmt::format("'{}' is not off, baser, rs or llrs (the FEC expected active)", *v));
    cfg.fec = *v;
  }
  if (auto v = in.boolean("set_fec")) cfg.set_fec = *v;
  if (cfg.set_fec && cfg.fec.empty()) in.fail(in.find("set_fec"), "set_fec", "set which FEC mode? add fec = \"rs\"");
  if (auto v = in.string("fec_code")) {
    if (*v != "rs528" && *v != "rs544")
      in.fail(in.find("fec_code"), "fec_code", fmt::format("'{}' is not rs528 (RS(528,514)) or rs544 (RS(544,514))", *v));
    cfg.fec_code = *v;
  }
  if (const toml::node* node = in.find("rate")) {
    const auto text = node->value<std::string>();
    const auto rate = text ? parse_rate(*text) : std::nullopt;
    if (!rate || rate->kind != RateKind::kPercentOfLine || rate->value <= 0)
      in.fail(node, "rate", "expected a share of line rate, e.g. '100%'");
    cfg.rate_percent = rate->value;
  }
  if (const toml::node* node = in.find("duration")) {
    const auto text = node->value<std::string>();
    if (!text) in.fail(node, "duration", fmt::format("expected 'auto' or {}", kDurationHelp));
    if (*text != "auto") {
      const auto ns = parse_duration_ns(*text);
      if (!ns || *ns < 100'000'000) in.fail(node, "duration", fmt::format("'{}' is not 'auto' or a duration of at least 100ms", *text));
      cfg.duration_ns = *ns;
    }
  }
  if (auto v = in.parsed<uint64_t>("max_auto_duration", parse_duration_ns, kDurationHelp)) cfg.max_auto_duration_ns = *v;
  if (auto v = in.parsed<uint64_t>("interval", parse_duration_ns, kDurationHelp)) {
    if (*v < 100'000'000) in.fail(in.find("interval"), "interval", "sample at most every 100ms (the module's monitors update slower)");
    cfg.interval_ns = *v;
  }
  if (auto v = in.number("target_ber", 1e-18, 1e-3)) cfg.target_ber = *v;
  if (auto v = in.number("confidence", 0.5, 0.9999)) cfg.confidence = *v;
  if (auto v = in.number("ber_limit", 1e-18, 1e-2)) cfg.ber_limit = *v;
  if (auto v = in.number("rx_power_drift_db", 0.01, 20)) cfg.rx_power_drift_db = *v;
  if (auto v = in.number("tx_power_drift_db", 0.01, 20)) cfg.tx_power_drift_db = *v;
  cfg.key_locs = in.key_locs();
  in.finish();
  return cfg;
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
  if (const toml::table* rfc2544 = in.subtable("rfc2544")) {
    TableReader r(*rfc2544, "rfc2544.", file);
    profile.rfc2544 = read_rfc2544(r);
  }
  if (const toml::table* ndr = in.subtable("ndr")) {
    TableReader r(*ndr, "ndr.", file);
    profile.ndr = read_ndr(r);
  }
  if (const toml::table* lossless = in.subtable("lossless")) {
    TableReader r(*lossless, "lossless.", file);
    profile.lossless = read_lossless(r);
  }
  if (const toml::table* qualify = in.subtable("qualify")) {
    TableReader r(*qualify, "qualify.", file);
    profile.qualify = read_qualify(r);
  }
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

// A procedure that cannot work is refused before any traffic, at its key.
void validate_search(const Profile& profile, const SearchCfg& cfg, const std::string& section) {
  const auto at = [&](std::string_view key) { return cfg.loc_of(key); };
  if (profile.streams.empty())
    throw ConfigError(profile.path, cfg.loc, section, "the procedure runs the profile's streams: add a [[stream]]");
  for (const StreamSpec& s : profile.streams) {
    if (!s.rx_port)
      throw ConfigError(profile.path, s.loc, section,
                        fmt::format("stream '{}' has no rx_port: a benchmark counts what comes back", s.name));
    const PortCfg* port = profile.find_port(s.tx_port);
    for (const BenchFrameSize& size : cfg.frame_sizes) {
      if (s.roce && size.is_mix())
        throw ConfigError(profile.path, at("frame_sizes"), section + ".frame_sizes",
                          fmt::format("stream '{}' is RoCEv2, which sends one message size per trial, not a mix ('{}')",
                                      s.name, size.name));
      for (uint16_t bytes : size.sizes) {
        if (const std::string problem = roce_frame_size_problem(s, bytes); !problem.empty())
          throw ConfigError(profile.path, at("frame_sizes"), section + ".frame_sizes",
                            fmt::format("stream '{}': {}", s.name, problem));
        if (bytes < min_frame_bytes(s))
          throw ConfigError(profile.path, at("frame_sizes"), section + ".frame_sizes",
                            fmt::format("{} bytes is below the smallest frame stream '{}' can send ({} bytes)", bytes,
                                        s.name, min_frame_bytes(s)));
        // The MTU counts the L3 packet: the frame less its Ethernet header, VLAN tag and FCS.
        const unsigned l3 = bytes - 14u - (s.vlan ? 4u : 0u) - kFcsBytes;
        const unsigned mtu = port != nullptr && port->mtu != 0 ? port->mtu : 1500;
        if (l3 > mtu)
          throw ConfigError(profile.path, at("frame_sizes"), section + ".frame_sizes",
                            fmt::format("{}-byte frames carry {}-byte packets, above port '{}''s MTU of {}{}: set its "
                                        "[[port]] mtu", bytes, l3, s.tx_port, mtu,
                                        port != nullptr && port->mtu != 0 ? "" : " (the default)"));
      }
    }
  }
  if (cfg.lower_bound_percent + cfg.resolution_percent > 100)
    throw ConfigError(profile.path, at("lower_bound"), section + ".lower_bound",
                      "leaves no room to search below line rate at this resolution");
  // A resolution finer than one frame a trial cannot be told apart by counting frames.
  for (const StreamSpec& s : profile.streams) {
    const PortCfg* port = profile.find_port(s.tx_port);
    if (port == nullptr || port->speed_bps == 0) continue;
    for (const BenchFrameSize& size : cfg.frame_sizes) {
      const double line_pps = line_rate_pps(port->speed_bps, size.mean());
      const double frames = line_pps * cfg.resolution_percent / 100.0 * static_cast<double>(cfg.trial_duration_ns) / 1e9;
      if (frames < 1)
        throw ConfigError(profile.path, at("resolution"), section + ".resolution",
                          fmt::format("{} % of line rate is {:.3g} frames in a {} trial of {}-byte frames on port '{}': "
                                      "finer than one frame; lengthen trial_duration or coarsen the resolution",
                                      cfg.resolution_percent, frames, fmt::format("{:g} s", static_cast<double>(cfg.trial_duration_ns) / 1e9), size.name,
                                      s.tx_port));
    }
  }
}

// The ports the plan names exist, the senders obey PFC (the device's PFC must hold them,
// or its headroom overflows and every lossless case measures the tester), and each sender
// has a [[stream]] to the receiver whose headers the cases use.
void validate_lossless(const Profile& profile, const LosslessCfg& cfg) {
  const auto fail = [&](std::string_view key, const std::string& why) {
    throw ConfigError(profile.path, cfg.loc_of(key), fmt::format("lossless.{}", key), why);
  };
  // Without a timeline the cases see no silence and no reaction time, and the device
  // would fail for the tester's blindness.
  if (profile.run.timeline_bin_ns == 0)
    throw ConfigError(profile.path, cfg.loc_of("cases"), "run.timeline",
                      "the lossless plan reads pauses, silences and reaction times from the receiver's rate "
                      "timeline: add `timeline = \"10us\"` to [run]");
  const PortCfg* receiver = profile.find_port(cfg.receiver);
  if (receiver == nullptr) fail("receiver", fmt::format("no [[port]] is named '{}'", cfg.receiver));
  if (receiver->speed_bps == 0)
    fail("receiver", fmt::format("port '{}' needs a `speed`: quanta are timed at it", cfg.receiver));
  for (const std::string& name : cfg.senders) {
    const PortCfg* port = profile.find_port(name);
    if (port == nullptr) fail("senders", fmt::format("no [[port]] is named '{}'", name));
    if (name == cfg.receiver) fail("senders", fmt::format("'{}' is the receiver", name));
    if (!port->pfc_honour)
      fail("senders", fmt::format("port '{}' must obey the device's PFC (pfc_honour = true), or the device's headroom "
                                  "overflows and the lossless cases measure the tester", name));
    if (port->speed_bps == 0) fail("senders", fmt::format("port '{}' needs a `speed`: loads are shares of it", name));
    const bool templated = std::any_of(profile.streams.begin(), profile.streams.end(), [&](const StreamSpec& s) {
      return s.tx_port == name && s.rx_port == cfg.receiver && s.kind == StreamKind::kUdp;
    });
    if (!templated)
      fail("senders", fmt::format("add a [[stream]] from '{}' to '{}': its headers (addresses, VLAN) are the "
                                  "cases' frames", name, cfg.receiver));
  }
  for (const StreamSpec& s : profile.streams)
    if (std::find(cfg.senders.begin(), cfg.senders.end(), s.tx_port) != cfg.senders.end() && s.rx_port == cfg.receiver) {
      if (cfg.frame_size < min_frame_bytes(s))
        fail("frame_size", fmt::format("{} bytes is below the smallest frame stream '{}' can send ({} bytes)",
                                       cfg.frame_size, s.name, min_frame_bytes(s)));
      if (s.roce) fail("senders", fmt::format("stream '{}' is RoCEv2: the cases send signed UDP", s.name));
    }
}

}  // namespace

void validate_bench_sections(const Profile& profile) {
  if (profile.rfc2544) validate_search(profile, *profile.rfc2544, "rfc2544");
  if (profile.ndr) validate_search(profile, *profile.ndr, "ndr");
  if (profile.lossless) validate_lossless(profile, *profile.lossless);
}

void validate_qualify_section(const Profile& profile) {
  if (!profile.qualify) return;
  const QualifyCfg& cfg = *profile.qualify;
  for (const std::string& name : cfg.ports) {
    if (profile.find_port(name) == nullptr)
      throw ConfigError(profile.path, cfg.loc_of("ports"), "qualify.ports", fmt::format("no [[port]] is named '{}'", name));
    const bool received = std::any_of(profile.streams.begin(), profile.streams.end(),
                                      [&](const StreamSpec& s) { return s.rx_port == name; });
    if (!received)
      throw ConfigError(profile.path, cfg.loc_of("ports"), "qualify.ports",
                        fmt::format("no stream is received on port '{}': add a [[stream]] with rx_port = \"{}\" (its "
                                    "own tx_port for a looped-back module)", name, name));
  }
  if (profile.streams.empty())
    throw ConfigError(profile.path, cfg.loc, "qualify", "the traffic is the profile's streams: add a [[stream]]");
  for (const StreamSpec& s : profile.streams)
    if (!s.rx_port)
      throw ConfigError(profile.path, s.loc, "qualify",
                        fmt::format("stream '{}' has no rx_port: qualification counts every frame back", s.name));
}

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

namespace {

toml::table parse_toml(std::string_view text, const std::string& path) {
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& error) {
    throw ConfigError(path, {static_cast<uint32_t>(error.source().begin.line), static_cast<uint32_t>(error.source().begin.column)},
                      "", std::string(error.description()));
  }
}

}  // namespace

void validate_streams(const std::vector<StreamSpec>& streams, const std::string& where, const Profile& running) {
  Profile profile;
  profile.path = where;
  profile.streams = streams;
  use_running_ports(profile, running);
  validate_profile(profile);
}

Profile load_profile_text(std::string_view text, const std::string& path) {
  return read_root(parse_toml(text, path), path);
}

std::vector<StreamSpec> load_streams_text(std::string_view text, const std::string& path, const Profile& running) {
  return read_root(parse_toml(text, path), path, &running).streams;
}

std::vector<StreamSpec> read_stream_tables(std::string_view text, const std::string& path) {
  return read_sections(parse_toml(text, path), path).streams;
}

Profile load_profile_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path, {0, 0}, "", fmt::format("cannot open the profile file: {}", std::strerror(errno)));
  std::stringstream text;
  text << in.rdbuf();
  return load_profile_text(text.str(), path);
}

}  // namespace lr::profile
