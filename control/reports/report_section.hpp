#pragma once
// The [report] section of a profile: what a suite's report says about the device under
// test and who ran it, for a report a lab manager hands over. Read by the suites
// (`linerate bench`, `linerate optics qualify`); the data plane ignores it.

#include <string>
#include <string_view>

#include "lib/profile/profile.hpp"

namespace lr::report {

struct ReportSection {
  std::string dut;            ///< the device under test, as the lab names it ("leaf-3 (Arista 7050X3), port Et1-2")
  std::string notes;          ///< anything the reader should know (firmware, cabling, configuration)
  std::string operator_name;  ///< "": the user who ran the suite (SUDO_USER, else the login name)
};

/// The [report] section of `text`, the TOML `profile` was read from; all empty when there
/// is none. Throws profile::ConfigError at the key.
ReportSection read_report_section(const profile::Profile& profile, std::string_view text);

}  // namespace lr::report
