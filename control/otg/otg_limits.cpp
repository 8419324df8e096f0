#include "control/otg/otg_limits.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

namespace lr::otg {

using nlohmann::json;

namespace {

enum class Held { kOther, kName, kNames };  ///< what a value is, by the key it is under

struct Place {
  const json* value;
  std::string path;
  Held held;
};

size_t utf8_chars(std::string_view s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

Held held_by(std::string_view key) {
  if (key == "name" || key.ends_with("_name")) return Held::kName;
  return key.ends_with("_names") ? Held::kNames : Held::kOther;
}

void check(std::string_view text, size_t limit, const std::string& path, std::vector<std::string>& problems) {
  if (const size_t n = utf8_chars(text); n > limit)
    problems.push_back(fmt::format("{}: {} characters, at most {}", path.empty() ? "config" : path, n, limit));
}

}  // namespace

std::vector<std::string> string_length_problems(const json& body) {
  std::vector<std::string> problems;
  std::vector<Place> todo{{&body, "", Held::kOther}};
  while (!todo.empty()) {
    const Place place = std::move(todo.back());
    todo.pop_back();
    const json& v = *place.value;
    if (v.is_string()) {
      check(v.get_ref<const std::string&>(), place.held == Held::kOther ? kMaxStringChars : kMaxNameChars, place.path,
            problems);
      continue;
    }
    std::vector<Place> children;  // pushed last first, so taken in order
    if (v.is_object()) {
      for (const auto& [key, item] : v.items()) {
        const std::string path = place.path.empty() ? key : place.path + "." + key;
        if (const size_t n = utf8_chars(key); n > kMaxNameChars) {
          problems.push_back(fmt::format("{}: a key of {} characters, at most {}",
                                         place.path.empty() ? "config" : place.path, n, kMaxNameChars));
          continue;  // its path would be as long
        }
        children.push_back({&item, path, held_by(key)});
      }
    } else if (v.is_array()) {
      for (size_t i = 0; i < v.size(); ++i)
        children.push_back(
            {&v[i], fmt::format("{}[{}]", place.path, i), place.held == Held::kNames ? Held::kName : Held::kOther});
    }
    todo.insert(todo.end(), std::make_move_iterator(children.rbegin()), std::make_move_iterator(children.rend()));
  }
  return problems;
}

}  // namespace lr::otg
