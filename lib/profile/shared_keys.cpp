#include "lib/profile/shared_keys.hpp"

#include <fmt/format.h>

#include <charconv>

#include "lib/profile/quantity.hpp"

namespace lr::profile {

std::optional<std::vector<uint8_t>> read_priorities(TableReader& in, const char* key, const char* not_an_array) {
  const toml::node* node = in.find(key);
  if (node == nullptr) return std::nullopt;
  const toml::array* list = node->as_array();
  if (list == nullptr) in.fail(node, key, not_an_array);
  std::vector<uint8_t> out;
  for (const toml::node& item : *list) out.push_back(in.integer_of<uint8_t>(&item, key, 0, 7));
  return out;
}

std::optional<uint64_t> read_bytes(TableReader& in, const char* key) {
  const toml::node* node = in.find(key);
  if (node == nullptr) return std::nullopt;
  if (node->is_integer()) return in.integer_of<uint64_t>(node, key, 0, int64_t{1} << 50);
  return in.parsed<uint64_t>(key, parse_bytes, "a size: write bytes as an integer, or e.g. '64KB', '1.5MB', '64KiB'");
}

std::map<uint8_t, uint8_t> read_dscp_map(TableReader& in, const toml::table& map) {
  std::map<uint8_t, uint8_t> out;
  for (auto&& [key, value] : map) {
    const std::string dscp_text(key.str());
    const std::string where = "dscp_to_priority." + dscp_text;
    unsigned dscp = 64;
    const auto [end, ec] = std::from_chars(dscp_text.data(), dscp_text.data() + dscp_text.size(), dscp);
    if (ec != std::errc() || end != dscp_text.data() + dscp_text.size() || dscp > 63)
      in.fail(&value, where, "a DSCP is 0-63, e.g. dscp_to_priority = { 26 = 3 }");
    out[static_cast<uint8_t>(dscp)] = in.integer_of<uint8_t>(&value, where, 0, 7);
  }
  return out;
}

EcnCurve read_ecn_curve(TableReader& r, const char* required) {
  const auto kmin = read_bytes(r, "kmin");
  const auto kmax = read_bytes(r, "kmax");
  const auto pmax = r.number("pmax", 0, 1);
  if (!kmin || !kmax || !pmax) r.fail(nullptr, !kmin ? "kmin" : !kmax ? "kmax" : "pmax", required);
  if (*kmin >= *kmax) r.fail(r.find("kmax"), "kmax", fmt::format("{} bytes is not above kmin ({} bytes)", *kmax, *kmin));
  return {*kmin, *kmax, *pmax};
}

WatchdogTimes read_watchdog(TableReader& r) {
  const auto detect = r.parsed<uint64_t>("detect", parse_duration_ns, kDurationHelp);
  const auto restore = r.parsed<uint64_t>("restore", parse_duration_ns, kDurationHelp);
  if (!detect || !restore) r.fail(nullptr, !detect ? "detect" : "restore", "is required");
  WatchdogTimes w{*detect, *restore, false};
  if (auto action = r.string("action")) {
    if (*action != "drop" && *action != "forward")
      r.fail(r.find("action"), "action", fmt::format("'{}' is not one of drop, forward", *action));
    w.forward = *action == "forward";
  }
  return w;
}

}  // namespace lr::profile
