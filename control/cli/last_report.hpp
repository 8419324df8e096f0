#pragma once
// The last run's report, kept by the CLI where `linerate report --last` finds it after the
// data plane that ran it is gone (a one-shot run's ends with it): a per-user state file,
// $XDG_STATE_HOME/linerate/last-report.json (else ~/.local/state/linerate/).

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace lr::ctl {

/// The state file; "" when neither XDG_STATE_HOME nor HOME says where.
std::string last_report_path();

/// Keeps `report` there (its directory made); when it cannot, says why on stderr (a warning:
/// the run's own output and report file stand). Returns whether it was kept.
bool keep_last_report(const nlohmann::json& report);

/// The kept report; none when there is none (or it does not read as JSON).
std::optional<nlohmann::json> kept_last_report();

}  // namespace lr::ctl
