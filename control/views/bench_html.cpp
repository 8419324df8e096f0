#include "control/views/bench_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

#include "control/views/html_page.hpp"
#include "control/views/quantity_text.hpp"
#include "control/views/summary_html.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

using html::escape;
using html::figure;
using html::number;
using html::table;

// A number of the JSON for gnuplot's data blocks: NaN (a gap) where there is none.
std::string datum(const json& value, double scale = 1) {
  return value.is_number() ? fmt::format("{}", value.get<double>() * scale) : "NaN";
}

// A latency in µs from a `latency_ns` object's `key`; "–" when it has none.
std::string latency_us(const json& latency, const char* key) {
  return latency.is_object() && latency.contains(key) && latency[key].is_number()
             ? fmt::format("{:.3f}", latency[key].get<double>() / 1e3)
             : "–";
}

// The report's array `key` itself (not a copy: pointers into it stay valid); empty when
// it has none.
const json& array_of(const json& report, const char* key) {
  static const json kNone = json::array();
  const auto it = report.find(key);
  return it != report.end() && it->is_array() ? *it : kNone;
}

// The results of `key`, by frame size as the report names it.
std::map<std::string, const json*> by_size(const json& report, const char* key) {
  std::map<std::string, const json*> out;
  for (const json& r : array_of(report, key)) out.emplace(frame_size_text(r.value("frame_size", json())), &r);
  return out;
}

// The frame sizes in the order the suite ran them.
std::vector<std::string> sizes_in_order(const json& report) {
  std::vector<std::string> out;
  for (const json& t : report.value("trials", json::array())) {
    const std::string size = frame_size_text(t.value("frame_size", json()));
    if (std::find(out.begin(), out.end(), size) == out.end()) out.push_back(size);
  }
  return out;
}

// RFC 2544: per frame size, the throughput and what the other tests found at it.
std::string rfc2544_headline(const json& report) {
  const auto throughput = by_size(report, "throughput"), latency = by_size(report, "latency"),
             back_to_back = by_size(report, "back_to_back");
  std::map<std::string, const json*> loss_at_top;  // the frame loss at the highest load tried
  for (const json& p : array_of(report, "frame_loss")) loss_at_top.emplace(frame_size_text(p.at("frame_size")), &p);
  std::vector<std::vector<std::string>> rows;
  for (const std::string& size : sizes_in_order(report)) {
    const auto get = [&](const std::map<std::string, const json*>& m) { const auto it = m.find(size); return it == m.end() ? nullptr : it->second; };
    const json* t = get(throughput);
    const json* l = get(latency);
    const json* f = get(loss_at_top);
    const json* b = get(back_to_back);
    rows.push_back({escape(size), t ? number(t->value("percent_line_rate", json()), "{:.3f}") : "–",
                    t && t->value("pps", json()).is_number() ? fmt::format("{:.6f}", t->at("pps").get<double>() / 1e6) : "–",
                    t && t->value("l1_bps", json()).is_number() ? escape(text::bit_rate(t->at("l1_bps").get<double>())) : "–",
                    t ? escape(t->value("limited_by", t->value("why", ""))) : "–",
                    l ? latency_us(l->value("across_trials", json()), "p50") : "–",
                    l ? latency_us(l->value("across_trials", json()), "p99") : "–",
                    f ? escape(fmt::format("{} at {} %", text::plain_number(f->value("loss_percent", 0.0), 4),
                                           text::plain_number(f->value("offered_percent", 0.0), 4)))
                      : "–",
                    b ? number(b->value("mean_frames", json()), "{:.1f}") : "–"});
  }
  std::vector<std::string> header{"frame size (B)", "throughput (% of line)", "Mpps", "L1 rate", "limited by",
                                  "latency p50 (µs)", "latency p99 (µs)", "frames lost (%) at the highest load",
                                  "back-to-back (frames)"};
  html::drop_empty_columns(header, rows);
  return table(header, rows);
}

// NDR / PDR: per frame size, both rates, the PDR's loss and each one's p99 latency.
std::string ndr_headline(const json& report) {
  const auto ndr = by_size(report, "ndr"), pdr = by_size(report, "pdr");
  std::vector<std::vector<std::string>> rows;
  for (const std::string& size : sizes_in_order(report)) {
    const auto cells = [&](const std::map<std::string, const json*>& m, std::vector<std::string>& row, bool loss) {
      const auto it = m.find(size);
      const json* r = it == m.end() ? nullptr : it->second;
      row.push_back(r ? number(r->value("percent_line_rate", json()), "{:.3f}") : "–");
      row.push_back(r && r->value("pps", json()).is_number() ? fmt::format("{:.6f}", r->at("pps").get<double>() / 1e6) : "–");
      if (loss) row.push_back(r ? number(r->value("loss_percent", json()), "{:.4f}") : "–");
      row.push_back(r ? latency_us(r->value("latency_ns", json()), "p99") : "–");
      row.push_back(r ? escape(r->value("limited_by", r->value("why", ""))) : "–");
    };
    std::vector<std::string> row{escape(size)};
    cells(ndr, row, false);
    cells(pdr, row, true);
    rows.push_back(std::move(row));
  }
  const json settings = report.value("settings", json::object());
  return table({"frame size (B)", "NDR (% of line)", "NDR Mpps", "NDR p99 (µs)", "NDR limited by", "PDR (% of line)",
                "PDR Mpps", "PDR loss (%)", "PDR p99 (µs)", "PDR limited by"},
               rows) +
         "<p class=\"note\">" +
         escape(fmt::format("NDR: loss at most {}; PDR: loss at most {}.",
                            text::setting_value("loss_tolerance_percent", settings.value("loss_tolerance_percent", json())),
                            text::setting_value("pdr_loss_tolerance_percent", settings.value("pdr_loss_tolerance_percent", json())))) +
         "</p>\n";
}

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
                      number(r.value("loss_percent", json()), "{:.4f}"), latency_us(r.value("latency_ns", json()), "p99"),
                      escape(r.value("limited_by", r.value("why", "")))});
      data += fmt::format("\"{}\" {} {}\n", frame_size_text(r.at("frame_size")), datum(r.value("percent_line_rate", json())),
                          datum(r.value("pps", json()), 1e-6));
    }
    data += "EOD\n";
    std::vector<std::string> header{"frame size (B)", "asked (% of line)", "offered (% of line)", "Mpps offered",
                                    "L1 Gbit/s", "L2 Gbit/s", "frames lost (%)", "latency p99 (µs)", "limited by"};
    html::drop_empty_columns(header, rows);
    out += "<h2>" + escape(title) + "</h2>\n" + table(header, rows);
    // Bars for the share of line rate (side by side when NDR and PDR share the chart),
    // points and a line for Mpps; the sizes label the axis once.
    const bool first = plot.empty();
    const double shift = lists.size() > 1 ? (first ? -0.15 : 0.15) : 0.0;
    plot += fmt::format("{}${} using ($0{:+}):2{} axes x1y1 with boxes title '{} (% of line)', "
                        "${} using ($0{:+}):3 axes x1y2 with linespoints lw 2 pt 7 title '{} (Mpps)'",
                        first ? "plot " : ", ", key, shift, first ? ":xtic(1)" : "", title, key, shift, title);
  }
  if (plot.empty()) return out;
  out += figure("chart-" + lists.front().first, "Rate found per frame size: % of line rate (left) and Mpps (right).",
                data + "set xlabel 'frame size (bytes)'\nset ylabel '% of line rate'\nset y2label 'Mpps'\n"
                       "set yrange [0:110]\nset y2range [0:*]\nset ytics nomirror\nset y2tics\n"
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
    const json a = r.value("across_trials", json::object());
    rows.push_back({escape(frame_size_text(r.at("frame_size"))), number(r.value("rate_percent", json()), "{:.4f}"),
                    number(r.value("offered_percent", json()), "{:.4f}"), number(r.value("trials", json())),
                    number(r.value("invalid_trials", json())), number(a.value("samples", json())), latency_us(a, "min"),
                    latency_us(a, "mean"), latency_us(a, "p50"), latency_us(a, "p99"), latency_us(a, "p999"),
                    latency_us(a, "max"), latency_us(a, "jitter")});
    // On the log scale a zero (or a missing figure) is a gap, not a point at minus infinity.
    const auto us = [&](const char* key) {
      return a.value(key, json()).is_number() && a[key].get<double>() > 0 ? fmt::format("{}", a[key].get<double>() / 1e3)
                                                                          : std::string("NaN");
    };
    data += fmt::format("\"{}\" {} {} {} {} {}\n", frame_size_text(r.at("frame_size")), us("min"), us("p50"), us("p99"),
                        us("p999"), us("max"));
  }
  data += "EOD\n";
  return "<h2>Latency (RFC 2544 §26.2, at each size's throughput)</h2>\n" +
         table({"frame size (B)", "asked (% of line)", "offered (% of line)", "trials", "invalid trials", "frames", "min µs",
                "mean µs", "p50 µs", "p99 µs", "p99.9 µs", "max µs", "jitter µs"},
               rows) +
         "<p class=\"note\">Across the valid trials: min and max exact, mean weighted by frames, percentiles from the "
         "trials' histograms merged (within 1.6 %). An invalid trial (the tester fell short) is repeated and left "
         "out.</p>\n" +
         figure("chart-latency", "Latency percentiles per frame size, across all trials (µs, logarithmic scale).",
                data + "set xlabel 'frame size (bytes)'\nset ylabel 'latency (µs)'\nset logscale y\nset grid\n"
                       "set offsets 0.3,0.3,0,0\n"
                       "plot $lat using 0:2:xtic(1) with linespoints pt 7 title 'min', '' using 0:3 with linespoints "
                       "pt 7 title 'p50', '' using 0:4 with linespoints pt 7 title 'p99', '' using 0:5 with "
                       "linespoints pt 7 title 'p99.9', '' using 0:6 with linespoints pt 7 title 'max'\n");
}

std::string frame_loss_section(const json& report) {
  const json& points = report.value("frame_loss", json::array());
  if (points.empty()) return "";
  std::map<std::string, std::vector<const json*>> sizes;
  std::vector<std::string> order;
  for (const json& p : points) {
    const std::string name = frame_size_text(p.at("frame_size"));
    if (!sizes.contains(name)) order.push_back(name);
    sizes[name].push_back(&p);
  }
  std::vector<std::vector<std::string>> rows;
  std::string data, plot;
  for (size_t i = 0; i < order.size(); ++i) {
    data += fmt::format("$loss{} << EOD\n", i);
    for (const json* p : sizes[order[i]]) {
      const bool valid = p->value("valid", true);
      rows.push_back({escape(order[i]), number(p->value("offered_percent", json()), "{:.2f}"),
                      number(p->value("loss_percent", json()), "{:.6f}"),
                      valid ? "valid" : "<span class=\"WARN\">invalid: the tester fell short</span>"});
      // An invalid point is drawn apart: it says nothing of the device.
      data += fmt::format("{} {} {}\n", datum(p->value("offered_percent", json())),
                          valid ? datum(p->value("loss_percent", json())) : "NaN",
                          valid ? "NaN" : datum(p->value("loss_percent", json())));
    }
    data += "EOD\n";
    plot += fmt::format("{}$loss{} using 1:2 with linespoints pt 7 title '{} B'", i == 0 ? "plot " : ", ", i, order[i]);
  }
  for (size_t i = 0; i < order.size(); ++i)
    plot += fmt::format(", $loss{} using 1:3 with points pt 6 ps 2 lc rgb 'red' {}", i, i == 0 ? "title 'invalid'" : "notitle");
  return "<h2>Frame loss rate (RFC 2544 §26.3)</h2>\n" +
         table({"frame size (B)", "offered (% of line)", "frames lost (%)", "trial"}, rows) +
         figure("chart-frame-loss", "Frame loss against offered load, per frame size (a red ring: an invalid trial).",
                data + "set xlabel 'offered load (% of line rate)'\nset ylabel 'frames lost (%)'\nset xrange [0:105]\n"
                       "set yrange [0:*]\nset grid\n" + plot + "\n");
}

std::string back_to_back_section(const json& report) {
  const json& results = report.value("back_to_back", json::array());
  if (results.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  std::string data = "$b2b << EOD\n";
  for (const json& r : results) {
    const auto seconds = [&](const char* key) {
      return r.value(key, json()).is_number() ? escape(text::duration(r.at(key).get<double>())) : std::string("–");
    };
    rows.push_back({escape(frame_size_text(r.at("frame_size"))), number(r.value("searches", json())),
                    number(r.value("mean_frames", json()), "{:.1f}"), number(r.value("min_frames", json())),
                    number(r.value("max_frames", json())), seconds("implied_buffer_time_s"),
                    seconds("corrected_buffer_time_s"), escape(r.value("note", ""))});
    data += fmt::format("\"{}\" {}\n", frame_size_text(r.at("frame_size")), datum(r.value("mean_frames", json())));
  }
  data += "EOD\n";
  return "<h2>Back-to-back frames (RFC 2544 §26.4, RFC 9004)</h2>\n" +
         table({"frame size (B)", "searches", "mean burst (frames)", "min", "max", "implied buffer time",
                "corrected buffer time", "note"},
               rows) +
         figure("chart-back-to-back", "Longest burst at line rate without loss, mean of the searches, per frame size.",
                data + "set xlabel 'frame size (bytes)'\nset ylabel 'frames'\nset yrange [0:*]\nset grid\n"
                       "set style fill solid 0.6\nset boxwidth 0.5\nset offsets 0.5,0.5,0,0\n"
                       "plot $b2b using 0:2:xtic(1) with boxes title 'back-to-back frames'\n");
}

std::string trial_outcome(const json& t) {
  if (t.value("interrupted", false)) return "<span class=\"WARN\">interrupted</span>";
  if (!t.value("valid", true) && !t.value("lost_though_sent_short", false))
    return "<span class=\"WARN\">invalid, repeated: " + escape(t.value("invalid_reason", "the tester fell short")) + "</span>";
  std::string out = t.value("passed", false) ? "pass" : "<span class=\"FAIL\">fail</span>";
  if (t.value("lost_though_sent_short", false)) out += " (lost frames although the tester sent short: the device's)";
  if (t.value("confirmation", false)) out += " (confirmation)";
  return out;
}

// Each search's trials, per test and frame size: a table of every trial (invalid ones
// named, with why) and a chart of offered load and loss per trial.
std::string trials_section(const json& report) {
  std::map<std::string, std::vector<const json*>> searches;
  std::vector<std::string> order;
  const json trials = report.value("trials", json::array());  // the pointers below point into it
  for (const json& t : trials) {
    const std::string test = t.value("test", "throughput");
    const std::string key = test + " " + frame_size_text(t.value("frame_size", json()));
    if (!searches.contains(key)) order.push_back(key);
    searches[key].push_back(&t);
  }
  std::string out;
  int index = 0;
  for (const std::string& key : order) {
    const bool searched = key.starts_with("throughput") || key.starts_with("ndr");
    std::string data = "$t << EOD\n";
    std::vector<std::vector<std::string>> rows;
    int k = 0;
    unsigned invalid = 0;
    for (const json* t : searches[key]) {
      const bool valid = t->value("valid", true) || t->value("lost_though_sent_short", false);
      invalid += !valid;
      ++k;
      rows.push_back({std::to_string(k), number(t->value("rate_percent", json()), "{:.4f}"),
                      number(t->value("offered_percent", json()), "{:.4f}"), number(t->value("loss_percent", json()), "{:.6f}"),
                      latency_us(t->value("latency_ns", json()), "p99"), trial_outcome(*t)});
      data += fmt::format("{} {} {} {}\n", k, datum(t->value("offered_percent", json())),
                          datum(t->value("loss_percent", json())), valid ? "NaN" : datum(t->value("offered_percent", json())));
    }
    data += "EOD\n";
    out += "<h3>" + escape(key) + " B: " + std::to_string(k) + " trials" +
           (invalid == 0 ? std::string() : ", " + std::to_string(invalid) + " invalid") + "</h3>\n" +
           table({"trial", "asked (% of line)", "offered (% of line)", "frames lost (%)", "latency p99 (µs)", "outcome"}, rows);
    if (searched)
      out += figure(fmt::format("chart-trials-{}", index++),
                    "The " + key + " B search: offered load and loss per trial (a red ring: an invalid trial, repeated).",
                    data + "set xlabel 'trial'\nset ylabel 'offered (% of line rate)'\nset y2label 'frames lost (%)'\n"
                           "set ytics nomirror\nset y2tics\nset yrange [0:105]\nset y2range [0:*]\nset xtics 1\n"
                           "set grid\nset offsets 0.5,0.5,0,0\n"
                           "plot $t using 1:2 axes x1y1 with linespoints pt 7 lw 2 title 'offered', "
                           "$t using 1:3 axes x1y2 with impulses lw 4 title 'lost', "
                           "$t using 1:4 axes x1y1 with points pt 6 ps 2 lc rgb 'red' title 'invalid'\n");
  }
  return out.empty() ? "" : "<h2>Trials</h2>\n" + out;
}

}  // namespace

std::string frame_size_text(const json& frame_size) {
  return frame_size.is_string() ? frame_size.get<std::string>() : frame_size.dump();
}

std::string bench_html(const json& report) {
  const std::string suite = report.value("suite", "rfc2544");
  const bool ndr = suite == "ndr";
  const std::string title = ndr ? "NDR / PDR" : "RFC 2544";
  std::string out = html::page_start("linerate " + title + " " + report.value("started_at", ""));
  out += html::summary(report, title + " report", ndr ? ndr_headline(report) : rfc2544_headline(report));
  for (const json& w : report.value("warnings", json::array()))
    out += "<p class=\"missing\">" + escape(w.is_string() ? w.get<std::string>() : w.dump()) + "</p>\n";
  out += html::settings(report.value("settings", json::object()));
  std::vector<std::vector<std::string>> layout;
  for (const json& s : report.value("layout", json::array()))
    layout.push_back({escape(s.value("stream", "")), escape(s.value("tx_port", "")), escape(s.value("rx_port", ""))});
  out += table({"stream", "sent from", "received on"}, layout);
  out += "<p class=\"note\">Loads are shares of each stream's port line rate (the ports above): asked is the rate the "
         "search chose (latency is measured at the throughput's asked rate, RFC 2544 §26.2), offered is what TX "
         "measurably sent, counted after each trial's drain, so loss is exact. A trial the tester itself could not "
         "drive is marked invalid and repeated, not counted as the device's loss; but one that lost frames although "
         "the tester sent less than asked counts as the device's fail (sending less only eases its task).</p>\n";
  if (ndr) out += rate_section(report, {{"ndr", "NDR (no-drop rate)"}, {"pdr", "PDR (partial-drop rate)"}});
  else out += rate_section(report, {{"throughput", "Throughput (RFC 2544 §26.1)"}});
  out += latency_section(report) + frame_loss_section(report) + back_to_back_section(report) + trials_section(report);
  return out + "</body></html>\n";
}

}  // namespace lr::ctl
