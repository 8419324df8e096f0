#!/usr/bin/env bash
# Sets the host up (scripts/setup.sh) and runs every test suite:
#   unit, vdev, e2e          on the release build (build/), but for the e2e tests of
#                            suite e2e_sanitize, which run once, under the sanitizers
#   fuzz                     nine libFuzzer targets, 20 s each (ASan + UBSan): the
#                            control socket's request parser, the module EEPROM decoders, the
#                            profile loader, the flow pattern language, `linerate report` on
#                            any JSON, a frame off the wire into the RX path and into the
#                            emulated hosts' slow path, `linerate otg serve`'s request
#                            bodies (seeded with snappi's own) and its HTTP request framing
#   unit, vdev, e2e_sanitize under AddressSanitizer + UBSan (build-asan/, clang,
#                            scripts/sanitizer-build.sh, which the fuzz targets share):
#                            unit and vdev a second time; the e2e tests of e2e_sanitize run
#                            the CLI's and the control server's own code, which the
#                            sanitizers check and a release run would only repeat
#   tidy                     clang-tidy-16 (.clang-tidy) on every source of lib/, dataplane/
#                            and control/ (scripts/check-tidy.sh; about 10 min on 2 CPUs);
#                            last, so that a finding does not keep the sanitizers from running
# Only the unit tests run side by side: every vdev and e2e test runs a data plane's
# busy-polling lcores and runs alone (is_parallel: false in tests/meson.build), so that
# it measures the tester, not its neighbour.
# Exits non-zero if any step fails; the closing lines give each step's time and count a
# failed step as a failure. Compiles go through ccache (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1  # as scripts/setup.sh

step="setup"
step_started=$SECONDS
step_times=""
# begin NAME: the previous step ends here (its time noted), NAME begins.
begin() {
  step_times+="$(printf '  %-16s %4d s' "$step" $((SECONDS - step_started)))"$'\n'
  step=$1
  step_started=$SECONDS
}

# "N passed, N failed" over both builds from meson's JSON test logs, plus the step that
# failed (a build, the fuzzers) when the script ends early; the steps' times before it,
# and the checks the host kept from being judged.
summary() {
  local rc=$?
  [[ $step == done ]] || begin "$step (ended)"
  printf 'step times (%d s in all):\n%s' "$SECONDS" "$step_times"
  python3 - "$rc" "$step" build/meson-logs/testlog.json build-asan/meson-logs/testlog.json <<'PY'
import json, os, re, sys
rc, step = int(sys.argv[1]), sys.argv[2]
counts = {"OK": 0, "FAIL": 0, "SKIP": 0}
not_judged = []
for path in sys.argv[3:]:
    if os.path.exists(path):
        for line in open(path):
            test = json.loads(line)
            result = test["result"]
            key = "OK" if result == "OK" else "SKIP" if result == "SKIP" else "FAIL"
            counts[key] += 1
            for said in re.findall(r"not judged[^\n]*", test.get("stdout", "") or ""):
                not_judged.append("%s: %s" % (test["name"], said))
failed_step = ""
if rc != 0 and counts["FAIL"] == 0:
    counts["FAIL"] += 1
    failed_step = " (step '%s' failed with exit status %d)" % (step.replace(" (ended)", ""), rc)
if not_judged:
    print("runs the host spoiled (run again, or not judged), by the tests' own evidence:")
    for said in not_judged:
        print("  " + said)
print("%d passed, %d failed, %d skipped%s" % (counts["OK"], counts["FAIL"], counts["SKIP"], failed_step))
PY
  exit "$rc"
}
trap summary EXIT

rm -f build/meson-logs/testlog.json build-asan/meson-logs/testlog.json
scripts/setup.sh

begin "release tests"
meson test -C build --suite unit --suite vdev --suite e2e --no-suite e2e_sanitize --print-errorlogs --num-processes 2

begin "sanitizer build"
scripts/sanitizer-build.sh

begin "fuzz"
scripts/fuzz.sh 20

begin "sanitizer tests"
# DPDK maps memory in ways LeakSanitizer cannot follow at exit; leaks of our own
# objects show as mbufs_not_returned in the vdev tests instead.
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C build-asan --no-rebuild --suite unit --suite vdev --suite e2e_sanitize --print-errorlogs --num-processes 2

begin "tidy"
scripts/check-tidy.sh --all -j 2
begin "done"
