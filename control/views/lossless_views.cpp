#include "control/views/lossless_views.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "control/suites/bench/lossless_report.hpp"
#include "control/views/bench_csv.hpp"
#include "control/reports/report_header.hpp"
#include "control/views/html_page.hpp"
#include "control/reports/quantity_text.hpp"
#include "control/views/summary_html.hpp"

namespace lr::ctl {

using nlohmann::json;
using html::escape;

namespace {

// The storm a run sent: a stream with no receiving port (PFC / PAUSE frames toward the
// device), as gnuplot's shading from its first frame's bin to the end of its last's.
std::string storm_shading(const api::StreamReport& s) {
  const std::vector<uint64_t>& tx = s.timeline->tx;
  const auto first = std::find_if(tx.begin(), tx.end(), [](uint64_t n) { return n > 0; });
  if (first == tx.end() || s.timeline->bin_s <= 0) return "";
  const auto last = std::find_if(tx.rbegin(), tx.rend(), [](uint64_t n) { return n > 0; });
  const double bin_ms = s.timeline->bin_s * 1e3;
  const double from_ms = static_cast<double>(first - tx.begin()) * bin_ms;
  const double to_ms = static_cast<double>(tx.rend() - last) * bin_ms;
  return fmt::format("set object rectangle from {:.6f}, graph 0 to {:.6f}, graph 1 behind fillcolor rgb '#f4c7c3' "
                     "fillstyle solid 0.5 noborder\nset label \"{}\" at {:.6f}, graph 0.97 front\n",
                     from_ms, to_ms, s.name, from_ms);
}

// Each stream's received rate over the case's first valid run, one line each, from its
// bins; the storm shaded. The scale stops at 1.5 x the fastest stream's target: a bin
// after a stall of the host holds the frames the stall held back, and that spike would
// flatten the lines that matter.
std::string timeline_chart(const std::string& case_name, const api::RunReport& run, size_t index) {
  std::string plot, shading;
  std::vector<const api::StreamReport*> received;
  double bin_s = 0, top_kfps = 0;
  for (const api::StreamReport& s : run.streams) {
    if (!s.timeline) continue;
    if (!s.rx_port) {
      shading += storm_shading(s);
      continue;
    }
    if (s.timeline->bin_s <= 0) continue;
    bin_s = s.timeline->bin_s;
    received.push_back(&s);
    top_kfps = std::max(top_kfps, s.target_pps / 1e3);
  }
  if (received.empty()) return "";
  size_t bins = 0;
  for (const api::StreamReport* s : received) bins = std::max(bins, s->timeline->rx.size());
  std::string data = "$rates << EOD\n";
  for (size_t i = 0; i < bins; ++i) {
    data += fmt::format("{:.6f}", static_cast<double>(i) * bin_s * 1e3);
    for (const api::StreamReport* s : received) {
      const std::vector<uint64_t>& rx = s->timeline->rx;
      data += fmt::format(" {:.3f}", i < rx.size() ? static_cast<double>(rx[i]) / s->timeline->bin_s / 1e3 : 0.0);
    }
    data += "\n";
  }
  data += "EOD\n";
  for (size_t i = 0; i < received.size(); ++i)
    plot += fmt::format("{}$rates using 1:{} with steps lw 1.5 title \"{}\"", i == 0 ? "plot " : ", ", i + 2,
                        received[i]->name);
  const std::string range = top_kfps > 0 ? fmt::format("set yrange [0:{:.3f}]\n", top_kfps * 1.5) : "set yrange [0:*]\n";
  const std::string script = data + shading + "set xlabel \"time since the run's start (ms)\"\n"
                             "set ylabel \"received (kframes/s)\"\nset grid\n" + range + plot + "\n";
  return html::figure(fmt::format("chart-{}-{}", case_name, index),
                      fmt::format("{}: frames received per stream, in {} bins (shaded: the storm the tester sent; the "
                                  "scale stops at 1.5 × the fastest stream's target)",
                                  case_name, text::duration(bin_s)),
                      script);
}

// Per case: how many runs it took, how many the host spoiled (invalid: run again, never
// charged to the device) and why.
std::string runs_table(const bench::LosslessReport& report) {
  std::vector<std::string> order;
  std::map<std::string, std::pair<unsigned, unsigned>> counts;  // case -> (runs, invalid)
  std::map<std::string, std::string> why;
  for (const bench::LosslessRun& run : report.runs) {
    if (!counts.contains(run.case_name)) order.push_back(run.case_name);
    ++counts[run.case_name].first;
    if (run.valid()) continue;
    ++counts[run.case_name].second;
    std::string& reasons = why[run.case_name];
    reasons += (reasons.empty() ? "" : "<br>") + escape((run.label.empty() ? "" : run.label + ": ") + run.invalid_reason);
  }
  std::vector<std::vector<std::string>> rows;
  for (const std::string& name : order) {
    const auto [runs, invalid] = counts[name];
    rows.push_back({escape(name), std::to_string(runs),
                    invalid == 0 ? "0" : "<span class=\"WARN\">" + std::to_string(invalid) + "</span>", why[name]});
  }
  return "<h2>Runs</h2>\n<p class=\"note\">A run the host spoiled (a stall of the tester or of linerate's switch where "
         "the case measures) is invalid and run again; a case still without a valid run is SKIPPED, never FAIL.</p>\n" +
         html::table({"case", "runs", "invalid", "why invalid"}, rows);
}

std::string verdict_cell(bench::CaseVerdict verdict) {
  const std::string v = bench::verdict_text(verdict);
  return "<span class=\"" + v + "\">" + v + "</span>";
}

}  // namespace

std::string lossless_csv(const json& report) {
  // not_judged: why a check is left out of the verdict (its bound holds the null result too).
  std::string out = "case,verdict,check,value,unit,bound,ok,not_judged\n";
  for (const bench::LosslessCaseReport& c : bench::lossless_report_from_json(report).cases) {
    const bench::CaseOutcome& o = c.outcome;
    const std::string head = csv_field(json(o.name)) + "," + csv_field(json(bench::verdict_text(o.verdict))) + ",";
    if (o.checks.empty()) out += head + csv_field(json(o.explanation)) + ",,,,,\n";
    for (const bench::Check& k : o.checks)
      out += head + fmt::format("{},{},{},{},{},{}\n", csv_field(json(k.what)), csv_field(json(k.value)),
                                csv_field(json(k.unit)), csv_field(json(k.bound)), k.ok ? 1 : 0,
                                k.not_judged.empty() ? "" : csv_field(json(k.not_judged)));
  }
  return out;
}

std::string lossless_html(const json& report) {
  const bench::LosslessReport plan = bench::lossless_report_from_json(report);
  std::string out = html::page_start("linerate lossless test plan " + report::read_report_header(report).started_at);
  std::vector<std::vector<std::string>> verdicts;
  std::map<bench::CaseVerdict, unsigned> counts;
  for (const bench::LosslessCaseReport& c : plan.cases) {
    ++counts[c.outcome.verdict];
    verdicts.push_back({"<a href=\"#case-" + escape(c.outcome.name) + "\">" + escape(c.outcome.name) + "</a>",
                        verdict_cell(c.outcome.verdict), escape(c.outcome.explanation)});
  }
  std::string tally;
  for (const bench::CaseVerdict v : {bench::CaseVerdict::kPass, bench::CaseVerdict::kFail, bench::CaseVerdict::kSkipped})
    if (counts[v] > 0) tally += fmt::format("{}{} {}", tally.empty() ? "" : ", ", counts[v], bench::verdict_text(v));
  const std::string headline =
      "<p><b>" + escape(fmt::format("{} cases: {}", verdicts.size(), tally.empty() ? "none run" : tally)) + "</b></p>\n" +
      html::table({"case", "verdict", "why"}, verdicts);
  out += html::summary(report, "lossless test plan", headline);
  out += html::settings(report);
  out += "<p class=\"note\">Where the device is not linerate's own switch, compare each case with the device's own "
         "PFC, drop and ECN counters; for linerate's switch they are in each run's report (trials[].report.switches)."
         "</p>\n";
  out += runs_table(plan);
  size_t index = 0;
  for (const bench::LosslessCaseReport& c : plan.cases) {
    const std::string& name = c.outcome.name;
    out += "<h2 id=\"case-" + escape(name) + "\">" + escape(name) + "</h2>\n";
    std::vector<std::vector<std::string>> rows;
    for (const bench::Check& k : c.outcome.checks)
      rows.push_back({escape(k.what), html::number(json(k.value)), escape(k.unit), escape(k.bound),
                      !k.not_judged.empty() ? "not judged: " + escape(k.not_judged)
                      : k.ok                ? std::string("yes")
                                            : std::string("<b>no</b>")});
    out += html::table({"measured", "value", "unit", "bound", "holds"}, rows);
    if (!c.compare_with_dut.empty()) {
      out += "<p>To compare with the device's counters (what the tester counted):</p>\n<ul>\n";
      for (const std::string& line : c.compare_with_dut) out += "<li>" + escape(line) + "</li>\n";
      out += "</ul>\n";
    }
    if (const bench::LosslessRun* run = plan.first_valid_run(name)) out += timeline_chart(name, run->report, index++);
  }
  return out + "</body></html>\n";
}

}  // namespace lr::ctl
