#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for a bounded
# time: scripts/fuzz.sh [seconds per target, default 60]. Targets: the control socket's
# request parser, the module EEPROM decoders (SFF-8472, SFF-8636, CMIS). Exits non-zero on a finding;
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
# The two targets build side by side (one CPU each), then run side by side.
"$cxx" "${flags[@]}" -o build-fuzz/rpc_request_fuzz tests/fuzz/rpc_request_fuzz.cpp \
  dataplane/mgmt/dispatcher.cpp dataplane/api/rpc.cpp -lfmt &
rpc_build=$!
"$cxx" "${flags[@]}" -o build-fuzz/module_eeprom_fuzz tests/fuzz/module_eeprom_fuzz.cpp \
  dataplane/port/module/{module_identity,sff8472,sff8636,cmis,decoded_module}.cpp -lfmt
wait "$rpc_build"

# run TARGET CORPUS MAX_LEN: bounded, the findings' inputs stay in build-fuzz/.
run() {
  local target=$1 corpus=$2 max_len=$3
  mkdir -p "build-fuzz/corpus-$target"
  set +e
  (cd build-fuzz && "./$target" -max_total_time="$secs" -max_len="$max_len" -print_final_stats=1 \
     "corpus-$target" "../$corpus" > "$target.log" 2>&1)
  local rc=$?
  set -e
  grep -E "^(stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)" "build-fuzz/$target.log" || true
  if ((rc != 0)); then
    tail -40 "build-fuzz/$target.log"
    echo "fuzz: $target found a failing input (build-fuzz/crash-*)"
    exit "$rc"
  fi
  echo "fuzz: $target ran ${secs}s without a finding"
}
( run rpc_request_fuzz tests/fuzz/corpus/rpc 4096 ) > build-fuzz/rpc_request_fuzz.summary 2>&1 &
rpc_run=$!
( run module_eeprom_fuzz tests/fuzz/corpus/module_eeprom 800 ) > build-fuzz/module_eeprom_fuzz.summary 2>&1 &
module_run=$!
rc=0
wait "$rpc_run" || rc=$?
wait "$module_run" || rc=$?
cat build-fuzz/rpc_request_fuzz.summary build-fuzz/module_eeprom_fuzz.summary
exit "$rc"
