#pragma once
// `linerate optics history PORT`'s views of a port's stored series (its history lines,
// control/suites/optics/optics_history.hpp): a table of the readings, a gnuplot script for
// an SVG chart with the module's own thresholds drawn, and what drifted since the module
// passed qualification (`--since-qualified`). Pure.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "control/suites/optics/qualify_report.hpp"

namespace lr::ctl {

/// The last `rows` readings (0: all), oldest first: time, link, flaps, temperature, per-lane
/// bias / TX / RX power, FEC corrected per second, uncorrectable total, pre-FEC BER. A
/// reading that did not arrive is a row saying why; a module swapped is a row of its own.
std::string history_table(const std::vector<nlohmann::json>& lines, size_t rows);

/// A gnuplot script (no terminal) of three charts over time: RX power per lane in dBm with
/// the module's low warning and low alarm, laser bias per lane, FEC corrected codewords per
/// second (log scale). A module swap is a vertical line. "" when no line has a module or FEC.
std::string history_chart_script(const std::vector<nlohmann::json>& lines, const std::string& port);

/// The module now (the last line with one) against the same serial in a qualification
/// report: each monitor then and now with its change (dB for power, % for bias, C for
/// temperature) and the pre-FEC BER. Sets `error` (and returns "") when the report has no
/// port with that module.
std::string drift_since_qualified(const std::vector<nlohmann::json>& lines, const nlohmann::json& report,
                                  std::string& error);

}  // namespace lr::ctl
