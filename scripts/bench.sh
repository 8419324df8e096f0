#!/usr/bin/env bash
# Hot-path benchmark (not a test): Mpps per lcore, next to dpdk-testpmd in the same run.
#   1. TX, 64-byte 802.1Q + IPv4 + UDP frames with signatures, one worker lcore on
#      net_null, against `dpdk-testpmd --forward-mode=txonly` (64-byte frames) on the
#      same vdev and lcores.
#      Next to them the floor (tests/perf/null_tx_floor): mempool + net_null alone.
#   2. RX accounting per lcore (signature, sequence tracking, latency histogram) and the
#      free of the mbufs, on bursts of 32 signed frames in mbufs: Google Benchmark, no
#      PMD; mbufs and stream state on hugepages when the host has them free (as the data
#      plane runs). The frames cycled through fit in the caches (a NIC that writes into
#      the LLC), or each frame's line is flushed to DRAM after its burst (a NIC that
#      writes to memory); with them, the host's DRAM latency (what the first frame of
#      each burst waits).
#   3. TX + RX + accounting on ONE lcore over net_ring loopback (frames/s through it).
#   4. TX of RoCEv2 frames (BTH + RETH, PSN and ICRC per frame) on net_null, at the
#      smallest RoCE write and at a 1024-byte payload: what the per-frame ICRC costs.
#   5. TX as real profiles send: a field varied per frame (UDP source over 1000 values)
#      and an IMIX stream (64, 594, 1518 B as 7 : 4 : 1), against
#      `dpdk-testpmd --txonly-multi-flow` (it varies the IPv4 source per frame); two fields
#      varied (IPv4 source and UDP source); frames copied from a pool the streams share
#      ([run] tx_buffers = "shared").
#   6. 1,000 and 10,000 streams on one TX lcore, each paced at its own rate (spread over two
#      decades, 90 % of 40G at 64 B in all: scripts/paced-streams.py): the aggregate, how
#      many streams are within 0.1 % of their own rate, and the lcore's stalls.
# Usage: scripts/bench.sh [seconds per run, default 5] [TX runs each, default 5].
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
runs=${2:-5}
bin=build/dataplane/linerate-dataplane
[[ -x $bin ]] || scripts/setup.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if grep -q "^HugePages_Free: *[1-9]" /proc/meminfo; then huge=on; tp_mem=(); else huge=off; tp_mem=(--no-huge -m 512); fi

# profile DEVICE RX_PORT_LINE RX_QUEUES [FRAME_SIZE] [MORE_KEYS] [UDP_DST]: a one-port profile.
source scripts/bench-profile.sh
json() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# testpmd's txonly frames/s over `secs` seconds on net_null; $@: more testpmd options.
testpmd_txonly() {
  local out
  out=$( (sleep 1; echo "show port stats 0"; sleep "$secs"; echo "show port stats 0"; echo stop; echo quit) |
    dpdk-testpmd -l 0-1 "${tp_mem[@]}" --no-pci --vdev net_null0 --file-prefix lr-bench-tp --log-level lib.eal:warning -- \
      -i --forward-mode=txonly --txpkts=60 --burst=32 --txq=1 --rxq=1 --nb-cores=1 --auto-start "$@" 2>&1)
  echo "$out" | grep -o "Tx-pps: *[0-9]*" | tail -1 | awk '{print $2}'
}
# linerate's frames/s sending the profile $1.
linerate_tx() {
  $bin -c "$1" -r "$tmp/tx.json" -q > /dev/null
  json "$tmp/tx.json" "r['streams'][0]['tx_pps_achieved']"
}

# 1. TX: linerate vs testpmd txonly, interleaved runs (this kind of VM drifts by
# +-25 % from one run to the next), reported as median [min-max].
profile net_null0 "" 0 > "$tmp/tx.toml"
# The floor: mempool and net_null's per-frame free alone, nothing written per frame (the
# most any generator can reach on net_null). Run before each linerate run and once more at
# the end, so that each linerate run has a floor run on either side.
null_floor() {
  build/tests/perf/null_tx_floor "$secs" -l 0-1 "${tp_mem[@]}" --no-pci --vdev net_null0 \
    --file-prefix lr-bench-floor --log-level lib.eal:warning | grep -o "Mpps=[0-9.]*" | cut -d= -f2 | awk '{print $1 * 1e6}'
}
lr_runs=()
tp_runs=()
floor_runs=()
for ((i = 0; i < runs; i++)); do
  floor_runs+=("$(null_floor)")
  lr_runs+=("$(linerate_tx "$tmp/tx.toml")")
  tp_runs+=("$(testpmd_txonly)")
done
floor_runs+=("$(null_floor)")
stats() { python3 -c "import sys, statistics as st; v=sorted(float(x)/1e6 for x in sys.argv[1:]); print('%.2f [%.2f-%.2f]' % (st.median(v), v[0], v[-1]))" "$@"; }
floor_tx=$(stats "${floor_runs[@]}")
lr_tx=$(stats "${lr_runs[@]}")
tp_tx=$(stats "${tp_runs[@]}")

# 2. RX accounting
# rx_counter FILTER COUNTER: the counter in the first benchmark FILTER matches, with the
# unit Google Benchmark gave it (e.g. 143.951ns).
rx_counter() {
  build/tests/perf/rx_accounting_bench --benchmark_filter="$1" --benchmark_min_time=2 2>/dev/null |
    grep -o "$2=[0-9.]*[a-z]*" | head -1 | cut -d= -f2
}
rx_bench() { rx_counter "$1" Mpps | xargs printf "%.2f"; }
rx_hot=$(rx_bench 'streams:16/frames:256/capture:0/slow:0$')
rx_cold=$(rx_bench 'streams:16/frames:4096/capture:0/slow:0$')
rx_slow=$(rx_bench 'streams:16/frames:4096/capture:0/slow:1$')
# The capture's cost as a ratio, run by run: with and without it in turn, three times; and
# the hook's with no capture (capture:0) against the accounting called without it (capture:2).
capture_runs=()
uncaptured_runs=()
unhooked_runs=()
for ((i = 0; i < 3; i++)); do
  capture_runs+=("$(rx_bench 'streams:16/frames:4096/capture:1/slow:0$')")
  uncaptured_runs+=("$(rx_bench 'streams:16/frames:4096/capture:0/slow:0$')")
  unhooked_runs+=("$(rx_bench 'streams:16/frames:4096/capture:2/slow:0$')")
done
rx_capture=$(stats "${capture_runs[@]/%/e6}")
rx_many=$(rx_bench 'streams:1024/frames:16384/capture:0/slow:0$')
rx_dram=$(rx_bench 'FromDram/streams:16/frames:4096/')
rx_dram_many=$(rx_bench 'FromDram/streams:1024/frames:16384/')
dram_ns=$(rx_counter DramLatency per_line)

# 3. loopback TX + RX + accounting on one lcore
profile net_ring0 'rx_port = "p0"' 1 > "$tmp/ring.toml"
$bin -c "$tmp/ring.toml" -r "$tmp/ring.json" -q > /dev/null
ring=$(json "$tmp/ring.json" "'%.2f Mpps, lost %d' % (r['streams'][0]['tx_pps_achieved'] / 1e6, r['streams'][0]['lost'])")

# 4. RoCEv2 TX: one run each (no testpmd equivalent)
roce_tx() {
  profile net_null0 "" 0 "$1" 'roce = { opcode = "rc-write-only", dest_qp = 17 }' 4791 > "$tmp/roce.toml"
  $bin -c "$tmp/roce.toml" -r "$tmp/roce.json" -q > /dev/null
  json "$tmp/roce.json" "'%.2f' % (r['streams'][0]['tx_pps_achieved'] / 1e6)"
}
roce_small=$(roce_tx 98)
roce_large=$(roce_tx 1106)

# 5. TX with per-frame variation, interleaved with testpmd's multi-flow txonly
profile net_null0 "" 0 64 'vary = [ { field = "udp.src", count = 1000 } ]' > "$tmp/vary.toml"
profile net_null0 "" 0 '[64, 594, 1518]
frame_weights = [7, 4, 1]' > "$tmp/imix.toml"
profile net_null0 "" 0 64 'vary = [ { field = "ipv4.src", count = 250 }, { field = "udp.src", count = 1000 } ]' \
  > "$tmp/vary2.toml"
profile net_null0 "" 0 > "$tmp/shared.toml"
sed -i 's/^live = false$/live = false\ntx_buffers = "shared"/' "$tmp/shared.toml"
vary_runs=()
vary2_runs=()
imix_runs=()
shared_runs=()
multi_runs=()
fixed_runs=()  # the fixed-header row again, beside these runs: the goals are ratios to it
for ((i = 0; i < runs; i++)); do
  fixed_runs+=("$(linerate_tx "$tmp/tx.toml")")
  vary_runs+=("$(linerate_tx "$tmp/vary.toml")")
  vary2_runs+=("$(linerate_tx "$tmp/vary2.toml")")
  imix_runs+=("$(linerate_tx "$tmp/imix.toml")")
  shared_runs+=("$(linerate_tx "$tmp/shared.toml")")
  multi_runs+=("$(testpmd_txonly --txonly-multi-flow)")
done

# 6. Paced streams: one run each, judged stream by stream.
paced() {
  scripts/paced-streams.py profile "$1" "$secs" > "$tmp/paced.toml"
  sed -i "s/^huge_pages = \"auto\"$/huge_pages = \"$huge\"/" "$tmp/paced.toml"
  $bin -c "$tmp/paced.toml" -r "$tmp/paced.json" -q > /dev/null
  scripts/paced-streams.py judge "$tmp/paced.json" "$secs"
}
paced_1k=$(paced 1000)
paced_10k=$(paced 10000)

cpu=$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
echo "CPU: $cpu; $(nproc) CPUs; $secs s per run; hugepages: $huge; DPDK $(pkg-config --modversion libdpdk)"
printf "%-64s %s\n" "benchmark (one lcore each)" "Mpps"
printf "%-64s %s\n" "TX 64 B, net_null: dpdk-testpmd --forward-mode=txonly" "$tp_tx"
printf "%-64s %s\n" "TX 64 B, net_null: linerate (VLAN+IPv4+UDP, signature, checksums)" "$lr_tx"
printf "%-64s %s\n" "TX 64 B, net_null floor: mempool + PMD, nothing written per frame" "$floor_tx"
# Each linerate run against the testpmd run right after it, and against the floor runs on
# either side of it (their geometric mean): the VM's speed mode rarely changes between two
# adjacent runs, so the median of these ratios survives a mode change that makes the medians
# above mix the two modes.
run_by_run() {  # $1 label, $2 format of a ratio, $3 "bracketed" or "next"; the linerate runs, then the others
  python3 -c "
import math, statistics, sys
label, fmt, against = sys.argv[1:4]
v = sys.argv[4:]
n = len(v) // 2 if against == 'next' else (len(v) - 1) // 2
lr, other = [float(x) for x in v[:n]], [float(x) for x in v[n:]]
base = other if against == 'next' else [math.sqrt(other[i] * other[i + 1]) for i in range(n)]
pairs = [a / b for a, b in zip(lr, base)]
each = '%.3f' if '.3f' in fmt else '%.2f'
print('%s, run by run: %s; median %s' % (label, ' '.join(each % r for r in pairs), fmt % statistics.median(pairs)))
" "$@"
}
run_by_run "linerate TX / testpmd" "%.2fx" next "${lr_runs[@]}" "${tp_runs[@]}"
run_by_run "linerate TX / the floor (the runs before and after)" "%.2f" bracketed "${lr_runs[@]}" "${floor_runs[@]}"
printf "%-64s %s\n" "RX accounting + free, 64 B signed, 16 streams, 256 frames (L1/L2)" "$rx_hot"
printf "%-64s %s\n" "RX accounting + free, 16 streams, 4096 frames (out of L1)" "$rx_cold"
printf "%-64s %s\n" "RX accounting + free, 1024 streams, 16384 frames (out of L2)" "$rx_many"
printf "%-64s %s\n" "RX accounting + free, 16 streams, each frame's line from DRAM" "$rx_dram"
printf "%-64s %s\n" "RX accounting + free, 1024 streams, each frame's line from DRAM" "$rx_dram_many"
printf "%-64s %s\n" "  (one frame's line from DRAM, nothing overlapping it)" "$dram_ns"
printf "%-64s %s\n" "RX, 16 streams, 4096 frames, a capture that matches nothing" "$rx_capture"
printf "%-64s %s\n" "RX, 16 streams, 4096 frames, 1 in 100 an ARP for the hosts" "$rx_slow"
printf "%-64s %s\n" "TX + RX + accounting on one lcore, net_ring loopback" "$ring"
printf "%-64s %s\n" "TX RoCEv2 98 B (VLAN, BTH + RETH, PSN + ICRC per frame), net_null" "$roce_small"
printf "%-64s %s\n" "TX RoCEv2 1106 B (same, 1024-byte payload), net_null" "$roce_large"
printf "%-64s %s\n" "TX 64 B, net_null: dpdk-testpmd --txonly-multi-flow" "$(stats "${multi_runs[@]}")"
printf "%-64s %s\n" "TX 64 B, net_null: linerate, vary udp.src over 1000 values" "$(stats "${vary_runs[@]}")"
printf "%-64s %s\n" "TX 64 B, net_null: linerate, vary ipv4.src x 250 and udp.src x 1000" "$(stats "${vary2_runs[@]}")"
printf "%-64s %s\n" "TX IMIX 64/594/1518 B 7:4:1, net_null: linerate" "$(stats "${imix_runs[@]}")"
printf "%-64s %s\n" "TX 64 B, net_null: linerate, frames copied from a shared pool" "$(stats "${shared_runs[@]}")"
run_by_run "vary / fixed (goal >= 0.8)" "%.2f" next "${vary_runs[@]}" "${fixed_runs[@]}"
run_by_run "vary, two fields / fixed (goal >= 0.8)" "%.2f" next "${vary2_runs[@]}" "${fixed_runs[@]}"
run_by_run "IMIX / fixed (goal >= 0.8)" "%.2f" next "${imix_runs[@]}" "${fixed_runs[@]}"
run_by_run "vary / testpmd --txonly-multi-flow (goal >= 2)" "%.2fx" next "${vary_runs[@]}" "${multi_runs[@]}"
run_by_run "RX with a capture that matches nothing / without (goal >= 0.90)" "%.2f" next "${capture_runs[@]}" \
  "${uncaptured_runs[@]}"
run_by_run "RX with the capture hook, no capture / without the hook (goal 1.00)" "%.3f" next \
  "${uncaptured_runs[@]}" "${unhooked_runs[@]}"
echo "1,000 paced streams, one lcore (goal: 53.57 Mpps, each within 0.1 %): $paced_1k"
echo "10,000 paced streams, one lcore (goal: the same): $paced_10k"
