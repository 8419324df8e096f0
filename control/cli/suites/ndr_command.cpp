#include "control/cli/suites/ndr_command.hpp"

#include <fmt/format.h>

#include <cstdio>

#include "control/suites/bench/ndr_mlrsearch.hpp"
#include "control/suites/bench/ndr_pdr_search.hpp"
#include "control/suites/bench/rfc2544_procedures.hpp"
#include "control/client/stop_signal.hpp"
#include "control/views/bench_csv.hpp"
#include "control/views/bench_html.hpp"
#include "control/reports/bench_report.hpp"
#include "control/suites/bench/bench_sections.hpp"

namespace lr::bench {

using nlohmann::json;

namespace {

SearchSettings settings_for(const bench::NdrCfg& cfg, double tolerance_percent, uint64_t p99_ns) {
  return {cfg.lower_bound_percent, 100.0, cfg.resolution_percent, tolerance_percent / 100.0, cfg.confirmations,
          static_cast<double>(p99_ns)};
}

// One answer (NDR or PDR) as the report holds it, with the loss in its trial.
json answer_json(const bench::BenchFrameSize& size, const ThroughputSearch& search, const PassingTrials& passing,
                 const char* what) {
  RateAnswer result =
      rate_answer(size, search, passing, fmt::format("no load down to the lower bound met the {} criteria", what));
  if (search.result()) result.loss_percent = 100.0 * passing.at(*search.result()).result.loss_ratio;
  return to_json(result);
}

void run_ndr_size(const bench::NdrCfg& cfg, const bench::BenchFrameSize& size, TrialRunner& runner,
              BenchSession& session) {
  NdrPdrSearch search(settings_for(cfg, cfg.loss_tolerance_percent, cfg.ndr_latency_p99_ns),
                      settings_for(cfg, cfg.pdr_loss_tolerance_percent, cfg.pdr_latency_p99_ns));
  PassingTrials passing_ndr, passing_pdr;
  unsigned trials = 0;
  while (search.next() && !ctl::stop_requested()) {
    const double rate = *search.next();
    const std::string phase = search.phase();
    Trial trial = runner.run({size, rate, cfg.trial_duration_ns, 0, cfg.warm_up_ns});
    ++trials;
    const bool ndr_pass = trial.result.valid && search.ndr().passes(trial.result);
    const bool pdr_pass = trial.result.valid && search.pdr().passes(trial.result);
    // Counted by a search: valid, or lost beyond its tolerance although the tester sent short.
    const bool counted = search.ndr().counts(trial.result) || search.pdr().counts(trial.result);
    session.record("ndr", trial, phase == "ndr" ? ndr_pass : pdr_pass);
    if (trial.interrupted) break;
    search.record(trial.result);
    if (ndr_pass) passing_ndr.try_emplace(rate, trial);
    if (pdr_pass) passing_pdr.try_emplace(rate, trial);
    session.progress(fmt::format("{:>5} B  {:<12}", size.name, phase), trial,
                     !counted ? "invalid: " + trial.invalid_reason
                              : fmt::format("{} NDR, {} PDR{}{}", ndr_pass ? "within" : "beyond",
                                            pdr_pass ? "within" : "beyond",
                                            search.next() ? fmt::format(" -> next {:.4f} %", *search.next())
                                                          : std::string(" -> done"),
                                            trial.result.lost_anyway ? " (the device's loss: " + trial.invalid_reason + ")"
                                                                     : std::string()));
    if (search.next()) ctl::sleep_unless_stopped(static_cast<double>(cfg.rest_ns) / 1e9);
  }
  session.add_expected_trials(static_cast<int>(trials) - static_cast<int>(expected_throughput_trials(cfg) + 4));
  if (ctl::stop_requested()) return;
  session.report()["ndr"].push_back(answer_json(size, search.ndr(), passing_ndr, "NDR"));
  session.report()["pdr"].push_back(answer_json(size, search.pdr(), passing_pdr, "PDR"));
  session.save();
}

void print_ndr_answers(const json& json_report) {
  const BenchReport report = bench_report_from_json(json_report);
  std::printf("\nNDR (loss <= %g %%) and PDR (loss <= %g %%)\n%10s %6s %12s %14s %14s %12s  %s\n",
              report.loss_tolerance_percent, report.pdr_loss_tolerance_percent, "frame_B", "", "% of line", "Mpps",
              "L1 Gbit/s", "p99 us", "limited by");
  for (size_t i = 0; i < report.ndr.size() && i < report.pdr.size(); ++i)
    for (const auto& [name, r] : {std::pair<const char*, const RateAnswer*>{"NDR", &report.ndr[i]}, {"PDR", &report.pdr[i]}}) {
      if (!r->percent_line_rate) {
        std::printf("%10s %6s %12s   (%s)\n", r->frame_size.text.c_str(), name, "none", r->why.value_or("").c_str());
        continue;
      }
      std::printf("%10s %6s %12.4f %14.6f %14.6f %12.3f  %s\n", r->frame_size.text.c_str(), name, *r->percent_line_rate,
                  r->pps.value_or(0) / 1e6, r->l1_bps.value_or(0) / 1e9, r->latency_ns ? r->latency_ns->p99 / 1e3 : 0.0,
                  r->limited_by.value_or("").c_str());
    }
}

}  // namespace

int run_ndr(const BenchOptions& options) {
  // --method overrides the profile's [ndr] method.
  const auto method = [method = options.method](const BenchProfile& p) { return method.empty() ? p.ndr->method : method; };
  const Suite suite{
      "ndr",
      "linerate.ndr/1",
      section_of<&BenchProfile::ndr>,
      [method](const BenchProfile& p) {
        const bench::NdrCfg& cfg = *p.ndr;
        json sizes = json::array();
        for (const bench::BenchFrameSize& s : cfg.frame_sizes) sizes.push_back(frame_size_json(s));
        return json{{"frame_sizes", sizes},
                    {"trial_duration_s", static_cast<double>(cfg.trial_duration_ns) / 1e9},
                    {"resolution_percent", cfg.resolution_percent},
                    {"loss_tolerance_percent", cfg.loss_tolerance_percent},
                    {"pdr_loss_tolerance_percent", cfg.pdr_loss_tolerance_percent},
                    {"ndr_latency_p99_ns", cfg.ndr_latency_p99_ns == 0 ? json() : json(cfg.ndr_latency_p99_ns)},
                    {"pdr_latency_p99_ns", cfg.pdr_latency_p99_ns == 0 ? json() : json(cfg.pdr_latency_p99_ns)},
                    {"lower_bound_percent", cfg.lower_bound_percent},
                    {"rest_s", static_cast<double>(cfg.rest_ns) / 1e9},
                    {"confirmations", cfg.confirmations},
                    {"learning_frames", cfg.learning_frames},
                    {"warm_up_s", static_cast<double>(cfg.warm_up_ns) / 1e9},
                    {"method", method(p)}};
      },
      [method](const BenchProfile& p) {
        const unsigned per_size =
            method(p) == "mlrsearch" ? expected_mlrsearch_trials(*p.ndr) : expected_throughput_trials(*p.ndr) + 4;
        return per_size * static_cast<unsigned>(p.ndr->frame_sizes.size());
      },
      [method](const BenchProfile& p, TrialRunner& runner, BenchSession& session) {
        session.report()["ndr"] = json::array();
        session.report()["pdr"] = json::array();
        if (method(p) == "mlrsearch") session.report()["mlrsearch"] = json::array();
        for (const bench::BenchFrameSize& size : p.ndr->frame_sizes) {
          if (ctl::stop_requested()) return;
          if (method(p) == "mlrsearch") run_mlrsearch_size(*p.ndr, size, runner, session);
          else run_ndr_size(*p.ndr, size, runner, session);
        }
      },
      [](const json& report) {
        if (report.contains("mlrsearch")) print_mlrsearch(report);
        print_ndr_answers(report);
      },
      {ctl::bench_csv, ctl::bench_html}};
  return run_suite(suite, options);
}

}  // namespace lr::bench
