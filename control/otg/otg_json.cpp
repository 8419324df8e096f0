#include "control/otg/otg_json.hpp"

#include <charconv>

namespace lr::otg {

using nlohmann::json;

std::optional<uint64_t> whole_number(const json& v) {
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer() && v.get<int64_t>() >= 0) return static_cast<uint64_t>(v.get<int64_t>());
  if (!v.is_string()) return std::nullopt;
  const std::string s = v.get<std::string>();
  uint64_t out = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return out;
}

std::optional<double> number(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (const auto n = whole_number(v)) return static_cast<double>(*n);
  return std::nullopt;
}

const char* kind_said(const json& v) {
  switch (v.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    case json::value_t::binary: return "binary";
    case json::value_t::discarded: return "discarded";
    default: return "a number";
  }
}

std::string string_at(const json& object, const char* key, const char* fallback) {
  return object.is_object() && object.value(key, json()).is_string() ? object[key].get<std::string>() : fallback;
}

}  // namespace lr::otg
