#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for a bounded
# time: scripts/fuzz.sh [seconds per target, default 60]. Exits non-zero on a finding;
# the crashing input is left in build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
cxx=$(command -v clang++-14 || command -v clang++ || true)
if [[ -z $cxx ]]; then
  echo "fuzz: clang is not installed (apt-get install clang-14)"; exit 1
fi
mkdir -p build-fuzz
flags=(-std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I.)
"$cxx" "${flags[@]}" -o build-fuzz/rpc_request_fuzz tests/fuzz/rpc_request_fuzz.cpp \
  dataplane/mgmt/dispatcher.cpp dataplane/api/rpc.cpp -lfmt
mkdir -p build-fuzz/corpus-rpc
cd build-fuzz
set +e
./rpc_request_fuzz -max_total_time="$secs" -max_len=4096 -print_final_stats=1 corpus-rpc ../tests/fuzz/corpus/rpc \
  > rpc_request_fuzz.log 2>&1
rc=$?
set -e
grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)" rpc_request_fuzz.log || true
if ((rc != 0)); then
  tail -40 rpc_request_fuzz.log
  echo "fuzz: rpc_request_fuzz found a failing input (build-fuzz/crash-*)"
  exit "$rc"
fi
echo "fuzz: rpc_request_fuzz ran ${secs}s without a finding"
