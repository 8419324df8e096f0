#include "lib/api/stall_report.hpp"

#include <nlohmann/json.hpp>

#include "lib/api/json_fields.hpp"

namespace lr::api {

// Not LR_JSON_ADL's inline pair: the header declares these for switch_report.cpp, whose
// translation unit must find a definition to link (a non-unity build has none inline).
void to_json(nlohmann::json& j, const Stall& s) { j = write_fields(s, LR_JSON_FIELDS(from_s, us)); }
void from_json(const nlohmann::json& j, Stall& s) {
  if (!j.is_object())
    throw nlohmann::json::type_error::create(302, std::string("type must be object, but is ") + j.type_name(), nullptr);
  s = read_fields<Stall>(j, LR_JSON_FIELDS(from_s, us));
}

LR_JSON_ADL(LcoreStalls, lcore, stalls, longest_stall_us, stalled_us, longest_stalls)

bool stall_overlaps(const Stall& stall, double from_s, double to_s, double min_us) {
  return stall.us >= min_us && stall.from_s <= to_s && stall.from_s + stall.us * 1e-6 >= from_s;
}

std::optional<LcoreStall> longest_stall_within(const std::vector<LcoreStalls>& lcores, double from_s, double to_s) {
  std::optional<LcoreStall> longest;
  for (const LcoreStalls& l : lcores)
    for (const Stall& stall : l.longest_stalls)  // longest first: the first that overlaps is this lcore's
      if (stall_overlaps(stall, from_s, to_s, 0)) {
        if (!longest || stall.us > longest->stall.us) longest = LcoreStall{l.lcore, stall};
        break;
      }
  return longest;
}

nlohmann::json to_json(const LcoreStalls& s) { return nlohmann::json(s); }
LcoreStalls lcore_stalls_from_json(const nlohmann::json& j) { return j.get<LcoreStalls>(); }

}  // namespace lr::api
