#include "control/views/bench_html.hpp"

#include <fmt/format.h>

#include <map>
#include <vector>

#include "control/views/html_page.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

using html::escape;
using html::figure;
using html::number;
using html::table;

// Answers per frame size (throughput, NDR, PDR): a table and one chart of % of line and Mpps.
std::string rate_section(const json& report, const std::vector<std::pair<std::string, std::string>>& lists) {
  std::string out;
  std::string data, plot;
  for (const auto& [key, title] : lists) {
    const json& results = report.value(key, json::array());
    if (results.empty()) continue;
    std::vector<std::vector<std::string>> rows;
    data += "$" + key + " << EOD\n";
    for (const json& r : results) {
      rows.push_back({escape(frame_size_text(r.at("frame_size"))), number(r.value("rate_percent", json()), "{:.4f}"),
                      number(r.value("percent_line_rate", json()), "{:.4f}"),
                      number(r.value("pps", json()).is_number() ? json(r.at("pps").get<double>() / 1e6) : json(), "{:.6f}"),
                      number(r.value("l1_bps", json()).is_number() ? json(r.at("l1_bps").get<double>() / 1e9) : json(), "{:.6f}"),
                      number(r.value("l2_bps", json()).is_number() ? json(r.at("l2_bps").get<double>() / 1e9) : json(), "{:.6f}"),
                      escape(r.value("limited_by", r.value("why", "")))});
      data += fmt::format("\"{}\" {} {}\n", frame_size_text(r.at("frame_size")),
                          r.value("percent_line_rate", json()).is_number() ? r.at("percent_line_rate").dump() : "NaN",
                          r.value("pps", json()).is_number() ? fmt::format("{}", r.at("pps").get<double>() / 1e6) : "NaN");
    }
    data += "EOD\n";
    out += "<h2>" + escape(title) + "</h2>\n" +
           table({"frame size (B)", "asked (% of line)", "offered (% of line)", "Mpps offered", "L1 Gbit/s", "L2 Gbit/s",
                  "limited by"},
                 rows);
    // Bars for the share of line rate (side by side when NDR and PDR share the chart),
    // points and a line for Mpps.
    const double shift = lists.size() > 1 ? (key == lists.front().first ? -0.15 : 0.15) : 0.0;
    plot += fmt::format("{}${} using ($0{:+}):2:xtic(1) axes x1y1 with boxes title '{} (% of line)', "
                        "${} using ($0{:+}):3 axes x1y2 with linespoints lw 2 pt 7 title '{} (Mpps)'",
                        plot.empty() ? "plot " : ", ", key, shift, title, key, shift, title);
  }
  if (plot.empty()) return out;
  out += figure("chart-" + lists.front().first, "Rate found per frame size: % of line rate (left) and Mpps (right).",
                data + "set xlabel 'frame size (bytes)'\nset ylabel '% of line rate'\nset y2label 'Mpps'\n"
                       "set yrange [0:110]\nset y2range [0:*]\nset ytics nomirror\nset y2tics\nset key top right\n"
                       "set grid\nset style fill solid 0.5\nset boxwidth " + std::string(lists.size() > 1 ? "0.3" : "0.5") +
                       "\nset offsets 0.5,0.5,0,0\n" + plot + "\n");
  return out;
}

std::string latency_section(const json& report) {
  const json& results = report.value("latency", json::array());
  if (results.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  std::string data = "$lat << EOD\n";
  for (const json& r : results) {
    const json& a = r.value("across_trials", json::object());
    const auto us = [&](const char* key) { return a.value(key, json()).is_number() ? a[key].get<double>() / 1e3 : 0.0; };
    rows.push_back({escape(frame_size_text(r.at("frame_size"))), number(r.value("rate_percent", json()), "{:.4f}"),
                    number(r.value("offered_percent", json()), "{:.4f}"), number(r.value("trials", json())),
                    number(a.value("samples", json())),
                    fmt::format("{:.3f}", us("min")), fmt::format("{:.3f}", us("mean")), fmt::format("{:.3f}", us("p50")),
                    fmt::format("{:.3f}", us("p99")), fmt::format("{:.3f}", us("p999")), fmt::format("{:.3f}", us("max")),
                    fmt::format("{:.3f}", us("jitter"))});
    data += fmt::format("\"{}\" {} {} {} {} {} {}\n", frame_size_text(r.at("frame_size")), us("min"), us("p50"), us("p99"),
                        us("p999"), us("max"), us("mean"));
  }
  data += "EOD\n";
  return "<h2>Latency (RFC 2544 §26.2, at each size's throughput)</h2>\n" +
         table({"frame size (B)", "asked (% of line)", "offered (% of line)", "trials", "frames", "min µs", "mean µs", "p50 µs", "p99 µs",
                "p99.9 µs", "max µs", "jitter µs"},
               rows) +
         "<p class=\"note\">Across all trials: min and max exact, mean weighted by frames, percentiles from the trials' "
         "histograms merged (within 1.6 %).</p>\n" +
         figure("chart-latency", "Latency percentiles per frame size, across all trials (µs).",
                data + "set xlabel 'frame size (bytes)'\nset ylabel 'latency (µs)'\nset yrange [0:*]\nset grid\n"
                       "set key top left\nset offsets 0.3,0.3,0,0\n"
                       "plot $lat using 0:2:xtic(1) with linespoints pt 7 title 'min', '' using 0:3 with linespoints "
                       "pt 7 title 'p50', '' using 0:4 with linespoints pt 7 title 'p99', '' using 0:5 with "
                       "linespoints pt 7 title 'p99.9', '' using 0:6 with linespoints pt 7 title 'max'\n");
}

std::string frame_loss_section(const json& report) {
  const json& points = report.value("frame_loss", json::array());
  if (points.empty()) return "";
  std::map<std::string, std::vector<const json*>> by_size;
  std::vector<std::string> order;
  for (const json& p : points) {
    const std::string name = frame_size_text(p.at("frame_size"));
    if (!by_size.contains(name)) order.push_back(name);
    by_size[name].push_back(&p);
  }
  std::vector<std::vector<std::string>> rows;
  std::string data, plot;
  for (size_t i = 0; i < order.size(); ++i) {
    data += fmt::format("$loss{} << EOD\n", i);
    for (const json* p : by_size[order[i]]) {
      rows.push_back({escape(order[i]), number(p->at("offered_percent"), "{:.2f}"), number(p->at("loss_percent"), "{:.6f}"),
                      p->value("valid", true) ? "" : "tester-limited"});
      data += fmt::format("{} {}\n", p->at("offered_percent").dump(), p->at("loss_percent").dump());
    }
    data += "EOD\n";
    plot += fmt::format("{}$loss{} using 1:2 with linespoints pt 7 title '{} B'", i == 0 ? "plot " : ", ", i, order[i]);
  }
  return "<h2>Frame loss rate (RFC 2544 §26.3)</h2>\n" +
         table({"frame size (B)", "offered (% of line)", "frames lost (%)", ""}, rows) +
         figure("chart-frame-loss", "Frame loss against offered load, per frame size.",
                data + "set xlabel 'offered load (% of line rate)'\nset ylabel 'frames lost (%)'\nset xrange [0:100]\n"
                       "set yrange [0:*]\nset grid\nset key top left\n" + plot + "\n");
}

std::string back_to_back_section(const json& report) {
  const json& results = report.value("back_to_back", json::array());
  if (results.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  std::string data = "$b2b << EOD\n";
  for (const json& r : results) {
    rows.push_back({escape(frame_size_text(r.at("frame_size"))), number(r.value("searches", json())),
                    number(r.value("mean_frames", json()), "{:.1f}"), number(r.value("min_frames", json())),
                    number(r.value("max_frames", json())), number(r.value("implied_buffer_time_s", json()), "{:.6g}"),
                    number(r.value("corrected_buffer_time_s", json()), "{:.6g}"), escape(r.value("note", ""))});
    data += fmt::format("\"{}\" {}\n", frame_size_text(r.at("frame_size")),
                        r.value("mean_frames", json()).is_number() ? r.at("mean_frames").dump() : "NaN");
  }
  data += "EOD\n";
  return "<h2>Back-to-back frames (RFC 2544 §26.4, RFC 9004)</h2>\n" +
         table({"frame size (B)", "searches", "mean burst (frames)", "min", "max", "implied buffer time (s)",
                "corrected buffer time (s)", ""},
               rows) +
         figure("chart-back-to-back", "Longest burst at line rate without loss, mean of the searches, per frame size.",
                data + "set xlabel 'frame size (bytes)'\nset ylabel 'frames'\nset yrange [0:*]\nset grid\n"
                       "set style fill solid 0.6\nset boxwidth 0.5\nset offsets 0.5,0.5,0,0\n"
                       "plot $b2b using 0:2:xtic(1) with boxes title 'back-to-back frames'\n");
}

// Each search's trials, per test and frame size: offered load and loss per trial.
std::string trials_section(const json& report) {
  std::map<std::string, std::vector<const json*>> searches;
  std::vector<std::string> order;
  const json trials = report.value("trials", json::array());  // the pointers below point into it
  for (const json& t : trials) {
    const std::string test = t.value("test", "throughput");
    if (test != "throughput" && test != "ndr") continue;
    const std::string key = test + " " + frame_size_text(t.at("frame_size"));
    if (!searches.contains(key)) order.push_back(key);
    searches[key].push_back(&t);
  }
  std::string out;
  int index = 0;
  for (const std::string& key : order) {
    std::string data = "$t << EOD\n";
    int k = 0;
    for (const json* t : searches[key])
      data += fmt::format("{} {} {} {}\n", ++k, t->at("offered_percent").dump(), t->at("loss_percent").dump(),
                          t->value("passed", false) ? 1 : 0);
    data += "EOD\n";
    out += figure(fmt::format("chart-trials-{}", index++), "The " + key + " B search: offered load and loss per trial.",
                  data + "set xlabel 'trial'\nset ylabel 'offered (% of line rate)'\nset y2label 'frames lost (%)'\n"
                         "set ytics nomirror\nset y2tics\nset yrange [0:105]\nset y2range [0:*]\nset xtics 1\n"
                         "set grid\nset key top right\nset offsets 0.5,0.5,0,0\n"
                         "plot $t using 1:2 axes x1y1 with linespoints pt 7 lw 2 title 'offered', "
                         "$t using 1:3 axes x1y2 with impulses lw 4 title 'lost'\n");
  }
  return out.empty() ? "" : "<h2>Search trials</h2>\n" + out;
}

}  // namespace

std::string frame_size_text(const json& frame_size) {
  return frame_size.is_string() ? frame_size.get<std::string>() : frame_size.dump();
}

std::string bench_html(const json& report) {
  const std::string suite = report.value("suite", "rfc2544");
  const std::string title = suite == "ndr" ? "NDR / PDR" : "RFC 2544";
  std::string out = html::page_start("linerate " + title + " " + report.value("started_at", ""));
  out += "<h1>linerate " + title + " report</h1>\n";
  std::vector<std::vector<std::string>> about{
      {"profile", escape(report.value("profile", ""))},
      {"started / finished (UTC)", escape(report.value("started_at", "") + " / " + report.value("finished_at", "–"))},
      {"interrupted", report.value("interrupted", false) ? "yes: the results below are those that finished" : "no"},
      {"schema", escape(report.value("schema", ""))}};
  const json settings = report.value("settings", json::object());
  for (const auto& [key, value] : settings.items()) about.push_back({escape(key), number(value)});
  std::string layout;
  for (const json& s : report.value("layout", json::array()))
    layout += escape(fmt::format("{}: {} → {}; ", s.value("stream", ""), s.value("tx_port", ""), s.value("rx_port", "")));
  about.push_back({"layout", layout});
  out += table({"", ""}, about);
  out += "<p class=\"note\">Loads are shares of each stream's port line rate: asked is the rate the search chose "
         "(latency is measured at the throughput's asked rate, RFC 2544 §26.2), offered is what TX measurably "
         "sent, counted after each trial's drain, so loss is exact. A trial the tester itself could not drive is "
         "marked invalid and repeated, not counted as the device's loss; but one that lost frames although the "
         "tester sent less than asked counts as the device's fail (sending less only eases its task).</p>\n";
  if (suite == "ndr") out += rate_section(report, {{"ndr", "NDR (no-drop rate)"}, {"pdr", "PDR (partial-drop rate)"}});
  else out += rate_section(report, {{"throughput", "Throughput (RFC 2544 §26.1)"}});
  out += latency_section(report) + frame_loss_section(report) + back_to_back_section(report) + trials_section(report);
  for (const json& w : report.value("warnings", json::array())) out += "<p class=\"missing\">" + escape(w.dump()) + "</p>\n";
  return out + "</body></html>\n";
}

}  // namespace lr::ctl
