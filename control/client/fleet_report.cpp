#include "control/client/fleet_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "lib/api/run_report.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

// Stream i of the run: what was sent from its sender's report, what arrived from its
// receiver's, the loss from both.
// Latency between two data planes: the receiver's figures, with their bound once both
// clocks' drift over the run is known; else withheld with the reason.
void judge_latency_across(api::StreamReport& r, const LatencyAcross& across, const FleetEngine& from,
                          const FleetEngine& to) {
  if (!across.measured) {
    r.latency = {};
    r.late = 0;
    r.latency_withheld = across.why;
    return;
  }
  for (const FleetEngine* e : {&from, &to})
    if (e->clock_after.is_null()) {
      r.latency = {};
      r.late = 0;
      r.latency_withheld = fmt::format(
          "the clock of the data plane at {} could not be read after the run: how far "
          "it drifted, and so the latency's bound, is not known",
          e->address);
      return;
    }
  r.latency_withheld.reset();
  r.latency_bound_ns =
      across.bound_ns + drift_apart_ns(from.hello.at("clock"), from.clock_after, to.hello.at("clock"), to.clock_after);
  r.latency_clocks = across.why;
}

// Stream `s`: what was sent from its sender's counts, what arrived (received, order,
// latency) from its receiver's, the loss from both. `receiver` names the receiver's data
// plane where its counts are missing (`got` null: it went away).
api::StreamReport joined_stream(const api::StreamSpec& s, const api::StreamReport* sent, const api::StreamReport* got,
                                const std::string& receiver) {
  api::StreamReport r;
  if (sent != nullptr) r = *sent;
  r.name = s.name;
  r.tx_port = s.tx_port;
  r.rx_port = s.rx_port;
  if (!s.rx_port) return r;
  if (got == nullptr) {
    r.rx_unknown = fmt::format("the data plane at {} that received it went away: what arrived is not known", receiver);
    return r;
  }
  r.rx_packets = got->rx_packets;
  r.rx_bytes = got->rx_bytes;
  r.duplicate = got->duplicate;
  r.out_of_order = got->out_of_order;
  r.late = got->late;
  r.beyond_window = got->beyond_window;
  r.misdelivered = got->misdelivered;
  r.latency = got->latency;
  r.latency_withheld = got->latency_withheld;
  r.ecn = got->ecn;
  r.receive_only = false;
  r.lost = api::lost_frames(r.tx_packets, r.rx_packets, r.duplicate);
  if (r.timeline && got->timeline) r.timeline->rx = got->timeline->rx;  // each side's bins, from one instant
  return r;
}

// Each stream joined from `counts` (per data plane, its streams in the run's order).
std::vector<api::StreamReport> joined_streams(const std::vector<api::StreamSpec>& streams,
                                              const std::vector<FleetEngine>& engines,
                                              const std::map<std::string, FleetPlacement>& placed,
                                              const std::vector<const std::vector<api::StreamReport>*>& counts) {
  std::vector<api::StreamReport> out;
  for (size_t i = 0; i < streams.size(); ++i) {
    const api::StreamSpec& s = streams[i];
    const auto counts_at = [&](const std::string& port) -> const api::StreamReport* {
      const std::vector<api::StreamReport>* theirs = counts[placed.at(port).engine];
      return theirs != nullptr && i < theirs->size() ? &(*theirs)[i] : nullptr;
    };
    out.push_back(joined_stream(s, counts_at(s.tx_port), s.rx_port ? counts_at(*s.rx_port) : nullptr,
                                s.rx_port ? engines[placed.at(*s.rx_port).engine].address : ""));
  }
  return out;
}

}  // namespace

json engine_section(const FleetEngine& e) {
  json section{
      {"engine", e.address}, {"node", e.hello.value("node", "")}, {"version", e.hello.value("version", "")},
      {"rtt_ns", e.rtt_ns},  {"clock_offset_ns", e.offset_ns},    {"clock", e.hello.value("clock", json::object())}};
  if (!e.clock_after.is_null()) section["clock_after"] = e.clock_after;  // read once it stopped: its drift
  return section;
}

// The run's one report: the streams joined across data planes, every data plane's ports
// (by the profile's names), lcores and warnings, and a section per data plane.
EndedRun fleet_report(const std::vector<api::StreamSpec>& streams, const std::vector<FleetEngine>& engines,
                      const std::map<std::string, FleetPlacement>& placed,
                      const std::vector<std::optional<LatencyAcross>>& across, int64_t at_utc_ns) {
  api::RunReport merged;
  merged.start = api::RunStart{at_utc_ns, at_utc_ns, std::nullopt, 0};
  json sections = json::array();
  std::vector<int64_t> firsts;
  for (const FleetEngine& e : engines) {
    json section = engine_section(e);
    if (!e.ended) {
      section["report"] = nullptr;
      sections.push_back(std::move(section));
      continue;
    }
    const api::RunReport& r = e.ended->report;
    if (merged.started_at.empty() || r.started_at < merged.started_at) merged.started_at = r.started_at;
    merged.duration_s = std::max(merged.duration_s, r.duration_s);
    merged.interrupted = merged.interrupted || r.interrupted;
    merged.mbufs_not_returned += r.mbufs_not_returned;
    for (api::PortReport port : r.ports) {
      const auto name = e.profile_names.find(port.name);
      port.name = name != e.profile_names.end() ? name->second : e.address + ";" + port.name;
      merged.ports.push_back(std::move(port));
    }
    merged.lcores.insert(merged.lcores.end(), r.lcores.begin(), r.lcores.end());
    merged.switches.insert(merged.switches.end(), r.switches.begin(), r.switches.end());
    for (const std::string& warning : r.warnings) merged.warnings.push_back(e.address + ": " + warning);
    if (r.start) {
      section["start"] = api::to_json(*r.start);
      merged.start->tsc_utc_error_ns = std::max(merged.start->tsc_utc_error_ns, r.start->tsc_utc_error_ns);
      if (e.sends && r.start->first_tx_utc_ns) firsts.push_back(*r.start->first_tx_utc_ns);
    }
    sections.push_back(std::move(section));
  }
  if (!firsts.empty()) merged.start->first_tx_utc_ns = *std::min_element(firsts.begin(), firsts.end());
  std::vector<const std::vector<api::StreamReport>*> counts;
  for (const FleetEngine& e : engines) counts.push_back(e.ended ? &e.ended->report.streams : nullptr);
  merged.streams = joined_streams(streams, engines, placed, counts);
  for (size_t i = 0; i < streams.size(); ++i)
    if (across.at(i) && !merged.streams[i].rx_unknown)
      judge_latency_across(merged.streams[i], *across[i], engines[placed.at(streams[i].tx_port).engine],
                           engines[placed.at(*streams[i].rx_port).engine]);
  EndedRun out{api::to_json(merged), merged};
  out.json["engines"] = std::move(sections);
  out.json["start_spread_ns"] =
      firsts.size() < 2
          ? json(nullptr)
          : json(*std::max_element(firsts.begin(), firsts.end()) - *std::min_element(firsts.begin(), firsts.end()));
  // Each data plane began at the instant on its own clock: as close as the clocks agree,
  // which PTP vouches for only when every one follows the same grandmaster.
  std::set<std::string> grandmasters;
  bool all_locked = true;
  for (const FleetEngine& e : engines) {
    const json clock = e.hello.value("clock", json::object());
    all_locked = all_locked && clock.value("synchronised", false);
    grandmasters.insert(grandmaster_of(clock));  // a clock that follows one names it
  }
  const bool synchronised = all_locked && grandmasters.size() == 1;
  out.json["start_synchronised"] = synchronised;
  if (!all_locked)
    out.json["start_note"] =
        "best effort: the data planes' clocks are not known to follow one PTP grandmaster, so "
        "their first frames are as close as their clocks agree";
  else if (!synchronised)
    out.json["start_note"] =
        fmt::format("best effort: the data planes follow different grandmasters ({})", fmt::join(grandmasters, ", "));
  return out;
}

std::vector<api::StreamReport> fleet_stream_stats(const std::vector<api::StreamSpec>& streams,
                                                  const std::vector<FleetEngine>& engines,
                                                  const std::map<std::string, FleetPlacement>& placed,
                                                  const std::vector<std::optional<LatencyAcross>>& across,
                                                  const std::vector<std::vector<api::StreamReport>>& live) {
  std::vector<const std::vector<api::StreamReport>*> counts;
  for (const std::vector<api::StreamReport>& theirs : live) counts.push_back(&theirs);
  std::vector<api::StreamReport> out = joined_streams(streams, engines, placed, counts);
  for (size_t i = 0; i < out.size(); ++i)
    if (across.at(i)) {
      out[i].latency = {};
      out[i].late = 0;
      out[i].latency_withheld = across[i]->measured
                                    ? "between two data planes: given once the run ends, with its bound (each clock's "
                                      "drift over the run widens it)"
                                    : across[i]->why;
    }
  return out;
}

}  // namespace lr::ctl
