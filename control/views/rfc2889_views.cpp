#include "control/views/rfc2889_views.hpp"

#include <fmt/format.h>

#include "control/reports/report_header.hpp"
#include "control/views/bench_csv.hpp"
#include "control/views/html_page.hpp"
#include "control/views/summary_html.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

// Readers that take any JSON (a report is input: a field missing or of another type reads
// as nothing, never as a crash).
const json& field(const json& j, const char* key) {
  static const json kNothing;
  return j.is_object() && j.contains(key) ? j[key] : kNothing;
}
const json& list(const json& j, const char* key) {
  static const json kEmpty = json::array();
  const json& v = field(j, key);
  return v.is_array() ? v : kEmpty;
}
bool flag(const json& j, const char* key) { return field(j, key).is_boolean() && field(j, key).get<bool>(); }
double num(const json& j, const char* key) { return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0; }
bool has_number(const json& j, const char* key) { return j.contains(key) && j[key].is_number(); }
std::string str(const json& j, const char* key) { return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : ""; }

std::string fps_text(double fps) { return fmt::format("{:.6g} Mfps", fps / 1e6); }

const json& results_of(const json& report) { return list(report, "results"); }

bool meshed(const json& r) { return field(r, "points").is_array(); }

}  // namespace

std::string rfc2889_answer(const json& r) {
  const std::string test = str(r, "test");
  if (str(r, "verdict") == "SKIPPED") return "SKIPPED: " + str(r, "why");
  if (meshed(r)) {
    std::string out = has_number(r, "throughput_percent") ? fmt::format("throughput {:.4g} %", num(r, "throughput_percent"))
                                                          : "throughput none (" + str(r, "why") + ")";
    if (has_number(r, "forwarding_rate_at_max_load_fps"))
      out += fmt::format("; forwarding rate at {:g} %: {}", num(r, "max_load_percent"),
                         fps_text(num(r, "forwarding_rate_at_max_load_fps")));
    if (has_number(r, "maximum_forwarding_rate_fps"))
      out += fmt::format("; maximum forwarding rate {} (at {:g} %)", fps_text(num(r, "maximum_forwarding_rate_fps")),
                         num(r, "maximum_forwarding_rate_load_percent"));
    return out;
  }
  if (test == "address_caching" && has_number(r, "addresses"))
    return fmt::format("{}{:.0f} addresses ({})", flag(r, "at_least") ? "at least " : "", num(r, "addresses"),
                       str(r, "why"));
  if (test == "address_learning" && has_number(r, "learning_rate_fps"))
    return fmt::format("{}{:.6g} frames/s ({})", flag(r, "at_least") ? "at least " : "", num(r, "learning_rate_fps"),
                       str(r, "why"));
  if (test == "broadcast" && has_number(r, "forwarding_rate_fps"))
    return fmt::format("forwarding rate {} over {} ports; latency to {} mean {:.3f} us, max {:.3f} us; {}",
                       fps_text(num(r, "forwarding_rate_fps")), list(r, "ports").size(),
                       str(r, "latency_port"), num(field(r, "latency"), "mean_ns") / 1e3,
                       num(field(r, "latency"), "max_ns") / 1e3, str(r, "why"));
  return str(r, "why");
}

std::string rfc2889_text(const json& report) {
  std::string out = fmt::format("\nRFC 2889 results\n{:<30} {:>5} {:>7} {:<9} {}\n", "test", "§", "frame_B", "verdict", "answer");
  for (const json& r : results_of(report))
    out += fmt::format("{:<30} {:>5} {:>7} {:<9} {}\n", str(r, "test"), str(r, "section"),
                       has_number(r, "frame_size") ? fmt::format("{:.0f}", num(r, "frame_size")) : "-", str(r, "verdict"),
                       rfc2889_answer(r));
  for (const json& r : results_of(report)) {
    if (!meshed(r)) continue;
    out += fmt::format("\n{} at {:.0f} B\n{:>8} {:>14} {:>14} {:>10} {:>12}\n", str(r, "test"), num(r, "frame_size"),
                       "load %", "offered fps", "forwarded fps", "loss %", "wrong port");
    for (const json* series : {&list(r, "points"), &list(r, "throughput_search")})
      for (const json& p : *series) {
        if (p.contains("invalid")) {
          out += fmt::format("{:>8.4g}   (invalid: {})\n", num(p, "load_percent"), str(p, "invalid"));
          continue;
        }
        out += fmt::format("{:>8.4g} {:>14.0f} {:>14.0f} {:>10.4f} {:>12.0f}{}\n", num(p, "load_percent"),
                           num(p, "offered_fps"), num(p, "forwarded_fps"), num(p, "loss_percent"),
                           num(p, "wrong_port_frames"), series == &list(r, "points") ? "" : "  (search)");
        for (const char* traffic : {"local", "remote"})  // §5.3: within a device, across the trunk
          if (p.contains(traffic))
            out += fmt::format("{:>8} {:>14.0f} {:>14.0f} {:>10.4f} {:>12.0f}\n", traffic, num(p[traffic], "offered_fps"),
                               num(p[traffic], "forwarded_fps"), num(p[traffic], "loss_percent"),
                               num(p[traffic], "wrong_port_frames"));
      }
  }
  return out;
}

std::string rfc2889_csv(const json& report) {
  std::string out = "test,section,frame_size,verdict,load_percent,offered_fps,forwarded_fps,loss_percent,"
                    "wrong_port_frames,answer\n";
  const auto cell = [](const json& j, const char* key) { return j.contains(key) ? csv_field(j[key]) : std::string(); };
  for (const json& r : results_of(report)) {
    const std::string head = csv_field(str(r, "test")) + "," + cell(r, "section") + "," + cell(r, "frame_size") +
                             "," + cell(r, "verdict");
    out += head + ",,,,,," + csv_field(rfc2889_answer(r)) + "\n";
    if (!meshed(r)) continue;
    for (const json* series : {&list(r, "points"), &list(r, "throughput_search")})
      for (const json& p : *series)
        out += head + "," + cell(p, "load_percent") + "," + cell(p, "offered_fps") + "," + cell(p, "forwarded_fps") +
               "," + cell(p, "loss_percent") + "," + cell(p, "wrong_port_frames") + "," +
               csv_field(p.contains("invalid") ? "invalid: " + str(p, "invalid") : std::string()) + "\n";
  }
  return out;
}

namespace {

// Forwarding rate against offered load, a line per frame size, for one pattern.
std::string forwarding_chart(const std::string& test, const std::vector<const json*>& results, size_t index) {
  std::string data, plot;
  size_t block = 0;
  for (const json* r : results) {
    std::string rows;
    for (const json& p : list(*r, "points"))
      if (!p.contains("invalid")) rows += fmt::format("{:g} {:.6f}\n", num(p, "load_percent"), num(p, "forwarded_fps") / 1e6);
    if (rows.empty()) continue;
    data += fmt::format("$d{} << EOD\n{}EOD\n", block, rows);
    plot += fmt::format("{}$d{} using 1:2 with linespoints lw 1.5 title \"{:.0f} B\"", block == 0 ? "plot " : ", ", block,
                        num(*r, "frame_size"));
    ++block;
  }
  if (block == 0) return "";
  return html::figure(fmt::format("chart-{}", index),
                      test + ": frames forwarded per second against the load offered by each port",
                      data + "set xlabel \"offered load (% of each port's line rate)\"\nset ylabel \"forwarded (Mframes/s)\"\n"
                             "set grid\nset key left top\nset xrange [0:105]\nset yrange [0:*]\n" + plot + "\n");
}

std::string detail_rows(const json& r) {
  std::vector<std::vector<std::string>> rows;
  if (meshed(r)) {
    for (const json* series : {&list(r, "points"), &list(r, "throughput_search")})
      for (const json& p : *series)
        rows.push_back({html::number(field(p, "load_percent")), html::number(field(p, "offered_fps")),
                        html::number(field(p, "forwarded_fps")), html::number(field(p, "loss_percent")),
                        html::number(field(p, "wrong_port_frames")),
                        html::escape(p.contains("invalid") ? "invalid: " + str(p, "invalid")
                                                           : series == &list(r, "points") ? "" : "search")});
    return html::table({"load %", "offered fps", "forwarded fps", "loss %", "wrong port", ""}, rows);
  }
  if (field(r, "trials").is_array()) {
    for (const json& t : list(r, "trials"))
      rows.push_back({html::number(field(t, "addresses")), html::number(field(t, "learning_rate_fps")),
                      html::number(field(t, "flooded_frames")), html::number(field(t, "lost_frames")),
                      html::escape(t.contains("invalid") ? "invalid: " + str(t, "invalid")
                                                         : flag(t, "passed") ? "learned" : "flooded")});
    return html::table({"addresses", "learning frames/s", "flooded", "lost", "result"}, rows);
  }
  if (!list(r, "ports").empty()) {
    for (const json& p : list(r, "ports"))
      rows.push_back({html::escape(str(p, "port")), html::number(field(p, "rx_frames")), html::number(field(p, "lost_frames")),
                      html::number(field(p, "forwarding_rate_fps"))});
    return html::table({"port", "received", "lost", "frames/s"}, rows);
  }
  if (field(r, "uncongested").is_object()) {
    for (const json& path : list(r, "congested"))
      rows.push_back({"congested", html::escape(str(path, "stream")), html::number(field(path, "tx_frames")),
                      html::number(field(path, "lost_frames")), html::number(field(path, "loss_percent"))});
    const json& u = field(r, "uncongested");
    rows.push_back({"uncongested", html::escape(str(u, "stream")), html::number(field(u, "tx_frames")),
                    html::number(field(u, "lost_frames")), html::number(field(u, "loss_percent"))});
    return html::table({"path", "stream", "sent", "lost", "loss %"}, rows);
  }
  return "";
}

}  // namespace

std::string rfc2889_html(const json& report) {
  std::string out = html::page_start("linerate RFC 2889 " + report::read_report_header(report).started_at);
  std::vector<std::vector<std::string>> rows;
  for (const json& r : results_of(report))
    rows.push_back({html::escape(str(r, "test")), html::escape(str(r, "section")),
                    has_number(r, "frame_size") ? html::number(field(r, "frame_size")) : "–",
                    str(r, "verdict") == "FAIL" ? "<b>FAIL</b>" : html::escape(str(r, "verdict")),
                    html::escape(rfc2889_answer(r))});
  out += html::summary(report, "RFC 2889 LAN switch benchmarks",
                       html::table({"test", "§", "frame B", "verdict", "answer"}, rows));
  out += html::settings(report);
  std::vector<std::string> order;
  std::map<std::string, std::vector<const json*>> by_test;
  for (const json& r : results_of(report)) {
    const std::string test = str(r, "test");
    if (!by_test.contains(test)) order.push_back(test);
    by_test[test].push_back(&r);
  }
  size_t charts = 0;
  for (const std::string& test : order) {
    out += "<h2>" + html::escape(test) + "</h2>\n";
    if (meshed(*by_test[test].front())) out += forwarding_chart(test, by_test[test], charts++);
    for (const json* r : by_test[test]) {
      if (has_number(*r, "frame_size")) out += fmt::format("<h3>{:.0f} B</h3>\n", num(*r, "frame_size"));
      out += "<p>" + html::escape(rfc2889_answer(*r)) + "</p>\n" + detail_rows(*r);
    }
  }
  return out + "</body></html>\n";
}

}  // namespace lr::ctl
