#include "control/views/bench_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

#include "control/reports/bench_report.hpp"
#include "control/reports/report_header.hpp"
#include "control/views/html_page.hpp"
#include "control/reports/quantity_text.hpp"
#include "control/views/summary_html.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

using bench::BenchReport;
using bench::LatencyNs;
using bench::RateAnswer;
using bench::TrialRow;
using html::escape;
using html::figure;
using html::table;

constexpr const char* kNone = "–";

// A number of a cell; "–" when there is none.
std::string cell(const std::optional<double>& v, const char* format) {
  return v ? fmt::format(fmt::runtime(format), *v) : kNone;
}

// A number of gnuplot's data blocks: NaN (a gap) when there is none.
std::string datum(const std::optional<double>& v, double scale = 1) { return v ? fmt::format("{}", *v * scale) : "NaN"; }

// A latency figure in µs; "–" without a latency.
std::string latency_us(const std::optional<LatencyNs>& l, double LatencyNs::*figure) {
  return l ? fmt::format("{:.3f}", (*l).*figure / 1e3) : kNone;
}

std::optional<double> scaled(const std::optional<double>& v, double by) {
  return v ? std::optional<double>(*v * by) : std::nullopt;
}

// The frame sizes in the order the suite ran them.
std::vector<std::string> sizes_in_order(const BenchReport& report) {
  std::vector<std::string> out;
  for (const TrialRow& t : report.trials)
    if (std::find(out.begin(), out.end(), t.frame_size.text) == out.end()) out.push_back(t.frame_size.text);
  return out;
}

// The first item of `items` at `size`, or none.
template <class T>
const T* at_size(const std::vector<T>& items, const std::string& size) {
  const auto it = std::find_if(items.begin(), items.end(), [&](const T& r) { return r.frame_size.text == size; });
  return it == items.end() ? nullptr : &*it;
}

std::string limited_by(const RateAnswer& r) { return escape(limit_or_why(r)); }

// RFC 2544: per frame size, the throughput and what the other tests found at it.
std::string rfc2544_headline(const BenchReport& report) {
  std::vector<std::vector<std::string>> rows;
  for (const std::string& size : sizes_in_order(report)) {
    const RateAnswer* t = at_size(report.throughput, size);
    const bench::LatencyAnswer* l = at_size(report.latency, size);
    const bench::FrameLossPoint* f = at_size(report.frame_loss, size);  // the first: the highest load tried
    const bench::BackToBackAnswer* b = at_size(report.back_to_back, size);
    rows.push_back({escape(size), t ? cell(t->percent_line_rate, "{:.3f}") : kNone,
                    t ? cell(scaled(t->pps, 1e-6), "{:.6f}") : kNone,
                    t && t->l1_bps ? escape(text::bit_rate(*t->l1_bps)) : kNone, t ? limited_by(*t) : kNone,
                    l ? latency_us(l->across_trials, &LatencyNs::p50) : kNone,
                    l ? latency_us(l->across_trials, &LatencyNs::p99) : kNone,
                    f ? escape(fmt::format("{} at {} %", text::plain_number(f->loss_percent, 4),
                                           text::plain_number(f->offered_percent, 4)))
                      : kNone,
                    b ? cell(b->mean_frames, "{:.1f}") : kNone});
  }
  std::vector<std::string> header{"frame size (B)", "throughput (% of line)", "Mpps", "L1 rate", "limited by",
                                  "latency p50 (µs)", "latency p99 (µs)", "frames lost (%) at the highest load",
                                  "back-to-back (frames)"};
  html::drop_empty_columns(header, rows);
  return table(header, rows);
}

// NDR / PDR: per frame size, both rates, the PDR's loss and each one's p99 latency.
std::string ndr_headline(const BenchReport& report) {
  std::vector<std::vector<std::string>> rows;
  for (const std::string& size : sizes_in_order(report)) {
    std::vector<std::string> row{escape(size)};
    const auto add = [&](const RateAnswer* r, bool with_loss) {
      row.push_back(r ? cell(r->percent_line_rate, "{:.3f}") : kNone);
      row.push_back(r ? cell(scaled(r->pps, 1e-6), "{:.6f}") : kNone);
      if (with_loss) row.push_back(r ? cell(r->loss_percent, "{:.4f}") : kNone);
      row.push_back(r ? latency_us(r->latency_ns, &LatencyNs::p99) : kNone);
      row.push_back(r ? limited_by(*r) : kNone);
    };
    add(at_size(report.ndr, size), false);
    add(at_size(report.pdr, size), true);  // the PDR's loss; the NDR's is within its tolerance (below)
    rows.push_back(std::move(row));
  }
  return table({"frame size (B)", "NDR (% of line)", "NDR Mpps", "NDR p99 (µs)", "NDR limited by", "PDR (% of line)",
                "PDR Mpps", "PDR loss (%)", "PDR p99 (µs)", "PDR limited by"},
               rows) +
         "<p class=\"note\">" +
         escape(fmt::format("NDR: loss at most {} %; PDR: loss at most {} %.", text::plain_number(report.loss_tolerance_percent),
                            text::plain_number(report.pdr_loss_tolerance_percent))) +
         "</p>\n";
}

// Answers per frame size (throughput, NDR, PDR): a table and one chart of % of line and Mpps.
std::string rate_section(const std::vector<std::tuple<std::string, std::string, const std::vector<RateAnswer>*>>& lists) {
  std::string out, data, plot;
  for (const auto& [key, title, results] : lists) {
    if (results->empty()) continue;
    std::vector<std::vector<std::string>> rows;
    data += "$" + key + " << EOD\n";
    for (const RateAnswer& r : *results) {
      rows.push_back({escape(r.frame_size.text), cell(r.rate_percent, "{:.4f}"), cell(r.percent_line_rate, "{:.4f}"),
                      cell(scaled(r.pps, 1e-6), "{:.6f}"), cell(scaled(r.l1_bps, 1e-9), "{:.6f}"),
                      cell(scaled(r.l2_bps, 1e-9), "{:.6f}"), cell(r.loss_percent, "{:.4f}"),
                      latency_us(r.latency_ns, &LatencyNs::p99), limited_by(r)});
      data += fmt::format("\"{}\" {} {}\n", r.frame_size.text, datum(r.percent_line_rate), datum(r.pps, 1e-6));
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
  out += figure("chart-" + std::get<0>(lists.front()), "Rate found per frame size: % of line rate (left) and Mpps (right).",
                data + "set xlabel 'frame size (bytes)'\nset ylabel '% of line rate'\nset y2label 'Mpps'\n"
                       "set yrange [0:110]\nset y2range [0:*]\nset ytics nomirror\nset y2tics\n"
                       "set grid\nset style fill solid 0.5\nset boxwidth " + std::string(lists.size() > 1 ? "0.3" : "0.5") +
                       "\nset offsets 0.5,0.5,0,0\n" + plot + "\n");
  return out;
}

std::string latency_section(const BenchReport& report) {
  if (report.latency.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  std::string data = "$lat << EOD\n";
  for (const bench::LatencyAnswer& r : report.latency) {
    const std::optional<LatencyNs>& a = r.across_trials;
    rows.push_back({escape(r.frame_size.text), cell(r.rate_percent, "{:.4f}"), cell(r.offered_percent, "{:.4f}"),
                    std::to_string(r.trials), std::to_string(r.invalid_trials), a ? std::to_string(a->samples) : kNone,
                    latency_us(a, &LatencyNs::min), latency_us(a, &LatencyNs::mean), latency_us(a, &LatencyNs::p50),
                    latency_us(a, &LatencyNs::p99), latency_us(a, &LatencyNs::p999), latency_us(a, &LatencyNs::max),
                    latency_us(a, &LatencyNs::jitter)});
    // On the log scale a zero (or a missing figure) is a gap, not a point at minus infinity.
    const auto us = [&](double LatencyNs::*figure) {
      return a && (*a).*figure > 0 ? fmt::format("{}", (*a).*figure / 1e3) : std::string("NaN");
    };
    data += fmt::format("\"{}\" {} {} {} {} {}\n", r.frame_size.text, us(&LatencyNs::min), us(&LatencyNs::p50),
                        us(&LatencyNs::p99), us(&LatencyNs::p999), us(&LatencyNs::max));
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

std::string frame_loss_section(const BenchReport& report) {
  if (report.frame_loss.empty()) return "";
  std::map<std::string, std::vector<const bench::FrameLossPoint*>> sizes;
  std::vector<std::string> order;
  for (const bench::FrameLossPoint& p : report.frame_loss) {
    if (!sizes.contains(p.frame_size.text)) order.push_back(p.frame_size.text);
    sizes[p.frame_size.text].push_back(&p);
  }
  std::vector<std::vector<std::string>> rows;
  std::string data, plot;
  for (size_t i = 0; i < order.size(); ++i) {
    data += fmt::format("$loss{} << EOD\n", i);
    for (const bench::FrameLossPoint* p : sizes[order[i]]) {
      rows.push_back({escape(order[i]), fmt::format("{:.2f}", p->offered_percent), fmt::format("{:.6f}", p->loss_percent),
                      p->valid ? "valid" : "<span class=\"WARN\">invalid: the tester fell short</span>"});
      // An invalid point is drawn apart: it says nothing of the device.
      data += fmt::format("{} {} {}\n", p->offered_percent, p->valid ? fmt::format("{}", p->loss_percent) : "NaN",
                          p->valid ? "NaN" : fmt::format("{}", p->loss_percent));
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

std::string back_to_back_section(const BenchReport& report) {
  if (report.back_to_back.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  std::string data = "$b2b << EOD\n";
  for (const bench::BackToBackAnswer& r : report.back_to_back) {
    const auto seconds = [](const std::optional<double>& s) { return s ? escape(text::duration(*s)) : std::string(kNone); };
    rows.push_back({escape(r.frame_size.text), std::to_string(r.searches), cell(r.mean_frames, "{:.1f}"),
                    r.min_frames ? std::to_string(*r.min_frames) : kNone, r.max_frames ? std::to_string(*r.max_frames) : kNone,
                    seconds(r.implied_buffer_time_s), seconds(r.corrected_buffer_time_s), escape(r.note.value_or(""))});
    data += fmt::format("\"{}\" {}\n", r.frame_size.text, datum(r.mean_frames));
  }
  data += "EOD\n";
  const std::string heading = "<h2>Back-to-back frames (RFC 2544 §26.4, RFC 9004)</h2>\n" +
                              table({"frame size (B)", "searches", "mean burst (frames)", "min", "max",
                                     "implied buffer time", "corrected buffer time", "note"},
                                    rows);
  // A search with no valid trial (the host spoiled each) has no burst to plot: gnuplot
  // would fail on an empty plot.
  const bool any = std::any_of(report.back_to_back.begin(), report.back_to_back.end(),
                               [](const bench::BackToBackAnswer& r) { return r.mean_frames.has_value(); });
  if (!any) return heading + "<p class=\"note\">No chart: no search found a burst (each one's note says why).</p>\n";
  return heading +
         figure("chart-back-to-back", "Longest burst at line rate without loss, mean of the searches, per frame size.",
                data + "set xlabel 'frame size (bytes)'\nset ylabel 'frames'\nset yrange [0:*]\nset grid\n"
                       "set style fill solid 0.6\nset boxwidth 0.5\nset offsets 0.5,0.5,0,0\n"
                       "plot $b2b using 0:2:xtic(1) with boxes title 'back-to-back frames'\n");
}

// MLRsearch (RFC 9971): each goal's relevant bounds and conditional throughput per size.
std::string mlrsearch_section(const BenchReport& report) {
  if (report.mlrsearch.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  for (const bench::MlrSizeAnswer& size : report.mlrsearch)
    for (const bench::MlrGoalAnswer& g : size.goals)
      rows.push_back({escape(size.frame_size.text), escape(g.name), escape(text::plain_number(g.loss_ratio)),
                      escape(text::plain_number(g.exceed_ratio)), cell(g.relevant_lower_bound_percent, "{:.4f}"),
                      cell(g.relevant_upper_bound_percent, "{:.4f}"), cell(g.conditional_throughput_percent, "{:.4f}"),
                      cell(scaled(g.conditional_throughput_pps, 1e-6), "{:.6f}"),
                      escape(g.note.empty() && g.tester_limited ? std::string("limited by the tester") : g.note)});
  return "<h2>MLRsearch (RFC 9971)</h2>\n" +
         table({"frame size (B)", "goal", "loss ratio", "exceed ratio", "relevant lower bound (% of line)",
                "relevant upper bound (% of line)", "conditional throughput (% of line)", "conditional throughput Mpps",
                "note"},
               rows) +
         "<p class=\"note\">Per goal: the load whose trials met the goal's loss ratio, in at least the share of "
         "trial time the exceed ratio leaves (lower bound), the load above it that did not (upper bound), and the "
         "conditional throughput: the forwarding rate at the lower bound. The NDR and PDR above are the goals named "
         "ndr and pdr, at their lower bounds.</p>\n";
}

std::string trial_outcome(const TrialRow& t) {
  if (t.interrupted) return "<span class=\"WARN\">interrupted</span>";
  if (!t.counted())
    return "<span class=\"WARN\">invalid, repeated: " + escape(t.invalid_reason.empty() ? "the tester fell short" : t.invalid_reason) +
           "</span>";
  std::string out = t.passed ? "pass" : "<span class=\"FAIL\">fail</span>";
  if (t.lost_though_sent_short) out += " (lost frames although the tester sent short: the device's)";
  if (t.confirmation) out += " (confirmation)";
  return out;
}

// Each search's trials, per test and frame size: a table of every trial (invalid ones
// named, with why) and, for the searches, a chart of offered load and loss per trial.
std::string trials_section(const BenchReport& report) {
  std::map<std::string, std::vector<const TrialRow*>> searches;
  std::vector<std::string> order;
  for (const TrialRow& t : report.trials) {
    const std::string key = t.test + " " + t.frame_size.text;
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
    for (const TrialRow* t : searches[key]) {
      invalid += !t->counted();
      ++k;
      rows.push_back({std::to_string(k), fmt::format("{:.4f}", t->rate_percent), fmt::format("{:.4f}", t->offered_percent),
                      fmt::format("{:.6f}", t->loss_percent), latency_us(t->latency_ns, &LatencyNs::p99), trial_outcome(*t)});
      data += fmt::format("{} {} {} {}\n", k, t->offered_percent, t->loss_percent,
                          t->counted() ? "NaN" : fmt::format("{}", t->offered_percent));
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

std::string bench_html(const json& json_report) {
  const BenchReport report = bench::bench_report_from_json(json_report);
  const bool ndr = report.suite == "ndr";
  const std::string title = ndr ? "NDR / PDR" : "RFC 2544";
  std::string out = html::page_start("linerate " + title + " " + report::read_report_header(json_report).started_at);
  out += html::summary(json_report, title + " report", ndr ? ndr_headline(report) : rfc2544_headline(report));
  for (const std::string& w : report.warnings) out += "<p class=\"missing\">" + escape(w) + "</p>\n";
  out += html::settings(json_report);
  std::vector<std::vector<std::string>> layout;
  for (const bench::StreamLayout& s : report.layout)
    layout.push_back({escape(s.stream), escape(s.tx_port), escape(s.rx_port)});
  out += table({"stream", "sent from", "received on"}, layout);
  out += "<p class=\"note\">Loads are shares of each stream's port line rate (the ports above): asked is the rate the "
         "search chose (latency is measured at the throughput's asked rate, RFC 2544 §26.2), offered is what TX "
         "measurably sent, counted after each trial's drain, so loss is exact. A trial the tester itself could not "
         "drive is marked invalid and repeated, not counted as the device's loss; but one that lost frames although "
         "the tester sent less than asked counts as the device's fail (sending less only eases its task).</p>\n";
  if (ndr)
    out += rate_section({{"ndr", "NDR (no-drop rate)", &report.ndr}, {"pdr", "PDR (partial-drop rate)", &report.pdr}});
  else out += rate_section({{"throughput", "Throughput (RFC 2544 §26.1)", &report.throughput}});
  out += mlrsearch_section(report) + latency_section(report) + frame_loss_section(report) +
         back_to_back_section(report) + trials_section(report);
  return out + "</body></html>\n";
}

}  // namespace lr::ctl
