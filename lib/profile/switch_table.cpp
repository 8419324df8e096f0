// A [[switch]] table read into a SwitchSpec: each key with its range and the error that
// names it, and the cross-checks a buffer's thresholds need.
#include "lib/profile/switch_table.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include <toml++/toml.h>

#include "lib/profile/quantity.hpp"
#include "lib/profile/shared_keys.hpp"
#include "lib/profile/table_reader.hpp"

namespace lr::profile {

namespace {

// The same as a mask: bit p for priority p.
std::optional<uint8_t> read_priority_mask(TableReader& in, const char* key, const char* not_an_array) {
  const auto priorities = read_priorities(in, key, not_an_array);
  if (!priorities) return std::nullopt;
  uint8_t mask = 0;
  for (uint8_t p : *priorities) mask |= static_cast<uint8_t>(1u << p);
  return mask;
}

api::SwitchPortSpec read_switch_port(TableReader& in) {
  api::SwitchPortSpec port;
  port.loc = loc_of(in.table());
  port.name = in.required_string("name");
  port.device = in.required_string("device");
  if (auto v = in.parsed<uint64_t>("speed", parse_link_speed_bps, "a link speed: write e.g. '10G', '40G' or '50Gbps'"))
    port.speed_bps = *v;
  if (auto text = in.string("shape")) {
    const auto rate = parse_rate(*text);
    if (!rate || (rate->kind != api::RateKind::kPercentOfLine && rate->kind != api::RateKind::kL1Bps))
      in.fail(in.find("shape"), "shape",
              fmt::format("'{}' is not an egress rate: write a share of the port's speed ('50%') or an L1 bit rate "
                          "('5Gbps')", *text));
    port.shape = rate;
  }
  in.finish();
  return port;
}

// The address table's keys: meaningful with forward = "learn" only.
void read_learning(TableReader& in, api::SwitchSpec& sw) {
  for (const char* key : {"mac_table_size", "learn_rate", "mac_age"})
    if (!sw.learn && in.find(key) != nullptr)
      in.fail(in.find(key), key, "needs forward = \"learn\" (a static forwarding table learns no addresses)");
  if (auto v = in.integer<uint32_t>("mac_table_size", 1, api::kMaxMacTableSize)) sw.mac_table_size = *v;
  if (auto v = in.integer<uint64_t>("learn_rate", 1, 1'000'000'000)) sw.learn_rate = *v;
  if (auto text = in.string("mac_age")) {
    if (*text == "off") {
      sw.mac_age_ns = 0;
    } else {
      const auto ns = parse_duration_ns(*text);
      if (!ns || *ns < 1'000'000)
        in.fail(in.find("mac_age"), "mac_age", fmt::format("'{}' is not 'off' or a time of 1ms or more (e.g. '300s')", *text));
      sw.mac_age_ns = *ns;
    }
  }
}

// Two ports or more, each a table of its own.
std::vector<api::SwitchPortSpec> read_switch_ports(TableReader& in) {
  const toml::node* ports = in.find("ports");
  const toml::array* array = ports != nullptr ? ports->as_array() : nullptr;
  if (array == nullptr || array->size() < 2)
    in.fail(ports, "ports", "expected an array of at least two ports, e.g. [{ name = \"s1\", device = \"cable:a\" }, ...]");
  std::vector<api::SwitchPortSpec> out;
  for (size_t i = 0; i < array->size(); ++i) {
    const toml::table* table = (*array)[i].as_table();
    if (table == nullptr) in.fail(&(*array)[i], "ports", "each port is a table: { name = \"s1\", device = \"cable:a\" }");
    TableReader r(*table, fmt::format("{}ports[{}].", in.prefix(), i), in.file());
    out.push_back(read_switch_port(r));
  }
  return out;
}

// forward: "learn" (by destination MAC), or a static map of ingress port to egress port.
void read_switch_forwarding(TableReader& in, api::SwitchSpec& sw) {
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
}

// How a frame finds its priority: its VLAN PCP, or its DSCP through a map.
void read_switch_classify(TableReader& in, api::SwitchSpec& sw) {
  if (auto v = in.string("classify")) {
    if (*v == "pcp") sw.classify = api::SwitchClassify::kPcp;
    else if (*v == "dscp") sw.classify = api::SwitchClassify::kDscp;
    else in.fail(in.find("classify"), "classify", fmt::format("'{}' is not one of pcp, dscp", *v));
  }
  if (const toml::table* map = in.subtable("dscp_to_priority")) {
    if (sw.classify != api::SwitchClassify::kDscp)
      in.fail(in.find("dscp_to_priority"), "dscp_to_priority", "needs classify = \"dscp\"");
    sw.dscp_to_priority = read_dscp_map(in, *map);
  }
}

// The shared buffer and its PFC thresholds: XON must lie below XOFF, or a paused
// priority would never be released.
void read_switch_buffer(TableReader& in, api::SwitchSpec& sw) {
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
}

// The PFC frames it sends (quanta, refresh) and the pause frames it obeys.
void read_switch_pause(TableReader& in, api::SwitchSpec& sw) {
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
}

// The ecn subtable, its marking curve: present turns marking on.
void read_switch_ecn(TableReader& in, api::SwitchSpec& sw) {
  if (const toml::table* ecn = in.subtable("ecn")) {
    TableReader r(*ecn, in.prefix() + "ecn.", in.file());
    const EcnCurve curve = read_ecn_curve(r, "is required");
    r.finish();
    sw.ecn = true;
    sw.ecn_kmin_bytes = curve.kmin_bytes;
    sw.ecn_kmax_bytes = curve.kmax_bytes;
    sw.ecn_pmax = curve.pmax;
  }
}

// The watchdog subtable, for a priority paused too long: present turns it on.
void read_switch_watchdog(TableReader& in, api::SwitchSpec& sw) {
  if (const toml::table* watchdog = in.subtable("watchdog")) {
    TableReader r(*watchdog, in.prefix() + "watchdog.", in.file());
    const WatchdogTimes w = read_watchdog(r);
    r.finish();
    sw.watchdog = true;
    sw.watchdog_detect_ns = w.detect_ns;
    sw.watchdog_restore_ns = w.restore_ns;
    sw.watchdog_forward = w.forward;
  }
}

// queueing: output (the default) or input, which has no egress queue to mark or pause.
void read_switch_queueing(TableReader& in, api::SwitchSpec& sw) {
  if (auto v = in.string("queueing")) {
    if (*v == "input") sw.input_queued = true;
    else if (*v != "output")
      in.fail(in.find("queueing"), "queueing",
              fmt::format("'{}' is not one of output (a queue per egress port and priority), input (one FIFO per "
                          "ingress port: head-of-line blocking)", *v));
    if (sw.input_queued && sw.lossless != 0)
      in.fail(in.find("queueing"), "queueing", "input queueing is for lossy priorities only: remove `lossless`");
    if (sw.input_queued && sw.ecn)
      in.fail(in.find("queueing"), "queueing", "input queueing marks no ECN (a frame waits behind its port's head, "
                                               "not in an egress queue): remove `ecn`");
  }
}

// The largest frame it forwards, and how far its clock may fall behind before it catches up.
void read_switch_limits(TableReader& in, api::SwitchSpec& sw) {
  if (auto v = read_bytes(in, "max_frame")) {
    if (*v < 64) in.fail(in.find("max_frame"), "max_frame", fmt::format("{} bytes is below the 64-byte minimum frame", *v));
    sw.max_frame_bytes = static_cast<uint32_t>(std::min<uint64_t>(*v, std::numeric_limits<uint32_t>::max()));
  }
  if (auto v = in.parsed<uint64_t>("catch_up", parse_duration_ns, kDurationHelp)) {
    if (*v < 1'000'000 || *v > 1'000'000'000)
      in.fail(in.find("catch_up"), "catch_up", "between 1ms and 1s");
    sw.catch_up_ns = *v;
  }
}

}  // namespace

// The keys are read in the order their errors are reported: a table with two mistakes
// names the same one it always did.
api::SwitchSpec read_switch(TableReader& in) {
  api::SwitchSpec sw;
  sw.loc = loc_of(in.table());
  sw.name = in.required_string("name");
  if (auto v = in.integer<unsigned>("lcore", 0, 1023)) sw.lcore = *v;
  sw.ports = read_switch_ports(in);
  read_switch_forwarding(in, sw);
  read_switch_classify(in, sw);
  read_switch_buffer(in, sw);
  read_switch_pause(in, sw);
  read_switch_ecn(in, sw);
  read_switch_watchdog(in, sw);
  if (auto v = in.integer<uint64_t>("seed", 1, std::numeric_limits<int64_t>::max())) sw.seed = *v;
  read_learning(in, sw);
  read_switch_queueing(in, sw);
  read_switch_limits(in, sw);
  if (sw.ports.size() > api::kMaxSwitchPorts)
    in.fail(in.find("ports"), "ports", fmt::format("{} ports: a switch has at most {}", sw.ports.size(), api::kMaxSwitchPorts));
  sw.key_locs = in.key_locs();
  in.finish();
  return sw;
}

}  // namespace lr::profile
