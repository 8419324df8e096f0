#!/usr/bin/env bash
# Two builds of the hot path against each other. This kind of VM drifts by +-25 % from run
# to run and jumps between speed modes, so one run of each build proves nothing: the two
# are run in turn, pair after pair, and compared by their medians and by the median of the
# B / A ratios taken pair by pair (two adjacent runs rarely straddle a mode change).
# Rows: bench.sh's TX profiles (64 B, VLAN + IPv4 + UDP, signatures, one lcore on net_null;
# the same with udp.src varied over 1000 values; IMIX 64 / 594 / 1518 B, 7 : 4 : 1) and RX accounting with 16 streams and with 1,024 streams interleaved, the frames out of L1
# and L2, and with each frame's line from DRAM (a revision without that benchmark: "-").
# Each revision runs its own RX benchmark: from 52cf074 on it counts each burst's free.
# Usage: scripts/bench-ab.sh REV_A [REV_B] [pairs, default 8: each of four layouts twice] [seconds a TX run, default 3]
#   REV_A, REV_B: git revisions, each built in a worktree under a temporary folder; REV_B
#   "." (the default) is the working tree as build/ has it (scripts/setup.sh builds it).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 ]] || { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
rev_a=$1
rev_b=${2:-.}
pairs=${3:-8}
secs=${4:-3}
[[ $pairs =~ ^[1-9][0-9]*$ ]] || { echo "bench-ab: pairs must be a whole number above 0, not '$pairs'" >&2; exit 2; }
[[ $secs =~ ^[1-9][0-9]*$ ]] || { echo "bench-ab: seconds must be a whole number above 0, not '$secs'" >&2; exit 2; }
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1  # worktrees share scripts/setup.sh's cache
tmp=$(mktemp -d)
cleanup() {  # the worktrees this run added (build_of runs in a subshell: found by their folder)
  git worktree list --porcelain | sed -n "s|^worktree \($tmp/.*\)|\1|p" |
    while read -r w; do git worktree remove --force "$w"; done
  rm -rf "$tmp"
}
trap cleanup EXIT

targets=(dataplane/linerate-dataplane tests/perf/rx_accounting_bench)
# The build folder of a revision: build/ for ".", else a release build in a worktree.
build_of() {
  if [[ $1 == . ]]; then
    ninja -C build "${targets[@]}" >&2
    echo build
    return
  fi
  local dir=$tmp/$2
  git rev-parse --verify --quiet "$1^{commit}" > /dev/null || { echo "bench-ab: '$1' is no revision" >&2; exit 2; }
  git worktree add --detach --quiet "$dir" "$1"
  echo "bench-ab: building $1 in $dir/build" >&2
  meson setup "$dir/build" "$dir" --buildtype=release -Dunity=on -Dunity_size=100 > /dev/null
  ninja -C "$dir/build" "${targets[@]}" >&2
  echo "$dir/build"
}
build_a=$(build_of "$rev_a" a)
build_b=$(build_of "$rev_b" b)

if grep -q "^HugePages_Free: *[1-9]" /proc/meminfo; then huge=on; else huge=off; fi
source scripts/bench-profile.sh
profile net_null0 "" 0 > "$tmp/tx.toml"
profile net_null0 "" 0 64 'vary = [ { field = "udp.src", count = 1000 } ]' > "$tmp/vary.toml"
profile net_null0 "" 0 64 'vary = [ { field = "ipv4.src", count = 250 }, { field = "udp.src", count = 1000 } ]' \
  > "$tmp/vary2.toml"
profile net_null0 "" 0 '[64, 594, 1518]
frame_weights = [7, 4, 1]' > "$tmp/imix.toml"

# One measurement of each row by the build in $1 in pair $2, as "tx vary vary2 imix rx16 rx1024 dram16 dram1024 capture" (Mpps,
# nan where the build has no such benchmark).
# The report's path changes with the pair ($2): one TX binary read 168-172 Mpps with one
# path and 182-186 with another (the program's heap laid out otherwise), and two builds
# of the same TX loop 8 % apart with one path each (docs/dev/benchmarks.md); over four
# paths, each build is measured over four layouts, not one that favours it.
measure() {
  local report
  report=$tmp/$(printf "%$((($2 % 4) * 9))s" "" | tr " " r)tx.json
  tx_of() {
    "$1/dataplane/linerate-dataplane" -c "$2" -r "$report" -q > /dev/null
    python3 -c "import json,sys; print('%.2f' % (json.load(open(sys.argv[1]))['streams'][0]['tx_pps_achieved'] / 1e6))" "$report"
  }
  local tx vary vary2 imix rx16 rx1024 dram16 dram1024 capture
  tx=$(tx_of "$1" "$tmp/tx.toml")
  vary=$(tx_of "$1" "$tmp/vary.toml")
  vary2=$(tx_of "$1" "$tmp/vary2.toml")
  imix=$(tx_of "$1" "$tmp/imix.toml")
  rx() {
    local mpps
    mpps=$("$1/tests/perf/rx_accounting_bench" --benchmark_filter="$2" --benchmark_min_time=1.5 2>/dev/null |
      grep -o "Mpps=[0-9.]*" | head -1 | cut -d= -f2 || true)
    echo "${mpps:-nan}"
  }
  rx16=$(rx "$1" 'streams:16/frames:4096/capture:0(/slow:0)?$')
  rx1024=$(rx "$1" 'streams:1024/frames:16384/capture:0(/slow:0)?$')
  dram16=$(rx "$1" 'FromDram/streams:16/frames:4096/')
  dram1024=$(rx "$1" 'FromDram/streams:1024/frames:16384/')
  capture=$(rx "$1" 'streams:16/frames:4096/capture:1(/slow:0)?$')
  echo "$tx $vary $vary2 $imix $rx16 $rx1024 $dram16 $dram1024 $capture"
}

: > "$tmp/a.mpps"
: > "$tmp/b.mpps"
for ((i = 1; i <= pairs; i++)); do
  measure "$build_a" "$i" >> "$tmp/a.mpps"
  measure "$build_b" "$i" >> "$tmp/b.mpps"
  echo "bench-ab: pair $i of $pairs: A $(tail -1 "$tmp/a.mpps"), B $(tail -1 "$tmp/b.mpps")" >&2
done

cpu=$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "CPU: $cpu; $(nproc) CPUs; $pairs pairs, A then B; TX runs of $secs s; hugepages: $huge"
described() { if [[ $1 == . ]]; then echo "the working tree (on $(git rev-parse --short HEAD))"; else echo "$1 ($(git rev-parse --short "$1"))"; fi; }
echo "A: $(described "$rev_a")"
echo "B: $(described "$rev_b")"
python3 - "$tmp/a.mpps" "$tmp/b.mpps" <<'PY'
import math, statistics, sys
a = [list(map(float, line.split())) for line in open(sys.argv[1])]
b = [list(map(float, line.split())) for line in open(sys.argv[2])]
rows = ["TX 64 B, net_null, one lcore", "TX 64 B, udp.src over 1000 values",
        "TX 64 B, ipv4.src x 250, udp.src x 1000", "TX IMIX 64/594/1518 B 7:4:1",
        "RX accounting, 16 streams, out of L1", "RX accounting, 1024 streams, out of L2",
        "RX accounting, 16 streams, from DRAM", "RX accounting, 1024 streams, from DRAM",
        "RX, 16 streams, a capture matching nothing"]
print("%-40s %10s %10s %8s %14s" % ("Mpps (medians)", "A", "B", "B/A", "B/A pairwise"))
for k, name in enumerate(rows):
    if any(math.isnan(r[k]) for r in a + b):
        print("%-40s %10s %10s %8s %14s" % (name, "-", "-", "-", "-"))
        continue
    ma, mb = statistics.median(r[k] for r in a), statistics.median(r[k] for r in b)
    pairwise = statistics.median(y[k] / x[k] for x, y in zip(a, b))
    print("%-40s %10.2f %10.2f %+7.1f%% %+13.1f%%" % (name, ma, mb, 100 * (mb / ma - 1), 100 * (pairwise - 1)))
PY
