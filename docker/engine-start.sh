#!/bin/sh
# An engine's start in a pod (installed as linerate-engine-start): its own profile from the
# template the ConfigMap mounts, with what only the pod knows filled in, then the data plane
# serving its control socket and, over mutual TLS, the pod's address.
#   @LCORES@  the CPUs this container may run on (its cpuset: with the kubelet's static CPU
#             manager and whole CPUs, its own), as EAL lcores: the first the main lcore
#   @DEVICE@  its NIC: $LINERATE_DEVICE; else the PCI address an SR-IOV device plugin gave
#             (the first PCIDEVICE_* variable); else the PCI address of netdev $LINERATE_NETDEV
#             (a bifurcated mlx5 port that Multus moved into the pod)
# Environment: POD_IP (the downward API), LINERATE_PROFILE_TEMPLATE (default
# /etc/linerate/profile/engine.toml), LINERATE_TLS (default /etc/linerate/tls),
# LINERATE_SYS (default /sys, for tests), LINERATE_DRY_RUN=1 prints the profile and the
# command instead of starting them. More arguments go to linerate-dataplane.
set -eu

template=${LINERATE_PROFILE_TEMPLATE:-/etc/linerate/profile/engine.toml}
tls=${LINERATE_TLS:-/etc/linerate/tls}
sys=${LINERATE_SYS:-/sys}
profile=/run/linerate/engine.toml
[ "${LINERATE_DRY_RUN:-0}" = 1 ] && profile=$(mktemp)

fail() {
  echo "linerate-engine-start: $*" >&2
  exit 1
}

lcores=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
[ -n "$lcores" ] || fail "cannot read this container's CPUs (Cpus_allowed_list in /proc/self/status)"

device=${LINERATE_DEVICE:-}
if [ -z "$device" ]; then
  # The SR-IOV network device plugin: PCIDEVICE_<RESOURCE>=0000:3b:02.1[,...]
  # (not PCIDEVICE_<RESOURCE>_INFO, which newer plugins set to a JSON description)
  device=$(env | grep -v '^PCIDEVICE_[A-Z0-9_]*_INFO=' | sed -n 's/^PCIDEVICE_[A-Z0-9_]*=\([^,]*\).*/\1/p' | head -n 1)
fi
if [ -z "$device" ] && [ -n "${LINERATE_NETDEV:-}" ]; then
  link=$sys/class/net/$LINERATE_NETDEV/device
  [ -e "$link" ] || fail "netdev $LINERATE_NETDEV (LINERATE_NETDEV) has no device in $sys/class/net: is it in this pod?"
  device=$(basename "$(readlink -f "$link")")
fi
[ -n "$device" ] || fail "no NIC: set LINERATE_DEVICE, request an SR-IOV VF (PCIDEVICE_* in the environment), or set LINERATE_NETDEV"
[ -n "${POD_IP:-}" ] || fail "POD_IP is not set (the downward API's status.podIP)"

[ -r "$template" ] || fail "cannot read the profile template $template"
sed -e "s|@LCORES@|$lcores|g" -e "s|@DEVICE@|$device|g" "$template" > "$profile"

case $POD_IP in
  *:*) listen="[$POD_IP]:7300" ;;  # IPv6
  *) listen="$POD_IP:7300" ;;
esac
set -- linerate-dataplane --config "$profile" --serve --listen "$listen" --tls-ca "$tls/ca.pem" \
  --tls-cert "$tls/engine.pem" --tls-key "$tls/engine.key" "$@"
if [ "${LINERATE_DRY_RUN:-0}" = 1 ]; then
  cat "$profile"
  rm -f "$profile"
  echo "$@"
  exit 0
fi
exec "$@"
