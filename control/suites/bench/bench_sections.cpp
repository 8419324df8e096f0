#include "control/suites/bench/bench_sections.hpp"

#include "control/suites/bench/rfc2889_section.hpp"

#include <fmt/format.h>

#include <cmath>
#include <toml++/toml.h>

#include "lib/common/line_rate.hpp"
#include "lib/profile/load_toml.hpp"
#include "lib/profile/quantity.hpp"
#include "lib/profile/shared_keys.hpp"
#include "lib/profile/table_reader.hpp"

namespace lr::bench {

using api::RateKind;
using api::StreamKind;
using api::StreamSpec;
using profile::ConfigError;
using profile::EcnCurve;
using profile::kDurationHelp;
using profile::loc_of;
using profile::min_frame_bytes;
using profile::parse_bytes;
using profile::parse_duration_ns;
using profile::parse_rate;
using api::PortSpec;
using profile::Profile;
using profile::read_bytes;
using profile::read_ecn_curve;
using profile::read_priorities;
using profile::read_watchdog;
using profile::roce_frame_size_problem;
using profile::TableReader;
using profile::WatchdogTimes;

uint16_t BenchFrameSize::largest() const noexcept {
  return sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end());
}

double BenchFrameSize::mean() const noexcept {
  if (weights.empty()) return sizes.empty() ? 0 : sizes.front();
  return api::weighted_mean(sizes, weights);
}

bool Rfc2544Cfg::runs(std::string_view test) const {
  return std::find(tests.begin(), tests.end(), test) != tests.end();
}

namespace {

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
  if (auto v = in.percent("resolution", 0.001, 50)) cfg.resolution_percent = *v;
  if (auto v = in.percent("loss_tolerance", 0, 100)) cfg.loss_tolerance_percent = *v;
  if (auto v = in.percent("lower_bound", 0.001, 100)) cfg.lower_bound_percent = *v;
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
  if (auto v = in.percent("frame_loss_step", 0.1, 100)) cfg.frame_loss_step_percent = *v;
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

// The tester ports that send through the device, and the one that receives.
void read_lossless_ports(TableReader& in, LosslessCfg& cfg) {
  if (auto v = in.strings("senders", "expected an array of port names, e.g. [\"sender-a\", \"sender-b\"]")) cfg.senders = *v;
  if (cfg.senders.empty()) in.fail(in.find("senders"), "senders", "name the tester ports that send through the device");
  cfg.receiver = in.required_string("receiver");
}

// The device's lossless priorities (at least one) and lossy ones (none of them lossless).
void read_lossless_priorities(TableReader& in, LosslessCfg& cfg) {
  cfg.lossless = read_priorities(in, "lossless", "expected an array of priorities 0-7, e.g. [3]").value_or(std::vector<uint8_t>{});
  cfg.lossy = read_priorities(in, "lossy", "expected an array of priorities 0-7, e.g. [0]").value_or(std::vector<uint8_t>{});
  if (cfg.lossless.empty()) in.fail(in.find("lossless"), "lossless", "name the device's lossless priorities, e.g. [3]");
  for (uint8_t p : cfg.lossy)
    if (std::find(cfg.lossless.begin(), cfg.lossless.end(), p) != cfg.lossless.end())
      in.fail(in.find("lossy"), "lossy", fmt::format("priority {} is also lossless", p));
}

// Which cases run; those that need lossy traffic refused without a lossy priority.
void read_lossless_cases(TableReader& in, LosslessCfg& cfg) {
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
}

// Each case's traffic: frames, load, how long, the storm in its middle, the rest after it.
void read_lossless_traffic(TableReader& in, LosslessCfg& cfg) {
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
}

// What the device's pause frames should be: 802.3x obeyed or not, how fast PFC answers,
// the quanta it sends and how closely they must match.
void read_lossless_pause(TableReader& in, LosslessCfg& cfg) {
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
  if (auto v = in.percent("quanta_tolerance_percent", 0, 100)) cfg.quanta_tolerance_percent = *v;
  if (auto v = in.parsed<uint64_t>("quanta_tolerance", parse_duration_ns, kDurationHelp)) cfg.quanta_tolerance_ns = *v;
}

// The ecn subtable: the device's marking curve, and the queue depths the case fills to
// (by default one across the ramp and one above it).
void read_lossless_ecn(TableReader& in, LosslessCfg& cfg) {
  const toml::table* ecn = in.subtable("ecn");
  if (ecn == nullptr) return;
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

// The device's headroom, and the pause delays the headroom case tries, shortest first.
void read_lossless_headroom(TableReader& in, LosslessCfg& cfg) {
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
}

// The watchdog subtable: the device's PFC watchdog, and how far its timing may stray.
void read_lossless_watchdog(TableReader& in, LosslessCfg& cfg) {
  const toml::table* watchdog = in.subtable("watchdog");
  if (watchdog == nullptr) return;
  TableReader r(*watchdog, in.prefix() + "watchdog.", in.file());
  const WatchdogTimes w = read_watchdog(r);
  if (auto v = r.parsed<uint64_t>("tolerance", parse_duration_ns, kDurationHelp)) cfg.watchdog_tolerance_ns = *v;
  r.finish();
  cfg.watchdog = true;
  cfg.watchdog_detect_ns = w.detect_ns;
  cfg.watchdog_restore_ns = w.restore_ns;
  cfg.watchdog_forward = w.forward;
}

// The keys are read in the order their errors are reported: a section with two mistakes
// names the same one it always did.
LosslessCfg read_lossless(TableReader& in) {
  LosslessCfg cfg;
  cfg.loc = loc_of(in.table());
  cfg.rest_ns = 100'000'000;
  read_lossless_ports(in, cfg);
  read_lossless_priorities(in, cfg);
  read_lossless_cases(in, cfg);
  read_lossless_traffic(in, cfg);
  read_lossless_pause(in, cfg);
  read_lossless_ecn(in, cfg);
  read_lossless_headroom(in, cfg);
  read_lossless_watchdog(in, cfg);
  cfg.key_locs = in.key_locs();
  in.finish();
  return cfg;
}

// [[ndr.goals]]: MLRsearch's goals, each key named as RFC 9971 names the attribute.
MlrGoal read_mlr_goal(TableReader& in, size_t index) {
  MlrGoal g;
  g.name = in.string("name").value_or(fmt::format("goal{}", index));
  if (auto v = in.number("loss_ratio", 0, 1)) g.loss_ratio = *v;
  if (auto v = in.number("exceed_ratio", 0, 0.99)) g.exceed_ratio = *v;
  if (auto v = in.number("relative_width", 0.0001, 0.5)) g.relative_width = *v;
  const auto seconds = [&](const char* key, double fallback) {
    const auto ns = in.parsed<uint64_t>(key, parse_duration_ns, kDurationHelp);
    if (ns && *ns < 1'000'000) in.fail(in.find(key), key, "at least 1ms");
    return ns ? static_cast<double>(*ns) / 1e9 : fallback;
  };
  g.final_trial_duration_s = seconds("final_trial_duration", g.final_trial_duration_s);
  g.initial_trial_duration_s = std::min(seconds("initial_trial_duration", g.initial_trial_duration_s), g.final_trial_duration_s);
  g.duration_sum_s = seconds("duration_sum", std::max(g.duration_sum_s, g.final_trial_duration_s));
  if (auto v = in.integer<unsigned>("preceding_targets", 0, 10)) g.preceding_targets = *v;
  if (g.duration_sum_s < g.final_trial_duration_s)
    in.fail(in.find("duration_sum"), "duration_sum", "is less than final_trial_duration: no load could be decided");
  in.finish();
  return g;
}

NdrCfg read_ndr(TableReader& in) {
  NdrCfg cfg;
  cfg.frame_sizes = {{"64", {64}, {}}};
  cfg.trial_duration_ns = 30'000'000'000;
  read_search(in, cfg);
  if (auto v = in.percent("pdr_loss_tolerance", 0, 100)) cfg.pdr_loss_tolerance_percent = *v;
  if (auto v = in.parsed<uint64_t>("ndr_latency_p99", parse_duration_ns, kDurationHelp)) cfg.ndr_latency_p99_ns = *v;
  if (auto v = in.parsed<uint64_t>("pdr_latency_p99", parse_duration_ns, kDurationHelp)) cfg.pdr_latency_p99_ns = *v;
  if (cfg.pdr_loss_tolerance_percent < cfg.loss_tolerance_percent)
    in.fail(in.find("pdr_loss_tolerance"), "pdr_loss_tolerance",
            fmt::format("{} % is below the NDR's loss_tolerance ({} %): the partial-drop rate allows more loss",
                        cfg.pdr_loss_tolerance_percent, cfg.loss_tolerance_percent));
  if (auto v = in.string("method")) {
    if (*v != "bisection" && *v != "mlrsearch")
      in.fail(in.find("method"), "method", fmt::format("'{}' is not bisection or mlrsearch", *v));
    cfg.method = *v;
  }
  if (const toml::node* node = in.find("goals")) {
    const toml::array* list = node->as_array();
    if (list == nullptr || list->empty() || !list->is_array_of_tables())
      in.fail(node, "goals", "expected [[ndr.goals]] tables (name, loss_ratio, exceed_ratio, ...)");
    if (cfg.method != "mlrsearch") in.fail(node, "goals", "goals are MLRsearch's: set method = \"mlrsearch\"");
    for (size_t i = 0; i < list->size(); ++i) {
      TableReader r(*list->get(i)->as_table(), fmt::format("{}goals[{}].", in.prefix(), i), in.file());
      cfg.goals.push_back(read_mlr_goal(r, i));
    }
  } else {
    MlrGoal ndr, pdr;
    ndr.loss_ratio = cfg.loss_tolerance_percent / 100;
    pdr.name = "pdr";
    pdr.loss_ratio = cfg.pdr_loss_tolerance_percent / 100;
    cfg.goals = {ndr, pdr};
  }
  cfg.key_locs = in.key_locs();
  in.finish();
  return cfg;
}

// A procedure that cannot work is refused before any traffic, at its key.
void validate_search(const Profile& profile, const SearchCfg& cfg, const std::string& section) {
  const auto at = [&](std::string_view key) { return cfg.loc_of(key); };
  if (profile.streams.empty())
    throw ConfigError(profile.path, cfg.loc, section, "the procedure runs the profile's streams: add a [[stream]]");
  for (const StreamSpec& s : profile.streams) {
    if (!s.rx_port)
      throw ConfigError(profile.path, s.loc, section,
                        fmt::format("stream '{}' has no rx_port: a benchmark counts what comes back", s.name));
    const api::PortSpec* port = profile.find_port(s.tx_port);
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
    const api::PortSpec* port = profile.find_port(s.tx_port);
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
  const api::PortSpec* receiver = profile.find_port(cfg.receiver);
  if (receiver == nullptr) fail("receiver", fmt::format("no [[port]] is named '{}'", cfg.receiver));
  if (receiver->speed_bps == 0)
    fail("receiver", fmt::format("port '{}' needs a `speed`: quanta are timed at it", cfg.receiver));
  for (const std::string& name : cfg.senders) {
    const api::PortSpec* port = profile.find_port(name);
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

BenchProfile read_bench_sections(const Profile& profile, std::string_view text) {
  BenchProfile out;
  static_cast<Profile&>(out) = profile;
  const std::string& file = profile.path;
  const toml::table root = profile::parse_profile_toml(text, file);
  TableReader in(root, "", file);  // the other keys are the profile's: no finish()
  if (const toml::table* t = in.subtable("rfc2544")) {
    TableReader r(*t, "rfc2544.", file);
    out.rfc2544 = read_rfc2544(r);
    validate_search(out, *out.rfc2544, "rfc2544");
  }
  if (const toml::table* t = in.subtable("ndr")) {
    TableReader r(*t, "ndr.", file);
    out.ndr = read_ndr(r);
    validate_search(out, *out.ndr, "ndr");
  }
  if (const toml::table* t = in.subtable("lossless")) {
    TableReader r(*t, "lossless.", file);
    out.lossless = read_lossless(r);
    validate_lossless(out, *out.lossless);
  }
  if (const toml::table* t = in.subtable("rfc2889")) {
    TableReader r(*t, "rfc2889.", file);
    out.rfc2889 = read_rfc2889(r);
    validate_rfc2889(out, *out.rfc2889);
  }
  return out;
}

}  // namespace lr::bench
