#pragma once
// What a suite's report says before its results, so that a page handed over stands on
// its own: the device under test and the notes about it, and the tester (linerate's
// version, the host, each port with its driver and the speed its rates refer to: "26 %
// of line" means nothing without the port's 100 Mbit/s), and who ran it. Written into
// report.json as `dut` and `tester`; the pages' summaries read it back.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "control/reports/report_section.hpp"
#include "lib/api/run_report.hpp"

namespace lr::report {

struct TesterPort {
  std::string name;
  std::string device;             ///< the profile's device string (PCI address, vdev)
  std::string driver;
  uint64_t speed_bps = 0;         ///< what rates and percentages refer to
  bool speed_from_profile = false;
  uint64_t link_speed_bps = 0;    ///< what the link said when the suite started
  bool link_up = false;
};

struct HandOver {
  std::string dut;                ///< "": not named in the profile ([report] dut)
  std::string notes;
  std::string linerate_version;
  std::string host;
  std::string operator_name;
  std::vector<TesterPort> ports;
};

/// The hand-over of a suite about to run on `ports`: the profile's [report] section, this
/// program's version, the host's name and the operator ([report] operator, else SUDO_USER,
/// else the login name).
HandOver hand_over(const ReportSection& section, const std::vector<api::PortReport>& ports);

/// Adds `dut` and `tester` to a suite's report.
void write_hand_over(nlohmann::json& report, const HandOver& hand_over);

/// The hand-over of a suite's report; none for a report written before it was kept (or
/// one whose `tester` is not an object). Throws nlohmann::json::exception on a field of
/// the wrong type.
std::optional<HandOver> read_hand_over(const nlohmann::json& report);

}  // namespace lr::report
