#include "lib/api/stall_report.hpp"

#include <nlohmann/json.hpp>

namespace lr::api {

void to_json(nlohmann::json& j, const Stall& s) { j = nlohmann::json{{"from_s", s.from_s}, {"us", s.us}}; }

void from_json(const nlohmann::json& j, Stall& s) {
  s.from_s = j.value("from_s", 0.0);
  s.us = j.value("us", 0.0);
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(LcoreStalls, lcore, stalls, longest_stall_us, stalled_us, longest_stalls)

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
