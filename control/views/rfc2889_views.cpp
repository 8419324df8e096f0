#include "control/views/rfc2889_views.hpp"

#include <fmt/format.h>

#include "control/reports/report_header.hpp"
#include "control/reports/rfc2889_report.hpp"
#include "control/views/bench_csv.hpp"
#include "control/views/html_page.hpp"
#include "control/views/summary_html.hpp"

namespace lr::ctl {

using nlohmann::json;
using bench::rfc2889::AddressTrialRow;
using bench::rfc2889::FrameCounts;
using bench::rfc2889::HostReresolution;
using bench::rfc2889::MeshedPoint;
using bench::rfc2889::PathFigures;
using bench::rfc2889::PortReceived;
using bench::rfc2889::Result;

namespace {

std::string fps_text(double fps) { return fmt::format("{:.6g} Mfps", fps / 1e6); }

// A figure as a JSON value for the cells (csv_field, html::number): none is null.
template <class T>
json value_of(const std::optional<T>& v) {
  return v ? json(*v) : json();
}

// A meshed result's trials: the loads, then the throughput search's.
std::vector<std::pair<const MeshedPoint*, bool>> meshed_points(const Result& r) {
  std::vector<std::pair<const MeshedPoint*, bool>> out;  // the point, and whether the search ran it
  if (r.points)
    for (const MeshedPoint& p : *r.points) out.emplace_back(&p, false);
  if (r.throughput_search)
    for (const MeshedPoint& p : *r.throughput_search) out.emplace_back(&p, true);
  return out;
}

// A point's counts as cells (none where the point did not measure): offered fps,
// forwarded fps, loss %, wrong-port frames.
std::vector<json> count_values(const MeshedPoint& p) {
  if (p.invalid) return {json(), json(), json(), json()};
  return {p.offered_fps, p.forwarded_fps, p.loss_percent, p.wrong_port_frames};
}

std::string size_text(const Result& r) { return r.frame_size ? std::to_string(*r.frame_size) : "-"; }

}  // namespace

std::string rfc2889_answer(const Result& r) {
  std::string why = r.why.value_or("");  // not const: returned, it moves
  if (r.verdict == "SKIPPED") return "SKIPPED: " + why;
  if (r.meshed()) {
    std::string out = r.throughput_percent ? fmt::format("throughput {:.4g} %", *r.throughput_percent)
                                           : "throughput none (" + why + ")";
    if (r.forwarding_rate_at_max_load_fps)
      out += fmt::format("; forwarding rate at {:g} %: {}", r.max_load_percent.value_or(0),
                         fps_text(*r.forwarding_rate_at_max_load_fps));
    if (r.maximum_forwarding_rate_fps)
      out += fmt::format("; maximum forwarding rate {} (at {:g} %)", fps_text(*r.maximum_forwarding_rate_fps),
                         r.maximum_forwarding_rate_load_percent.value_or(0));
    return out;
  }
  const char* at_least = r.at_least.value_or(false) ? "at least " : "";
  if (r.test == "address_caching" && r.addresses) return fmt::format("{}{} addresses ({})", at_least, *r.addresses, why);
  if (r.test == "neighbor_caching" && r.hosts) return fmt::format("{}{} hosts ({})", at_least, *r.hosts, why);
  if (r.test == "address_learning" && r.learning_rate_fps)
    return fmt::format("{}{:.6g} frames/s ({})", at_least, *r.learning_rate_fps, why);
  if (r.test == "broadcast" && r.forwarding_rate_fps) {
    const bench::rfc2889::BroadcastLatency latency = r.latency.value_or(bench::rfc2889::BroadcastLatency{});
    return fmt::format("forwarding rate {} over {} ports; latency to {} mean {:.3f} us, max {:.3f} us; {}",
                       fps_text(*r.forwarding_rate_fps), r.ports ? r.ports->size() : 0, r.latency_port.value_or(""),
                       latency.mean_ns / 1e3, static_cast<double>(latency.max_ns) / 1e3, why);
  }
  return why;
}

namespace {

std::string meshed_text(const Result& r) {
  std::string out = fmt::format("\n{} at {} B\n{:>8} {:>14} {:>14} {:>10} {:>12}\n", r.test,
                                r.frame_size.value_or(0), "load %", "offered fps", "forwarded fps", "loss %", "wrong port");
  const auto counts_line = [](const std::string& first, const FrameCounts& c, const char* tail) {
    return fmt::format("{:>8} {:>14.0f} {:>14.0f} {:>10.4f} {:>12}{}\n", first, c.offered_fps, c.forwarded_fps,
                       c.loss_percent, c.wrong_port_frames, tail);
  };
  for (const auto& [p, searched] : meshed_points(r)) {
    const std::string load = fmt::format("{:.4g}", p->load_percent);
    if (p->invalid) {
      out += fmt::format("{:>8}   (invalid: {})\n", load, *p->invalid);
      continue;
    }
    out += counts_line(load, *p, searched ? "  (search)" : "");
    // §5.3: within a device, across the trunk
    if (p->local) out += counts_line("local", *p->local, "");
    if (p->remote) out += counts_line("remote", *p->remote, "");
  }
  return out;
}

}  // namespace

std::string rfc2889_text(const json& report) {
  const bench::rfc2889::Rfc2889Report typed = bench::rfc2889::rfc2889_report_from_json(report);
  std::string out = fmt::format("\nRFC 2889 results\n{:<30} {:>5} {:>7} {:<9} {}\n", "test", "§", "frame_B", "verdict", "answer");
  for (const Result& r : typed.results)
    out += fmt::format("{:<30} {:>5} {:>7} {:<9} {}\n", r.test, r.section, size_text(r), r.verdict, rfc2889_answer(r));
  for (const Result& r : typed.results)
    if (r.meshed()) out += meshed_text(r);
  return out;
}

std::string rfc2889_csv(const json& report) {
  std::string out = "test,section,frame_size,verdict,load_percent,offered_fps,forwarded_fps,loss_percent,"
                    "wrong_port_frames,answer\n";
  for (const Result& r : bench::rfc2889::rfc2889_report_from_json(report).results) {
    const std::string head = csv_field(r.test) + "," + csv_field(r.section) + "," + csv_field(value_of(r.frame_size)) +
                             "," + csv_field(r.verdict);
    out += head + ",,,,,," + csv_field(rfc2889_answer(r)) + "\n";
    for (const auto& [p, searched] : meshed_points(r)) {
      out += head + "," + csv_field(p->load_percent);
      for (const json& v : count_values(*p)) out += "," + csv_field(v);
      out += "," + csv_field(p->invalid ? "invalid: " + *p->invalid : std::string()) + "\n";
    }
  }
  return out;
}

namespace {

// Forwarding rate against offered load, a line per frame size, for one pattern.
std::string forwarding_chart(const std::string& test, const std::vector<const Result*>& results, size_t index) {
  std::string data, plot;
  size_t block = 0;
  for (const Result* r : results) {
    std::string rows;
    for (const auto& [p, searched] : meshed_points(*r))
      if (!searched && !p->invalid) rows += fmt::format("{:g} {:.6f}\n", p->load_percent, p->forwarded_fps / 1e6);
    if (rows.empty()) continue;
    data += fmt::format("$d{} << EOD\n{}EOD\n", block, rows);
    plot += fmt::format("{}$d{} using 1:2 with linespoints lw 1.5 title \"{} B\"", block == 0 ? "plot " : ", ", block,
                        r->frame_size.value_or(0));
    ++block;
  }
  if (block == 0) return "";
  return html::figure(fmt::format("chart-{}", index),
                      test + ": frames forwarded per second against the load offered by each port",
                      data + "set xlabel \"offered load (% of each port's line rate)\"\nset ylabel \"forwarded (Mframes/s)\"\n"
                             "set grid\nset key left top\nset xrange [0:105]\nset yrange [0:*]\n" + plot + "\n");
}

std::vector<std::string> path_row(const char* path, const PathFigures& f) {
  return {path, html::escape(f.stream), html::number(f.tx_frames), html::number(f.lost_frames),
          html::number(f.loss_percent)};
}

std::string detail_rows(const Result& r) {
  std::vector<std::vector<std::string>> rows;
  if (r.meshed()) {
    for (const auto& [p, searched] : meshed_points(r)) {
      std::vector<std::string> row{html::number(p->load_percent)};
      for (const json& v : count_values(*p)) row.push_back(html::number(v));
      row.push_back(html::escape(p->invalid ? "invalid: " + *p->invalid : searched ? "search" : ""));
      rows.push_back(std::move(row));
    }
    return html::table({"load %", "offered fps", "forwarded fps", "loss %", "wrong port", ""}, rows);
  }
  if (r.trials && r.test == "neighbor_caching") {
    for (const AddressTrialRow& t : *r.trials)
      rows.push_back({html::number(t.addresses), html::number(t.learning_rate_fps),
                      t.invalid ? html::number(json()) : html::number(t.learning_frames_lost),
                      t.invalid ? html::number(json()) : html::number(t.lost_frames),
                      html::escape(t.invalid  ? "invalid: " + *t.invalid
                                   : t.passed ? "forwarded"
                                              : "lost")});
    return html::table({"hosts", "frames/s", "lost resolving", "lost", "result"}, rows);
  }
  if (r.reresolution) {
    for (const HostReresolution& h : *r.reresolution)
      rows.push_back({html::escape(h.host), html::escape(h.address),
                      h.reresolved_ms ? html::number(*h.reresolved_ms) : html::number(json()),
                      html::number(h.lost_frames)});
    return html::table({"host", "address", "forwarded again after (ms)", "lost"}, rows);
  }
  if (r.trials) {
    for (const AddressTrialRow& t : *r.trials)
      rows.push_back({html::number(t.addresses), html::number(t.learning_rate_fps),
                      t.invalid ? html::number(json()) : html::number(t.flooded_frames),
                      t.invalid ? html::number(json()) : html::number(t.lost_frames),
                      html::escape(t.invalid ? "invalid: " + *t.invalid : t.passed ? "learned" : "flooded")});
    return html::table({"addresses", "learning frames/s", "flooded", "lost", "result"}, rows);
  }
  if (r.ports && !r.ports->empty()) {
    for (const PortReceived& p : *r.ports)
      rows.push_back({html::escape(p.port), html::number(p.rx_frames), html::number(p.lost_frames),
                      html::number(p.forwarding_rate_fps)});
    return html::table({"port", "received", "lost", "frames/s"}, rows);
  }
  if (r.uncongested) {
    if (r.congested)
      for (const PathFigures& path : *r.congested) rows.push_back(path_row("congested", path));
    rows.push_back(path_row("uncongested", *r.uncongested));
    return html::table({"path", "stream", "sent", "lost", "loss %"}, rows);
  }
  return "";
}

}  // namespace

std::string rfc2889_html(const json& report) {
  const bench::rfc2889::Rfc2889Report typed = bench::rfc2889::rfc2889_report_from_json(report);
  std::string out = html::page_start("linerate RFC 2889 " + report::read_report_header(report).started_at);
  std::vector<std::vector<std::string>> rows;
  for (const Result& r : typed.results)
    rows.push_back({html::escape(r.test), html::escape(r.section), r.frame_size ? html::number(*r.frame_size) : "–",
                    r.verdict == "FAIL" ? "<b>FAIL</b>" : html::escape(r.verdict), html::escape(rfc2889_answer(r))});
  out += html::summary(report, "RFC 2889 LAN switch benchmarks",
                       html::table({"test", "§", "frame B", "verdict", "answer"}, rows));
  out += html::settings(report);
  std::vector<std::string> order;
  std::map<std::string, std::vector<const Result*>> by_test;
  for (const Result& r : typed.results) {
    if (!by_test.contains(r.test)) order.push_back(r.test);
    by_test[r.test].push_back(&r);
  }
  size_t charts = 0;
  for (const std::string& test : order) {
    out += "<h2>" + html::escape(test) + "</h2>\n";
    if (by_test[test].front()->meshed()) out += forwarding_chart(test, by_test[test], charts++);
    for (const Result* r : by_test[test]) {
      if (r->frame_size) out += fmt::format("<h3>{} B</h3>\n", *r->frame_size);
      out += "<p>" + html::escape(rfc2889_answer(*r)) + "</p>\n" + detail_rows(*r);
    }
  }
  return out + "</body></html>\n";
}

}  // namespace lr::ctl
