#include "control/views/qualify_html.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <vector>

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

// A counter per interval divided by the interval: a rate over time.
Series counter_rates(const json& samples, const std::string& prefix, bool exact) {
  Series out;
  std::map<std::string, std::pair<double, double>> last;  // name -> (t, value)
  for (const json& s : samples) {
    const double t = s.value("t_s", 0.0);
    const json counters = s.value("counters", json::object());
    for (const auto& [name, value] : counters.items()) {
      if (exact ? name != prefix : !name.starts_with(prefix)) continue;
      const double v = value.get<double>();
      if (const auto it = last.find(name); it != last.end() && t > it->second.first)
        out[name].push_back({t, (v - it->second.second) / (t - it->second.first)});
      last[name] = {t, v};
    }
  }
  return out;
}

Series counter_values(const json& samples, const std::string& prefix) {
  Series out;
  for (const json& s : samples) {
    const json counters = s.value("counters", json::object());
    for (const auto& [name, value] : counters.items())
      if (name.starts_with(prefix)) out[name].push_back({s.value("t_s", 0.0), value.get<double>()});
  }
  return out;
}

Series monitor_values(const json& samples, const std::string& prefix, bool dbm) {
  Series out;
  for (const json& s : samples)
    for (const json& m : s.value("monitors", json::array())) {
      const std::string name = m.value("name", "");
      if (!name.starts_with(prefix)) continue;
      const double v = m.value("value", 0.0);
      if (dbm && v <= 0) continue;  // no light: -inf dBm has no place on the chart
      out[name].push_back({s.value("t_s", 0.0), dbm ? 10 * std::log10(v) : v});
    }
  return out;
}

std::string port_section(const json& port, size_t index) {
  const std::string name = port.value("port", "");
  const std::string verdict = port.value("verdict", "");
  std::string out = "<h2 id=\"port-" + escape(name) + "\">Port " + escape(name) + ": <span class=\"" + escape(verdict) +
                    "\">" + escape(verdict) + "</span></h2>\n";
  if (verdict == "INCOMPLETE")
    out += "<p class=\"missing\">Not qualified: " +
           escape(fmt::format("{}", fmt::join(port.value("unmeasured", std::vector<std::string>{}), ", "))) +
           " not measured. What was measured passed, but a port is qualified only on its module and its error "
           "counts.</p>\n";
  const json module = port.value("module", json());
  const std::string module_missing = port.value("module_error", "no module");
  if (module.is_object())
    out += "<p>" + escape(fmt::format("{} {} {} rev {}, serial {}, {}", module.value("identifier", ""),
                                      module.value("vendor", ""), module.value("part", ""), module.value("revision", ""),
                                      module.value("serial", ""), module.value("date_code", ""))) +
           "</p>\n";
  else out += "<p class=\"note\">No module read: " + escape(module_missing) + "</p>\n";
  std::vector<std::vector<std::string>> rows;
  for (const json& c : port.value("criteria", json::array())) {
    const std::string v = c.value("verdict", "");
    rows.push_back({escape(c.value("name", "")), "<span class=\"" + escape(v) + "\">" + escape(v) + "</span>",
                    escape(c.value("measured", "")), escape(c.value("bound", "")), escape(c.value("note", ""))});
  }
  out += table({"criterion", "verdict", "measured", "bound", "how / why"}, rows);
  const json samples = port.value("samples", json::array());
  const std::string id = fmt::format("port{}", index);
  const std::string no_monitors = module.is_object() ? "the module reports no such monitor" : module_missing;
  out += time_chart(id + "-rx-power", "RX power per lane (dBm)", "dBm", monitor_values(samples, "rx_power", true), no_monitors,
                    2.0);
  Series corrected = counter_rates(samples, "fec_corrected_bits_lane", false);
  if (corrected.empty()) corrected = counter_rates(samples, "fec_corrected_bits", true);
  out += time_chart(id + "-fec-corrected", "FEC corrected bits per second", "bits/s", corrected,
                    "the port counts no FEC corrected bits");
  out += time_chart(id + "-fec-uncorrectable", "FEC uncorrectable blocks since the start", "blocks",
                    counter_values(samples, "fec_uncorrectable_blocks"), "the port counts no uncorrectable blocks");
  out += time_chart(id + "-temperature", "Module temperature (°C)", "°C", monitor_values(samples, "temperature", false),
                    no_monitors, 10.0);
  out += time_chart(id + "-rx-frames", "Frames received per second (the port's own counter)", "frames/s",
                    counter_rates(samples, "rx_packets", true), "the port counts no received frames");
  return out;
}

}  // namespace

std::string qualify_html(const json& report) {
  std::string out = html::page_start("linerate optics qualification " + report.value("started_at", ""));
  std::vector<std::vector<std::string>> summary;
  for (const json& p : report.value("ports", json::array())) {
    const json m = p.value("module", json());
    const auto field = [&](const char* key) { return m.is_object() ? escape(m.value(key, "")) : std::string("–"); };
    const std::string v = p.value("verdict", "");
    std::map<std::string, json> measured;
    for (const json& c : p.value("criteria", json::array())) measured[c.value("name", "")] = c;
    const auto shown = [&](const char* name) {
      const auto it = measured.find(name);
      return it == measured.end() ? std::string("–") : escape(it->second.value("measured", "–"));
    };
    summary.push_back({"<a href=\"#port-" + escape(p.value("port", "")) + "\">" + escape(p.value("port", "")) + "</a>",
                       "<span class=\"" + escape(v) + "\">" + escape(v) + "</span>", field("vendor"), field("part"),
                       field("serial"), shown("link_speed"), shown("pre_fec_ber"), shown("frame_loss")});
  }
  out += html::summary(report, "optics qualification",
                       table({"port", "verdict", "vendor", "part", "serial", "link", "pre-FEC BER", "frames lost"}, summary));
  out += html::settings(report.value("settings", json::object()));
  out += "<p class=\"note\">Bits are the link's speed times the sampled time it was up. Pre-FEC BER is the FEC's "
         "corrected bits over them (or the PHY's bit / symbol errors without FEC); the confidence is that of the "
         "claim BER &lt; target given the errors that reached the MAC (Poisson). Frame loss is counted per stream by "
         "sequence after the drain. A criterion whose counter the driver lacks is SKIPPED, never passed.</p>\n";
  size_t index = 0;
  for (const json& p : report.value("ports", json::array())) out += port_section(p, index++);
  if (report.contains("stopped_by"))
    out += "<p class=\"missing\">stopped: " + escape(report.value("stopped_by", "")) + "</p>\n";
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
  for (const json& p : report.value("ports", json::array())) {
    const json m = p.value("module", json());
    const auto field = [&](const char* key) { return m.is_object() ? m.value(key, "") : std::string(); };
    std::map<std::string, json> values;
    std::string not_passed, skipped;
    for (const json& c : p.value("criteria", json::array())) {
      values[c.value("name", "")] = c.value("value", json());
      const std::string v = c.value("verdict", "");
      if (v == "FAIL" || v == "WARN") not_passed += (not_passed.empty() ? "" : " ") + c.value("name", "") + ":" + v;
      if (v == "SKIPPED") skipped += (skipped.empty() ? "" : " ") + c.value("name", "");
    }
    const auto value = [&](const char* name) {
      const auto it = values.find(name);
      return it == values.end() || !it->second.is_number() ? std::string() : fmt::format("{:.6g}", it->second.get<double>());
    };
    out += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", text(field("vendor")), text(field("part")),
                       text(field("revision")), text(field("serial")), text(p.value("port", "")),
                       p.value("verdict", ""), value("pre_fec_ber"), value("fec_uncorrectable"), value("frame_loss"),
                       value("crc_errors"), value("link_stability"), value("ber_confidence"), text(not_passed),
                       text(skipped), report.value("started_at", ""));
  }
  return out;
}

}  // namespace lr::ctl
