#include "control/bench/lossless/plan.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "control/bench/lossless/storm.hpp"
#include "control/bench/lossless_cases.hpp"
#include "control/bench/lossless_verdicts.hpp"
#include "control/cli/stop_signal.hpp"

namespace lr::bench::lossless {

namespace {

constexpr int kAttempts = 8;  ///< runs of a case step before it is not judged

}  // namespace

void Streams::traffic(const std::string& name, const std::string& sender, uint8_t priority, double percent,
                      uint64_t start_after_ns, uint64_t duration_ns, uint64_t count, bool ecn_capable) {
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

void Streams::mac_control(const std::string& name, bool pause, uint8_t priority, uint32_t quanta,
                          uint64_t start_after_ns, uint64_t duration_ns) {
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

std::string Streams::text() const {
  std::ostringstream out;
  out << toml::table{{"stream", streams_}};
  return out.str();
}

const toml::table* Streams::template_of(const std::string& sender) const {
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

std::string sender_of_background(const profile::LosslessCfg& cfg) {
  return cfg.senders.size() > 1 ? cfg.senders[1] : cfg.senders[0];
}

void record(Plan& p, const std::string& case_name, const std::string& label, json report,
            const std::string& invalid_reason) {
  coarsen_timelines(report, 500);
  p.session.report()["trials"].push_back(
      {{"case", case_name}, {"label", label}, {"invalid_reason", invalid_reason}, {"report", std::move(report)}});
  p.session.save();
  ctl::sleep_unless_stopped(static_cast<double>(p.cfg.rest_ns) / 1e9);
}

json run(Plan& p, const Streams& streams, const std::string& case_name, const std::string& label,
         const WindowsOf& windows_of, bool tail_drops_expected) {
  const std::string what = label.empty() ? case_name : case_name + " " + label;
  json report;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    bool interrupted = false;
    report = p.runner.run_streams(streams.text(), what, interrupted);
    p.interrupted = p.interrupted || interrupted;
    const double storm_pause_s = quanta_seconds(kStormQuanta, p.receiver_bps);
    const std::string invalid =
        interrupted ? "" : invalid_reason(report, storm_pause_s, windows_of(report), tail_drops_expected);
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

}  // namespace lr::bench::lossless
