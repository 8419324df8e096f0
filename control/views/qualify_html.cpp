#include "control/views/qualify_html.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <vector>

#include "control/suites/optics/qualify_report.hpp"
#include "control/reports/report_header.hpp"
#include "control/views/html_page.hpp"
#include "control/views/summary_html.hpp"

namespace lr::ctl {

using html::escape;
using html::number;
using html::table;
using nlohmann::json;

namespace {

// One series per name: (t, value) points.
using Series = std::map<std::string, std::vector<std::pair<double, double>>>;

// A chart of `series` over time, or a line saying why there is none.
// `min_span`: the y-axis shows at least this much around the values, so that a change
// within a monitor's resolution does not look like a ramp; 0: from zero.
std::string time_chart(const std::string& id, const std::string& caption, const std::string& ylabel, const Series& series,
                       const std::string& missing, double min_span = 0) {
  if (series.empty()) return "<p class=\"note\">" + escape(caption) + ": no data (" + escape(missing) + ").</p>\n";
  std::string data, plot;
  int block = 0;
  for (const auto& [name, points] : series) {
    data += fmt::format("$s{} << EOD\n", block);
    for (const auto& [t, v] : points) data += fmt::format("{} {}\n", t, v);
    data += "EOD\n";
    plot += fmt::format("{}$s{} using 1:2 with linespoints pt 7 ps 0.5 title '{}'", plot.empty() ? "plot " : ", ", block,
                        name);
    ++block;
  }
  std::string range = "set yrange [0:*]\n";
  if (min_span > 0) {
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (const auto& [name, points] : series)
      for (const auto& [t, v] : points) low = std::min(low, v), high = std::max(high, v);
    const double middle = (low + high) / 2, half = std::max(high - low, min_span) / 2 * 1.1;
    range = fmt::format("set yrange [{}:{}]\n", middle - half, middle + half);
  }
  return html::figure(id, caption,
                      data + "set xlabel 'time since the traffic started (s)'\nset ylabel '" + ylabel + "'\nset grid\n" +
                          range + plot + "\n");
}

using optics::QualifiedPort;

// A counter per interval divided by the interval: a rate over time.
Series counter_rates(const std::vector<QualifiedPort::Sample>& samples, const std::string& prefix, bool exact) {
  Series out;
  std::map<std::string, std::pair<double, double>> last;  // name -> (t, value)
  for (const QualifiedPort::Sample& s : samples)
    for (const auto& [name, v] : s.counters) {
      if (exact ? name != prefix : !name.starts_with(prefix)) continue;
      if (const auto it = last.find(name); it != last.end() && s.t_s > it->second.first)
        out[name].push_back({s.t_s, (v - it->second.second) / (s.t_s - it->second.first)});
      last[name] = {s.t_s, v};
    }
  return out;
}

Series counter_values(const std::vector<QualifiedPort::Sample>& samples, const std::string& prefix) {
  Series out;
  for (const QualifiedPort::Sample& s : samples)
    for (const auto& [name, value] : s.counters)
      if (name.starts_with(prefix)) out[name].push_back({s.t_s, value});
  return out;
}

Series monitor_values(const std::vector<QualifiedPort::Sample>& samples, const std::string& prefix, bool dbm) {
  Series out;
  for (const QualifiedPort::Sample& s : samples)
    for (const QualifiedPort::Monitor& m : s.monitors) {
      if (!m.name.starts_with(prefix)) continue;
      if (dbm && m.value <= 0) continue;  // no light: -inf dBm has no place on the chart
      out[m.name].push_back({s.t_s, dbm ? 10 * std::log10(m.value) : m.value});
    }
  return out;
}

std::string verdict_span(optics::Verdict verdict) {
  const std::string v = optics::verdict_name(verdict);
  return "<span class=\"" + v + "\">" + v + "</span>";
}

std::string port_section(const QualifiedPort& port, size_t index) {
  std::string out = "<h2 id=\"port-" + escape(port.port) + "\">Port " + escape(port.port) + ": " +
                    verdict_span(port.verdict) + "</h2>\n";
  if (port.verdict == optics::Verdict::kIncomplete)
    out += "<p class=\"missing\">Not qualified: " + escape(fmt::format("{}", fmt::join(port.unmeasured, ", "))) +
           " not measured. What was measured passed, but a port is qualified only on its module and its error "
           "counts.</p>\n";
  const std::string module_missing = port.module_error.empty() ? "no module" : port.module_error;
  if (port.module)
    out += "<p>" + escape(fmt::format("{} {} {} rev {}, serial {}, {}", port.module->identifier, port.module->vendor,
                                      port.module->part, port.module->revision, port.module->serial,
                                      port.module->date_code)) +
           "</p>\n";
  else out += "<p class=\"note\">No module read: " + escape(module_missing) + "</p>\n";
  std::vector<std::vector<std::string>> rows;
  for (const optics::Criterion& c : port.criteria)
    rows.push_back({escape(c.name), verdict_span(c.verdict), escape(c.measured), escape(c.bound), escape(c.note)});
  out += table({"criterion", "verdict", "measured", "bound", "how / why"}, rows);
  const std::string id = fmt::format("port{}", index);
  const std::string no_monitors = port.module ? "the module reports no such monitor" : module_missing;
  out += time_chart(id + "-rx-power", "RX power per lane (dBm)", "dBm", monitor_values(port.samples, "rx_power", true),
                    no_monitors, 2.0);
  Series corrected = counter_rates(port.samples, "fec_corrected_bits_lane", false);
  if (corrected.empty()) corrected = counter_rates(port.samples, "fec_corrected_bits", true);
  out += time_chart(id + "-fec-corrected", "FEC corrected bits per second", "bits/s", corrected,
                    "the port counts no FEC corrected bits");
  out += time_chart(id + "-fec-uncorrectable", "FEC uncorrectable blocks since the start", "blocks",
                    counter_values(port.samples, "fec_uncorrectable_blocks"), "the port counts no uncorrectable blocks");
  out += time_chart(id + "-temperature", "Module temperature (°C)", "°C", monitor_values(port.samples, "temperature", false),
                    no_monitors, 10.0);
  out += time_chart(id + "-rx-frames", "Frames received per second (the port's own counter)", "frames/s",
                    counter_rates(port.samples, "rx_packets", true), "the port counts no received frames");
  return out;
}

}  // namespace

std::string qualify_html(const json& report) {
  const std::vector<QualifiedPort> ports = optics::qualified_ports_from_json(report);
  std::string out = html::page_start("linerate optics qualification " + report::read_report_header(report).started_at);
  std::vector<std::vector<std::string>> summary;
  for (const QualifiedPort& p : ports) {
    const auto field = [&](std::string QualifiedPort::Module::*member) {
      return p.module ? escape((*p.module).*member) : std::string("–");
    };
    const auto measured = [&](const char* name) {
      const optics::Criterion* c = p.criterion(name);
      return c == nullptr ? std::string("–") : escape(c->measured);
    };
    summary.push_back({"<a href=\"#port-" + escape(p.port) + "\">" + escape(p.port) + "</a>", verdict_span(p.verdict),
                       field(&QualifiedPort::Module::vendor), field(&QualifiedPort::Module::part),
                       field(&QualifiedPort::Module::serial), measured("link_speed"), measured("pre_fec_ber"),
                       measured("frame_loss")});
  }
  out += html::summary(report, "optics qualification",
                       table({"port", "verdict", "vendor", "part", "serial", "link", "pre-FEC BER", "frames lost"}, summary));
  out += html::settings(report);
  out += "<p class=\"note\">Bits are the link's speed times the sampled time it was up. Pre-FEC BER is the FEC's "
         "corrected bits over them (or the PHY's bit / symbol errors without FEC); the confidence is that of the "
         "claim BER &lt; target given the errors that reached the MAC (Poisson). Frame loss is counted per stream by "
         "sequence after the drain. A criterion whose counter the driver lacks is SKIPPED, never passed.</p>\n";
  size_t index = 0;
  for (const QualifiedPort& p : ports) out += port_section(p, index++);
  return out + "</body></html>\n";
}

std::string qualify_summary_csv(const json& report) {
  // RFC 4180: quote every text field, double the quotes inside.
  const auto text = [](const std::string& s) {
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
  };
  std::string out = "vendor,part,revision,serial,port,verdict,pre_fec_ber,fec_uncorrectable,frames_lost,crc_errors,"
                    "link_drops,ber_confidence,not_passed,skipped,report_started_at\n";
  const std::string started_at = report::read_report_header(report).started_at;
  for (const optics::QualifiedPort& p : optics::qualified_ports_from_json(report)) {
    const auto field = [&](std::string optics::QualifiedPort::Module::*member) {
      return p.module ? (*p.module).*member : std::string();
    };
    std::string not_passed, skipped;
    for (const optics::Criterion& c : p.criteria) {
      const std::string v = optics::verdict_name(c.verdict);
      if (c.verdict == optics::Verdict::kFail || c.verdict == optics::Verdict::kWarn)
        not_passed += (not_passed.empty() ? "" : " ") + c.name + ":" + v;
      if (c.verdict == optics::Verdict::kSkipped) skipped += (skipped.empty() ? "" : " ") + c.name;
    }
    const auto value = [&](const char* name) {
      const optics::Criterion* c = p.criterion(name);
      return c == nullptr || !c->value ? std::string() : fmt::format("{:.6g}", *c->value);
    };
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", text(field(&optics::QualifiedPort::Module::vendor)),
                       text(field(&optics::QualifiedPort::Module::part)), text(field(&optics::QualifiedPort::Module::revision)),
                       text(field(&optics::QualifiedPort::Module::serial)), text(p.port), optics::verdict_name(p.verdict),
                       value("pre_fec_ber"), value("fec_uncorrectable"), value("frame_loss"), value("crc_errors"),
                       value("link_stability"), value("ber_confidence"), text(not_passed), text(skipped), started_at);
  }
  return out;
}

}  // namespace lr::ctl
