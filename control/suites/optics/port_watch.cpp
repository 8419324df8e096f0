#include "control/suites/optics/port_watch.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>

namespace lr::optics {

namespace {

const std::string kCorrected = "fec_corrected_blocks";
const std::string kUncorrectable = "fec_uncorrectable_blocks";
const std::string kCorrectedBits = "fec_corrected_bits";
const std::string kLinkDowns = "link_down_events";

// What grew between two readings; nullopt when either lacks it or it went backwards (a
// driver reset is not a count).
std::optional<uint64_t> grew(const PortReading& from, const PortReading& to, const std::string& name) {
  const auto a = from.counters.find(name);
  const auto b = to.counters.find(name);
  if (a == from.counters.end() || b == to.counters.end() || b->second < a->second) return std::nullopt;
  return b->second - a->second;
}

std::string module_text(const ModuleReading& m) {
  return fmt::format("{} {} {} (serial {})", m.vendor.empty() ? "?" : m.vendor, m.part.empty() ? "?" : m.part, m.type,
                     m.serial.empty() ? "none" : m.serial);
}

bool same_module(const ModuleReading& a, const ModuleReading& b) {
  return a.serial == b.serial && a.vendor == b.vendor && a.part == b.part;
}

bool has_thresholds(const ModuleReading& m) {
  return std::ranges::any_of(m.monitors, &module::Monitor::has_thresholds);
}

const module::Monitor* find_monitor(const ModuleReading& m, const std::string& name) {
  const auto at = std::ranges::find(m.monitors, name, &module::Monitor::name);
  return at == m.monitors.end() ? nullptr : &*at;
}

}  // namespace

const char* ber_method_name(BerMethod method) noexcept {
  return method == BerMethod::kCorrectedBits ? "corrected_bits" : "corrected_codewords_lower_bound";
}

MonitorName split_monitor_name(const std::string& name) {
  const size_t open = name.find('[');
  if (open == std::string::npos || name.back() != ']') {
    const bool per_lane = name == "bias" || name == "tx_power" || name == "rx_power";
    return {name, per_lane ? 1U : 0U};
  }
  unsigned lane = 0;
  std::from_chars(name.data() + open + 1, name.data() + name.size() - 1, lane);
  return {name.substr(0, open), lane};
}

void PortWatch::once(const std::string& key, std::string line, std::vector<std::string>& news) {
  if (said_.insert(key).second) news.push_back(std::move(line));
}

std::vector<std::string> PortWatch::update(PortReading reading) {
  // A read that gave nothing (the netdev gone, the data plane away) did not arrive.
  if (!reading.link_up && reading.counters.empty() && !reading.module && !reading.problems.empty())
    return missed(fmt::format("{}", fmt::join(reading.problems, "; ")), reading.time_s);
  std::vector<std::string> news;
  const std::string& port = status_.port;
  if (!status_.current && !status_.missed.empty()) news.push_back(fmt::format("{}: read again", port));
  for (const auto& [part, why] : reading.unsupported)
    once("unsupported " + part, fmt::format("{}: no {}: {}; its metrics are absent", port, part, why), news);
  // Said of a driver only when its counters were read: a read that failed says nothing of it.
  const bool counters_read = std::ranges::none_of(reading.problems, [](const std::string& p) {
    return p.starts_with("ethtool counters") || p.starts_with("FEC statistics") || p.starts_with("counters");
  });
  if (counters_read && !reading.unsupported.contains("FEC statistics") && reading.link_up && *reading.link_up &&
      !reading.counters.contains(kCorrected))
    once("no fec counter", fmt::format("{}: the driver counts no corrected FEC codewords: lr_fec_* are absent", port),
         news);
  check_module(reading);
  if (reading.problems != last_problems_)
    for (const std::string& problem : reading.problems) news.push_back(fmt::format("{}: {}", port, problem));
  last_problems_ = reading.problems;

  module_news(reading, news);
  link_news(reading, news);
  if (status_.reading) rates(*status_.reading, reading, news);
  status_.time_s = reading.time_s;
  status_.reading = std::move(reading);
  status_.current = true;
  status_.missed.clear();
  return news;
}

// What a module read cannot be taken for: a new module from one read whose serial ID fails
// its checksums (one bad I2C read is not a swap: a module whose checksums never hold is taken
// when two reads in a row say the same), thresholds from a page that did not answer.
void PortWatch::check_module(PortReading& reading) {
  if (!reading.module) return;
  ModuleReading& m = *reading.module;
  const bool known = last_module_ && same_module(m, *last_module_);
  if (!known && !m.checksum_problem.empty()) {
    const bool again = unconfirmed_ && same_module(*unconfirmed_, m);
    unconfirmed_ = m;
    if (!again) {
      reading.problems.push_back(
          fmt::format("module: read as {}, but its serial ID's checksums do not hold ({}): "
                      "not taken for a module until the next read says the same",
                      module_text(m), m.checksum_problem));
      reading.module.reset();
      return;
    }
  }
  unconfirmed_.reset();
  if (known && had_thresholds_ && !has_thresholds(m))
    // The kernel hands back the image without an optional page that did not answer.
    reading.problems.push_back(
        "module: its threshold page did not answer this read: the threshold metrics are "
        "absent until it does");
  else had_thresholds_ = has_thresholds(m);
}

std::vector<std::string> PortWatch::missed(const std::string& why, double now_s) {
  std::vector<std::string> news;
  if (status_.current || status_.missed != why) news.push_back(fmt::format("{}: {}", status_.port, why));
  status_.current = false;
  status_.missed = why;
  status_.time_s = now_s;
  status_.corrected_per_s.reset();
  status_.uncorrectable_per_s.reset();
  status_.pre_fec_ber.reset();
  return news;
}

// Against the link as last read, and the driver's link_down_events as last read: a reading
// that could not read one of them changes nothing of it. A drop seen in the link's state and
// counted by the driver too is one drop.
void PortWatch::link_news(const PortReading& now, std::vector<std::string>& news) {
  const bool both_read = last_link_up_ && now.link_up;
  const uint64_t seen = both_read && *last_link_up_ && !*now.link_up ? 1 : 0;
  uint64_t drops = seen;
  if (const auto downs = now.counters.find(kLinkDowns); downs != now.counters.end()) {
    // A counter that went backwards was reset: what it holds now came since.
    const uint64_t counted = !last_link_downs_                    ? 0
                             : downs->second >= *last_link_downs_ ? downs->second - *last_link_downs_
                                                                  : downs->second;
    drops = std::max(seen_uncounted_ + seen, counted) - seen_uncounted_;
    seen_uncounted_ = 0;
    last_link_downs_ = downs->second;
  } else {
    seen_uncounted_ += seen;
  }
  if (drops > 0 || (both_read && *last_link_up_ != *now.link_up)) status_.last_change_s = now.time_s;
  status_.flaps += drops;
  if (both_read && *last_link_up_ != *now.link_up)
    news.push_back(fmt::format("{}: link {} (flaps since the watch began: {})", status_.port,
                               *now.link_up ? "up" : "down", status_.flaps));
  else if (drops > 0)
    news.push_back(
        fmt::format("{}: link dropped {} time(s) between two readings (the driver's link_down_events){} "
                    "(flaps: {})",
                    status_.port, drops, now.link_up && *now.link_up ? ", up now" : "", status_.flaps));
  if (now.link_up) last_link_up_ = now.link_up;
}

void PortWatch::module_news(const PortReading& now, std::vector<std::string>& news) {
  // A read without a module (failed, or no module to read) says why among its problems or
  // unsupported parts; the module last seen stays the one the next is compared with.
  if (!now.module) return;
  const ModuleReading* before = last_module_ ? &*last_module_ : nullptr;
  if (!before) {
    news.push_back(fmt::format("{}: module {}", status_.port, module_text(*now.module)));
  } else if (!same_module(*before, *now.module)) {
    ++status_.module_changes;
    news.push_back(fmt::format("{}: module swapped: {} -> {}: its series start again", status_.port,
                               module_text(*before), module_text(*now.module)));
  }
  // Flags against the same module as last read: a flag is news when it rises.
  const ModuleReading* was_read = before && same_module(*before, *now.module) ? before : nullptr;
  for (const module::Monitor& m : now.module->monitors) {
    const module::Monitor* was = was_read ? find_monitor(*was_read, m.name) : nullptr;
    const bool alarm_raised = m.alarm_flag && !(was && was->alarm_flag);
    const bool warning_raised = m.warning_flag && !(was && was->warning_flag);
    if (alarm_raised || warning_raised)
      news.push_back(fmt::format("{}: {} {} flag raised ({:.4g} {}{})", status_.port, m.name,
                                 alarm_raised ? "alarm" : "warning", m.value, m.unit,
                                 m.beyond().empty() ? "" : ", " + m.beyond()));
  }
  last_module_ = now.module;
}

void PortWatch::rates(const PortReading& previous, const PortReading& now, std::vector<std::string>& news) {
  status_.corrected_per_s.reset();
  status_.uncorrectable_per_s.reset();
  status_.pre_fec_ber.reset();
  const double dt = now.time_s - previous.time_s;
  if (dt <= 0) return;
  const std::optional<uint64_t> corrected = grew(previous, now, kCorrected);
  const std::optional<uint64_t> uncorrectable = grew(previous, now, kUncorrectable);
  if (corrected) status_.corrected_per_s = static_cast<double>(*corrected) / dt;
  if (uncorrectable) status_.uncorrectable_per_s = static_cast<double>(*uncorrectable) / dt;
  if (uncorrectable && *uncorrectable > 0)
    news.push_back(fmt::format("{}: {} uncorrectable FEC codewords in {:.3g} s", status_.port, *uncorrectable, dt));
  // Bits the link carried: its rate over the interval, link up at both ends of it.
  // No drop counted between them: the counter the same at both, or counted by neither.
  const auto downs_before = previous.counters.find(kLinkDowns), downs_now = now.counters.find(kLinkDowns);
  const bool no_drop = downs_before == previous.counters.end() && downs_now == now.counters.end()
                           ? true
                           : downs_before != previous.counters.end() && downs_now != now.counters.end() &&
                                 downs_before->second == downs_now->second;
  const bool up_throughout = previous.link_up.value_or(false) && now.link_up.value_or(false) &&
                             previous.speed_bps == now.speed_bps && now.speed_bps > 0 && no_drop;
  if (!up_throughout) return;
  const double bits = static_cast<double>(now.speed_bps) * dt;
  if (const std::optional<uint64_t> corrected_bits = grew(previous, now, kCorrectedBits)) {
    status_.pre_fec_ber = static_cast<double>(*corrected_bits) / bits;
    status_.ber_method = BerMethod::kCorrectedBits;
  } else if (corrected) {
    status_.pre_fec_ber = static_cast<double>(*corrected) / bits;
    status_.ber_method = BerMethod::kCorrectedCodewordsLowerBound;
  }
}

}  // namespace lr::optics
