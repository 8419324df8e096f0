#!/usr/bin/env bash
# Sets the host up (scripts/setup.sh) and runs every test suite:
#   unit, vdev, e2e          on the release build (build/)
#   unit, vdev               again under AddressSanitizer + UBSan (build-asan/)
# Exits non-zero if any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

meson test -C build --suite unit --suite vdev --suite e2e --print-errorlogs --num-processes 2

if [[ ! -f build-asan/build.ninja ]]; then
  meson setup build-asan --buildtype=debug -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
ninja -C build-asan >/dev/null
# DPDK maps memory in ways LeakSanitizer cannot follow at exit; leaks of our own
# objects show as mbufs_not_returned in the vdev tests instead.
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C build-asan --suite unit --suite vdev --print-errorlogs --num-processes 2
