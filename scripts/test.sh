#!/usr/bin/env bash
# Sets the host up (scripts/setup.sh) and runs every test suite:
#   unit, vdev, e2e          on the release build (build/)
#   fuzz                     the control socket's request parser and the module EEPROM
#                            decoders, 20 s each (clang libFuzzer, ASan + UBSan)
#   unit, vdev, e2e_sanitize again under AddressSanitizer + UBSan (build-asan/): the e2e
#                            tests that run the CLI's and the control server's own code
# Exits non-zero if any step fails; the closing line counts a failed step as a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

step="setup"
# "N passed, N failed" over both builds from meson's JSON test logs, plus the step that
# failed (a build, the fuzzers) when the script ends early.
summary() {
  local rc=$?
  python3 - "$rc" "$step" build/meson-logs/testlog.json build-asan/meson-logs/testlog.json <<'PY'
import json, os, sys
rc, step = int(sys.argv[1]), sys.argv[2]
counts = {"OK": 0, "FAIL": 0, "SKIP": 0}
for path in sys.argv[3:]:
    if os.path.exists(path):
        for line in open(path):
            result = json.loads(line)["result"]
            key = "OK" if result == "OK" else "SKIP" if result == "SKIP" else "FAIL"
            counts[key] += 1
failed_step = ""
if rc != 0 and counts["FAIL"] == 0:
    counts["FAIL"] += 1
    failed_step = " (step '%s' failed with exit status %d)" % (step, rc)
print("%d passed, %d failed, %d skipped%s" % (counts["OK"], counts["FAIL"], counts["SKIP"], failed_step))
PY
  exit "$rc"
}
trap summary EXIT

rm -f build/meson-logs/testlog.json build-asan/meson-logs/testlog.json
scripts/setup.sh

step="release tests"
meson test -C build --suite unit --suite vdev --suite e2e --print-errorlogs --num-processes 2

step="sanitizer build"
if [[ ! -f build-asan/build.ninja ]]; then
  # Unity build: one translation unit per library (measured: 172 s instead of 253 s on 2 CPUs).
  meson setup build-asan --buildtype=debug -Db_sanitize=address,undefined -Db_lundef=false -Dperf=disabled \
    -Dunity=on >/dev/null
fi
# Only what the sanitized suites run (the executables): not the benchmarks, not the
# header checks.
ninja -C build-asan build.ninja >/dev/null
ninja -C build-asan $(meson introspect build-asan --targets | python3 -c "
import json, os, sys
print(' '.join(os.path.relpath(t['filename'][0], 'build-asan') for t in json.load(sys.stdin)
               if t['type'] == 'executable' and t['name'] != 'rx_accounting_bench'))") > build-asan/ninja.log \
  || { grep -A12 -E "FAILED|error" build-asan/ninja.log | head -60; exit 1; }  # the compiler's words, in the CI log

step="fuzz"
scripts/fuzz.sh 20

step="sanitizer tests"
# DPDK maps memory in ways LeakSanitizer cannot follow at exit; leaks of our own
# objects show as mbufs_not_returned in the vdev tests instead.
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C build-asan --no-rebuild --suite unit --suite vdev --suite e2e_sanitize --print-errorlogs --num-processes 2
step="done"
