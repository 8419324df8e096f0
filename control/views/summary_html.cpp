#include "control/views/summary_html.hpp"

#include <fmt/format.h>

#include <ctime>
#include <vector>

#include "control/reports/hand_over.hpp"
#include "control/reports/report_header.hpp"
#include "control/views/html_page.hpp"
#include "control/reports/quantity_text.hpp"

namespace lr::ctl::html {

using nlohmann::json;

namespace {

// "2026-12-03T20:45:44Z" -> seconds since the epoch; none when it is not that form.
std::optional<std::time_t> utc_seconds(const std::string& iso) {
  std::tm tm{};
  if (strptime(iso.c_str(), "%Y-%m-%dT%H:%M:%S", &tm) == nullptr) return std::nullopt;
  return timegm(&tm);
}

// "2026-12-03 20:54:37 to 20:55:23 UTC (46 s)"; the date again when the run crossed midnight.
std::string when(const report::ReportHeader& header) {
  const std::string& started = header.started_at;
  const std::string& finished = header.finished_at;
  const auto a = utc_seconds(started), b = utc_seconds(finished);
  if (!a) return started.empty() ? "–" : started;
  std::tm start{}, end{};
  gmtime_r(&*a, &start);
  std::string out = fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", start.tm_year + 1900, start.tm_mon + 1, start.tm_mday,
                                start.tm_hour, start.tm_min, start.tm_sec);
  if (!b || *b < *a) return out + " UTC (not finished)";
  gmtime_r(&*b, &end);
  if (end.tm_yday != start.tm_yday || end.tm_year != start.tm_year)
    out += fmt::format(" to {:04}-{:02}-{:02}", end.tm_year + 1900, end.tm_mon + 1, end.tm_mday);
  else out += " to";
  return out + fmt::format(" {:02}:{:02}:{:02} UTC ({})", end.tm_hour, end.tm_min, end.tm_sec,
                           text::duration(static_cast<double>(*b - *a)));
}

std::string port_line(const report::TesterPort& p) {
  std::string speed = p.speed_bps == 0 ? "speed unknown" : "rates refer to " + text::bit_rate(static_cast<double>(p.speed_bps));
  if (p.speed_from_profile)
    speed += p.link_speed_bps == 0 ? " (the profile's speed; the link says none)"
             : p.link_speed_bps == p.speed_bps
                 ? " (the profile's speed, as the link says)"
                 : " (the profile's speed; the link says " + text::bit_rate(static_cast<double>(p.link_speed_bps)) + ")";
  else if (p.speed_bps != 0) speed += " (the link's speed)";
  return fmt::format("<b>{}</b>: {} ({}), {}{}", escape(p.name), escape(p.driver), escape(p.device), escape(speed),
                     p.link_up ? "" : ", link down at the start");
}

}  // namespace

std::string summary(const json& report, const std::string& title, const std::string& headline) {
  const report::ReportHeader header = report::read_report_header(report);
  const std::optional<report::HandOver> hand_over = report::read_hand_over(report);
  const std::string dut = hand_over && !hand_over->dut.empty() ? hand_over->dut : "";
  std::string out = "<h1>linerate " + escape(title) + (dut.empty() ? "" : ": " + escape(dut)) + "</h1>\n";
  out += "<section id=\"summary\">\n";
  if (header.interrupted)
    out += "<p class=\"missing\">Interrupted (Ctrl-C or a signal): what follows is what finished.</p>\n";
  if (header.stopped_by) out += "<p class=\"missing\">Stopped early: " + escape(*header.stopped_by) + "</p>\n";
  out += headline;
  std::vector<std::vector<std::string>> about;
  if (hand_over) {
    about.push_back({"device under test", dut.empty() ? std::string("<span class=\"missing\">not named</span> (the "
                                                                    "profile's [report] dut names it)")
                                                      : "<b>" + escape(dut) + "</b>"});
    if (!hand_over->notes.empty()) about.push_back({"notes", escape(hand_over->notes)});
    about.push_back({"tester", escape(fmt::format("linerate {} on {}", hand_over->linerate_version, hand_over->host))});
    std::string ports;
    for (const report::TesterPort& p : hand_over->ports) ports += (ports.empty() ? "" : "<br>") + port_line(p);
    about.push_back({"ports", ports.empty() ? "–" : ports});
    about.push_back({"operator", escape(hand_over->operator_name)});
  }
  about.push_back({"when", escape(when(header))});
  about.push_back({"profile", escape(header.profile)});
  out += table({}, about, "about");
  return out + "</section>\n";
}

std::string settings(const json& report) {
  const report::ReportHeader header = report::read_report_header(report);
  const json& settings = header.settings;
  if (!settings.is_object() || settings.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  for (const auto& [key, value] : settings.items())
    rows.push_back({escape(text::setting_label(key)), escape(text::setting_value(key, value))});
  return "<h2>Settings</h2>\n" + table({}, rows, "about");
}

}  // namespace lr::ctl::html
