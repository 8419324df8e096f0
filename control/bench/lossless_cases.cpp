#include "control/bench/lossless_cases.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>

#include "control/bench/lossless_verdicts.hpp"
#include "control/cli/stop_signal.hpp"
#include "control/client/dataplane_client.hpp"
#include "dataplane/api/rpc.hpp"
#include "dataplane/api/stall_report.hpp"
#include "dataplane/api/switch_report.hpp"
#include "dataplane/common/line_rate.hpp"

namespace lr::bench {

using nlohmann::json;

namespace {

constexpr uint16_t kStormQuanta = 65535;
constexpr int kAttempts = 8;                      ///< runs of a case step before it is not judged
constexpr double kEmulationStallLimitUs = 1000;  ///< linerate's switch held up this long where a case measures: invalid
constexpr double kQueueBridgesS = 100e-6;  ///< a silence of the incast's senders a device's queue bridges

struct Plan {
  const profile::Profile& profile;
  const profile::LosslessCfg& cfg;
  TrialRunner& runner;
  BenchSession& session;
  toml::table root;            ///< the profile file: the senders' [[stream]] templates
  uint64_t receiver_bps = 0;
  std::map<std::string, uint64_t> speeds;
  std::optional<double> response_s;  ///< the reaction bound; none: no default at this speed
  std::string response_basis;        ///< where it came from
  bool interrupted = false;
  std::string not_judged;            ///< a run step had no valid run: why
};

// The case's streams as [[stream]] tables: the senders' templates with the case's
// priority, size, load and timing; the receiver's MAC Control frames.
class Streams {
 public:
  explicit Streams(const Plan& plan) : plan_(plan) {}

  void traffic(const std::string& name, const std::string& sender, uint8_t priority, double percent,
               uint64_t start_after_ns, uint64_t duration_ns, uint64_t count = 0, bool ecn_capable = false) {
    toml::table stream = *template_of(sender);
    int64_t vlan_id = 0;
    if (const toml::table* vlan = stream["vlan"].as_table()) vlan_id = (*vlan)["id"].value_or(int64_t{0});
    for (const char* key : {"name", "frame_size", "frame_weights", "rate", "count", "duration", "burst", "start_after",
                            "vlan", "kind"})
      stream.erase(key);
    stream.insert("name", name);
    stream.insert("frame_size", int64_t{plan_.cfg.frame_size});
    stream.insert("rate", fmt::format("{:.6f}%", percent));
    stream.insert("vlan", toml::table{{"id", vlan_id}, {"pcp", int64_t{priority}}});
    if (start_after_ns != 0) stream.insert("start_after", fmt::format("{}ns", start_after_ns));
    if (count != 0) stream.insert("count", static_cast<int64_t>(count));
    else stream.insert("duration", fmt::format("{}ns", duration_ns));
    if (ecn_capable) {
      const char* ip = stream.contains("ipv6") ? "ipv6" : "ipv4";
      if (!stream.contains(ip)) stream.insert(ip, toml::table{});
      stream[ip].as_table()->insert_or_assign("ecn", int64_t{2});  // ECT(0)
    }
    streams_.push_back(std::move(stream));
  }

  /// PFC on `priority` (or, with `pause`, 802.3x PAUSE) from the receiver toward the
  /// device: refreshed to hold the pause for `duration_ns`, or one frame when it is 0.
  void mac_control(const std::string& name, bool pause, uint8_t priority, uint32_t quanta, uint64_t start_after_ns,
                   uint64_t duration_ns) {
    toml::table stream{{"name", name}, {"tx_port", plan_.cfg.receiver}, {"kind", pause ? "pause" : "pfc"},
                       {"quanta", int64_t{quanta}}};
    if (!pause) stream.insert("priorities", toml::array{int64_t{priority}});
    if (start_after_ns != 0) stream.insert("start_after", fmt::format("{}ns", start_after_ns));
    if (duration_ns != 0) {
      stream.insert("refresh", "auto");
      stream.insert("duration", fmt::format("{}ns", duration_ns));
    } else {
      stream.insert("rate", "1kpps");
      stream.insert("count", int64_t{1});
    }
    streams_.push_back(std::move(stream));
  }

  std::string text() const {
    std::ostringstream out;
    out << toml::table{{"stream", streams_}};
    return out.str();
  }

 private:
  const toml::table* template_of(const std::string& sender) const {
    const toml::node* all = plan_.root.get("stream");
    if (all != nullptr && all->is_array())
      for (const toml::node& node : *all->as_array()) {
        const toml::table* t = node.as_table();
        if (t == nullptr) continue;
        const auto text = [&](const char* key, const char* fallback) {
          const toml::node* v = t->get(key);
          return v != nullptr && v->is_string() ? v->as_string()->get() : std::string(fallback);
        };
        if (text("tx_port", "") == sender && text("rx_port", "") == plan_.cfg.receiver && text("kind", "udp") == "udp")
          return t;
      }
    throw std::runtime_error(fmt::format("no [[stream]] from '{}' to '{}'", sender, plan_.cfg.receiver));
  }

  const Plan& plan_;
  toml::array streams_;
};

const json& stream_of(const json& report, const std::string& name) {
  static const json none = json::object();
  const auto streams = report.find("streams");
  if (streams == report.end() || !streams->is_array()) return none;
  for (const json& s : *streams)
    if (s.value("name", "") == name) return s;
  return none;
}

struct Silence {
  double from_s = 0;
  double to_s = 0;
  bool known = false;
  double seconds() const { return to_s - from_s; }
};

Silence silence_of(const json& stream) {
  const json timeline = stream.value("timeline", json::object());
  if (!timeline.contains("longest_rx_gap")) return {};
  const json& g = timeline["longest_rx_gap"];
  return {g.value("from_s", 0.0), g.value("to_s", 0.0), true};
}

std::vector<uint64_t> bins_of(const json& stream, const char* which) {
  return stream.value("timeline", json::object()).value(which, std::vector<uint64_t>{});
}

double bin_s_of(const json& stream) { return stream.value("timeline", json::object()).value("bin_s", 0.0); }

double us(double seconds) { return seconds * 1e6; }

// A run of empty timeline bins: the bin it begins at, and how many.
struct EmptyRun {
  size_t from = 0;
  size_t length = 0;
};

// The longest run of empty bins that begins in bins [first, last] (one under way at
// `first` counts from there), followed no further than bin `end` (excluded).
EmptyRun longest_empty_run(const std::vector<uint64_t>& bins, size_t first, size_t last, size_t end) {
  EmptyRun longest;
  end = std::min(end, bins.size());
  for (size_t i = first; i <= last && i < end;) {
    if (bins[i] != 0) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < end && bins[j] == 0) ++j;
    if (j - i > longest.length) longest = {i, j - i};
    i = j;
  }
  return longest;
}

// The longest run of empty bins that begins within `within_s` after `t0_s`, as time.
double empty_bins_after(const std::vector<uint64_t>& bins, double bin_s, double t0_s, double within_s) {
  if (bin_s <= 0) return 0;
  const EmptyRun run = longest_empty_run(bins, static_cast<size_t>(t0_s / bin_s),
                                         static_cast<size_t>((t0_s + within_s) / bin_s), bins.size());
  return static_cast<double>(run.length) * bin_s;
}

// The first and the last bin with frames in them; none when every bin is empty.
struct BinSpan {
  size_t first = 0;
  size_t last = 0;
};

std::optional<BinSpan> bins_with_frames(const std::vector<uint64_t>& bins) {
  const auto nonzero = [](uint64_t n) { return n != 0; };
  const auto first = std::find_if(bins.begin(), bins.end(), nonzero);
  if (first == bins.end()) return std::nullopt;
  const auto last = std::find_if(bins.rbegin(), bins.rend(), nonzero);
  return BinSpan{static_cast<size_t>(first - bins.begin()), static_cast<size_t>(bins.rend() - last - 1)};
}

// How long, within the first `until_s` of a run, none of the streams `names` sent a
// frame, beyond the first `bridged_s` of each such silence (what a queue bridges).
double silent_seconds(const json& report, const std::vector<std::string>& names, double until_s, double bridged_s) {
  std::vector<uint64_t> sent;
  double bin = 0;
  for (const std::string& name : names) {
    const json& s = stream_of(report, name);
    const std::vector<uint64_t> tx = bins_of(s, "tx");
    bin = bin_s_of(s);
    if (sent.size() < tx.size()) sent.resize(tx.size());
    for (size_t i = 0; i < tx.size(); ++i) sent[i] += tx[i];
  }
  if (bin <= 0) return 0;
  const size_t end = std::min(sent.size(), static_cast<size_t>(until_s / bin));
  double silent_s = 0;
  for (size_t i = 0; i < end;) {
    const EmptyRun run = longest_empty_run(sent, i, i, end);
    silent_s += std::max(0.0, static_cast<double>(run.length) * bin - bridged_s);
    i += std::max<size_t>(run.length, 1);
  }
  return silent_s;
}

std::string sender_of_background(const profile::LosslessCfg& cfg) {
  return cfg.senders.size() > 1 ? cfg.senders[1] : cfg.senders[0];
}

// Every run into trials[] (its timelines coarsened), then the rest between runs.
void record(Plan& p, const std::string& case_name, const std::string& label, json report,
            const std::string& invalid_reason = "") {
  coarsen_timelines(report, 500);
  p.session.report()["trials"].push_back(
      {{"case", case_name}, {"label", label}, {"invalid_reason", invalid_reason}, {"report", std::move(report)}});
  p.session.save();
  ctl::sleep_unless_stopped(static_cast<double>(p.cfg.rest_ns) / 1e9);
}

// Frames the tester offered while linerate's own switch was held up by the host (all
// its stalls together): its catch-up spreads them over each stall, an approximation of
// when they came, so it may drop them where a real device would not.
double frames_offered_while_stalled(const json& report) {
  double stalled_s = 0, pps = 0;
  for (const json& sw : report.value("switches", json::array())) stalled_s += sw.value("stalled_us", 0.0) / 1e6;
  for (const json& s : report.value("streams", json::array()))
    if (!s.value("rx_port", json()).is_null()) pps += s.value("tx_pps_achieved", 0.0);
  return std::ceil(stalled_s * pps);
}

// Where a case's measurement is taken, in seconds since the run started: a stall of the
// emulated device elsewhere in the run does not touch it.
struct Window {
  double from_s = 0;
  double to_s = 0;
  double stall_limit_us = kEmulationStallLimitUs;  ///< a stall this long there could move the measurement past its bound
  std::string sender;  ///< a stream that sends throughout: its TX silent that long there is the tester held up
};
using Windows = std::vector<Window>;
using WindowsOf = std::function<Windows(const json& run_report)>;

const WindowsOf kNoWindows = [](const json&) { return Windows{}; };

// When the tester sent a MAC Control stream: the start of the TX bins of its first frame
// and of its last (to the bin: its lcore may send later than planned); `planned` when the
// run has no such frames.
struct Sent {
  double first_s = 0;
  double last_s = 0;
};

Sent sent_of(const json& report, const std::string& name, Sent planned) {
  const json& s = stream_of(report, name);
  const std::vector<uint64_t> tx = bins_of(s, "tx");
  const double bin = bin_s_of(s);
  const std::optional<BinSpan> sent = bins_with_frames(tx);
  if (!sent || bin <= 0) return planned;
  return {static_cast<double>(sent->first) * bin, static_cast<double>(sent->last) * bin};
}

// The reaction to stream `name`'s first frame: `length` from when it was sent, where a
// stall of `stall_limit_us` or more (of the switch, or of the tester sending "test") could
// have moved what is measured past its bound.
WindowsOf reaction_window(const std::string& name, Sent planned, double length, double stall_limit_us) {
  return [=](const json& report) {
    const double t0 = sent_of(report, name, planned).first_s;
    return Windows{{t0, t0 + length, stall_limit_us, "test"}};
  };
}

// Traffic that must flow through the storm (its longest silence at most half the storm): a
// stall that long anywhere in the run, of the tester's lcores or of the switch, would fake
// the silence. (Not the sender's TX silence: a device that wrongly pauses it makes one.)
WindowsOf flowing_window(const profile::LosslessCfg& c) {
  const double run_s = static_cast<double>(c.duration_ns) / 1e9, limit_us = static_cast<double>(c.storm_ns) / 2e3;
  return [=](const json&) { return Windows{{0, run_s, limit_us, ""}}; };
}

// The first stall long enough to move a measurement where a window measures, with that window.
std::optional<std::pair<api::Stall, Window>> stall_in_windows(const std::vector<api::Stall>& stalls, const Windows& windows) {
  for (const api::Stall& stall : stalls)
    for (const Window& w : windows)
      if (api::stall_overlaps(stall, w.from_s, w.to_s, w.stall_limit_us)) return std::pair{stall, w};
  return std::nullopt;
}

// Where the device holds the storm's pause, and the longest stall of it that pause
// survives: the pause each refresh sets, less the time to the next refresh. A switch held
// up longer than that lets frames through the storm by the host's doing.
struct PauseHeld {
  double from_s = 0;
  double to_s = 0;
  double stall_limit_us = 0;
};

std::optional<PauseHeld> pause_held(const json& report, double pause_s) {
  const json& storm = stream_of(report, "storm");
  const std::vector<uint64_t> tx = bins_of(storm, "tx");
  const double bin = bin_s_of(storm);
  const std::optional<BinSpan> sent = bins_with_frames(tx);
  const auto frames = storm.value("tx_packets", uint64_t{0});
  if (!sent || bin <= 0 || frames < 2) return std::nullopt;
  const double first_s = static_cast<double>(sent->first) * bin, last_s = static_cast<double>(sent->last + 1) * bin;
  const double refresh_s = (last_s - first_s) / static_cast<double>(frames - 1);
  return PauseHeld{first_s, last_s + pause_s, us(std::max(0.0, pause_s - refresh_s))};
}

// Why a run says nothing about the device, or "": a storm lapsed (the tester's refreshes
// further apart than the pause they hold), the tester's lcores held up by the host where
// the case measures (`windows`), or linerate's own switch, the device here, held up there
// or long enough that its egress could not catch up. (A test stream the tester sent short of its rate still
// measures what the cases judge: silences, losses, marks, each of the frames sent.)
std::string invalid_reason(const Plan& p, const json& report, const Windows& windows, bool tail_drops_expected) {
  const double pause_s = quanta_seconds(kStormQuanta, p.receiver_bps);
  for (const json& s : report.value("streams", json::array())) {
    if (s.value("name", "") != "storm") continue;
    const std::vector<uint64_t> tx = bins_of(s, "tx");
    const double bin = bin_s_of(s);
    // The longest run of empty bins between the storm's first frame and its last.
    const std::optional<BinSpan> sent = bins_with_frames(tx);
    if (!sent || bin <= 0) continue;
    const size_t longest = longest_empty_run(tx, sent->first, sent->last, sent->last).length;
    if (static_cast<double>(longest + 2) * bin >= pause_s)
      return fmt::format("the storm lapsed: no PFC frame sent for {:.0f} us, longer than the {:.0f} us pause each holds "
                         "(the tester's lcore was held up)", us(static_cast<double>(longest) * bin), us(pause_s));
  }
  for (const Window& w : windows) {
    if (w.sender.empty()) continue;
    const json& s = stream_of(report, w.sender);
    const std::vector<uint64_t> tx = bins_of(s, "tx");
    const double bin = bin_s_of(s);
    if (bin <= 0) continue;
    const auto from = static_cast<size_t>(w.from_s / bin), to = static_cast<size_t>(std::ceil(w.to_s / bin));
    const EmptyRun empty = to > from ? longest_empty_run(tx, from, to - 1, to) : EmptyRun{};
    if (us(static_cast<double>(empty.length) * bin) >= w.stall_limit_us)
      return fmt::format("the tester sent no '{}' frame for {:.0f} us at {:.4f} s, where the case measures (its "
                         "lcore was held up)", w.sender, us(static_cast<double>(empty.length) * bin),
                         static_cast<double>(empty.from) * bin);
  }
  // The tester's own lcores: a frame read late looks late (its time is taken when read), a
  // lane held up sends late.
  for (const json& l : report.value("lcores", json::array())) {
    const api::LcoreStalls lcore = api::lcore_stalls_from_json(l);
    if (const auto held = stall_in_windows(lcore.longest_stalls, windows))
      return fmt::format("the tester's lcore {} was held up by the host for {:.0f} us at {:.4f} s, where the case "
                         "measures ({:.4f}-{:.4f} s): what it received meanwhile was read late, so the run says "
                         "nothing of the device", lcore.lcore, held->first.us, held->first.from_s, held->second.from_s,
                         held->second.to_s);
  }
  const std::optional<PauseHeld> hold = pause_held(report, pause_s);
  for (const json& sw : report.value("switches", json::array())) {
    const std::string name = sw.value("name", "");
    for (const json& port : sw.value("ports", json::array()))
      if (const double lost = port.value("egress_lost_us", 0.0); lost > 0)
        return fmt::format("linerate's switch '{}', the device here, was held up by the host long enough that port "
                           "'{}' lost {:.0f} us of sending: no hardware switch stops, so the run says nothing of the "
                           "device", name, port.value("name", ""), lost);
    const std::vector<api::Stall> stalls = api::switch_report_from_json(sw).longest_stalls;
    if (hold)
      for (const api::Stall& stall : stalls)
        if (api::stall_overlaps(stall, hold->from_s, hold->to_s, hold->stall_limit_us))
          return fmt::format("linerate's switch '{}', the device here, was held up by the host for {:.0f} us at {:.4f} s, "
                             "during the storm and longer than the {:.0f} us of pause its last refresh left: the pause "
                             "lapsed by the host's doing (its lcore shares a CPU), so the run says nothing of the device",
                             name, stall.us, stall.from_s, hold->stall_limit_us);
    if (const auto held = stall_in_windows(stalls, windows))
      return fmt::format("linerate's switch '{}', the device here, was held up by the host for {:.0f} us at "
                         "{:.4f} s, where the case measures ({:.4f}-{:.4f} s; its lcore shares a CPU): no hardware "
                         "switch stops, so the run says nothing of the device",
                         name, held->first.us, held->first.from_s, held->second.from_s, held->second.to_s);
    // A stall can only add drops (what arrived meanwhile meets the queues late and together):
    // a run where the switch dropped frames and was held up says nothing of its drops
    // (but for the lossy drops an incast must have, judged against a bound with room).
    uint64_t drops = 0;
    for (const json& port : sw.value("ports", json::array()))
      for (const json& prio : port.value("priorities", json::array()))
        drops += (tail_drops_expected ? 0 : prio.value("drop_tail", uint64_t{0})) + prio.value("drop_headroom", uint64_t{0});
    const double longest_us = sw.value("longest_stall_us", 0.0);
    if (const double could = frames_offered_while_stalled(report); drops != 0 && drops <= could &&
                                                                       longest_us >= kEmulationStallLimitUs)
      return fmt::format("linerate's switch '{}', the device here, dropped {} frames in a run where the host held it "
                         "up for {:.0f} us, {:.0f} frames' worth in all (its lcore shares a CPU): the drops may be the "
                         "host's doing, not the device's", name, drops, longest_us, could);
    // Every kept stall that long, and more not kept (`stalls` counts them all), perhaps as
    // long: where those fell is unknown.
    double limit_us = std::numeric_limits<double>::infinity();
    for (const Window& w : windows) limit_us = std::min(limit_us, w.stall_limit_us);
    if (sw.value("stalls", size_t{0}) > stalls.size() && !stalls.empty() && stalls.back().us >= limit_us)
      return fmt::format("linerate's switch '{}', the device here, was held up by the host for {:.0f} us or more at "
                         "least {} times (its lcore shares a CPU): no hardware switch stops, so the run says nothing "
                         "of the device", name, limit_us, stalls.size());
  }
  return "";
}

// Runs the streams until a run is valid, at most kAttempts times; every run is recorded,
// the invalid ones with their reason. When none was valid, the case is not judged
// (`p.not_judged` says why) and the last run is returned.
json run(Plan& p, const Streams& streams, const std::string& case_name, const std::string& label,
         const WindowsOf& windows_of, bool tail_drops_expected = false) {
  const std::string what = label.empty() ? case_name : case_name + " " + label;
  json report;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    bool interrupted = false;
    report = p.runner.run_streams(streams.text(), what, interrupted);
    p.interrupted = p.interrupted || interrupted;
    const std::string invalid = interrupted ? "" : invalid_reason(p, report, windows_of(report), tail_drops_expected);
    std::printf("  %-32s run %s\n", what.c_str(),
                interrupted ? "interrupted" : invalid.empty() ? "done" : ("invalid: " + invalid).c_str());
    std::fflush(stdout);
    if (invalid.empty()) return report;
    if (attempt == kAttempts) {
      p.not_judged = fmt::format("{} runs of '{}' were all invalid; the last: {}", kAttempts, what, invalid);
      return report;
    }
    record(p, case_name, label, report, invalid);
  }
  return report;
}

// A stream held by the storm from `t0` to `t1`: its last frame came within the reaction
// allowance after the storm began, and none came again before the storm's last frame.
void held_checks(std::vector<Check>& checks, const std::string& who, const json& stream, double t0, double t1,
                 double allowance_s) {
  const Silence gap = silence_of(stream);
  if (!gap.known) {
    checks.push_back({who + ": silence during the storm", 0, "us", "a silence measured", false});
    return;
  }
  checks.push_back(at_most(who + ": last frame after the storm's first PFC frame", us(gap.from_s - t0), us(allowance_s), "us"));
  checks.push_back(at_least(who + ": first frame after the storm's last PFC frame", us(gap.to_s - t1), 0, "us"));
}

// A stream that went on through the storm: nothing lost, and no silence near its length.
void flowing_checks(std::vector<Check>& checks, const std::string& who, const json& stream, double storm_s) {
  checks.push_back(exactly(who + ": frames lost", stream.value("lost", 0.0), 0, "frames"));
  const Silence gap = silence_of(stream);
  checks.push_back(at_most(who + ": longest silence", us(gap.known ? gap.seconds() : 0), us(storm_s / 2), "us"));
}

// The storm sits in the middle of the traffic.
uint64_t storm_at_ns(const profile::LosslessCfg& cfg) { return (cfg.duration_ns - cfg.storm_ns) / 2; }
Sent planned_storm(const profile::LosslessCfg& cfg) {
  return {static_cast<double>(storm_at_ns(cfg)) / 1e9, static_cast<double>(storm_at_ns(cfg) + cfg.storm_ns) / 1e9};
}

CaseOutcome pfc_pause(Plan& p) {
  const profile::LosslessCfg& c = p.cfg;
  const uint8_t lossless = c.lossless.front();
  Streams streams(p);
  streams.traffic("test", c.senders[0], lossless, c.rate_percent, 0, c.duration_ns);
  if (!c.lossy.empty()) streams.traffic("background", sender_of_background(c), c.lossy.front(), c.rate_percent, 0, c.duration_ns);
  streams.mac_control("storm", false, lossless, kStormQuanta, storm_at_ns(c), c.storm_ns);
  const double allowance = p.response_s.value_or(1e-3);
  const json report = run(p, streams, "pfc_pause", "", reaction_window("storm", planned_storm(c), allowance, us(allowance) / 4));
  const auto [t0, t1] = sent_of(report, "storm", planned_storm(c));
  std::vector<Check> checks;
  const json& test = stream_of(report, "test");
  held_checks(checks, "test", test, t0, t1, allowance);
  checks.push_back(exactly("test: frames lost", test.value("lost", 0.0), 0, "frames"));
  const double after = static_cast<double>(frames_within(bins_of(test, "rx"), bin_s_of(test), t1, 1e9) +
                                           test.value("timeline", json::object()).value("rx_after", uint64_t{0}));
  checks.push_back(at_least("test: frames received after the storm", after, 1, "frames"));
  if (!c.lossy.empty()) {
    const json& bg = stream_of(report, "background");
    checks.push_back(exactly("background: frames lost", bg.value("lost", 0.0), 0, "frames"));
    const double sent = static_cast<double>(frames_within(bins_of(bg, "tx"), bin_s_of(bg), t0, t1));
    const double got = static_cast<double>(frames_within(bins_of(bg, "rx"), bin_s_of(bg), t0, t1));
    checks.push_back(at_least("background: received / sent during the storm", sent > 0 ? 100 * got / sent : 0, 95, "%"));
  }
  record(p, "pfc_pause", "", report);
  return judge("pfc_pause", std::move(checks),
               fmt::format("priority {} held for the whole storm and resumed after it, nothing lost, the background "
                           "went on", lossless));
}

CaseOutcome lossy_not_paused(Plan& p) {
  const profile::LosslessCfg& c = p.cfg;
  const uint8_t lossy = c.lossy.front();
  Streams streams(p);
  streams.traffic("test", c.senders[0], lossy, c.rate_percent, 0, c.duration_ns);
  streams.mac_control("storm", false, lossy, kStormQuanta, storm_at_ns(c), c.storm_ns);
  const json report = run(p, streams, "lossy_not_paused", "", flowing_window(c));
  std::vector<Check> checks;
  flowing_checks(checks, "test", stream_of(report, "test"), static_cast<double>(c.storm_ns) / 1e9);
  record(p, "lossy_not_paused", "", report);
  return judge("lossy_not_paused", std::move(checks),
               fmt::format("PFC for lossy priority {} was not obeyed: its traffic went on, nothing lost", lossy));
}

CaseOutcome global_pause(Plan& p) {
  const profile::LosslessCfg& c = p.cfg;
  Streams streams(p);
  streams.traffic("test", c.senders[0], c.lossless.front(), c.rate_percent, 0, c.duration_ns);
  if (!c.lossy.empty()) streams.traffic("background", sender_of_background(c), c.lossy.front(), c.rate_percent, 0, c.duration_ns);
  streams.mac_control("storm", true, 0, kStormQuanta, storm_at_ns(c), c.storm_ns);
  const double storm_s = static_cast<double>(c.storm_ns) / 1e9, allowance = p.response_s.value_or(1e-3);
  const json report = run(p, streams, "global_pause", "",
                          c.global_pause_honoured ? reaction_window("storm", planned_storm(c), allowance, us(allowance) / 4)
                                                   : flowing_window(c));
  const auto [t0, t1] = sent_of(report, "storm", planned_storm(c));
  std::vector<Check> checks;
  for (const char* who : {"test", "background"}) {
    const json& s = stream_of(report, who);
    if (s.empty()) continue;
    if (c.global_pause_honoured) {
      held_checks(checks, who, s, t0, t1, allowance);
      if (std::string(who) == "test") checks.push_back(exactly("test: frames lost", s.value("lost", 0.0), 0, "frames"));
    } else {
      flowing_checks(checks, who, s, storm_s);
    }
  }
  record(p, "global_pause", "", report);
  return judge("global_pause", std::move(checks),
               c.global_pause_honoured ? "802.3x PAUSE held every priority for the storm, as expected"
                                       : "802.3x PAUSE was ignored, as expected of a PFC port: traffic went on");
}

CaseOutcome response_time(Plan& p) {
  const profile::LosslessCfg& c = p.cfg;
  if (!p.response_s)
    return skipped("response_time", fmt::format("no default bound at {} Gbit/s: set [lossless] response_time",
                                                static_cast<double>(p.receiver_bps) / 1e9));
  Streams streams(p);
  const uint8_t lossless = c.lossless.front();
  streams.traffic("test", c.senders[0], lossless, c.rate_percent, 0, c.duration_ns);
  streams.mac_control("storm", false, lossless, kStormQuanta, storm_at_ns(c), c.storm_ns);
  const json report = run(p, streams, "response_time", "", reaction_window("storm", planned_storm(c), *p.response_s, us(*p.response_s) / 4));
  const json& test = stream_of(report, "test");
  const auto [t0, t1] = sent_of(report, "storm", planned_storm(c));
  const Silence gap = silence_of(test);
  std::vector<Check> checks;
  if (!gap.known || gap.to_s < t1) {
    checks.push_back({"test: silence through the storm", us(gap.seconds()), "us",
                      "to last the storm: the device must obey the PFC for a response time to exist", false});
  } else {
    Check response = at_most("response: PFC frame sent to the last test frame received", us(gap.from_s - t0),
                             us(*p.response_s), "us");
    response.bound += " (" + p.response_basis + ")";
    checks.push_back(std::move(response));
    const double bin = bin_s_of(test);
    checks.push_back({"test frames received after the PFC frame was sent (to the bin)",
                      static_cast<double>(frames_within(bins_of(test, "rx"), bin, std::floor(t0 / bin) * bin,
                                                        std::ceil(gap.from_s / bin + 1e-9) * bin)),
                      "frames", "(reported)", true});
  }
  record(p, "response_time", "", report);
  return judge("response_time", std::move(checks), "the device stopped the priority within the bound");
}

CaseOutcome quanta_sweep(Plan& p) {
  const profile::LosslessCfg& c = p.cfg;
  const uint8_t lossless = c.lossless.front();
  std::vector<Check> checks;
  bool told_apart = false;  // a check a device that ignores the PFC would fail
  const std::optional<uint32_t> telling = shortest_telling_quanta(
      p.receiver_bps, c.quanta_tolerance_percent, static_cast<double>(c.quanta_tolerance_ns) / 1e9);
  const std::string telling_text =
      telling ? fmt::format("{} quanta or more tell it apart", *telling) : std::string("no quanta tells it apart");
  for (const uint32_t quanta : c.quanta) {
    if (ctl::stop_requested()) break;
    Streams streams(p);
    streams.traffic("test", c.senders[0], lossless, c.rate_percent, 0, c.duration_ns);
    const uint64_t at_ns = c.duration_ns / 2;
    streams.mac_control("pfc", false, lossless, quanta, at_ns, 0);
    const double expected = quanta_seconds(quanta, p.receiver_bps);
    const double tolerance = std::max(expected * c.quanta_tolerance_percent / 100, static_cast<double>(c.quanta_tolerance_ns) / 1e9);
    const double planned = static_cast<double>(at_ns) / 1e9, reaction = p.response_s.value_or(1e-3);
    const json report = run(p, streams, "quanta_sweep", fmt::format("{} quanta", quanta),
                            reaction_window("pfc", {planned, planned}, reaction + expected + tolerance, us(tolerance) / 2));
    const json& test = stream_of(report, "test");
    const double t0 = sent_of(report, "pfc", {planned, planned}).first_s;
    // The pause is the silence that began at the PFC frame: the run's longest, to the
    // cycle, when that is the one; else (a longer stall of the host elsewhere) the empty
    // bins that follow the frame, to the bin.
    const Silence gap = silence_of(test);
    const double bin = bin_s_of(test);
    const bool at_the_frame = gap.known && gap.from_s >= t0 - bin && gap.from_s <= t0 + reaction;
    const double measured = at_the_frame ? gap.seconds() : empty_bins_after(bins_of(test, "rx"), bin, t0, reaction);
    Check check{fmt::format("pause at {} quanta (expected {:.3f} us)", quanta, us(expected)), us(measured), "us",
                fmt::format("{:.3f} +- {:.3f} us", us(expected), us(tolerance)), std::abs(measured - expected) <= tolerance};
    // A pause no longer than its tolerance is passed by a device that ignores it. (Quanta
    // 0 asks for no pause at all: a device that pauses anyway fails it, so it is judged.)
    if (expected > 0 && expected <= tolerance)
      check.not_judged = fmt::format("a device that ignores the PFC (a pause of 0 us) would pass too; {}", telling_text);
    told_apart = told_apart || expected > tolerance;
    checks.push_back(std::move(check));
    record(p, "quanta_sweep", fmt::format("{} quanta", quanta), report);
  }
  told_apart = told_apart || checks.empty();  // none run: stopped, said elsewhere
  return unless_told_apart(
      judge("quanta_sweep", std::move(checks),
            fmt::format("every pause lasted its quanta x 512 bit times at {} Gbit/s, within the tolerance",
                        static_cast<double>(p.receiver_bps) / 1e9)),
      told_apart,
      fmt::format("no quanta in the sweep is longer than its tolerance: a device that ignores the PFC would pass; {}",
                  telling_text));
}

// PFC XOFF frames for `priority` that tester port `port` heard in a run.
double pfc_xoff_heard(const json& report, const std::string& port, uint8_t priority) {
  double xoff = 0;
  for (const json& p : report.value("ports", json::array()))
    if (p.value("name", "") == port)
      for (const json& cls : p.value("mac_control", json::object()).value("pfc", json::array()))
        if (cls.value("priority", -1) == priority) xoff += cls.value("xoff", 0.0);
  return xoff;
}

// A port's PFC reaction delay as the profile set it, put back when the case ends
// however it ends.
class ReactionDelayRestorer {
 public:
  ReactionDelayRestorer(TrialRunner& runner, const profile::PortCfg& port) : runner_(runner), port_(port) {}
  ReactionDelayRestorer(const ReactionDelayRestorer&) = delete;
  ReactionDelayRestorer& operator=(const ReactionDelayRestorer&) = delete;
  ~ReactionDelayRestorer() {
    try {
      runner_.set_port(port_.name, port_.pfc_reaction_delay_quanta
                                       ? json{{"pfc_reaction_delay_quanta", *port_.pfc_reaction_delay_quanta}}
                                       : json{{"pfc_reaction_delay", fmt::format("{}ns", port_.pfc_reaction_delay_ns)}});
    } catch (const std::exception& e) {
      std::fprintf(stderr, "linerate: port '%s' keeps the headroom case's PFC reaction delay: %s\n",
                   port_.name.c_str(), e.what());
    }
  }

 private:
  TrialRunner& runner_;
  const profile::PortCfg& port_;
};

// Case 6: while a storm holds the device's egress, the sender obeys the device's PFC
// later and later (its pfc_reaction_delay): what it sends after the XOFF, its rate x the
// delay, lands in the device's headroom. Every delay whose bytes fit the expected
// headroom must lose nothing; the largest delay without loss is the figure. Stops at the
// first loss.
CaseOutcome headroom(Plan& p) {
  const profile::LosslessCfg& c = p.cfg;
  if (c.headroom_bytes == 0)
    return skipped("headroom", "no [lossless] headroom (the bytes the device should absorb after its XOFF) to hold it to");
  const std::string& sender = c.senders[0];
  const auto port = std::find_if(p.profile.ports.begin(), p.profile.ports.end(),
                                 [&](const profile::PortCfg& cfg) { return cfg.name == sender; });
  if (port == p.profile.ports.end()) return skipped("headroom", fmt::format("no [[port]] '{}'", sender));
  const uint8_t lossless = c.lossless.front();
  // Frame bytes (what a buffer holds) the sender sends per second.
  const double bytes_per_s = line_rate_pps(p.speeds[sender], c.frame_size) * c.rate_percent / 100 * c.frame_size;
  const double expected_s = static_cast<double>(c.headroom_bytes) / bytes_per_s;
  std::vector<uint64_t> delays = c.headroom_delays_ns;
  if (delays.empty())
    for (const double share : {0.25, 0.5, 0.8, 1.25, 2.0}) delays.push_back(static_cast<uint64_t>(share * expected_s * 1e9));
  ReactionDelayRestorer restore(p.runner, *port);
  std::vector<Check> checks;
  std::optional<double> largest_ok_s, first_loss_s;
  double xoff_heard = 0;
  for (const uint64_t delay_ns : delays) {
    if (ctl::stop_requested()) break;
    const double delay_s = static_cast<double>(delay_ns) / 1e9, in_flight = delay_s * bytes_per_s;
    p.runner.set_port(sender, {{"pfc_reaction_delay", fmt::format("{}ns", delay_ns)}});
    Streams streams(p);
    streams.traffic("test", sender, lossless, c.rate_percent, 0, c.duration_ns);
    streams.mac_control("storm", false, lossless, kStormQuanta, storm_at_ns(c), c.storm_ns);
    // A stall of the switch adds its length x the rate to what lands in the headroom:
    // more than a tenth of the expected headroom's worth, and the run says nothing.
    const std::string label = fmt::format("{:.0f} us", us(delay_s));
    const json report = run(p, streams, "headroom", label, [&](const json& r) {
      const Sent storm = sent_of(r, "storm", planned_storm(c));
      return Windows{{storm.first_s, storm.last_s, us(expected_s) / 10, ""}};
    });
    const double lost = stream_of(report, "test").value("lost", 0.0);
    xoff_heard += pfc_xoff_heard(report, sender, lossless);
    const std::string what = fmt::format("sender {:.0f} us late ({:.0f} bytes after the XOFF): frames lost", us(delay_s), in_flight);
    if (in_flight <= static_cast<double>(c.headroom_bytes)) checks.push_back(exactly(what, lost, 0, "frames"));
    else checks.push_back({what, lost, "frames", "(reported: beyond the expected headroom)", true});
    record(p, "headroom", label, report);
    if (p.interrupted || !p.not_judged.empty()) break;
    if (lost > 0) {
      first_loss_s = delay_s;
      break;
    }
    largest_ok_s = delay_s;
  }
  checks.push_back(at_least(fmt::format("PFC XOFF frames heard at '{}' (the device paused it)", sender), xoff_heard, 1, "frames"));
  if (largest_ok_s)
    checks.push_back({"largest delay without loss, as headroom at the sender's rate", *largest_ok_s * bytes_per_s,
                      "bytes", fmt::format("(reported: {:.0f} us x {:.0f} bytes/s)", us(*largest_ok_s), bytes_per_s), true});
  return judge("headroom", std::move(checks),
               fmt::format("the device absorbed a sender {:.0f} us late: at least {:.0f} bytes of headroom ({}); "
                           "expected {} bytes", us(largest_ok_s.value_or(0)), largest_ok_s.value_or(0) * bytes_per_s,
                           first_loss_s ? fmt::format("frames lost from {:.0f} us", us(*first_loss_s))
                                        : std::string("no loss at any delay tried"),
                           c.headroom_bytes));
}

CaseOutcome incast(Plan& p) {
  const profile::LosslessCfg& c = p.cfg;
  const uint8_t lossless = c.lossless.front(), lossy = c.lossy.front();
  Streams streams(p);
  for (const std::string& sender : c.senders) {
    streams.traffic("lossless-" + sender, sender, lossless, c.incast_rate_percent, 0, c.duration_ns);
    streams.traffic("lossy-" + sender, sender, lossy, c.incast_rate_percent, 0, c.duration_ns);
  }
  const json report = run(p, streams, "incast", "", kNoWindows, true);
  double lossless_lost = 0, lossy_lost = 0, sent = 0;
  for (const std::string& sender : c.senders) {
    lossless_lost += stream_of(report, "lossless-" + sender).value("lost", 0.0);
    lossy_lost += stream_of(report, "lossy-" + sender).value("lost", 0.0);
    for (const char* kind : {"lossless-", "lossy-"}) sent += stream_of(report, kind + sender).value("tx_packets", 0.0);
  }
  // What the receiver's link could carry over the traffic's time; the rest had to go.
  const double carried = line_rate_pps(p.receiver_bps, c.frame_size) * static_cast<double>(c.duration_ns) / 1e9;
  const double excess = std::max(0.0, sent - carried);
  double xoff_heard = 0, lossy_pfc_heard = 0;
  for (const std::string& sender : c.senders) {
    xoff_heard += pfc_xoff_heard(report, sender, lossless);
    lossy_pfc_heard += pfc_xoff_heard(report, sender, lossy);
  }
  std::vector<Check> checks;
  checks.push_back(exactly("lossless: frames lost", lossless_lost, 0, "frames"));
  checks.push_back(at_least("lossless: PFC XOFF frames heard at the senders", xoff_heard, 1, "frames"));
  checks.push_back(exactly("lossy: PFC XOFF frames heard at the senders", lossy_pfc_heard, 0, "frames"));
  // A tester that sent nothing at all for a while (its lcore held up) left the receiver's
  // link idle, on any device, once the queue had drained: what it could have carried
  // then is excess too.
  // (linerate's own switch, held up, catches up in wire order; held up longer than it can,
  // its egress lost time, and the run is invalid.)
  std::vector<std::string> names;
  for (const std::string& sender : c.senders)
    for (const char* kind : {"lossless-", "lossy-"}) names.push_back(kind + sender);
  const double idle = std::ceil(silent_seconds(report, names, static_cast<double>(c.duration_ns) / 1e9, kQueueBridgesS) *
                                line_rate_pps(p.receiver_bps, c.frame_size));
  checks.push_back(at_most(idle > 0 ? fmt::format("lossy: frames lost (the excess over the receiver's line rate, + 1 % "
                                                  "of all sent, + {:.0f} it could have carried while the tester sent "
                                                  "nothing for over 100 us)", idle)
                                    : "lossy: frames lost (the excess over the receiver's line rate, + 1 % of all sent)",
                           lossy_lost, std::ceil(excess + 0.01 * sent + idle), "frames"));
  record(p, "incast", "", report);
  return judge("incast", std::move(checks),
               fmt::format("{}:1 incast: the lossless priority lost nothing and paused its senders; the lossy one "
                           "lost at most the excess", c.senders.size()));
}

// The sender port's last PFC frame heard between `from_s` and `to_s`: the start of its
// bin, or -1 when none came.
double last_pfc_heard(const json& report, const std::string& port, double from_s, double to_s) {
  for (const json& p : report.value("ports", json::array())) {
    if (p.value("name", "") != port) continue;
    const json timeline = p.value("mac_control_timeline", json::object());
    const auto rx = timeline.value("rx", std::vector<uint64_t>{});
    const double bin = timeline.value("bin_s", 0.0);
    for (size_t i = rx.size(); bin > 0 && i-- > 0;)
      if (rx[i] != 0 && static_cast<double>(i) * bin >= from_s && static_cast<double>(i) * bin < to_s)
        return static_cast<double>(i) * bin;
  }
  return -1;
}

// Case 8: a storm longer than the watchdog's detection time, ended by an XON. Forwarding
// watchdog: the test stream's silence ends at detection. Dropping one: the device's
// queue, emptied at detection, lets the sender go (its last PFC frame, an XON), and the
// silence ends `restore` after the storm's XON.
CaseOutcome watchdog(Plan& p) {
  const profile::LosslessCfg& c = p.cfg;
  if (!c.watchdog) return skipped("watchdog", "no [lossless] watchdog = { detect, restore } to hold the device's to");
  const uint8_t lossless = c.lossless.front();
  const uint64_t lead_ns = 20'000'000, storm_ns = std::max(c.storm_ns, 2 * c.watchdog_detect_ns);
  const uint64_t tail_ns = 2 * c.watchdog_restore_ns + 20'000'000;
  const double detect = static_cast<double>(c.watchdog_detect_ns) / 1e9;
  const double restore = static_cast<double>(c.watchdog_restore_ns) / 1e9;
  const auto tolerance = [&](double expected) {
    return c.watchdog_tolerance_ns != 0 ? static_cast<double>(c.watchdog_tolerance_ns) / 1e9 : expected / 10;
  };
  Streams streams(p);
  streams.traffic("test", c.senders[0], lossless, c.rate_percent, 0, lead_ns + storm_ns + tail_ns);
  streams.mac_control("storm", false, lossless, kStormQuanta, lead_ns, storm_ns);
  streams.mac_control("xon", false, lossless, 0, lead_ns + storm_ns, 0);
  const Sent planned_storm{static_cast<double>(lead_ns) / 1e9, static_cast<double>(lead_ns + storm_ns) / 1e9};
  const Sent planned_xon{planned_storm.last_s, planned_storm.last_s};
  const json report = run(p, streams, "watchdog", "", [&](const json& r) {
    const double t0 = sent_of(r, "storm", planned_storm).first_s, xon = sent_of(r, "xon", planned_xon).first_s;
    return Windows{{t0 + detect - tolerance(detect), t0 + detect + tolerance(detect), us(tolerance(detect)) / 2, ""},
                   {xon, xon + restore + tolerance(restore), us(tolerance(restore)) / 2, ""}};
  });
  const json& test = stream_of(report, "test");
  const double t0 = sent_of(report, "storm", planned_storm).first_s, xon = sent_of(report, "xon", planned_xon).first_s;
  const Silence gap = silence_of(test);
  const auto within = [](const std::string& what, double measured, double expected, double tol) {
    return Check{what, us(measured), "us", fmt::format("{:.0f} +- {:.0f} us", us(expected), us(tol)),
                 std::abs(measured - expected) <= tol};
  };
  std::vector<Check> checks;
  if (c.watchdog_forward) {
    checks.push_back(within("detection: the storm's first PFC frame to the test stream forwarded again",
                            gap.known ? gap.to_s - t0 : 0, detect, tolerance(detect)));
    checks.push_back(exactly("test: frames lost", test.value("lost", 0.0), 0, "frames"));
  } else {
    const double released = last_pfc_heard(report, c.senders[0], t0, xon);
    if (released < 0)
      checks.push_back({"detection: the sender's last PFC frame (the XON of its emptied queue)", 0, "us",
                        "a PFC frame at the sender during the storm: the device's queue must reach its XOFF before "
                        "the watchdog fires (raise [lossless] rate)", false});
    else
      checks.push_back(within("detection: the storm's first PFC frame to the device's XON to the sender (to the bin)",
                              released - t0, detect, tolerance(detect)));
    checks.push_back(at_least("test: frames the watchdog dropped (lost)", test.value("lost", 0.0), 1, "frames"));
    checks.push_back(within("restoration: the storm's XON to the test stream forwarded again",
                            gap.known ? gap.to_s - xon : 0, restore, tolerance(restore)));
  }
  record(p, "watchdog", "", report);
  return judge("watchdog", std::move(checks),
               c.watchdog_forward
                   ? "the watchdog found the storm in its detection time and forwarded the paused priority"
                   : "the watchdog found the storm in its detection time, dropped, and restored PFC in its restore time");
}

CaseOutcome ecn(Plan& p) {
  const profile::LosslessCfg& c = p.cfg;
  if (!c.ecn) return skipped("ecn", "no [lossless] ecn curve (kmin, kmax, pmax) to hold the marks to");
  const uint8_t lossless = c.lossless.front();
  const double pps = line_rate_pps(p.speeds[c.senders[0]], c.frame_size) * c.rate_percent / 100;
  std::vector<Check> checks;
  bool told_apart = false;  // a check a device that never marks would fail
  const uint64_t telling_fill = shallowest_telling_ecn_fill(c.frame_size, c.ecn_kmin_bytes, c.ecn_kmax_bytes, c.ecn_pmax);
  for (const uint64_t fill : c.ecn_fill_bytes) {
    if (ctl::stop_requested()) break;
    // The egress is paused before the first frame and stays so until the last is queued:
    // frame i finds i frames before it.
    const uint64_t frames = (fill + c.frame_size - 1) / c.frame_size;
    const uint64_t lead_ns = 2'000'000;
    const auto sending_ns = static_cast<uint64_t>(static_cast<double>(frames) / pps * 1e9);
    Streams streams(p);
    streams.traffic("test", c.senders[0], lossless, c.rate_percent, lead_ns, 0, frames, true);
    streams.mac_control("storm", false, lossless, kStormQuanta, 0, 2 * lead_ns + sending_ns);
    // Every frame's depth counts: the whole fill.
    const Windows fill_time{{0, static_cast<double>(2 * lead_ns + sending_ns) / 1e9, kEmulationStallLimitUs, ""}};
    const json report = run(p, streams, "ecn", fmt::format("{} B", fill), [&](const json&) { return fill_time; });
    const json& test = stream_of(report, "test");
    const ExpectedMarks expected = expected_ecn_marks(frames, c.frame_size, c.ecn_kmin_bytes, c.ecn_kmax_bytes, c.ecn_pmax);
    const double ce = test.value("ecn_ce", 0.0);
    Check marks{fmt::format("CE marks of {} frames filling {} bytes", frames, frames * c.frame_size), ce, "frames",
                fmt::format("{:.1f} +- {:.1f}", expected.mean, expected.allowed),
                std::abs(ce - expected.mean) <= expected.allowed};
    // Below Kmin none may be marked: a device that marks early fails, so that is judged.
    // Above it, a fill whose allowance holds 0 is passed by a device without ECN.
    if (expected.mean > 0 && zero_marks_allowed(expected))
      marks.not_judged = fmt::format("a device that never marks would pass too; a fill of {} bytes or more tells it apart",
                                     telling_fill);
    told_apart = told_apart || !zero_marks_allowed(expected);
    checks.push_back(std::move(marks));
    checks.push_back(exactly(fmt::format("frames lost at {} bytes", fill), test.value("lost", 0.0), 0, "frames"));
    record(p, "ecn", fmt::format("{} B", fill), report);
  }
  told_apart = told_apart || checks.empty();  // none run: stopped, said elsewhere
  return unless_told_apart(
      judge("ecn", std::move(checks), "the CE marks followed the configured Kmin / Kmax / Pmax curve at every depth"),
      told_apart,
      fmt::format("no fill is deep enough that a device that never marks would fail (the shallowest that is: {} bytes)",
                  telling_fill));
}

// What the device's own counters should show, from the tester's counts in the case's
// valid runs: where the device is not linerate's switch, the numbers to set the user's
// beside. One line per run.
std::vector<std::string> dut_comparison(const json& trials, const std::string& case_name) {
  std::vector<std::string> lines;
  for (const json& t : trials) {
    if (t.value("case", "") != case_name || !t.value("invalid_reason", "").empty()) continue;
    const json& r = t["report"];
    std::vector<std::string> parts;
    for (const json& s : r.value("streams", json::array())) {
      const auto tx = s.value("tx_packets", uint64_t{0});
      const std::string name = s.value("name", "");
      if (s.value("rx_port", json()).is_null()) {
        parts.push_back(fmt::format("'{}': {} PFC / PAUSE frames sent to the device from '{}' (its MAC Control "
                                    "received)", name, tx, s.value("tx_port", "")));
        continue;
      }
      const auto rx = s.value("rx_packets", uint64_t{0});
      parts.push_back(fmt::format("'{}': {} frames sent to the device from '{}', {} received from it ({} it dropped{})",
                                  name, tx, s.value("tx_port", ""), rx, tx > rx ? tx - rx : 0,
                                  s.contains("ecn_ce") ? fmt::format(", {} it marked CE", s.value("ecn_ce", uint64_t{0}))
                                                       : std::string()));
    }
    for (const json& port : r.value("ports", json::array()))
      for (const json& cls : port.value("mac_control", json::object()).value("pfc", json::array()))
        if (cls.value("xoff", 0) != 0 || cls.value("xon", 0) != 0)
          parts.push_back(fmt::format("'{}' heard {} PFC XOFF and {} XON for priority {} (the device's PFC sent)",
                                      port.value("name", ""), cls.value("xoff", 0), cls.value("xon", 0),
                                      cls.value("priority", 0)));
    const std::string label = t.value("label", "");
    lines.push_back((label.empty() ? "" : label + ": ") + fmt::format("{}", fmt::join(parts, "; ")));
  }
  return lines;
}

}  // namespace

void coarsen_timelines(json& run_report, size_t max_bins) {
  const auto coarsen = [&](json& t) {
    size_t n = 0;
    for (const char* key : {"tx", "rx"}) n = std::max(n, t.value(key, json::array()).size());
    if (n <= max_bins) return;
    const size_t k = (n + max_bins - 1) / max_bins;
    for (const char* key : {"tx", "rx"}) {
      if (!t.contains(key)) continue;
      const auto bins = t[key].get<std::vector<uint64_t>>();
      std::vector<uint64_t> merged((bins.size() + k - 1) / k);
      for (size_t i = 0; i < bins.size(); ++i) merged[i / k] += bins[i];
      t[key] = merged;
    }
    t["bin_s"] = t.value("bin_s", 0.0) * static_cast<double>(k);
  };
  for (json& s : run_report["streams"])
    if (s.contains("timeline")) coarsen(s["timeline"]);
  for (json& p : run_report["ports"])
    if (p.contains("mac_control_timeline")) coarsen(p["mac_control_timeline"]);
}

unsigned expected_lossless_runs(const profile::LosslessCfg& cfg) {
  unsigned runs = 0;
  for (const std::string& c : cfg.cases)
    runs += c == "quanta_sweep" ? static_cast<unsigned>(cfg.quanta.size())
            : c == "headroom"   ? static_cast<unsigned>(cfg.headroom_delays_ns.empty() ? 5 : cfg.headroom_delays_ns.size())
            : c == "ecn"        ? static_cast<unsigned>(cfg.ecn_fill_bytes.size())
                                : 1;
  return runs;
}

void run_lossless_cases(const profile::Profile& profile, TrialRunner& runner, BenchSession& session) {
  const profile::LosslessCfg& cfg = *profile.lossless;
  Plan p{profile, cfg, runner, session, toml::parse(runner.profile_text(), profile.path), 0, {}, std::nullopt, "", false, ""};
  p.speeds = runner.port_speeds();
  p.receiver_bps = p.speeds[cfg.receiver];
  if (cfg.response_time_ns != 0) {
    p.response_s = static_cast<double>(cfg.response_time_ns) / 1e9;
    p.response_basis = "[lossless] response_time";
  } else if (const auto quanta = standard_reaction_quanta(p.receiver_bps)) {
    p.response_s = quanta_seconds(*quanta, p.receiver_bps);
    p.response_basis = fmt::format("IEEE 802.3 Annex 31B: {} pause_quanta at {:g} Gbit/s", *quanta,
                                   static_cast<double>(p.receiver_bps) / 1e9);
  }
  session.report()["response_bound"] =
      p.response_s ? json{{"s", *p.response_s}, {"basis", p.response_basis}} : json(nullptr);
  session.report()["cases"] = json::array();
  const std::pair<const char*, CaseOutcome (*)(Plan&)> cases[] = {
      {"pfc_pause", pfc_pause},     {"lossy_not_paused", lossy_not_paused}, {"global_pause", global_pause},
      {"response_time", response_time}, {"quanta_sweep", quanta_sweep},   {"headroom", headroom}, {"incast", incast},
      {"watchdog", watchdog},           {"ecn", ecn}};
  for (const auto& [name, run_case] : cases) {
    if (!cfg.runs(name)) continue;
    if (ctl::stop_requested()) break;
    CaseOutcome outcome;
    try {
      outcome = run_case(p);
    } catch (const ctl::RpcCallError& error) {
      // The tester cannot run the case here (e.g. a port whose driver drops MAC Control
      // frames on transmit): the case is skipped with the data plane's reason, and the
      // plan goes on; any other refusal is an error of the plan itself.
      if (error.code() != static_cast<int>(api::RpcCode::kNotSupported)) throw;
      outcome = skipped(name, fmt::format("the tester cannot run it here: {}", error.what()));
      p.not_judged.clear();
    }
    if (p.interrupted) {
      outcome.verdict = CaseVerdict::kSkipped;
      outcome.explanation = "interrupted: the case did not finish";
    } else if (!p.not_judged.empty()) {
      outcome.verdict = CaseVerdict::kSkipped;
      outcome.explanation = "not judged: " + p.not_judged;
      p.not_judged.clear();
    }
    std::printf("%-18s %-7s %s\n", name, verdict_text(outcome.verdict), outcome.explanation.c_str());
    std::fflush(stdout);
    json verdict = to_json(outcome);
    verdict["compare_with_dut"] = dut_comparison(session.report()["trials"], name);
    session.report()["cases"].push_back(std::move(verdict));
    session.save();
    if (p.interrupted) break;
  }
}

}  // namespace lr::bench
