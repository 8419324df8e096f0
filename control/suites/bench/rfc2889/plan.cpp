#include "control/suites/bench/rfc2889/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "control/suites/bench/rfc2889_section.hpp"
#include "control/client/stop_signal.hpp"
#include "lib/api/missed_target.hpp"
#include "lib/api/switch_report.hpp"

namespace lr::bench::rfc2889 {


namespace {

constexpr int kAttempts = 3;
constexpr uint32_t kHelloFrames = 4;
constexpr api::MacAddr kBroadcast{0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
constexpr const char* kHelloPrefix = "hello-";
// linerate's own switch held up this long has queued what a real one would have sent.
constexpr double kSwitchStallUs = 100;
constexpr double kPreambleAndGapBytes = 20;
// Offered above this share of what a port carries, it congests.
constexpr double kOversubscribedAbove = 1.02;

// Whether more frames came for the switch port's egress over `window_s` than its shaped
// rate carries (a device that congests on its own: its drops are its own).
bool oversubscribed(const api::SwitchPortReport& port, double window_s) {
  uint64_t tx_frames = 0, tx_bytes = 0, offered = 0;
  for (const api::SwitchPriorityReport& q : port.priorities) {
    tx_frames += q.tx_frames;
    tx_bytes += q.tx_bytes;
    offered += q.tx_frames + q.drop_tail + q.drop_headroom;
  }
  if (tx_frames == 0 || window_s <= 0) return true;  // nothing to judge by: the device's
  const double wire_bytes = static_cast<double>(tx_bytes) / static_cast<double>(tx_frames) + kPreambleAndGapBytes;
  const double carries = static_cast<double>(port.shape_bps) * window_s / (wire_bytes * 8);
  return static_cast<double>(offered) > carries * kOversubscribedAbove;
}

}  // namespace

void Plan::result(const Result& e) {
  session.report()["results"].push_back(to_json(e));
  session.save();
}

void Plan::skipped(Result e, const Measured& m) {
  e.verdict = "SKIPPED";
  e.why = m.interrupted ? "interrupted" : m.invalid;
  result(e);
}

api::MacAddr mac_of(uint64_t value) {
  api::MacAddr mac{};
  for (int i = 5; i >= 0; --i, value >>= 8) mac[static_cast<size_t>(i)] = static_cast<uint8_t>(value);
  return mac;
}

api::MacAddr station(size_t index) { return mac_of(0x022889000000 + index + 1); }

namespace {

std::vector<size_t> every_port(const Plan& plan) {
  std::vector<size_t> all(plan.ports());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  return all;
}

}  // namespace

Streams::Streams(const Plan& plan) : Streams(plan, every_port(plan)) {}

Streams::Streams(const Plan& plan, const std::vector<size_t>& hello_from) : plan_(plan) {
  for (const size_t i : hello_from) {
    // Unpaced: four frames at once, which no port's load has to make room for.
    api::StreamSpec& hello = traffic(kHelloPrefix + plan.port(i), i, std::nullopt, 64, {api::RateKind::kMax, 0}, 0, 0,
                                     kHelloFrames);
    hello.rx_port.reset();  // flooded to every port: heard, not counted
  }
}

api::StreamSpec& Streams::traffic(const std::string& name, size_t from, std::optional<size_t> to, uint16_t bytes,
                                  api::Rate rate, uint64_t start_after_ns, uint64_t duration_ns, uint64_t count) {
  api::StreamSpec s;
  s.name = name;
  s.tx_port = plan_.port(from);
  if (to) s.rx_port = plan_.port(*to);
  s.eth_src = station(from);
  s.eth_dst = to ? station(*to) : kBroadcast;
  s.ipv4.src = 0xC6120000u + static_cast<uint32_t>(from) + 1;  // 198.18.0.n (RFC 2544's range)
  s.ipv4.dst = 0xC6130000u + static_cast<uint32_t>(to.value_or(255)) + 1;
  s.frame.sizes = {bytes};
  s.rate = rate;
  s.start_after_ns = start_after_ns;
  s.count = count;
  s.duration_ns = count != 0 ? 0 : duration_ns;
  streams_.push_back(std::move(s));
  return streams_.back();
}

const api::StreamReport& stream_of(const api::RunReport& report, const std::string& name) {
  for (const api::StreamReport& s : report.streams)
    if (s.name == name) return s;
  throw std::runtime_error(fmt::format("the run's report has no stream '{}'", name));
}

std::string invalid_reason(const api::RunReport& report, double traffic_s,
                           const std::vector<std::string>& without_catch_up, const std::string& flapped_port) {
  for (const api::StreamReport& s : report.streams) {
    if (s.name.starts_with(kHelloPrefix) || s.target_pps <= 0) continue;
    if (std::find(without_catch_up.begin(), without_catch_up.end(), s.name) != without_catch_up.end()) continue;
    const double sent = s.tx_pps_achieved;
    const double active_s = sent > 0 ? static_cast<double>(s.tx_packets) / sent : 0.0;
    const double held = active_s > 0 ? static_cast<double>(s.paused_ns.value_or(0)) / 1e9 / active_s : 0.0;
    if (std::string missed = api::missed_target(s.name, s.target_pps, sent, s.tx_queue_full, held, report.lcores, active_s);
        !missed.empty())
      return missed;
  }
  for (const api::PortReport& port : report.ports)
    for (const api::LinkEventReport& e :
         port.name == flapped_port ? std::vector<api::LinkEventReport>{} : port.link_events)
      if (!e.up && e.run_s) return fmt::format("port '{}' link went down during the run", port.name);
  if (std::string held = held_up_by_host(report, 0, traffic_s); !held.empty()) return held;
  for (const api::SwitchReport& sw : report.switches) {
    // Held up longer than it catches up, it saw what came meanwhile compressed into its
    // catch-up: a burst no wire delivers (a learner refuses some of it, a queue overflows).
    if (sw.catch_up_us > 0 && sw.longest_stall_us > sw.catch_up_us)
      return fmt::format("linerate's switch '{}', the device here, was held up by the host for {:.0f} us, longer than "
                         "it catches up ({:.0f} us): what came meanwhile reached it in a burst",
                         sw.name, sw.longest_stall_us, sw.catch_up_us);
    for (const api::SwitchPortReport& port : sw.ports) {
      if (port.egress_lost_us > 0)
        return fmt::format("linerate's switch '{}', the device here, was held up by the host long enough that port "
                           "'{}' lost {:.0f} us of sending: no hardware switch stops, so the run says nothing of the "
                           "device", sw.name, port.name, port.egress_lost_us);
      // Tail drops at the egress queues; a lossless group's headroom drops are at the
      // ingress port (a sender that did not obey its PFC), as input queueing's are.
      uint64_t dropped = 0;
      for (const api::SwitchPriorityReport& q : port.priorities) dropped += q.drop_tail;
      const double window_s = traffic_s - static_cast<double>(kHelloSettleNs) / 1e9;
      if (dropped > 0 && !sw.input_queued && sw.longest_stall_us >= kSwitchStallUs && !oversubscribed(port, window_s))
        return fmt::format("linerate's switch '{}', the device here, dropped {} frames at port '{}', whose rate carried "
                           "all that came for it, after the host held its lcore up for {:.0f} us (it catches up {:.0f} "
                           "us): no hardware switch stops", sw.name, dropped, port.name, sw.longest_stall_us,
                           sw.catch_up_us);
    }
  }
  return "";
}

Measured measure(Plan& p, const Streams& streams, const std::string& test, const std::string& label) {
  double traffic_s = 0;
  for (const api::StreamSpec& s : streams.specs())
    traffic_s = std::max(traffic_s, static_cast<double>(s.start_after_ns + s.duration_ns) / 1e9);
  return measure(p, streams, test, label, [&](const api::RunReport& report) { return invalid_reason(report, traffic_s); });
}

Measured measure(Plan& p, const Streams& streams, const std::string& test, const std::string& label,
                 const std::function<std::string(const api::RunReport&)>& spoiled, double wait_s) {
  const std::string what = label.empty() ? test : test + " " + label;
  return measure(
      p, test, label, [&](bool& interrupted) { return p.runner.run_streams(streams.specs(), what, interrupted); },
      spoiled, wait_s);
}

Measured measure(Plan& p, const std::string& test, const std::string& label,
                 const std::function<ctl::EndedRun(bool& interrupted)>& run,
                 const std::function<std::string(const api::RunReport&)>& spoiled, double wait_s) {
  const std::string what = label.empty() ? test : test + " " + label;
  Measured m;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    ctl::sleep_unless_stopped(wait_s);
    if (ctl::stop_requested()) {
      m.interrupted = p.interrupted = true;
      return m;
    }
    m.run = run(m.interrupted);
    p.interrupted = p.interrupted || m.interrupted;
    m.invalid = m.interrupted ? "" : spoiled(m.run.report);
    std::printf("  %-44s run %s\n", what.c_str(),
                m.interrupted ? "interrupted" : m.invalid.empty() ? "done" : ("invalid: " + m.invalid).c_str());
    std::fflush(stdout);
    p.session.report()["trials"].push_back(to_json(RunRow{test, label, m.invalid, api::to_json(m.run.report)}));
    p.session.save();
    ctl::sleep_unless_stopped(static_cast<double>(p.cfg.rest_ns) / 1e9);
    if (m.valid() || m.interrupted || ctl::stop_requested()) return m;
  }
  m.invalid = fmt::format("{} runs were all invalid; the last: {}", kAttempts, m.invalid);
  return m;
}

Result entry(const std::string& test, const char* section) {
  Result r;
  r.test = test;
  r.section = section;
  return r;
}

}  // namespace lr::bench::rfc2889
