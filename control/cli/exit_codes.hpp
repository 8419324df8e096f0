#pragma once
// The exit codes of the commands that give verdicts (`linerate bench lossless`,
// `linerate optics qualify`), beyond 0 (every verdict passed), 1, 2 and 4 (the CLI's
// own), and 128 + N (stopped by signal N: partial results, never a pass or a fail).

namespace lr::ctl {

constexpr int kExitFailed = 3;      ///< a verdict against the device: it failed a check
constexpr int kExitIncomplete = 6;  ///< none failed, but something was not judged (SKIPPED, INCOMPLETE): not a pass

}  // namespace lr::ctl
