#include "control/views/lossless_views.hpp"

#include <fmt/format.h>

#include "control/views/bench_csv.hpp"
#include "control/views/html_page.hpp"

namespace lr::ctl {

using nlohmann::json;
using html::escape;

namespace {

// Each stream's received rate over the case's first run, one line each, from its bins.
std::string timeline_chart(const std::string& case_name, const json& run, size_t index) {
  std::string data, plot;
  size_t column = 2;
  std::vector<std::vector<double>> series;
  std::vector<std::string> names;
  double bin_s = 0;
  for (const json& s : run.value("streams", json::array())) {
    const json t = s.value("timeline", json::object());
    const auto rx = t.value("rx", std::vector<uint64_t>{});
    if (rx.empty()) continue;
    bin_s = t.value("bin_s", 0.0);
    std::vector<double> rate;
    for (uint64_t frames : rx) rate.push_back(static_cast<double>(frames) / bin_s / 1e3);
    series.push_back(std::move(rate));
    names.push_back(s.value("name", ""));
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
  for (size_t i = 0; i < series.size(); ++i, ++column)
    plot += fmt::format("{}$rates using 1:{} with steps title \"{}\"", i == 0 ? "plot " : ", ", column, names[i]);
  const std::string script = data + "set xlabel \"time since the run's start (ms)\"\nset ylabel \"received (kframes/s)\"\n"
                                    "set key outside bottom center horizontal\n" + plot + "\n";
  return html::figure(fmt::format("chart-{}-{}", case_name, index),
                      fmt::format("{}: frames received per stream, in {:g} us bins", case_name, bin_s * 1e6), script);
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
  out += "<h1>linerate lossless test plan</h1>\n";
  std::vector<std::vector<std::string>> about{
      {"profile", escape(report.value("profile", ""))},
      {"started / finished (UTC)", escape(report.value("started_at", "") + " / " + report.value("finished_at", "–"))},
      {"interrupted", report.value("interrupted", false) ? "yes: the cases below are those that finished" : "no"}};
  const json settings = report.value("settings", json::object());
  for (const auto& [key, value] : settings.items())
    about.push_back({escape(key), escape(value.is_string() ? value.get<std::string>() : value.dump())});
  out += html::table({"", ""}, about);
  std::vector<std::vector<std::string>> verdicts;
  for (const json& c : report.value("cases", json::array())) {
    const std::string v = c.value("verdict", "");
    verdicts.push_back({escape(c.value("case", "")), "<span class=\"" + escape(v) + "\">" + escape(v) + "</span>",
                        escape(c.value("explanation", ""))});
  }
  out += "<h2>Verdicts</h2>\n" + html::table({"case", "verdict", "why"}, verdicts);
  out += "<p class=\"note\">Where the device is not linerate's own switch, compare each case with the device's own "
         "PFC, drop and ECN counters; for linerate's switch they are in each run's report (trials[].report.switches)."
         "</p>\n";
  size_t index = 0;
  for (const json& c : report.value("cases", json::array())) {
    const std::string name = c.value("case", "");
    out += "<h2>" + escape(name) + "</h2>\n";
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
