#include "control/suites/optics/qualify_verdicts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "control/suites/optics/ber_claim.hpp"
#include "control/suites/optics/qualify_section.hpp"

namespace lr::optics {

namespace {

Criterion make(std::string name, Verdict verdict, std::string measured, std::string bound, std::string note,
               std::optional<double> value = std::nullopt) {
  return {std::move(name), verdict, std::move(measured), std::move(bound), std::move(note), value};
}

Criterion skipped(std::string name, std::string why) { return make(std::move(name), Verdict::kSkipped, "–", "–", std::move(why)); }

// Over the traffic: first sample to last.
uint64_t delta(const std::vector<QualifySample>& s, const std::string& name) {
  return s.size() < 2 ? 0 : counter_delta(s.front(), s.back(), name);
}

// A total, else the sum of its per-lane counters; nullopt when the driver has neither.
std::optional<uint64_t> total_or_lanes(const std::vector<QualifySample>& s, const std::string& name) {
  if (has_counter(s, name)) return delta(s, name);
  const std::vector<std::string> lanes = counters_named(s, name + "_lane");
  if (lanes.empty()) return std::nullopt;
  uint64_t sum = 0;
  for (const std::string& lane : lanes) sum += delta(s, lane);
  return sum;
}

std::string per_lane(const std::vector<QualifySample>& s, const std::string& name) {
  std::string out;
  for (const std::string& lane : counters_named(s, name + "_lane"))
    if (const uint64_t d = delta(s, lane); d > 0) out += fmt::format("{}lane {}: {}", out.empty() ? "" : ", ", lane.substr(name.size() + 5), d);
  return out.empty() ? "" : " (" + out + ")";
}

std::string sci(double v) { return fmt::format("{:.2e}", v); }

std::string monitor_text(const module::Monitor& m, double value) {
  if (m.unit == "mW") return fmt::format("{:.2f} dBm", module::mw_to_dbm(value));
  return fmt::format("{:.2f} {}", value, m.unit);
}

// Where the bit errors a PHY without FEC (or with FEC, before it) reports are counted.
struct ErrorCount {
  uint64_t errors = 0;
  std::string source;
  bool lower_bound = false;
};

std::optional<ErrorCount> pre_fec_errors(const std::vector<QualifySample>& s, bool fec_on) {
  if (fec_on) {
    if (const auto bits = total_or_lanes(s, "fec_corrected_bits")) return ErrorCount{*bits, "FEC corrected bits", false};
    if (const auto blocks = total_or_lanes(s, "fec_corrected_blocks"))
      return ErrorCount{*blocks, "FEC corrected blocks (the driver counts no corrected bits: at least one bit each)", true};
    return std::nullopt;
  }
  if (const auto bits = total_or_lanes(s, "rx_bit_errors")) return ErrorCount{*bits, "PHY bit errors per lane", false};
  if (has_counter(s, "rx_pcs_symbol_errors")) return ErrorCount{delta(s, "rx_pcs_symbol_errors"), "PCS symbol errors", true};
  if (has_counter(s, "rx_symbol_errors")) return ErrorCount{delta(s, "rx_symbol_errors"), "symbol errors", true};
  return std::nullopt;
}

Criterion module_criterion(const PortEvidence& e) {
  if (!e.module) return skipped("module", "no module read: " + e.module_error);
  const module::ModuleIdentity& id = module_identity(*e.module);
  const std::string what = fmt::format("{} {} rev {} s/n {}", id.vendor_name, id.vendor_pn, id.vendor_rev, id.vendor_sn);
  if (const std::string bad = module::checksum_problem(*e.module); !bad.empty())
    return make("module", Verdict::kWarn, what, "checksums hold", "the EEPROM's " + bad + ": its other fields may be wrong");
  return make("module", Verdict::kPass, what, "checksums hold", id.identifier_name);
}

Criterion link_criterion(const PortEvidence& e, const optics::QualifyCfg& cfg) {
  const std::string measured = e.link_up ? fmt::format("up at {} Gb/s", static_cast<double>(e.speed_bps) / 1e9) : "down";
  const std::string bound = cfg.speed_bps != 0 ? fmt::format("up at {} Gb/s", static_cast<double>(cfg.speed_bps) / 1e9) : "up";
  const bool ok = e.link_up && (cfg.speed_bps == 0 || e.speed_bps == cfg.speed_bps);
  return make("link_speed", ok ? Verdict::kPass : Verdict::kFail, measured, bound,
              ok ? "before the traffic" : "before the traffic: the module or cable does not carry the expected speed");
}

Criterion fec_mode_criterion(const PortEvidence& e, const optics::QualifyCfg& cfg) {
  if (e.fec_active.empty()) return skipped("fec_mode", "the port cannot say its active FEC: " + e.fec_error);
  if (cfg.fec.empty()) return make("fec_mode", Verdict::kPass, e.fec_active, "any", "no FEC mode expected ([qualify] fec)");
  const bool ok = e.fec_active == cfg.fec;
  return make("fec_mode", ok ? Verdict::kPass : Verdict::kFail, e.fec_active, cfg.fec,
              ok ? "active as expected" : "the link negotiated another FEC than expected");
}

Criterion uncorrectable_criterion(const PortEvidence& e) {
  if (e.fec_active == "off") return skipped("fec_uncorrectable", "no FEC is active: the errors are judged as pre-FEC BER");
  const auto n = total_or_lanes(e.samples, "fec_uncorrectable_blocks");
  if (!n) return skipped("fec_uncorrectable", "the driver has no uncorrectable-block counter");
  return make("fec_uncorrectable", *n == 0 ? Verdict::kPass : Verdict::kFail,
              fmt::format("{} blocks{}", *n, per_lane(e.samples, "fec_uncorrectable_blocks")), "0",
              *n == 0 ? "post-FEC: every block was corrected" : "frames were corrupted past what FEC corrects",
              static_cast<double>(*n));
}

Criterion ber_criterion(const PortEvidence& e, const optics::QualifyCfg& cfg, double bits) {
  const std::string code = !cfg.fec_code.empty() ? cfg.fec_code : rs_code_for(e.speed_bps, e.lanes);
  std::optional<BerLimit> limit = phy_ber_limit(e.fec_active, code);
  if (cfg.ber_limit > 0) limit = BerLimit{cfg.ber_limit, fmt::format("[qualify] ber_limit: {}", sci(cfg.ber_limit))};
  if (e.fec_active.empty()) return skipped("pre_fec_ber", "the active FEC is unknown, so is the PHY's limit");
  if (!limit)
    return skipped("pre_fec_ber", e.fec_active == "rs"
                                      ? "which RS code the link runs is unknown (no lane count): set [qualify] fec_code"
                                      : "no single standard pre-FEC limit for " + e.fec_active + " FEC: set [qualify] ber_limit");
  const auto errors = pre_fec_errors(e.samples, e.fec_active != "off");
  if (!errors)
    return skipped("pre_fec_ber", e.fec_active != "off" ? "the driver counts no FEC corrections"
                                                        : "the driver counts no bit or symbol errors");
  if (bits <= 0) return skipped("pre_fec_ber", "no time with the link up was sampled");
  const double ber = static_cast<double>(errors->errors) / bits;
  if (errors->errors == 0) {
    // No error seen: the bound the bits support at the stated confidence.
    const double upper = -std::log1p(-cfg.confidence) / bits;
    const bool shown = upper <= limit->value;
    return make("pre_fec_ber", shown ? Verdict::kPass : Verdict::kWarn,
                fmt::format("0 errors in {} bits (< {} at {:g} %)", sci(bits), sci(upper), cfg.confidence * 100),
                "≤ " + sci(limit->value),
                shown ? fmt::format("margin ≥ {:.1f} decades; {}", std::log10(limit->value / upper), limit->basis)
                      : "too few bits to show the limit: run longer; " + limit->basis,
                0.0);
  }
  const bool ok = ber <= limit->value;
  return make("pre_fec_ber", ok ? Verdict::kPass : Verdict::kFail,
              fmt::format("{} ({} {} in {} bits{})", sci(ber), errors->errors, errors->source, sci(bits),
                          errors->lower_bound ? ", a lower bound" : ""),
              "≤ " + sci(limit->value),
              fmt::format("margin {:.1f} decades; {}", std::log10(limit->value / ber), limit->basis), ber);
}

Criterion confidence_criterion(const PortEvidence& e, const optics::QualifyCfg& cfg, double bits) {
  // The errors that reach the MAC: uncorrectable blocks with FEC (each at least one bit), bit errors without.
  std::optional<uint64_t> errors;
  std::string what;
  if (e.fec_active == "off") {
    if (const auto pre = pre_fec_errors(e.samples, false)) errors = pre->errors, what = pre->source;
  } else if (!e.fec_active.empty()) {
    errors = total_or_lanes(e.samples, "fec_uncorrectable_blocks"), what = "uncorrectable blocks";
  }
  if (!errors) return skipped("ber_confidence", "no counter of the errors that reach the MAC");
  if (bits <= 0) return skipped("ber_confidence", "no time with the link up was sampled");
  const double reached = confidence_reached(bits, *errors, cfg.target_ber);
  const std::string measured = fmt::format("{:.4g} % ({} {} in {} bits)", reached * 100, *errors, what, sci(bits));
  const std::string bound = fmt::format("≥ {:g} % that BER < {}", cfg.confidence * 100, sci(cfg.target_ber));
  if (reached >= cfg.confidence) return make("ber_confidence", Verdict::kPass, measured, bound, "the claim holds", reached);
  if (*errors == 0) {
    const double more_s = (bits_for_claim(cfg.target_ber, cfg.confidence) - bits) / std::max<double>(1, static_cast<double>(e.speed_bps));
    return make("ber_confidence", Verdict::kWarn, measured, bound,
                fmt::format("no error, but too few bits for the claim: about {:.0f} s more at this speed", std::ceil(more_s)),
                reached);
  }
  return make("ber_confidence", Verdict::kFail, measured, bound, "errors reached the MAC: the claim cannot be made", reached);
}

// Loss is the module's only where the tester could have taken every frame in: none beyond
// what its RX ring counted as missed, and no tester lcore held up long enough to overflow
// that ring unseen while frames were lost.
Criterion loss_criterion(const PortEvidence& e) {
  if (e.streams_received == 0) return skipped("frame_loss", "no stream is received on this port");
  const std::string measured = fmt::format("{} lost of {} sent", e.frames_lost, e.frames_sent);
  if (e.frames_lost > 0 && static_cast<uint64_t>(e.frames_lost) <= e.rx_missed)
    return skipped("frame_loss", fmt::format("not judged: {}, and this port's RX ring could not take in {} frames "
                                             "(imissed + rx_nombuf): the tester's loss, not the module's",
                                             measured, e.rx_missed));
  if (e.frames_lost > 0 && e.rx_missed == 0 && e.tester_stall_us >= kLossStallLimitUs)
    return skipped("frame_loss", fmt::format("not judged: {} while the host held tester lcore {} up for {:.0f} us at "
                                             "{:.3f} s, and the port counted no RX miss (a driver such as af_packet "
                                             "counts none): the loss cannot be told from the tester's. Run again on "
                                             "a quieter host",
                                             measured, e.tester_stall_lcore, e.tester_stall_us, e.tester_stall_at_s));
  return make("frame_loss", e.frames_lost == 0 ? Verdict::kPass : Verdict::kFail, measured, "0",
              e.rx_missed == 0
                  ? fmt::format("{} frames received, counted by sequence after the drain", e.frames_received)
                  : fmt::format("{} frames received, counted by sequence after the drain; {} of the lost may be the "
                                "tester's (its RX ring missed them), the rest are the module's",
                                e.frames_received, e.rx_missed),
              static_cast<double>(e.frames_lost));
}

// The port is only stressed as asked when the tester sent what it was asked to.
Criterion load_criterion(const PortEvidence& e, const optics::QualifyCfg& cfg) {
  if (e.streams_received == 0) return skipped("offered_load", "no stream is received on this port");
  if (e.target_pps <= 0)
    return make("offered_load", Verdict::kPass, fmt::format("{:.0f} frames/s", e.achieved_pps), "unpaced",
                "the streams sent as fast as the tester could");
  const double share = e.achieved_pps / e.target_pps;
  const bool ok = share >= 0.99;
  return make("offered_load", ok ? Verdict::kPass : Verdict::kWarn,
              fmt::format("{:.1f} % of the asked {:.0f} frames/s", share * 100, e.target_pps), "≥ 99 %",
              ok ? fmt::format("the streams sent {:g} % of line rate as asked", cfg.rate_percent)
                 : "the tester was the limit, not the module: the link carried less than asked (more worker lcores, "
                   "or a lower rate)",
              share * 100);
}

Criterion crc_criterion(const PortEvidence& e) {
  if (!has_counter(e.samples, "rx_crc_errors")) return skipped("crc_errors", "the port has no CRC error counter");
  const uint64_t n = delta(e.samples, "rx_crc_errors");
  return make("crc_errors", n == 0 ? Verdict::kPass : Verdict::kFail, std::to_string(n), "0",
              n == 0 ? "no frame arrived with a bad FCS" : "frames arrived with a bad FCS", static_cast<double>(n));
}

Criterion link_stability_criterion(const PortEvidence& e) {
  std::vector<LinkDrop> drops = e.link_drops;
  for (size_t i = 1; i < e.samples.size(); ++i)
    if (e.samples[i - 1].link_up && !e.samples[i].link_up) drops.push_back({e.samples[i].t_s, "", "sample"});
  const uint64_t down_events = delta(e.samples, "link_down_events");
  if (down_events > 0 && drops.empty()) drops.push_back({e.samples.back().t_s, "", "link_down_events counter"});
  if (drops.empty())
    return make("link_stability", Verdict::kPass, "no drop", "no drop",
                has_counter(e.samples, "link_down_events") ? "link polled every 100 ms; link_down_events unchanged"
                                                           : "link polled every 100 ms",
                0.0);
  std::sort(drops.begin(), drops.end(), [](const LinkDrop& a, const LinkDrop& b) { return a.t_s < b.t_s; });
  const LinkDrop& first = drops.front();
  return make("link_stability", Verdict::kFail, fmt::format("{} drop(s)", std::max<uint64_t>(drops.size(), down_events)),
              "no drop",
              fmt::format("first down {:.1f} s into the traffic{} (seen by the {})", first.t_s,
                          first.at.empty() ? "" : " at " + first.at, first.seen_by),
              static_cast<double>(drops.size()));
}

Criterion thresholds_criterion(const PortEvidence& e) {
  const auto rank = [](Verdict v) { return v == Verdict::kFail ? 2 : v == Verdict::kWarn ? 1 : 0; };
  bool any = false, thresholds = false;
  Verdict worst = Verdict::kPass;
  std::string worst_text;
  for (const QualifySample& s : e.samples) {
    for (const module::Monitor& m : s.monitors) {
      any = true;
      if (!m.has_thresholds()) continue;
      thresholds = true;
      const std::string beyond = m.beyond();
      if (beyond.empty()) continue;
      const Verdict v = beyond.find("alarm") != std::string::npos ? Verdict::kFail : Verdict::kWarn;
      if (rank(v) <= rank(worst)) continue;  // the first breach at the worst level is the one shown
      const double bound = beyond == "high alarm"     ? m.high_alarm
                           : beyond == "low alarm"    ? m.low_alarm
                           : beyond == "high warning" ? m.high_warning
                                                      : m.low_warning;
      worst = v;
      worst_text = fmt::format("{} {} beyond its {} {} at {:.1f} s", m.name, monitor_text(m, m.value), beyond,
                               monitor_text(m, bound), s.t_s);
    }
  }
  if (!any) return skipped("module_thresholds", e.module ? "the module has no diagnostics (DDM)" : "no module read (see module)");
  if (!thresholds) return skipped("module_thresholds", "the module sets no alarm or warning thresholds");
  return make("module_thresholds", worst, worst == Verdict::kPass ? "every monitor inside" : worst_text,
              "the module's own alarm and warning thresholds",
              worst == Verdict::kPass ? fmt::format("{} samples of every monitor", e.samples.size())
                                      : "alarm: FAIL, warning: WARN");
}

Criterion drift_criterion(const PortEvidence& e, const optics::QualifyCfg& cfg) {
  // Per monitor (rx_power[2]), the smallest and largest value over the run, in mW.
  std::map<std::string, std::pair<double, double>> range;
  for (const QualifySample& s : e.samples)
    for (const module::Monitor& m : s.monitors) {
      if (m.unit != "mW" || m.value <= 0) continue;
      auto [it, inserted] = range.emplace(m.name, std::pair{m.value, m.value});
      if (!inserted) it->second = {std::min(it->second.first, m.value), std::max(it->second.second, m.value)};
    }
  if (range.empty())
    return skipped("power_drift", e.module ? "the module reports no optical power (copper, or no diagnostics)"
                                           : "no module read (see module)");
  double worst_over = -1e9, worst_db = 0;
  std::string worst_name;
  for (const auto& [name, r] : range) {
    const double db = 10 * std::log10(r.second / r.first);
    const double bound = name.starts_with("rx_power") ? cfg.rx_power_drift_db : cfg.tx_power_drift_db;
    if (db - bound > worst_over) worst_over = db - bound, worst_db = db, worst_name = name;
  }
  const bool ok = worst_over <= 0;
  return make("power_drift", ok ? Verdict::kPass : Verdict::kFail, fmt::format("{} moved {:.2f} dB", worst_name, worst_db),
              fmt::format("rx ≤ {:g} dB, tx ≤ {:g} dB per lane", cfg.rx_power_drift_db, cfg.tx_power_drift_db),
              ok ? "largest minus smallest over the run, the lane that moved most" : "the optical power is not stable",
              worst_db);
}

Criterion rules_of_thumb_criterion(const PortEvidence& e) {
  if (e.samples.empty() || e.samples.back().monitors.empty())
    return skipped("field_rules", e.module ? "the module has no diagnostics (DDM) to hold to the field's rules of thumb"
                                           : "no module read (see module)");
  const std::vector<std::string> breaches = rule_of_thumb_breaches(e.samples.back().monitors);
  std::string text;
  for (const std::string& b : breaches) text += (text.empty() ? "" : "; ") + b;
  return make("field_rules", breaches.empty() ? Verdict::kPass : Verdict::kWarn, breaches.empty() ? "inside" : text,
              "temperature ≤ 75 °C, RX power ≥ -12 dBm, bias ≤ 15 mA",
              "rules of thumb from the field, next to the module's own thresholds (last sample)");
}

}  // namespace

const char* verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::kPass: return "PASS";
    case Verdict::kWarn: return "WARN";
    case Verdict::kFail: return "FAIL";
    case Verdict::kSkipped: return "SKIPPED";
    case Verdict::kIncomplete: return "INCOMPLETE";
  }
  return "?";
}

std::vector<std::string> rule_of_thumb_breaches(const std::vector<module::Monitor>& monitors) {
  std::vector<std::string> out;
  for (const module::Monitor& m : monitors) {
    if (m.name == "temperature" && m.value > 75) out.push_back(fmt::format("temperature {:.1f} °C above 75 °C", m.value));
    if (m.name.starts_with("rx_power") && module::mw_to_dbm(m.value) < -12)
      out.push_back(fmt::format("{} {:.2f} dBm below -12 dBm", m.name, module::mw_to_dbm(m.value)));
    if (m.name.starts_with("bias") && m.value > 15) out.push_back(fmt::format("{} {:.2f} mA above 15 mA", m.name, m.value));
  }
  return out;
}

PortVerdict judge_port(const PortEvidence& e, const optics::QualifyCfg& cfg) {
  PortVerdict out;
  // The line's bits over the sampled time the link was up (the PHY carries bits between frames too).
  for (size_t i = 1; i < e.samples.size(); ++i) {
    const QualifySample& a = e.samples[i - 1];
    const QualifySample& b = e.samples[i];
    if (!a.link_up || !b.link_up) continue;
    const double dt = b.t_s - a.t_s;
    const double bps = b.speed_mbps != 0 ? b.speed_mbps * 1e6 : static_cast<double>(e.speed_bps);
    out.seconds_up += dt;
    out.bits += bps * dt;
  }
  out.criteria = {module_criterion(e),       link_criterion(e, cfg),          fec_mode_criterion(e, cfg),
                  uncorrectable_criterion(e), ber_criterion(e, cfg, out.bits), confidence_criterion(e, cfg, out.bits),
                  loss_criterion(e),         load_criterion(e, cfg),          crc_criterion(e),                link_stability_criterion(e),
                  thresholds_criterion(e),   drift_criterion(e, cfg),         rules_of_thumb_criterion(e)};
  // Without FEC there are no uncorrectable blocks to count: the pre-FEC BER carries the errors.
  const auto essential = [&](const std::string& name) {
    return name == "module" || name == "fec_mode" || name == "pre_fec_ber" || name == "ber_confidence" ||
           (name == "fec_uncorrectable" && e.fec_active != "off") || (name == "frame_loss" && e.streams_received > 0);
  };
  for (const Criterion& c : out.criteria) {
    if (c.verdict == Verdict::kFail) out.verdict = Verdict::kFail;
    else if (c.verdict == Verdict::kWarn && out.verdict == Verdict::kPass) out.verdict = Verdict::kWarn;
    if (c.verdict == Verdict::kSkipped && essential(c.name)) out.unmeasured.push_back(c.name);
  }
  if (out.verdict != Verdict::kFail && !out.unmeasured.empty()) out.verdict = Verdict::kIncomplete;
  return out;
}

}  // namespace lr::optics
