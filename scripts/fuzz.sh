#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for a bounded
# time: scripts/fuzz.sh [seconds per target, default 60] [target...]. Targets (tests/fuzz/):
#   rpc_request     the control socket's request parser
#   module_eeprom   the module EEPROM decoders (SFF-8472, SFF-8636, CMIS)
#   profile         the profile loader: TOML text of any shape, every section
#   flow_rule       the flow pattern language (`linerate flow create ...`)
#   report_views    `linerate report` on any JSON (another version's report, a truncated one)
#   rx_frame        a frame off the wire into the RX path, 0 to 9,216 bytes
# Corpora are seeded from tests/fuzz/corpus, config/examples and the frames the examples'
# streams send (`linerate frames`, when build/ has it). Exits non-zero on a finding; the
# crashing input is left in build-fuzz/.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
# clang 16: libstdc++ 12's <expected> (the project's Result) needs the conditionally
# trivial special members that clang implements from 16 on, but announces only from 19
# (__cpp_concepts 202002L), so the macro is raised by hand.
cxx=$(command -v clang++-16 || true)
if [[ -z $cxx ]]; then
  echo "fuzz: clang 16 is not installed (apt-get install clang-16 libclang-rt-16-dev)"; exit 1
fi
link=$cxx
command -v ccache >/dev/null && cxx="ccache $cxx"
mkdir -p build-fuzz
flags=(-std=c++2b -D__cpp_concepts=202002L -Wno-macro-redefined -O1 -g
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I.)
dpdk_cflags=$(pkg-config --cflags libdpdk | sed 's/-I/-isystem /g')

# target NAME MAX_LEN SEED_CORPORA SOURCES [CFLAGS] [LIBRARIES]
declare -A sources cflags libs seeds max_len
target() { max_len[$1]=$2; seeds[$1]=$3; sources[$1]=$4; cflags[$1]=${5:-}; libs[$1]=${6:-}; }
target rpc_request 4096 tests/fuzz/corpus/rpc \
  "tests/fuzz/rpc_request_fuzz.cpp dataplane/mgmt/dispatcher.cpp dataplane/api/rpc.cpp" "" -lfmt
target module_eeprom 800 tests/fuzz/corpus/module_eeprom \
  "tests/fuzz/module_eeprom_fuzz.cpp $(echo dataplane/port/module/{module_identity,sff8472,sff8636,cmis,decoded_module}.cpp)" \
  "" -lfmt
target profile 16384 config/examples \
  "tests/fuzz/profile_fuzz.cpp $(echo dataplane/profile/{load_toml,profile,quantity}.cpp)" \
  "$(pkg-config --cflags tomlplusplus)" "$(pkg-config --libs tomlplusplus) -lfmt"
target flow_rule 512 tests/fuzz/corpus/flow_rule \
  "tests/fuzz/flow_rule_fuzz.cpp dataplane/port/flow/flow_rule.cpp dataplane/common/result.cpp" "$dpdk_cflags" -lfmt
target report_views 65536 tests/fuzz/corpus/report_views \
  "tests/fuzz/report_views_fuzz.cpp $(echo control/views/{report_kinds,bench_csv,bench_html,html_page,lossless_views,qualify_html}.cpp)" \
  "" -lfmt
# A layout byte, then up to 9,216 bytes of frame.
target rx_frame 9217 build-fuzz/seed-rx_frame \
  "tests/fuzz/rx_frame_fuzz.cpp dataplane/fastpath/worker.cpp" "$dpdk_cflags" "$(pkg-config --libs libdpdk)"

targets=("$@")
((${#targets[@]})) || targets=(rpc_request module_eeprom profile flow_rule report_views rx_frame)
for t in "${targets[@]}"; do
  [[ -n ${sources[$t]:-} ]] || { echo "fuzz: no target '$t' (${!sources[*]})"; exit 2; }
done

# The frames the examples' streams send, as rx_frame seeds: one file per frame, its first
# byte the segmentation (whole, then split in two).
seed_rx_frames() {
  local dir=build-fuzz/seed-rx_frame linerate=build/control/linerate
  mkdir -p "$dir"
  [[ -x $linerate ]] || { echo "fuzz: $linerate not built: rx_frame starts without the examples' frames"; return; }
  for profile in config/examples/*.toml; do
    "$linerate" frames "$profile" -n 2 --hex 2>/dev/null || true
  done | python3 -c '
import sys
for i, line in enumerate(sys.stdin):
    frame = bytes.fromhex(line.split()[-1])
    for layout in (0x00, 0x80 | (len(frame) // 2)):
        open("%s/frame%d-%02x" % (sys.argv[1], i, layout), "wb").write(bytes([layout & 0xFF]) + frame)
' "$dir"
}

# Two at a time (one per CPU): build, then run.
build() {
  local t=$1 src objects=()
  mkdir -p "build-fuzz/obj-$t"
  : > "build-fuzz/$t.build.log"
  # One compile per source, so that ccache can keep each; then the link.
  for src in ${sources[$t]}; do
    objects+=("build-fuzz/obj-$t/$(basename "$src" .cpp).o")
    # shellcheck disable=SC2086  # cflags holds words on purpose
    $cxx "${flags[@]}" ${cflags[$t]} -c "$src" -o "${objects[-1]}" >> "build-fuzz/$t.build.log" 2>&1 \
      || { cat "build-fuzz/$t.build.log"; echo "fuzz: building $t failed ($src)"; return 1; }
  done
  # shellcheck disable=SC2086
  $link "${flags[@]}" -o "build-fuzz/${t}_fuzz" "${objects[@]}" ${libs[$t]} >> "build-fuzz/$t.build.log" 2>&1 \
    || { cat "build-fuzz/$t.build.log"; echo "fuzz: linking $t failed"; return 1; }
}
# run TARGET: bounded; the findings' inputs stay in build-fuzz/.
run() {
  local t=$1
  mkdir -p "build-fuzz/corpus-$t"
  set +e
  # shellcheck disable=SC2086
  (cd build-fuzz && "./${t}_fuzz" -max_total_time="$secs" -max_len="${max_len[$t]}" -timeout=10 -rss_limit_mb=2048 \
     -print_final_stats=1 "corpus-$t" $(for s in ${seeds[$t]}; do echo "../$s"; done) > "$t.log" 2>&1)
  local rc=$?
  set -e
  grep -E "^(stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)" "build-fuzz/$t.log" || true
  if ((rc != 0)); then
    tail -40 "build-fuzz/$t.log"
    echo "fuzz: $t found a failing input (build-fuzz/crash-*, timeout-*, oom-*)"
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
      "$step" "$t" > "build-fuzz/$t.$step.summary" 2>&1 &
      pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid" || rc=1; done
    for t in "${targets[@]:i:2}"; do cat "build-fuzz/$t.$step.summary"; done
  done
  return "$rc"
}

seed_rx_frames
pairs build
pairs run
