#pragma once
// The first screen of every suite's page (RFC 2544, NDR / PDR, the lossless plan, optics
// qualification), so that the page handed over stands on its own: the suite's headline
// (a verdict or figure per frame size, case or port), the device under test, the tester
// with each port's driver and speed, who ran it and when; and the settings as a person
// reads them (labels, units).

#include <nlohmann/json.hpp>
#include <string>

namespace lr::ctl::html {

/// `title`: the suite ("RFC 2544"); `headline`: its summary table (HTML). Reads the
/// report's `dut`, `tester`, `profile`, `started_at`, `finished_at`, `interrupted` and
/// `stopped_by`.
std::string summary(const nlohmann::json& report, const std::string& title, const std::string& headline);

/// The report's `settings`, one row each: label and value with its unit.
std::string settings(const nlohmann::json& report);

}  // namespace lr::ctl::html
