#!/usr/bin/env bash
# A routed device under test without hardware: a Linux router in a network namespace of its
# own that forwards IPv4 and IPv6 between two subnets, each a veth pair whose outer end stays
# in the root namespace for linerate's af_packet ports (config/examples/routed.toml):
#
#   [linerate p0] lr-r0 ==veth== rt0 198.18.0.254/24 2001:db8:a::fe/64 -- router --
#                                rt1 198.19.0.254/24 2001:db8:b::fe/64 ==veth== lr-r1 [linerate p1]
#
# The outer ends are up with no addresses (no IPv6 link-local either, and ARP for none of the
# root namespace's addresses): what they carry is linerate's emulated hosts' and the
# router's. The router side does duplicate address detection as any router does, and `up`
# waits for it; its reverse-path filter is off (the hosts' addresses are its only routes'
# own, but a test may send from others).
#
# Usage (root):
#   scripts/router-namespace.sh up [NAME]     # NAME: the namespace, default lr-router
#   build/control/linerate run config/examples/routed.toml
#   scripts/router-namespace.sh down [NAME]
# One router at a time: the outer ends' names are fixed (the profile opens them), so `up`
# refuses while the namespace or either outer end exists. `down` removes what `up` made and
# what a failed `up` left; with nothing there it does nothing and says so.
set -euo pipefail

action=${1:-}
ns=${2:-lr-router}
outer=(lr-r0 lr-r1)
inner=(rt0 rt1)
ipv4=(198.18.0.254/24 198.19.0.254/24)
ipv6=(2001:db8:a::fe/64 2001:db8:b::fe/64)

say() { echo "router-namespace: $*"; }
fail() { echo "router-namespace: $1" >&2; exit "${2:-1}"; }

case $action in
  up|down) ;;
  *) fail "say up or down, and optionally the namespace's name (see the usage at the top of $0)" 2 ;;
esac
[[ $# -le 2 ]] || fail "too many arguments: $* (up|down [NAME])" 2
[[ $ns =~ ^[A-Za-z0-9_.-]{1,64}$ ]] || fail "'$ns' is not a namespace name (letters, digits, . _ -)" 2
[[ $EUID -eq 0 ]] || fail "run it as root: it makes a network namespace and veth links"
command -v ip >/dev/null || fail "needs ip (iproute2)"

has_ns() { ip netns list | awk '{print $1}' | grep -qx "$1"; }
has_link() { ip link show "$1" >/dev/null 2>&1; }
in_ns() { ip netns exec "$ns" "$@"; }

down() {
  local removed=()
  # The outer ends first: deleting a veth end deletes its peer at once, where a namespace's
  # links go with it only as the kernel tears it down, later.
  for dev in "${outer[@]}"; do
    if has_link "$dev"; then
      ip link del "$dev"
      removed+=("$dev")
    fi
  done
  if has_ns "$ns"; then
    ip netns del "$ns"
    removed+=("namespace $ns")
  fi
  if [[ ${#removed[@]} -eq 0 ]]; then say "nothing to remove (no namespace $ns, no ${outer[*]})"
  else say "removed ${removed[*]}"; fi
}

# The router's addresses out of DAD (tentative) within 10 s: a run started before would see
# the router not answer for them.
wait_for_dad() {
  for _ in $(seq 100); do
    [[ -z $(in_ns ip -6 addr show tentative) ]] && return 0
    sleep 0.1
  done
  in_ns ip -6 addr show tentative >&2
  fail "the router's IPv6 addresses are still tentative after 10 s (duplicate address detection)"
}

up() {
  has_ns "$ns" && fail "namespace $ns exists already: '$0 down $ns' first"
  for dev in "${outer[@]}"; do
    has_link "$dev" && fail "link $dev exists already (another router's, or left over): '$0 down' first"
  done
  # A failure half-way leaves nothing behind.
  trap 'if [[ $? -ne 0 ]]; then echo "router-namespace: up failed; removing what it made" >&2; down >&2; fi' EXIT
  ip netns add "$ns"
  in_ns ip link set lo up
  in_ns sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1 \
    net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.default.rp_filter=0
  for i in 0 1; do
    ip link add "${outer[i]}" type veth peer name "${inner[i]}" netns "$ns"
    # The outer end carries linerate's frames only: no IPv6 of its own, no ARP replies.
    sysctl -qw "net.ipv6.conf.${outer[i]}.disable_ipv6=1" "net.ipv4.conf.${outer[i]}.arp_ignore=8"
    ip link set "${outer[i]}" up
    in_ns sysctl -qw "net.ipv4.conf.${inner[i]}.rp_filter=0"
    in_ns ip addr add "${ipv4[i]}" dev "${inner[i]}"
    in_ns ip -6 addr add "${ipv6[i]}" dev "${inner[i]}"
    in_ns ip link set "${inner[i]}" up
  done
  wait_for_dad
  trap - EXIT
  say "up: namespace $ns, forwarding IPv4 and IPv6 (rp_filter off)"
  for i in 0 1; do
    say "  ${outer[i]} (root namespace, up, no addresses) <-> ${inner[i]} ${ipv4[i]} ${ipv6[i]}" \
        "mac $(in_ns cat "/sys/class/net/${inner[i]}/address")"
  done
  say "next: build/control/linerate run config/examples/routed.toml; then: $0 down${2:+ $ns}"
}

if [[ $action == up ]]; then up "$@"; else down; fi
