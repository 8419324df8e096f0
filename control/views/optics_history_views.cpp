#include "control/views/optics_history_views.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>

#include "control/suites/optics/port_watch.hpp"
#include "control/suites/optics/qualify_verdicts.hpp"
#include "lib/host/module/module_identity.hpp"

namespace lr::ctl {

using nlohmann::json;

namespace {

std::string utc_text(double unix_s) {
  const auto t = std::chrono::sys_seconds(std::chrono::seconds(static_cast<int64_t>(unix_s)));
  return fmt::format("{:%Y-%m-%d %H:%M:%S}", t);
}

// A monitor's value in the unit shown: power in dBm, the others as the module gives them.
double shown(const json& monitor) {
  const double value = monitor.value("value", 0.0);
  return monitor.value("unit", "") == "mW" ? module::mw_to_dbm(value) : value;
}

// "v1/v2/v3/v4" of a per-lane quantity, "-" without it.
std::string lanes_text(const json& module, const std::string& quantity, int decimals) {
  std::string out;
  for (const json& m : module.value("monitors", json::array()))
    if (m.value("quantity", "") == quantity)
      out += fmt::format("{}{:.{}f}", out.empty() ? "" : "/", shown(m), decimals);
  return out.empty() ? "-" : out;
}

std::optional<double> single(const json& module, const std::string& quantity) {
  for (const json& m : module.value("monitors", json::array()))
    if (m.value("quantity", "") == quantity) return shown(m);
  return std::nullopt;
}

template <class T>
std::string value_or_dash(const json& object, const char* key, const char* format) {
  if (!object.is_object() || !object.contains(key)) return "-";
  return fmt::format(fmt::runtime(format), object[key].get<T>());
}

std::string row(const json& line) {
  const std::string time = utc_text(line.value("time", 0.0));
  if (!line.value("current", false))
    return fmt::format("{:<19}  not read: {}\n", time.empty() ? "-" : time, line.value("missed", std::string("?")));
  const json link = line.value("link", json::object());
  const json module = line.value("module", json());
  const json fec = line.value("fec", json::object());
  const std::string up = link.contains("up") ? (link["up"].get<bool>() ? "up" : "DOWN") : "-";
  const std::optional<double> temperature = module.is_object() ? single(module, "temperature") : std::nullopt;
  return fmt::format("{:<19}  {:<4}  {:>5}  {:>6}  {:<23}  {:<23}  {:<27}  {:>10}  {:>8}  {:>9}\n", time, up,
                     link.value("flaps", 0), temperature ? fmt::format("{:.1f}", *temperature) : "-",
                     module.is_object() ? lanes_text(module, "bias", 2) : "-",
                     module.is_object() ? lanes_text(module, "tx_power", 2) : "-",
                     module.is_object() ? lanes_text(module, "rx_power", 2) : "-",
                     value_or_dash<double>(fec, "corrected_per_second", "{:.4g}"),
                     value_or_dash<uint64_t>(fec, "uncorrectable_codewords", "{}"),
                     value_or_dash<double>(fec, "pre_fec_ber", "{:.2e}"));
}

std::string module_text(const json& module) {
  return fmt::format("{} {} {} (serial {})", module.value("vendor", ""), module.value("part", ""),
                     module.value("type", ""), module.value("serial", ""));
}

}  // namespace

std::string history_table(const std::vector<json>& lines, size_t rows) {
  std::string out = fmt::format("{:<19}  {:<4}  {:>5}  {:>6}  {:<23}  {:<23}  {:<27}  {:>10}  {:>8}  {:>9}\n",
                                "time (UTC)", "link", "flaps", "temp C", "bias mA (lanes)", "TX dBm (lanes)",
                                "RX dBm (lanes)", "FEC corr/s", "uncorr", "pre-FEC BER");
  const size_t first = rows == 0 || lines.size() <= rows ? 0 : lines.size() - rows;
  std::string serial;
  for (size_t i = 0; i < lines.size(); ++i) {
    const json& module = lines[i].value("module", json());
    // The module is followed from the start, so that a swap before the rows shown is known.
    if (module.is_object()) {
      const std::string now = module.value("serial", "");
      if (i >= first && now != serial)
        out += fmt::format("{:<19}  module {}{}\n", utc_text(lines[i].value("time", 0.0)), serial.empty() ? "" : "now ",
                           module_text(module));
      serial = now;
    }
    if (i >= first) out += row(lines[i]);
  }
  return out;
}

std::string history_chart_script(const std::vector<json>& lines, const std::string& port) {
  std::map<std::string, std::string> rx, bias;  // lane -> "t v" lines
  std::string fec, swaps;
  json thresholds;
  std::string serial;
  for (const json& line : lines) {
    if (!line.value("current", false)) continue;
    const double t = line.value("time", 0.0);
    const json& module = line.value("module", json());
    if (module.is_object()) {
      for (const json& m : module.value("monitors", json::array())) {
        const std::string lane = std::to_string(m.value("lane", 1));
        const double v = shown(m);
        if (m.value("quantity", "") == "rx_power" && std::isfinite(v)) rx[lane] += fmt::format("{} {}\n", t, v);
        if (m.value("quantity", "") == "bias") bias[lane] += fmt::format("{} {}\n", t, v);
      }
      if (!serial.empty() && module.value("serial", "") != serial)
        swaps += fmt::format("set arrow from {},graph 0 to {},graph 1 nohead dt 2 lc rgb 'gray'\n", t, t);
      serial = module.value("serial", "");
      thresholds = module.value("thresholds", json::object());
    }
    const json fec_now = line.value("fec", json::object());
    if (fec_now.contains("corrected_per_second") && fec_now["corrected_per_second"].get<double>() > 0)
      fec += fmt::format("{} {}\n", t, fec_now["corrected_per_second"].get<double>());
  }
  if (rx.empty() && bias.empty() && fec.empty()) return "";
  std::string script =
      "set xdata time\nset timefmt '%s'\nset format x '%m-%d\\n%H:%M'\nset grid\nset key outside right\n";
  std::string quoted;  // in gnuplot's single quotes, where '' is one quote
  for (const char c : port) quoted += c == '\'' ? std::string("''") : std::string(1, c);
  script += fmt::format("set multiplot layout 3,1 title 'linerate optics history: {}'\n", quoted);
  const auto plot = [&](const std::map<std::string, std::string>& series, const std::string& name,
                        const std::string& extra) {
    std::string data, command;
    for (const auto& [lane, points] : series) {
      data += fmt::format("${}{} << EOD\n{}EOD\n", name, lane, points);
      command += fmt::format("{}${}{} using 1:2 with lines title 'lane {}'", command.empty() ? "plot " : ", ", name,
                             lane, lane);
    }
    return data + swaps + (command.empty() ? "plot NaN notitle" : command) + extra + "\n";
  };
  std::string levels;
  if (thresholds.contains("rx_power"))
    for (const char* level : {"low_warning", "low_alarm"})
      if (const double mw = thresholds["rx_power"].value(level, 0.0); mw > 0)
        levels += fmt::format(", {} with lines dt 3 lw 2 title '{}'", module::mw_to_dbm(mw), level);
  script += "set ylabel 'RX power (dBm)'\n" + plot(rx, "rx", levels);
  script += "set ylabel 'laser bias (mA)'\n" + plot(bias, "bias", "");
  script += "set logscale y\nset ylabel 'FEC corrected /s'\n";
  script += fec.empty()
                ? "plot NaN title 'no corrected codewords'\n"
                : fmt::format("$fec << EOD\n{}EOD\n{}plot $fec using 1:2 with lines title 'corrected'\n", fec, swaps);
  return script + "unset multiplot\n";
}

std::string drift_since_qualified(const std::vector<json>& lines, const json& report, std::string& error) {
  const json* latest = nullptr;
  for (auto it = lines.rbegin(); it != lines.rend() && !latest; ++it)
    if (it->value("module", json()).is_object()) latest = &*it;
  if (!latest) {
    error = "the history has no module to compare";
    return "";
  }
  const json& module = (*latest)["module"];
  const std::string serial = module.value("serial", "");
  for (const optics::QualifiedPort& q : optics::qualified_ports_from_json(report)) {
    if (!q.module || q.module->serial != serial || q.samples.empty()) continue;
    std::string out =
        fmt::format("module {} qualified {} on {} ({}); now {}\n", module_text(module), report.value("started_at", "?"),
                    q.port, optics::verdict_name(q.verdict), utc_text(latest->value("time", 0.0)));
    out += fmt::format("{:<16} {:>12} {:>12} {:>12}\n", "monitor", "qualified", "now", "change");
    for (const optics::QualifiedPort::Monitor& then : q.samples.back().monitors) {
      const optics::MonitorName name = optics::split_monitor_name(then.name);
      for (const json& m : module.value("monitors", json::array())) {
        if (m.value("quantity", "") != name.quantity || (name.lane != 0 && m.value("lane", 0U) != name.lane)) continue;
        const bool power = then.unit == "mW";
        const double was = power ? module::mw_to_dbm(then.value) : then.value, now = shown(m);
        const std::string change = power ? fmt::format("{:+.2f} dB", now - was)
                                   : name.quantity == "bias" && was != 0
                                       ? fmt::format("{:+.1f} %", (now / was - 1) * 100)
                                       : fmt::format("{:+.3g} {}", now - was, then.unit);
        out += fmt::format("{:<16} {:>12.3f} {:>12.3f} {:>12}\n", then.name + (power ? " dBm" : " " + then.unit), was,
                           now, change);
      }
    }
    if (const optics::Criterion* ber = q.criterion("pre_fec_ber"))
      out += fmt::format("{:<16} {:>12} {:>12}\n", "pre-FEC BER", ber->measured,
                         value_or_dash<double>(latest->value("fec", json::object()), "pre_fec_ber", "{:.2e}"));
    return out;
  }
  error = fmt::format("the report has no qualified port with the module of serial {}", serial);
  return "";
}

}  // namespace lr::ctl
