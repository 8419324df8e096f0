#include "control/suites/bench/lossless/timeline.hpp"

#include <algorithm>
#include <string_view>

#include "control/suites/bench/lossless_cases.hpp"

namespace lr::bench::lossless {

const api::StreamReport& stream_of(const api::RunReport& report, const std::string& name) {
  static const api::StreamReport none;
  for (const api::StreamReport& s : report.streams)
    if (s.name == name) return s;
  return none;
}

Silence silence_of(const api::StreamReport& stream) {
  if (!stream.timeline || !stream.timeline->longest_rx_gap_s) return {};
  const auto [from_s, to_s] = *stream.timeline->longest_rx_gap_s;
  return {from_s, to_s, true};
}

std::vector<uint64_t> bins_of(const api::StreamReport& stream, const char* which) {
  if (!stream.timeline) return {};
  return std::string_view(which) == "tx" ? stream.timeline->tx : stream.timeline->rx;
}

double bin_s_of(const api::StreamReport& stream) { return stream.timeline ? stream.timeline->bin_s : 0.0; }

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

double empty_bins_after(const std::vector<uint64_t>& bins, double bin_s, double t0_s, double within_s) {
  if (bin_s <= 0) return 0;
  const EmptyRun run = longest_empty_run(bins, static_cast<size_t>(t0_s / bin_s),
                                         static_cast<size_t>((t0_s + within_s) / bin_s), bins.size());
  return static_cast<double>(run.length) * bin_s;
}

std::optional<BinSpan> bins_with_frames(const std::vector<uint64_t>& bins) {
  const auto nonzero = [](uint64_t n) { return n != 0; };
  const auto first = std::find_if(bins.begin(), bins.end(), nonzero);
  if (first == bins.end()) return std::nullopt;
  const auto last = std::find_if(bins.rbegin(), bins.rend(), nonzero);
  return BinSpan{static_cast<size_t>(first - bins.begin()), static_cast<size_t>(bins.rend() - last - 1)};
}

double silent_seconds(const api::RunReport& report, const std::vector<std::string>& names, double until_s,
                      double bridged_s) {
  std::vector<uint64_t> sent;
  double bin = 0;
  for (const std::string& name : names) {
    const api::StreamReport& s = stream_of(report, name);
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

Sent sent_of(const api::RunReport& report, const std::string& name, Sent planned) {
  const api::StreamReport& s = stream_of(report, name);
  const std::vector<uint64_t> tx = bins_of(s, "tx");
  const double bin = bin_s_of(s);
  const std::optional<BinSpan> sent = bins_with_frames(tx);
  if (!sent || bin <= 0) return planned;
  return {static_cast<double>(sent->first) * bin, static_cast<double>(sent->last) * bin};
}

double pfc_xoff_heard(const api::RunReport& report, const std::string& port, uint8_t priority) {
  double xoff = 0;
  for (const api::PortReport& p : report.ports)
    if (p.name == port && p.mac_control)
      for (const api::PauseClassReport& cls : p.mac_control->pfc)
        if (cls.priority == priority) xoff += static_cast<double>(cls.xoff);
  return xoff;
}

double last_pfc_heard(const api::RunReport& report, const std::string& port, double from_s, double to_s) {
  for (const api::PortReport& p : report.ports) {
    if (p.name != port || !p.mac_control_timeline) continue;
    const std::vector<uint64_t>& rx = p.mac_control_timeline->rx;
    const double bin = p.mac_control_timeline->bin_s;
    for (size_t i = rx.size(); bin > 0 && i-- > 0;)
      if (rx[i] != 0 && static_cast<double>(i) * bin >= from_s && static_cast<double>(i) * bin < to_s)
        return static_cast<double>(i) * bin;
  }
  return -1;
}

}  // namespace lr::bench::lossless

namespace lr::bench {

void coarsen_timelines(api::RunReport& run_report, size_t max_bins) {
  const auto coarsen = [&](api::TimelineReport& t) {
    const size_t n = std::max(t.tx.size(), t.rx.size());
    if (n <= max_bins) return;
    const size_t k = (n + max_bins - 1) / max_bins;
    for (std::vector<uint64_t>* bins : {&t.tx, &t.rx}) {
      std::vector<uint64_t> merged((bins->size() + k - 1) / k);
      for (size_t i = 0; i < bins->size(); ++i) merged[i / k] += (*bins)[i];
      *bins = std::move(merged);
    }
    t.bin_s *= static_cast<double>(k);
  };
  for (api::StreamReport& s : run_report.streams)
    if (s.timeline) coarsen(*s.timeline);
  for (api::PortReport& p : run_report.ports)
    if (p.mac_control_timeline) coarsen(*p.mac_control_timeline);
}

}  // namespace lr::bench
