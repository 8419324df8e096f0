#pragma once
// The views of an optics qualification report, rebuilt from report.json alone:
// report.html (one self-contained page: the verdicts per port and, per port, time series
// of RX power per lane, FEC corrected bits per second, uncorrectable blocks, temperature
// and received frames, drawn by gnuplot) and summary.csv (one row per module, keyed by
// vendor, part and serial number, for the lab's inventory).

#include <nlohmann/json.hpp>
#include <string>

namespace lr::ctl {

std::string qualify_html(const nlohmann::json& report);

std::string qualify_summary_csv(const nlohmann::json& report);

}  // namespace lr::ctl
