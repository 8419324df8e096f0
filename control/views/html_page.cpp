#include "control/views/html_page.hpp"

#include <fmt/format.h>

#include "control/views/gnuplot_svg.hpp"

namespace lr::ctl::html {

using nlohmann::json;

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string number(const json& value, const char* format) {
  if (value.is_number()) return fmt::format(fmt::runtime(format), value.get<double>());
  if (value.is_null()) return "–";
  return escape(value.is_string() ? value.get<std::string>() : value.dump());
}

std::string figure(const std::string& id, const std::string& caption, const std::string& script) {
  const Svg chart = gnuplot_svg(script);
  return fmt::format("<figure class=\"chart\" id=\"{}\">{}<figcaption>{}</figcaption></figure>\n", id,
                     chart.svg.empty() ? "<p class=\"missing\">chart not drawn: " + escape(chart.error) + "</p>" : chart.svg,
                     escape(caption));
}

std::string table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  std::string out = "<table><tr>";
  for (const std::string& h : header) out += "<th>" + escape(h) + "</th>";
  out += "</tr>\n";
  for (const auto& row : rows) {
    out += "<tr>";
    for (const std::string& cell : row) out += "<td>" + cell + "</td>";
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

std::string page_start(const std::string& title) {
  constexpr const char* kStyle = R"(body{font-family:sans-serif;margin:2em;max-width:70em;color:#222}
table{border-collapse:collapse;margin:0.5em 0 1.5em}td,th{border:1px solid #bbb;padding:0.2em 0.6em;text-align:right}
th{background:#eee}h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}.missing{color:#a00}
figure{margin:1em 0}figcaption{font-size:0.9em;color:#555}.note{color:#555;font-size:0.9em}
.PASS{background:#dfd}.WARN{background:#ffd}.FAIL{background:#fdd}.SKIPPED{background:#eee}.INCOMPLETE{background:#fdb})";
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape(title) + "</title><style>" +
         kStyle + "</style></head><body>\n";
}

}  // namespace lr::ctl::html
