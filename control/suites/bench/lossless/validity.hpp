#pragma once
// When a lossless run says nothing about the device: the rules that make a run invalid
// (to be run again, then not judged), each read from the run's own evidence: the storm's
// refreshes, the tester's TX silences and lcore stalls where the case measures, and the
// stalls and drops of linerate's own switch when it is the device.

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "control/suites/bench/lossless/timeline.hpp"
#include "control/suites/bench/bench_sections.hpp"
#include "lib/api/stall_report.hpp"
#include "lib/profile/profile.hpp"

namespace lr::bench::lossless {

/// linerate's switch held up this long where a case measures: the run is invalid.
constexpr double kEmulationStallLimitUs = 1000;

// Where a case's measurement is taken, in seconds since the run started: a stall of the
// emulated device elsewhere in the run does not touch it.
struct Window {
  double from_s = 0;
  double to_s = 0;
  double stall_limit_us = kEmulationStallLimitUs;  ///< a stall this long there could move the measurement past its bound
  std::string sender;  ///< a stream that sends throughout: its TX silent that long there is the tester held up
};
using Windows = std::vector<Window>;
using WindowsOf = std::function<Windows(const api::RunReport& run_report)>;

/// No window: the run is judged wherever its stalls fell (but for the switch's drops).
extern const WindowsOf kNoWindows;

// The reaction to stream `name`'s first frame: `length` from when it was sent, where a
// stall of `stall_limit_us` or more (of the switch, or of the tester sending "test") could
// have moved what is measured past its bound.
WindowsOf reaction_window(const std::string& name, Sent planned, double length, double stall_limit_us);

// Traffic that must flow through the storm (its longest silence at most half the storm): a
// stall that long anywhere in the run, of the tester's lcores or of the switch, would fake
// the silence. (Not the sender's TX silence: a device that wrongly pauses it makes one.)
WindowsOf flowing_window(const bench::LosslessCfg& c);

// Why a run says nothing about the device, or "": a storm lapsed (the tester's refreshes
// further apart than `pause_s`, the pause each holds), the tester's lcores held up by the
// host where the case measures (`windows`), or linerate's own switch, the device here, held
// up there or long enough that its egress could not catch up. (A test stream the tester
// sent short of its rate still measures what the cases judge: silences, losses, marks, each
// of the frames sent.)
std::string invalid_reason(const api::RunReport& report, double pause_s, const Windows& windows, bool tail_drops_expected);

}  // namespace lr::bench::lossless
