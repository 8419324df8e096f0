#pragma once
// `linerate`'s exit codes, all in one place (docs/reference/exit-codes.md): 0 done; then the CLI's
// own, the module decoder's and the verdict commands' (`linerate bench lossless`,
// `linerate optics qualify`). A signal's stop exits 128 + N (stop_signal.hpp).

namespace lr::ctl {

constexpr int kExitRefused = 1;       ///< the data plane refused (a JSON-RPC error)
constexpr int kExitUsage = 2;         ///< bad arguments
constexpr int kExitNoDataplane = 3;   ///< no data plane reachable
constexpr int kExitReportFile = 4;    ///< the report file cannot be written
constexpr int kExitChecksumsBad = 5;  ///< a module image decoded, but its checksums do not hold
constexpr int kExitFailed = 3;        ///< a verdict against the device: it failed a check
constexpr int kExitIncomplete = 6;    ///< none failed, but something was not judged (SKIPPED, INCOMPLETE): not a pass
/// `linerate run`: the run was cut short by its data plane going away; the report holds the counts last seen
constexpr int kExitDataplaneLost = 7;

}  // namespace lr::ctl
