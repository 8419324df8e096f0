#!/usr/bin/env bash
# A known device under test for the benchmarks, without hardware: a Linux bridge in a network
# namespace of its own whose forward path drops what exceeds a chosen frame rate (an nftables
# limit with a burst allowance), between two veth pairs whose outer ends linerate's af_packet
# ports open:
#
#   [linerate port a] lra ==veth== bra -- br0 (limit RATE frames/s) -- brb ==veth== lrb [linerate port b]
#
# RFC 2544 throughput through it is RATE at every frame size (the e2e test finds it within 1 %).
# Why not a tbf shaper: in one namespace the frames it queues count against the sending
# socket's buffer, so the kernel holds the sender back instead of dropping.
#
# Usage (root):
#   scripts/bridge-dut.sh up [--rate FRAMES_PER_S] [--burst FRAMES] [--netns NAME]
#   ip netns exec lr-dut build/control/linerate bench rfc2544 config/examples/rfc2544_bridge.toml
#   scripts/bridge-dut.sh down [--netns NAME]
# Defaults: --rate 40000, --burst 100, --netns lr-dut. `up` on a namespace that has the links
# already replaces the limit only.
set -euo pipefail

action=${1:-}
shift || true
rate=40000 burst=100 ns=lr-dut
while [[ $# -gt 0 ]]; do
  case $1 in
    --rate) rate=$2; shift 2 ;;
    --burst) burst=$2; shift 2 ;;
    --netns) ns=$2; shift 2 ;;
    *) echo "bridge-dut: unknown argument '$1' (see the usage at the top of $0)" >&2; exit 2 ;;
  esac
done
for value in "$rate" "$burst"; do
  if ! [[ $value =~ ^[1-9][0-9]*$ ]]; then
    echo "bridge-dut: '$value' is not a positive whole number (--rate frames/s, --burst frames)" >&2
    exit 2
  fi
done
if [[ $EUID -ne 0 ]]; then
  echo "bridge-dut: run it as root (it makes a network namespace, links and an nftables table)" >&2
  exit 1
fi
in_ns() { ip netns exec "$ns" "$@"; }

case $action in
  up)
    command -v nft >/dev/null || { echo "bridge-dut: needs nftables (apt-get install nftables)" >&2; exit 1; }
    ip netns list | grep -qw "^$ns" || ip netns add "$ns"
    # No IPv6: its neighbour discovery and MLD frames would mix with the test's.
    in_ns sysctl -qw net.ipv6.conf.all.disable_ipv6=1 net.ipv6.conf.default.disable_ipv6=1
    if ! in_ns ip link show br0 >/dev/null 2>&1; then
      in_ns ip link add lra type veth peer name bra
      in_ns ip link add lrb type veth peer name brb
      in_ns ip link add br0 type bridge
      for port in bra brb; do in_ns ip link set "$port" master br0; done
      for dev in lra bra lrb brb br0; do in_ns ip link set "$dev" up; done
    fi
    in_ns nft delete table bridge lr_limit 2>/dev/null || true
    in_ns nft -f - <<NFT
table bridge lr_limit {
  chain forward {
    type filter hook forward priority 0; policy accept;
    limit rate over $rate/second burst $burst packets drop
  }
}
NFT
    echo "bridge-dut: up in netns $ns: lra <-> br0 (drops above $rate frames/s, burst $burst) <-> lrb"
    echo "bridge-dut: ip netns exec $ns build/control/linerate bench rfc2544 config/examples/rfc2544_bridge.toml"
    ;;
  down)
    if ip netns list | grep -qw "^$ns"; then ip netns del "$ns"; fi
    echo "bridge-dut: netns $ns removed, with its links and limit"
    ;;
  *)
    echo "bridge-dut: say up or down (see the usage at the top of $0)" >&2
    exit 2
    ;;
esac
