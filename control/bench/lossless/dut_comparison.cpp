#include "control/bench/lossless/dut_comparison.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace lr::bench::lossless {

using nlohmann::json;

std::vector<std::string> dut_comparison(const json& trials, const std::string& case_name) {
  std::vector<std::string> lines;
  for (const json& t : trials) {
    if (t.value("case", "") != case_name || !t.value("invalid_reason", "").empty()) continue;
    const json& r = t["report"];
    std::vector<std::string> parts;
    for (const json& s : r.value("streams", json::array())) {
      const auto tx = s.value("tx_packets", uint64_t{0});
      const std::string name = s.value("name", "");
      if (s.value("rx_port", json()).is_null()) {
        parts.push_back(fmt::format("'{}': {} PFC / PAUSE frames sent to the device from '{}' (its MAC Control "
                                    "received)", name, tx, s.value("tx_port", "")));
        continue;
      }
      const auto rx = s.value("rx_packets", uint64_t{0});
      parts.push_back(fmt::format("'{}': {} frames sent to the device from '{}', {} received from it ({} it dropped{})",
                                  name, tx, s.value("tx_port", ""), rx, tx > rx ? tx - rx : 0,
                                  s.contains("ecn_ce") ? fmt::format(", {} it marked CE", s.value("ecn_ce", uint64_t{0}))
                                                       : std::string()));
    }
    for (const json& port : r.value("ports", json::array()))
      for (const json& cls : port.value("mac_control", json::object()).value("pfc", json::array()))
        if (cls.value("xoff", 0) != 0 || cls.value("xon", 0) != 0)
          parts.push_back(fmt::format("'{}' heard {} PFC XOFF and {} XON for priority {} (the device's PFC sent)",
                                      port.value("name", ""), cls.value("xoff", 0), cls.value("xon", 0),
                                      cls.value("priority", 0)));
    const std::string label = t.value("label", "");
    lines.push_back((label.empty() ? "" : label + ": ") + fmt::format("{}", fmt::join(parts, "; ")));
  }
  return lines;
}

}  // namespace lr::bench::lossless
