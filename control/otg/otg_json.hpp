#pragma once
// What reading an OTG config's JSON needs throughout: the problems found so far (every
// one with its JSON path), and OTG's numbers and choices as snappi writes them.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lr::otg {

/// The problems found so far; reading goes on past one, so a client sees them all.
struct Problems {
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
  void refuse(const std::string& path, const std::string& why) { errors.push_back(path + ": " + why); }
};

/// snappi sends 64-bit integers as strings ("pps": "1000"); both forms are numbers here.
std::optional<uint64_t> whole_number(const nlohmann::json& v);
std::optional<double> number(const nlohmann::json& v);

/// The string at `key` of `object`, or `fallback` when there is none (or not a string).
std::string string_at(const nlohmann::json& object, const char* key, const char* fallback);
/// A value's kind as a refusal says it: "flow.flow_names[2]: a number, not a string".
const char* kind_said(const nlohmann::json& v);

/// The choice an OTG object makes.
inline std::string choice_of(const nlohmann::json& object, const char* fallback) {
  return string_at(object, "choice", fallback);
}

}  // namespace lr::otg
