#pragma once
// What every self-contained HTML report page is built from (benchmarks, optics
// qualification): escaped text, numbers from the JSON, tables, gnuplot charts inlined as
// SVG (or the reason one was not drawn), and the one style sheet.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lr::ctl::html {

std::string escape(const std::string& text);

/// A JSON value as a cell: numbers through `format` (none: six significant digits, never
/// an exponent), null as "–", the rest as text.
std::string number(const nlohmann::json& value, const char* format = nullptr);

/// A chart drawn by gnuplot from `script`, in its figure; when gnuplot could not draw
/// it, the reason in its place.
std::string figure(const std::string& id, const std::string& caption, const std::string& script);

/// Cells are HTML already (escape them); the header is text (none: no header row). A
/// column of numbers (a number, maybe with its unit, or "–") is right-aligned, text left.
std::string table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                  const std::string& css_class = "");

/// Leaves out the columns whose every cell is "–" or empty (a test that did not run).
void drop_empty_columns(std::vector<std::string>& header, std::vector<std::vector<std::string>>& rows);

/// The page up to and including <body>, with `title` and the shared style sheet.
std::string page_start(const std::string& title);

}  // namespace lr::ctl::html
