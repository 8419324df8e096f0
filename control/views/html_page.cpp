#include "control/views/html_page.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "control/views/gnuplot_svg.hpp"
#include "control/reports/quantity_text.hpp"

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
  if (value.is_number())
    return format == nullptr ? text::plain_number(value.get<double>()) : fmt::format(fmt::runtime(format), value.get<double>());
  if (value.is_null()) return "–";
  return escape(value.is_string() ? value.get<std::string>() : value.dump());
}

std::string figure(const std::string& id, const std::string& caption, const std::string& script) {
  const Svg chart = gnuplot_svg(script);
  return fmt::format("<figure class=\"chart\" id=\"{}\">{}<figcaption>{}</figcaption></figure>\n", id,
                     chart.svg.empty() ? "<p class=\"missing\">chart not drawn: " + escape(chart.error) + "</p>" : chart.svg,
                     escape(caption));
}

namespace {

// The cell's text, its tags left out.
std::string cell_text(const std::string& cell) {
  std::string out;
  bool in_tag = false;
  for (char c : cell) {
    if (c == '<') in_tag = true;
    else if (c == '>') in_tag = false;
    else if (!in_tag) out += c;
  }
  return out;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A number, maybe signed, maybe followed by one word of unit ("3.75 MB", "26.9452", "-3 dB").
bool is_number_cell(const std::string& text) {
  size_t i = text.starts_with('-') || text.starts_with('+') ? 1 : 0;
  if (i >= text.size() || !is_digit(text[i])) return false;
  // One decimal point at most: "198.19.0.1" is an address, set as text.
  int points = 0;
  while (i < text.size() && (is_digit(text[i]) || text[i] == ',' || (text[i] == '.' && ++points == 1))) ++i;
  if (i == text.size()) return true;
  return text[i] == ' ' && text.find(' ', i + 1) == std::string::npos && i + 1 < text.size();
}

bool is_blank_cell(const std::string& text) { return text.empty() || text == "–"; }

}  // namespace

std::string table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                  const std::string& css_class) {
  size_t columns = header.size();
  for (const auto& row : rows) columns = std::max(columns, row.size());
  std::vector<bool> numeric(columns, false), text_seen(columns, false);
  for (const auto& row : rows)
    for (size_t i = 0; i < row.size(); ++i) {
      const std::string t = cell_text(row[i]);
      if (is_blank_cell(t)) continue;
      if (is_number_cell(t)) numeric[i] = true;
      else text_seen[i] = true;
    }
  const auto cls = [&](size_t i) { return numeric[i] && !text_seen[i] ? std::string(" class=\"num\"") : std::string(); };
  std::string out = css_class.empty() ? "<table>" : "<table class=\"" + escape(css_class) + "\">";
  if (!header.empty()) {
    out += "<tr>";
    for (size_t i = 0; i < header.size(); ++i) out += "<th" + cls(i) + ">" + escape(header[i]) + "</th>";
    out += "</tr>";
  }
  out += "\n";
  for (const auto& row : rows) {
    out += "<tr>";
    for (size_t i = 0; i < row.size(); ++i) out += "<td" + cls(i) + ">" + row[i] + "</td>";
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

void drop_empty_columns(std::vector<std::string>& header, std::vector<std::vector<std::string>>& rows) {
  for (size_t column = header.size(); column-- > 0;) {
    const bool empty = std::all_of(rows.begin(), rows.end(), [&](const std::vector<std::string>& row) {
      return column >= row.size() || is_blank_cell(cell_text(row[column]));
    });
    if (!empty || rows.empty()) continue;
    header.erase(header.begin() + static_cast<std::ptrdiff_t>(column));
    for (auto& row : rows)
      if (column < row.size()) row.erase(row.begin() + static_cast<std::ptrdiff_t>(column));
  }
}

std::string page_start(const std::string& title) {
  constexpr const char* kStyle = R"(body{font-family:sans-serif;margin:2em;max-width:70em;color:#222}
table{border-collapse:collapse;margin:0.5em 0 1.5em}td,th{border:1px solid #bbb;padding:0.2em 0.6em;text-align:left;vertical-align:top}
th{background:#eee}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}th.num{text-align:right}table.about td:first-child{background:#f4f4f4;white-space:nowrap}
#summary{border-bottom:2px solid #888;margin-bottom:1em}h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em}.missing{color:#a00}
figure{margin:1em 0}figcaption{font-size:0.9em;color:#555}.note{color:#555;font-size:0.9em}
.PASS{background:#dfd}.WARN{background:#ffd}.FAIL{background:#fdd}.SKIPPED{background:#eee}.INCOMPLETE{background:#fdb})";
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape(title) + "</title><style>" +
         kStyle + "</style></head><body>\n";
}

}  // namespace lr::ctl::html
