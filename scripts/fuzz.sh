#!/usr/bin/env bash
# Builds the libFuzzer targets (scripts/sanitizer-build.sh: clang, ASan + UBSan) and runs
# each for a bounded time: scripts/fuzz.sh [seconds per target, default 60] [target...]. Targets (tests/fuzz/):
#   rpc_request     the control socket's request parser
#   module_eeprom   the module EEPROM decoders (SFF-8472, SFF-8636, CMIS)
#   profile         the profile loader: TOML text of any shape, every section
#   flow_rule       the flow pattern language (`linerate flow create ...`)
#   report_views    `linerate report` on any JSON (another version's report, a truncated one)
#   rx_frame        a frame off the wire into the RX path, 0 to 9,216 bytes
#   neighbor_frame  a frame off the wire into the emulated hosts' slow path (ARP, ND, ICMP echo)
#   otg_request     `linerate otg serve`'s request bodies: config, control/state, metrics, capture
#   http_request    what a client sends `linerate otg serve`, in pieces, through its HTTP request parser
# Corpora are seeded from tests/fuzz/corpus, config/examples and the frames the examples'
# streams send (`linerate frames`, when build/ has it). Exits non-zero on a finding; the
# crashing input is left in build-asan/fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
secs=${1:-60}
shift || true
dir=build-asan/fuzz  # corpora, logs and any finding's input

# target NAME MAX_LEN SEED_CORPORA
declare -A seeds max_len
target() { max_len[$1]=$2; seeds[$1]=$3; }
target rpc_request 4096 tests/fuzz/corpus/rpc
target module_eeprom 800 tests/fuzz/corpus/module_eeprom
target profile 16384 config/examples
target flow_rule 512 tests/fuzz/corpus/flow_rule
target report_views 65536 tests/fuzz/corpus/report_views
# A layout byte, then up to 9,216 bytes of frame.
target rx_frame 9217 $dir/seed-rx_frame
# The frames the hosts send and answer (tests/unit/hosts/expected_frames.hpp, as files).
target neighbor_frame 9216 tests/fuzz/corpus/neighbor_frame
# A selector byte (0 config, 1 control/state, 2 metrics, 3 capture), then the body; the seeds
# are snappi 1.60.0's own requests (tests/fuzz/otg_request_fuzz.cpp says how they were made).
target otg_request 65536 tests/fuzz/corpus/otg_request
# A piece-size byte, then the bytes: room for a header over its 8 KiB limit, and more.
target http_request 16384 tests/fuzz/corpus/http_request

targets=("$@")
((${#targets[@]})) || targets=(rpc_request module_eeprom profile flow_rule report_views rx_frame neighbor_frame otg_request
  http_request)
for t in "${targets[@]}"; do
  [[ -n ${max_len[$t]:-} ]] || { echo "fuzz: no target '$t' (${!max_len[*]})"; exit 2; }
done

# The frames the examples' streams send, as rx_frame seeds: one file per frame, its first
# byte the segmentation (whole, then split in two).
seed_rx_frames() {
  local seed_dir=$dir/seed-rx_frame linerate=build/control/linerate
  mkdir -p "$seed_dir"
  [[ -x $linerate ]] || { echo "fuzz: $linerate not built: rx_frame starts without the examples' frames"; return; }
  for profile in config/examples/*.toml; do
    "$linerate" frames "$profile" -n 2 --hex 2>/dev/null || true
  done | python3 -c '
import sys
for i, line in enumerate(sys.stdin):
    frame = bytes.fromhex(line.split()[-1])
    for layout in (0x00, 0x80 | (len(frame) // 2)):
        open("%s/frame%d-%02x" % (sys.argv[1], i, layout), "wb").write(bytes([layout & 0xFF]) + frame)
' "$seed_dir"
}

# A finding's stack with function names, where LLVM's symbolizer is installed (a bare stack of
# addresses names nothing once the build is gone).
symbolizer=$(command -v llvm-symbolizer || compgen -G "/usr/lib/llvm-*/bin/llvm-symbolizer" | head -1 || true)
if [[ -n $symbolizer ]]; then
  export ASAN_SYMBOLIZER_PATH=$symbolizer UBSAN_OPTIONS="symbolize=1:external_symbolizer_path=$symbolizer"
fi

# run TARGET: bounded; the findings' inputs stay in build-asan/fuzz/.
run() {
  local t=$1
  mkdir -p "$dir/corpus-$t"
  set +e
  # shellcheck disable=SC2086
  (cd "$dir" && "../tests/fuzz/${t}_fuzz" -max_total_time="$secs" -max_len="${max_len[$t]}" -timeout=10 -rss_limit_mb=2048 \
     -print_final_stats=1 "corpus-$t" $(for s in ${seeds[$t]}; do echo "$root/$s"; done) > "$t.log" 2>&1)
  local rc=$?
  set -e
  grep -E "^(stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)" "$dir/$t.log" || true
  if ((rc != 0)); then
    tail -40 "$dir/$t.log"
    echo "fuzz: $t found a failing input ($dir/crash-*, timeout-*, oom-*)"
    return "$rc"
  fi
  echo "fuzz: $t ran ${secs}s without a finding"
}
# pairs STEP: runs STEP on the targets two at a time; fails if any failed.
pairs() {
  local step=$1 rc=0 i
  for ((i = 0; i < ${#targets[@]}; i += 2)); do
    local pids=() t
    for t in "${targets[@]:i:2}"; do
      "$step" "$t" > "$dir/$t.$step.summary" 2>&1 &
      pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || rc=1; done
    for t in "${targets[@]:i:2}"; do cat "$dir/$t.$step.summary"; done
  done
  return "$rc"
}

mkdir -p "$dir"
fuzzers=()
for t in "${targets[@]}"; do fuzzers+=("tests/fuzz/${t}_fuzz"); done
scripts/sanitizer-build.sh "${fuzzers[@]}"
seed_rx_frames
pairs run
