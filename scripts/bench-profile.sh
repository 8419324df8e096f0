# The benchmarks' profile, shared by scripts/bench.sh and scripts/bench-ab.sh (sourced).
# Reads $huge ("on" / "off") and $secs (seconds a run) from the caller.
# shellcheck shell=bash disable=SC2154  # $huge and $secs come from the caller
profile() {  # $1 device, $2 rx port or "", $3 rx_queues, $4 frame size (64), $5 more stream keys
  cat <<TOML
[eal]
lcores = "0-1"
memory_mb = 512
huge_pages = "$huge"
file_prefix = "lr-bench"
[run]
drain = "100ms"
live = false
[[port]]
name = "p0"
device = "$1"
rx_queues = $3
speed = "100G"
[[stream]]
name = "bench"
tx_port = "p0"
$2
frame_size = ${4:-64}
rate = "max"
duration = "${secs}s"
vlan = { id = 100, pcp = 3 }
ipv4 = { src = "198.18.0.1", dst = "198.19.0.1" }
udp = { src = 1024, dst = ${6:-5001} }
${5:-}
TOML
}
