#include "control/reports/report_section.hpp"

#include <toml++/toml.h>

#include "lib/profile/load_toml.hpp"
#include "lib/profile/table_reader.hpp"

namespace lr::report {

ReportSection read_report_section(const profile::Profile& profile, std::string_view text) {
  const toml::table root = profile::parse_profile_toml(text, profile.path);
  profile::TableReader in(root, "", profile.path);  // the other keys are the profile's: no finish()
  ReportSection out;
  const toml::table* section = in.subtable("report");
  if (section == nullptr) return out;
  profile::TableReader r(*section, "report.", profile.path);
  if (auto v = r.string("dut")) out.dut = *v;
  if (auto v = r.string("notes")) out.notes = *v;
  if (auto v = r.string("operator")) out.operator_name = *v;
  r.finish();
  return out;
}

}  // namespace lr::report
