#include "control/suites/bench/lossless_cases.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "control/suites/bench/lossless/cases.hpp"
#include "control/suites/bench/lossless/dut_comparison.hpp"
#include "control/suites/bench/lossless_verdicts.hpp"
#include "control/client/stop_signal.hpp"
#include "control/client/dataplane_client.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "lib/api/rpc.hpp"

namespace lr::bench {

using nlohmann::json;

unsigned expected_lossless_runs(const bench::LosslessCfg& cfg) {
  unsigned runs = 0;
  for (const std::string& c : cfg.cases)
    runs += c == "quanta_sweep" ? static_cast<unsigned>(cfg.quanta.size())
            : c == "headroom"   ? static_cast<unsigned>(cfg.headroom_delays_ns.empty() ? 5 : cfg.headroom_delays_ns.size())
            : c == "ecn"        ? static_cast<unsigned>(cfg.ecn_fill_bytes.size())
                                : 1;
  return runs;
}

void run_lossless_cases(const BenchProfile& profile, TrialRunner& runner, BenchSession& session) {
  const bench::LosslessCfg& cfg = *profile.lossless;
  lossless::Plan p{profile, cfg, runner, session, 0, {}, std::nullopt, "", false, "", {}};
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
  const std::pair<const char*, CaseOutcome (*)(lossless::Plan&)> cases[] = {
      {"pfc_pause", lossless::pfc_pause},     {"lossy_not_paused", lossless::lossy_not_paused}, {"global_pause", lossless::global_pause},
      {"response_time", lossless::response_time}, {"quanta_sweep", lossless::quanta_sweep},   {"headroom", lossless::headroom}, {"incast", lossless::incast},
      {"watchdog", lossless::watchdog},           {"ecn", lossless::ecn}};
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
    verdict["compare_with_dut"] = lossless::dut_comparison(p.judged, name);
    session.report()["cases"].push_back(std::move(verdict));
    session.save();
    if (p.interrupted) break;
  }
}

}  // namespace lr::bench
