#include "control/suites/bench/ndr_mlrsearch.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <vector>
#include <string>
#include <optional>

#include "control/reports/bench_report.hpp"
#include "control/suites/bench/mlr_search.hpp"
#include "control/suites/bench/rfc2544_procedures.hpp"
#include "control/client/stop_signal.hpp"

namespace lr::bench {

using nlohmann::json;

namespace {

MlrGoalAnswer goal_answer(const MlrGoal& g, const MlrGoalResult& r, const std::map<double, Trial>& last_at) {
  MlrGoalAnswer out{g.name,
                    g.loss_ratio,
                    g.exceed_ratio,
                    g.relative_width,
                    g.initial_trial_duration_s,
                    g.final_trial_duration_s,
                    g.duration_sum_s,
                    g.preceding_targets,
                    r.relevant_lower_bound,
                    r.relevant_upper_bound,
                    r.conditional_throughput,
                    std::nullopt,
                    std::nullopt,
                    r.tester_limited,
                    ""};
  if (r.conditional_throughput && r.relevant_lower_bound) {
    // The lower bound's measured rate, scaled as the conditional throughput is.
    const Trial& at = last_at.at(*r.relevant_lower_bound);
    const double scale = *r.conditional_throughput / *r.relevant_lower_bound;
    out.conditional_throughput_pps = at.offered_pps * scale;
    out.conditional_throughput_l1_bps = at.offered_l1_bps * scale;
  }
  if (!r.relevant_lower_bound) out.note = "even the lowest load was an upper bound: no lower bound";
  else if (!r.relevant_upper_bound) out.note = r.tester_limited ? "no upper bound below what the tester could offer"
                                                                : "the highest load was a lower bound: no upper bound";
  return out;
}

// A goal as the classic answer (the report's ndr[] / pdr[]): its relevant lower bound.
json classic_answer_json(const BenchFrameSize& size, const MlrGoal& g, const MlrGoalResult& r,
                         const std::map<double, Trial>& last_at) {
  if (!r.relevant_lower_bound) {
    RateAnswer none = rate_answer(size, fmt::format("no load down to the lower bound met the {} goal", g.name));
    none.method = "mlrsearch";
    return to_json(none);
  }
  const Trial& at = last_at.at(*r.relevant_lower_bound);
  RateAnswer out = rate_answer(size, *r.relevant_lower_bound, at,
                               r.relevant_upper_bound ? "device" : r.tester_limited ? "tester" : "line rate");
  out.method = "mlrsearch";
  out.loss_percent = 100.0 * at.result.loss_ratio;
  return to_json(out);
}

}  // namespace

void run_mlrsearch_size(const NdrCfg& cfg, const BenchFrameSize& size, TrialRunner& runner, BenchSession& session) {
  MlrSearch search(cfg.goals, cfg.lower_bound_percent, 100.0);
  std::map<double, Trial> last_at;  // the last trial at each load, for the answers' rates
  unsigned trials = 0;
  while (search.next() && !ctl::stop_requested()) {
    const MlrSearch::Next next = *search.next();
    const MlrGoal& goal = search.goals()[next.goal];
    const auto duration_ns = static_cast<uint64_t>(std::llround(next.duration_s * 1e9));
    Trial trial = runner.run({size, next.load_percent, duration_ns, 0, cfg.warm_up_ns});
    ++trials;
    if (trial.interrupted) break;
    const bool counted = trial.result.valid || trial.result.lost_anyway;
    const bool low_loss = trial.result.loss_ratio <= goal.loss_ratio;
    session.record("ndr", trial, counted && low_loss);
    search.record(trial.result);
    if (counted) last_at.insert_or_assign(next.load_percent, trial);
    const std::string target = next.target == 0 ? goal.name : fmt::format("{}-{}", goal.name, next.target);
    session.progress(fmt::format("{:>5} B  {:<12}", size.name, target), trial,
                     !counted ? "invalid: " + trial.invalid_reason
                              : fmt::format("{} ({:.3f} s){}", low_loss ? "low-loss" : "high-loss", next.duration_s,
                                            search.next() ? fmt::format(" -> next {:.4f} %", search.next()->load_percent)
                                                          : std::string(" -> done")));
    if (search.next()) ctl::sleep_unless_stopped(static_cast<double>(cfg.rest_ns) / 1e9);
  }
  session.add_expected_trials(static_cast<int>(trials) - static_cast<int>(expected_mlrsearch_trials(cfg)));
  if (ctl::stop_requested()) return;
  MlrSizeAnswer answer{frame_size_name(size), {}, {}, trials};
  for (size_t g = 0; g < search.goals().size(); ++g) {
    const MlrGoal& goal = search.goals()[g];
    const MlrGoalResult r = search.result(g);
    answer.goals.push_back(goal_answer(goal, r, last_at));
    if (goal.name == "ndr" || goal.name == "pdr")
      session.report()[goal.name].push_back(classic_answer_json(size, goal, r, last_at));
  }
  for (const auto& [load, measured] : search.trials()) {
    MlrLoad& at = answer.loads.emplace_back(MlrLoad{load, {}});
    for (const MlrTrial& t : measured) at.trials.push_back({t.duration_s, t.loss_ratio});
  }
  session.report()["mlrsearch"].push_back(to_json(answer));
  session.save();
}

unsigned expected_mlrsearch_trials(const NdrCfg& cfg) {
  unsigned n = 4;  // the first targets' few
  for (const MlrGoal& g : cfg.goals)
    n += g.preceding_targets * 3 + 2 * static_cast<unsigned>(std::ceil(g.duration_sum_s / g.final_trial_duration_s));
  return n;
}

namespace {

std::string percent_text(const std::optional<double>& percent) {
  return percent ? fmt::format("{:.4f}", *percent) : std::string("none");
}

}  // namespace

void print_mlrsearch(const json& report) {
  std::printf("\nMLRsearch (RFC 9971): per goal, in %% of line rate\n%10s %8s %10s %8s %14s %14s %16s %14s\n", "frame_B",
              "goal", "loss_ratio", "exceed", "lower_bound", "upper_bound", "cond_throughput", "cond_Mpps");
  for (const MlrSizeAnswer& size : bench_report_from_json(report).mlrsearch)
    for (const MlrGoalAnswer& g : size.goals) {
      const std::string mpps = g.conditional_throughput_pps ? fmt::format("{:.6f}", *g.conditional_throughput_pps / 1e6) : "-";
      std::printf("%10s %8s %10g %8g %14s %14s %16s %14s\n", size.frame_size.text.c_str(), g.name.c_str(), g.loss_ratio,
                  g.exceed_ratio, percent_text(g.relevant_lower_bound_percent).c_str(),
                  percent_text(g.relevant_upper_bound_percent).c_str(),
                  percent_text(g.conditional_throughput_percent).c_str(), mpps.c_str());
    }
}

}  // namespace lr::bench
