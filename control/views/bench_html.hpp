#pragma once
// report.html of a benchmark report: one self-contained page (no script, no external
// file) rebuilt from report.json alone: what ran, the answers as tables, and the charts
// (throughput and latency against frame size, the frame-loss curve, back-to-back
// bursts, and each search's trials) drawn by gnuplot and inlined as SVG.

#include <nlohmann/json.hpp>
#include <string>

namespace lr::ctl {

std::string bench_html(const nlohmann::json& report);

/// A report's `frame_size` as text: the bytes ("64"), or the mix's name ("imix").
std::string frame_size_text(const nlohmann::json& frame_size);

}  // namespace lr::ctl
