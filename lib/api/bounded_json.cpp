#include "lib/api/bounded_json.hpp"

#include <fmt/format.h>

namespace lr::api {

std::optional<std::string> json_depth_problem(std::string_view text, size_t max_depth) {
  size_t depth = 0;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '\\') ++i;  // an escape: its next byte is never the closing quote
      else if (c == '"') quoted = false;
      continue;
    }
    if (c == '"') {
      quoted = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return fmt::format("JSON nested deeper than {} levels at byte {}", max_depth, i + 1);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;  // an unbalanced one is the parser's to refuse
    }
  }
  return std::nullopt;
}

nlohmann::json parse_bounded_json(std::string_view text, size_t max_depth) {
  if (auto problem = json_depth_problem(text, max_depth)) throw JsonTooDeep(*problem);
  return nlohmann::json::parse(text);
}

}  // namespace lr::api
