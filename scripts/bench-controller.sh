#!/usr/bin/env bash
# What one controller costs over many data planes (not a test): `linerate record --locations`
# reading N data planes every interval (each one's traffic status, stats.ports, stats.streams
# and every port's merged counters, as a recording does, each on its own thread and TLS
# connection) and writing a line of them all; its CPU time as a share of one core, measured
# from /proc after its connections are up. The data planes are stand-ins
# (scripts/engine-standin.py) that answer with what a real data plane answered mid-run
# (2 ports, 8 streams sending): N real ones would need N lcores spinning, which a 2-core
# machine lacks; what the controller reads, parses and writes is the same.
# Usage: scripts/bench-controller.sh [data planes, default 16] [seconds, default 10] [interval, default 100ms]
# PROFILE_TO=FILE: perf's report of the controller's time, written to FILE.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-16}
secs=${2:-10}
interval=${3:-100ms}
bin=build/dataplane/linerate-dataplane
cli=build/control/linerate
[[ -x $bin && -x $cli ]] || scripts/setup.sh
tmp=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null || true; done
  wait 2> /dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
wait_for() {  # FILE WHAT: up to 20 s
  for _ in $(seq 200); do [[ -e $1 ]] && return 0; sleep 0.1; done
  echo "bench-controller: no $2 after 20 s" >&2
  exit 1
}

# 1. What a real data plane answers mid-run: 2 ports on net_null, 8 streams sending.
{
  printf '[eal]\nlcores = "0-1"\nhuge_pages = "off"\nextra_args = ["--file-prefix", "lr-bench-ctl"]\n'
  printf '[control]\nsocket = "%s"\n' "$tmp/dp.sock"
  for p in 0 1; do printf '[[port]]\nname = "p%d"\ndevice = "net_null%d"\nspeed = "40G"\n' "$p" "$p"; done
  for s in 0 1 2 3 4 5 6 7; do
    printf '[[stream]]\nname = "s%d"\ntx_port = "p%d"\nrx_port = "p%d"\nframe_size = 128\nrate = "100kpps"\n' \
      "$s" $((s % 2)) $(((s + 1) % 2))
  done
} > "$tmp/dp.toml"
$bin --config "$tmp/dp.toml" --serve --quiet > /dev/null &
pids+=($!)
wait_for "$tmp/dp.sock" "data plane socket"
sleep 0.5
$cli --socket "$tmp/dp.sock" start > /dev/null
sleep 1
python3 - "$tmp/dp.sock" "$tmp/answers.json" << 'PY'
import json, socket, sys
sock = socket.socket(socket.AF_UNIX)
sock.connect(sys.argv[1])
reader = sock.makefile()
def call(method, **params):
    sock.sendall((json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}) + "\n").encode())
    return json.loads(reader.readline())["result"]
answers = {m: call(m) for m in ("hello", "port.list", "traffic.status", "stats.ports", "stats.streams")}
answers["port.counters"] = {p["name"]: call("port.counters", port=p["name"]) for p in answers["stats.ports"]}
json.dump(answers, open(sys.argv[2], "w"))
for k, v in answers.items(): print("  %s: %d bytes" % (k, len(json.dumps(v))), file=sys.stderr)
PY
kill "${pids[0]}"
wait "${pids[0]}" 2> /dev/null || true
pids=()

# 2. N stand-ins, and the controller recording them all.
scripts/engine-certs.sh "$tmp/certs" 127.0.0.1 > /dev/null
python3 scripts/engine-standin.py "$tmp/answers.json" "$tmp/certs" "$n" "$tmp/locations.json" &
pids+=($!)
wait_for "$tmp/locations.json" "stand-ins"
$cli --engine-ca "$tmp/certs/ca.pem" --engine-cert "$tmp/certs/controller.pem" --engine-key "$tmp/certs/controller.key" \
  record "$tmp/record.jsonl" --locations "$tmp/locations.json" --interval "$interval" 2> >(tee "$tmp/record.err" >&2) &
record=$!
pids+=("$record")
cpu_ticks() { awk '{print $14 + $15}' "/proc/$record/stat"; }
sleep 1  # connections and handshakes made
t0=$(date +%s.%N)
c0=$(cpu_ticks)
if [[ -n ${PROFILE_TO:-} ]]; then  # where the time goes: perf's report of the controller, to this file
  perf record -g -o "$tmp/perf.data" -p "$record" -- sleep "$secs" 2> /dev/null
else
  sleep "$secs"
fi
c1=$(cpu_ticks)
t1=$(date +%s.%N)
kill -INT "$record"
wait "$record" || true
[[ -n ${PROFILE_TO:-} ]] && perf report -i "$tmp/perf.data" ${PERF_REPORT:---no-children} --percent-limit 1 --stdio > "$PROFILE_TO" 2> /dev/null
python3 - "$tmp/record.jsonl" "$n" "$c0" "$c1" "$t0" "$t1" "$(getconf CLK_TCK)" "$interval" << 'PY'
import json, os, sys
path, n, c0, c1, t0, t1, hz, interval = sys.argv[1:]
lines = [json.loads(line) for line in open(path)]
entries = [e for line in lines for e in line["engines"]]
fresh = sum(1 for e in entries if "ports" in e and e.get("age_ms", 1e9) < 100)
cpu = (float(c1) - float(c0)) / float(hz) / (float(t1) - float(t0))
print("controller: linerate record --locations, %s data planes (stand-ins) every %s, %.1f s measured" %
      (n, interval, float(t1) - float(t0)))
print("  CPU: %.1f %% of one core (user + system, /proc/PID/stat)" % (100 * cpu))
print("  lines: %d, %d data planes each; entries read within 100 ms of their line: %.1f %%; %.0f KiB a line" %
      (len(lines), len(lines[0]["engines"]) if lines else 0, 100 * fresh / max(len(entries), 1),
       os.path.getsize(path) / max(len(lines), 1) / 1024))
PY
