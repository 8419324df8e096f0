#pragma once
// The lossless plan's cases, one file each: each builds its runs' streams, runs them (valid
// runs only are judged), and holds what they measured to its bounds (lossless_verdicts).

#include "control/suites/bench/lossless/plan.hpp"
#include "control/suites/bench/lossless_verdicts.hpp"

namespace lr::bench::lossless {

/// 1: PFC on a lossless priority holds it for the storm, nothing lost, the background goes on.
CaseOutcome pfc_pause(Plan& p);
/// 2: PFC on a lossy priority is not obeyed.
CaseOutcome lossy_not_paused(Plan& p);
/// 3: 802.3x PAUSE ignored (a PFC port) or honoured, as configured.
CaseOutcome global_pause(Plan& p);
/// 4: the PFC frame to the last frame of its priority, within the bound.
CaseOutcome response_time(Plan& p);
/// 5: each pause lasts its quanta, within the tolerance.
CaseOutcome quanta_sweep(Plan& p);
/// 6: the device's headroom absorbs a sender that obeys its PFC late.
CaseOutcome headroom(Plan& p);
/// 7: N:1 incast: the lossless priority loses nothing, the lossy one at most the excess.
CaseOutcome incast(Plan& p);
/// 8: the PFC watchdog finds a storm, drops or forwards, and restores.
CaseOutcome watchdog(Plan& p);
/// 9: CE marks follow the Kmin / Kmax / Pmax curve.
CaseOutcome ecn(Plan& p);

}  // namespace lr::bench::lossless
