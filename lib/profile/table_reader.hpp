#pragma once
// Reads one TOML table of a profile: typed getters that throw ConfigError with the file,
// line and full key, and finish() refuses keys nobody asked for (a typo must not be
// ignored). Shared by the profile's section readers; not part of its interface.

#include <fmt/format.h>

#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <toml++/toml.h>
#include <vector>

#include "lib/common/nearest_name.hpp"
#include "lib/profile/load_toml.hpp"

namespace lr::profile {

/// TOML text parsed, its syntax errors as ConfigError at their line and column.
toml::table parse_profile_toml(std::string_view text, const std::string& path);

inline api::SourceLoc loc_of(const toml::node& node) {
  return api::SourceLoc{static_cast<uint32_t>(node.source().begin.line),
                   static_cast<uint32_t>(node.source().begin.column)};
}

inline const char* type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    default: return "a date or time";
  }
}

class TableReader {
 public:
  TableReader(const toml::table& table, std::string prefix, const std::string& file)
      : table_(table), prefix_(std::move(prefix)), file_(file) {}

  const toml::node* find(const char* key) {
    seen_.insert(key);
    const toml::node* node = table_.get(key);
    if (node != nullptr) key_locs_[key] = loc_of(*node);
    return node;
  }

  /// Where each key read so far stands: errors found later point at the key's own line.
  const std::map<std::string, api::SourceLoc, std::less<>>& key_locs() const noexcept { return key_locs_; }

  [[noreturn]] void fail(const toml::node* at, const std::string& key, const std::string& reason) const {
    const api::SourceLoc loc = at != nullptr ? loc_of(*at) : loc_of(table_);
    throw ConfigError(file_, loc, prefix_ + key, reason);
  }

  std::optional<std::string> string(const char* key) {
    const toml::node* node = find(key);
    if (node == nullptr) return std::nullopt;
    if (!node->is_string()) fail(node, key, fmt::format("expected a string, found {}", type_name(*node)));
    return node->as_string()->get();
  }

  /// An array of strings; `not_an_array` says what to write instead.
  std::optional<std::vector<std::string>> strings(const char* key, const std::string& not_an_array) {
    const toml::node* node = find(key);
    if (node == nullptr) return std::nullopt;
    const toml::array* array = node->as_array();
    if (array == nullptr) fail(node, key, not_an_array);
    std::vector<std::string> out;
    for (const toml::node& item : *array) {
      if (!item.is_string()) fail(&item, key, "expected an array of strings");
      out.push_back(item.as_string()->get());
    }
    return out;
  }

  std::string required_string(const char* key) {
    auto value = string(key);
    if (!value) fail(nullptr, key, "is required");
    if (value->empty()) fail(find(key), key, "must not be empty");
    return *value;
  }

  template <class T>
  std::optional<T> integer(const char* key, int64_t min, int64_t max) {
    const toml::node* node = find(key);
    if (node == nullptr) return std::nullopt;
    return integer_of<T>(node, key, min, max);
  }

  /// A number (integer or not) in [min, max].
  std::optional<double> number(const char* key, double min, double max) {
    const toml::node* node = find(key);
    if (node == nullptr) return std::nullopt;
    const auto value = node->value<double>();
    if (!value) fail(node, key, fmt::format("expected a number, found {}", type_name(*node)));
    if (*value < min || *value > max) fail(node, key, fmt::format("{} is out of range [{}, {}]", *value, min, max));
    return *value;
  }

  /// A percentage: a number (0.1) or, as rates are written, a string with % ("0.1%").
  std::optional<double> percent(const char* key, double min, double max) {
    const toml::node* node = find(key);
    if (node == nullptr) return std::nullopt;
    std::optional<double> value = node->value<double>();
    if (const auto text = node->value<std::string>()) {
      char* end = nullptr;
      const double v = std::strtod(text->c_str(), &end);
      while (end != nullptr && *end == ' ') ++end;
      if (end != text->c_str() && end != nullptr && std::string_view(end) == "%") value = v;
      else fail(node, key, fmt::format("'{}' is not a percentage: write e.g. 0.1 or '0.1%'", *text));
    }
    if (!value) fail(node, key, fmt::format("expected a percentage (0.1 or '0.1%'), found {}", type_name(*node)));
    if (*value < min || *value > max) fail(node, key, fmt::format("{} % is out of range [{}, {}] %", *value, min, max));
    return *value;
  }

  template <class T>
  T integer_of(const toml::node* node, const std::string& key, int64_t min, int64_t max) const {
    if (!node->is_integer()) fail(node, key, fmt::format("expected an integer, found {}", type_name(*node)));
    const int64_t value = node->as_integer()->get();
    if (value < min || value > max)
      fail(node, key, fmt::format("{} is out of range [{}, {}]", value, min, max));
    return static_cast<T>(value);
  }

  std::optional<bool> boolean(const char* key) {
    const toml::node* node = find(key);
    if (node == nullptr) return std::nullopt;
    if (!node->is_boolean()) fail(node, key, fmt::format("expected true or false, found {}", type_name(*node)));
    return node->as_boolean()->get();
  }

  template <class T, class Parse>
  std::optional<T> parsed(const char* key, Parse parse, const char* what) {
    const toml::node* node = find(key);
    if (node == nullptr) return std::nullopt;
    if (!node->is_string()) fail(node, key, fmt::format("expected {}, found {}", what, type_name(*node)));
    const std::string text = node->as_string()->get();
    auto value = parse(text);
    if (!value) fail(find(key), key, fmt::format("'{}' is not {}", text, what));
    return value;
  }

  const toml::table* subtable(const char* key) {
    const toml::node* node = find(key);
    if (node == nullptr) return nullptr;
    if (!node->is_table()) fail(node, key, fmt::format("expected a table, found {}", type_name(*node)));
    return node->as_table();
  }

  /// Refuses a key nobody asked for, at the key itself, with the asked-for key it most
  /// likely meant.
  void finish() const {
    for (auto&& [key, node] : table_) {
      const std::string name(key.str());
      if (seen_.contains(name)) continue;
      const std::string meant = nearest_name(name, std::vector<std::string>(seen_.begin(), seen_.end()));
      const api::SourceLoc at{static_cast<uint32_t>(key.source().begin.line),
                              static_cast<uint32_t>(key.source().begin.column)};
      throw ConfigError(file_, at.line != 0 ? at : loc_of(node), prefix_ + name,
                        meant.empty() ? "unknown key (see config/README.md for the schema)"
                                      : fmt::format("unknown key: did you mean '{}'? (see config/README.md for the "
                                                    "schema)", meant));
    }
  }

  const std::string& prefix() const noexcept { return prefix_; }
  const std::string& file() const noexcept { return file_; }
  const toml::table& table() const noexcept { return table_; }

 private:
  const toml::table& table_;
  std::string prefix_;
  const std::string& file_;
  std::set<std::string, std::less<>> seen_;
  std::map<std::string, api::SourceLoc, std::less<>> key_locs_;
};

inline constexpr const char* kRateHelp =
    "a rate: write '10%' (of line rate), '1.5Mpps', '5Gbps' (L1), '5Gbps-l2' or 'max'";
inline constexpr const char* kDurationHelp = "a duration: write e.g. '500ns', '20us', '100ms', '5s' or '2m'";

}  // namespace lr::profile
