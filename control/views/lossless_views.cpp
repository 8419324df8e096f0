#include "control/views/lossless_views.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "control/views/bench_csv.hpp"
#include "control/views/html_page.hpp"
#include "control/views/quantity_text.hpp"
#include "control/views/summary_html.hpp"

namespace lr::ctl {

using nlohmann::json;
using html::escape;

namespace {

// Each stream's received rate over the case's first valid run, one line each, from its
// bins; the storm (a stream sent and not received: PFC / PAUSE frames toward the device)
// shaded from its first frame to its last. The scale stops at 1.5 x the fastest stream's
// target: a bin after a stall of the host holds the frames the stall held back, and that
// spike would flatten the lines that matter.
std::string timeline_chart(const std::string& case_name, const json& run, size_t index) {
  std::string data, plot, shading;
  std::vector<std::vector<double>> series;
  std::vector<std::string> names;
  double bin_s = 0, top_kfps = 0;
  for (const json& s : run.value("streams", json::array())) {
    const json t = s.value("timeline", json::object());
    const auto rx = t.value("rx", std::vector<uint64_t>{});
    const double bin = t.value("bin_s", 0.0);
    if (rx.empty()) {
      const auto tx = t.value("tx", std::vector<uint64_t>{});
      const auto first = std::find_if(tx.begin(), tx.end(), [](uint64_t n) { return n > 0; });
      if (first == tx.end() || bin <= 0) continue;
      const auto last = std::find_if(tx.rbegin(), tx.rend(), [](uint64_t n) { return n > 0; });
      const double from_ms = static_cast<double>(first - tx.begin()) * bin * 1e3;
      const double to_ms = static_cast<double>(tx.rend() - last) * bin * 1e3;
      shading += fmt::format("set object rectangle from {:.6f}, graph 0 to {:.6f}, graph 1 behind fillcolor rgb '#f4c7c3' "
                             "fillstyle solid 0.5 noborder\nset label \"{}\" at {:.6f}, graph 0.97 front\n",
                             from_ms, to_ms, s.value("name", ""), from_ms);
      continue;
    }
    bin_s = bin;
    if (bin_s <= 0) continue;
    std::vector<double> rate;
    for (uint64_t frames : rx) rate.push_back(static_cast<double>(frames) / bin_s / 1e3);
    series.push_back(std::move(rate));
    names.push_back(s.value("name", ""));
    if (const json target = s.value("target_pps", json()); target.is_number())
      top_kfps = std::max(top_kfps, target.get<double>() / 1e3);
  }
  if (series.empty() || bin_s <= 0) return "";
  size_t bins = 0;
  for (const auto& s : series) bins = std::max(bins, s.size());
  data = "$rates << EOD\n";
  for (size_t i = 0; i < bins; ++i) {
    data += fmt::format("{:.6f}", static_cast<double>(i) * bin_s * 1e3);
    for (const auto& s : series) data += fmt::format(" {:.3f}", i < s.size() ? s[i] : 0.0);
    data += "\n";
  }
  data += "EOD\n";
  for (size_t i = 0; i < series.size(); ++i)
    plot += fmt::format("{}$rates using 1:{} with steps lw 1.5 title \"{}\"", i == 0 ? "plot " : ", ", i + 2, names[i]);
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
std::string runs_table(const json& report) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const json*>> runs;
  const json trials = report.value("trials", json::array());  // the pointers below point into it
  for (const json& t : trials) {
    const std::string name = t.value("case", "");
    if (!runs.contains(name)) order.push_back(name);
    runs[name].push_back(&t);
  }
  std::vector<std::vector<std::string>> rows;
  for (const std::string& name : order) {
    std::string why;
    unsigned invalid = 0;
    for (const json* t : runs[name])
      if (const std::string reason = t->value("invalid_reason", ""); !reason.empty()) {
        ++invalid;
        const std::string label = t->value("label", "");
        why += (why.empty() ? "" : "<br>") + escape((label.empty() ? "" : label + ": ") + reason);
      }
    rows.push_back({escape(name), std::to_string(runs[name].size()),
                    invalid == 0 ? "0" : "<span class=\"WARN\">" + std::to_string(invalid) + "</span>", why});
  }
  return "<h2>Runs</h2>\n<p class=\"note\">A run the host spoiled (a stall of the tester or of linerate's switch where "
         "the case measures) is invalid and run again; a case still without a valid run is SKIPPED, never FAIL.</p>\n" +
         html::table({"case", "runs", "invalid", "why invalid"}, rows);
}

}  // namespace

std::string lossless_csv(const json& report) {
  // not_judged: why a check is left out of the verdict (its bound holds the null result too).
  std::string out = "case,verdict,check,value,unit,bound,ok,not_judged\n";
  for (const json& c : report.value("cases", json::array())) {
    const json checks = c.value("checks", json::array());
    const std::string head = csv_field(c.value("case", json())) + "," + csv_field(c.value("verdict", json())) + ",";
    if (checks.empty()) out += head + csv_field(c.value("explanation", json())) + ",,,,,\n";
    for (const json& k : checks)
      out += head + fmt::format("{},{},{},{},{},{}\n", csv_field(k.value("what", json())), csv_field(k.value("value", json())),
                                csv_field(k.value("unit", json())), csv_field(k.value("bound", json())),
                                k.value("ok", false) ? 1 : 0, csv_field(k.value("not_judged", json())));
  }
  return out;
}

std::string lossless_html(const json& report) {
  std::string out = html::page_start("linerate lossless test plan " + report.value("started_at", ""));
  std::vector<std::vector<std::string>> verdicts;
  std::map<std::string, unsigned> counts;
  for (const json& c : report.value("cases", json::array())) {
    const std::string v = c.value("verdict", "");
    ++counts[v];
    verdicts.push_back({"<a href=\"#case-" + escape(c.value("case", "")) + "\">" + escape(c.value("case", "")) + "</a>",
                        "<span class=\"" + escape(v) + "\">" + escape(v) + "</span>", escape(c.value("explanation", ""))});
  }
  std::string tally;
  for (const char* v : {"PASS", "FAIL", "SKIPPED"})
    if (counts[v] > 0) tally += fmt::format("{}{} {}", tally.empty() ? "" : ", ", counts[v], v);
  const std::string headline = "<p><b>" + escape(fmt::format("{} cases: {}", verdicts.size(), tally.empty() ? "none run" : tally)) +
                               "</b></p>\n" + html::table({"case", "verdict", "why"}, verdicts);
  out += html::summary(report, "lossless test plan", headline);
  out += html::settings(report.value("settings", json::object()));
  out += "<p class=\"note\">Where the device is not linerate's own switch, compare each case with the device's own "
         "PFC, drop and ECN counters; for linerate's switch they are in each run's report (trials[].report.switches)."
         "</p>\n";
  out += runs_table(report);
  size_t index = 0;
  for (const json& c : report.value("cases", json::array())) {
    const std::string name = c.value("case", "");
    out += "<h2 id=\"case-" + escape(name) + "\">" + escape(name) + "</h2>\n";
    std::vector<std::vector<std::string>> rows;
    for (const json& k : c.value("checks", json::array()))
      rows.push_back({escape(k.value("what", "")), html::number(k.value("value", json())), escape(k.value("unit", "")),
                      escape(k.value("bound", "")),
                      k.contains("not_judged") ? "not judged: " + escape(k.value("not_judged", ""))
                      : k.value("ok", false)   ? std::string("yes")
                                               : std::string("<b>no</b>")});
    out += html::table({"measured", "value", "unit", "bound", "holds"}, rows);
    if (const json compare = c.value("compare_with_dut", json::array()); !compare.empty()) {
      out += "<p>To compare with the device's counters (what the tester counted):</p>\n<ul>\n";
      for (const json& line : compare) out += "<li>" + escape(line.get<std::string>()) + "</li>\n";
      out += "</ul>\n";
    }
    for (const json& t : report.value("trials", json::array()))
      if (t.value("case", "") == name && t.value("invalid_reason", "").empty()) {
        out += timeline_chart(name, t.value("report", json::object()), index++);
        break;
      }
  }
  return out + "</body></html>\n";
}

}  // namespace lr::ctl
