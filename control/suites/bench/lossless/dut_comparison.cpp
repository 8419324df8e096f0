#include "control/suites/bench/lossless/dut_comparison.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace lr::bench::lossless {

std::vector<std::string> dut_comparison(const std::vector<JudgedRun>& runs, const std::string& case_name) {
  std::vector<std::string> lines;
  for (const JudgedRun& run : runs) {
    if (run.case_name != case_name) continue;
    std::vector<std::string> parts;
    for (const api::StreamReport& s : run.report.streams) {
      if (!s.rx_port) {
        parts.push_back(fmt::format("'{}': {} PFC / PAUSE frames sent to the device from '{}' (its MAC Control "
                                    "received)", s.name, s.tx_packets, s.tx_port));
        continue;
      }
      parts.push_back(fmt::format("'{}': {} frames sent to the device from '{}', {} received from it ({} it dropped{})",
                                  s.name, s.tx_packets, s.tx_port, s.rx_packets,
                                  s.tx_packets > s.rx_packets ? s.tx_packets - s.rx_packets : 0,
                                  s.ecn ? fmt::format(", {} it marked CE", s.ecn->ce) : std::string()));
    }
    for (const api::PortReport& port : run.report.ports)
      if (port.mac_control)
        for (const api::PauseClassReport& cls : port.mac_control->pfc)
          if (cls.xoff != 0 || cls.xon != 0)
            parts.push_back(fmt::format("'{}' heard {} PFC XOFF and {} XON for priority {} (the device's PFC sent)",
                                        port.name, cls.xoff, cls.xon, cls.priority));
    lines.push_back((run.label.empty() ? "" : run.label + ": ") + fmt::format("{}", fmt::join(parts, "; ")));
  }
  return lines;
}

}  // namespace lr::bench::lossless
