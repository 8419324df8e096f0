#include "control/suites/bench/lossless/plan.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <stdexcept>

#include "control/suites/bench/lossless/storm.hpp"
#include "control/suites/bench/lossless_cases.hpp"
#include "control/suites/bench/lossless_verdicts.hpp"
#include "control/client/stop_signal.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "lib/wire/mac_control.hpp"

namespace lr::bench::lossless {

namespace {

constexpr int kAttempts = 8;  ///< runs of a case step before it is not judged

}  // namespace

void Streams::test_traffic(uint8_t priority) {
  traffic("test", plan_.cfg.senders[0], priority, plan_.cfg.rate_percent, 0, plan_.cfg.duration_ns);
}

void Streams::pfc_storm(uint8_t priority) {
  mac_control("storm", false, priority, kStormQuanta, storm_at_ns(plan_.cfg), plan_.cfg.storm_ns);
}

void Streams::traffic(const std::string& name, const std::string& sender, uint8_t priority, double percent,
                      uint64_t start_after_ns, uint64_t duration_ns, uint64_t count, bool ecn_capable) {
  api::StreamSpec stream = template_of(sender);
  stream.name = name;
  stream.frame = {};
  stream.frame.sizes = {plan_.cfg.frame_size};
  stream.rate = {api::RateKind::kPercentOfLine, percent};
  stream.vlan = api::VlanSpec{stream.vlan ? stream.vlan->id : uint16_t{0}, priority};
  stream.start_after_ns = start_after_ns;
  stream.count = count;
  stream.duration_ns = count != 0 ? 0 : duration_ns;
  stream.burst.reset();
  if (ecn_capable) {
    constexpr uint8_t kEct0 = 2;
    if (stream.ip_version == api::IpVersion::kV6) stream.ipv6.ecn = kEct0;
    else stream.ipv4.ecn = kEct0;
  }
  // Errors name the case's run (run_streams' `what`), not the template's lines.
  stream.file.clear();
  stream.loc = {};
  stream.key_locs.clear();
  streams_.push_back(std::move(stream));
}

void Streams::mac_control(const std::string& name, bool pause, uint8_t priority, uint32_t quanta,
                          uint64_t start_after_ns, uint64_t duration_ns) {
  api::StreamSpec stream;
  stream.name = name;
  stream.tx_port = plan_.cfg.receiver;
  stream.kind = pause ? api::StreamKind::kPause : api::StreamKind::kPfc;
  stream.eth_dst = wire::kMacControlDst;
  const auto q = static_cast<uint16_t>(quanta);
  if (pause) {
    stream.mac_control.quanta[0] = q;
  } else {
    stream.mac_control.quanta[priority] = q;
    stream.mac_control.class_enable = static_cast<uint8_t>(1u << priority);
  }
  stream.start_after_ns = start_after_ns;
  if (duration_ns != 0) {
    stream.mac_control.refresh_auto = true;
    stream.duration_ns = duration_ns;
  } else {
    stream.rate = {api::RateKind::kPps, 1000};
    stream.count = 1;
  }
  streams_.push_back(std::move(stream));
}

const api::StreamSpec& Streams::template_of(const std::string& sender) const {
  for (const api::StreamSpec& s : plan_.profile.streams)
    if (s.tx_port == sender && s.rx_port == plan_.cfg.receiver && s.kind == api::StreamKind::kUdp) return s;
  throw std::runtime_error(fmt::format("no [[stream]] from '{}' to '{}'", sender, plan_.cfg.receiver));
}

std::string sender_of_background(const bench::LosslessCfg& cfg) {
  return cfg.senders.size() > 1 ? cfg.senders[1] : cfg.senders[0];
}

void record(Plan& p, const std::string& case_name, const std::string& label, const ctl::EndedRun& run,
            const std::string& invalid_reason) {
  api::RunReport coarse = run.report;
  coarsen_timelines(coarse, 500);
  p.session.report()["trials"].push_back(
      {{"case", case_name}, {"label", label}, {"invalid_reason", invalid_reason}, {"report", api::to_json(coarse)}});
  p.session.save();
  if (invalid_reason.empty()) p.judged.push_back({case_name, label, run.report});
  ctl::sleep_unless_stopped(static_cast<double>(p.cfg.rest_ns) / 1e9);
}

ctl::EndedRun run(Plan& p, const Streams& streams, const std::string& case_name, const std::string& label,
                  const WindowsOf& windows_of, bool tail_drops_expected) {
  const std::string what = label.empty() ? case_name : case_name + " " + label;
  ctl::EndedRun ended;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    bool interrupted = false;
    ended = p.runner.run_streams(streams.specs(), what, interrupted);
    p.interrupted = p.interrupted || interrupted;
    const double storm_pause_s = quanta_seconds(kStormQuanta, p.receiver_bps);
    const std::string invalid =
        interrupted ? "" : invalid_reason(ended.report, storm_pause_s, windows_of(ended.report), tail_drops_expected);
    std::printf("  %-32s run %s\n", what.c_str(),
                interrupted ? "interrupted" : invalid.empty() ? "done" : ("invalid: " + invalid).c_str());
    std::fflush(stdout);
    if (invalid.empty()) return ended;
    if (attempt == kAttempts) {
      p.not_judged = fmt::format("{} runs of '{}' were all invalid; the last: {}", kAttempts, what, invalid);
      return ended;
    }
    record(p, case_name, label, ended, invalid);
  }
  return ended;
}

}  // namespace lr::bench::lossless
