#!/usr/bin/env bash
# Idempotent host setup for linerate on Debian 12 (run as root):
#   1. Debian packages (DPDK 22.11 with its PMDs, compilers, libraries, test tools)
#   2. hugepages: vm.nr_hugepages and a hugetlbfs mount
#   3. the release build in ./build, and ./compile_commands.json (build-tidy/, configured only)
# Every step is skipped when already done. Environment:
#   LR_HUGEPAGES   2 MiB pages to reserve (default 1024; 0 leaves hugepages alone)
#   LR_BUILD_DIR   build directory (default build)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential g++ meson ninja-build pkg-config
  dpdk dpdk-dev libdpdk-dev
  libspdlog-dev libfmt-dev libtomlplusplus-dev nlohmann-json3-dev libcli11-dev
  libboost-dev libgtest-dev libgmock-dev libbenchmark-dev libpcap-dev libmnl-dev
  libssl-dev openssl            # the OTG server's TLS; the tests make a certificate with openssl
  python3 tshark iproute2 nftables procps kmod util-linux curl prometheus tmux ethtool
  iputils-ping                 # the routed-device test pings the emulated hosts from its router
  linuxptp                     # hello reads ptp4l with pmc; the clock test runs ptp4l -S over a veth pair
  clang-16 libclang-rt-16-dev  # the fuzz targets link compiler-rt's libFuzzer and sanitizer runtimes
  lld-16                       # links the sanitizer build's large executables several times faster than ld
  clang-format-16              # the C++ layout check (.clang-format, scripts/check-format.sh)
  clang-tidy-16                # the lint check (.clang-tidy, scripts/check-tidy.sh)
  ccache                       # rebuilds of a fresh clone come from the cache (outside the clone)
  help2man                     # man pages from the programs' --help
  gnuplot-nox                  # the benchmark reports' charts (SVG)
  chromium                     # the tests load the HTML reports in a real (headless) browser
  python3-yaml                 # the Kubernetes manifests' test reads what kubectl kustomize renders
  zabbix-agent                 # the optics watch's Zabbix template: its items asked with zabbix_agentd -t
)
# kubectl renders the Kubernetes manifests offline (kubectl kustomize): Debian's
# kubernetes-client, only where no kubectl is on PATH, since a kubectl of another package
# may own /usr/bin/kubectl and the two conflict.
command -v kubectl >/dev/null || packages+=(kubernetes-client)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  installing_since=$SECONDS
  export DEBIAN_FRONTEND=noninteractive
  # tshark asks whether non-root users may capture; they may not.
  echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
  apt-get update -qq
  # The daemons among them (prometheus, zabbix-agent) are here for their tools (promtool,
  # zabbix_agentd -t): a policy-rc.d of our own keeps the install from starting them (and
  # goes with this script, Ctrl-C included), and they are left disabled below.
  policy=/usr/sbin/policy-rc.d
  own_policy=""
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod 755 "$policy" && own_policy=$policy
    trap 'rm -f "$own_policy"' EXIT
  fi
  # Quiet unless it fails: then its last lines say why.
  installed=0
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/linerate-setup-apt.log 2>&1 || installed=$?
  if [[ -n $own_policy ]]; then
    rm -f "$own_policy"
    trap - EXIT
  fi
  for daemon in prometheus zabbix-agent; do
    if [[ " ${missing[*]} " == *" $daemon "* ]] && command -v systemctl >/dev/null; then
      systemctl disable --quiet "$daemon" 2>/dev/null || true
      systemctl stop "$daemon" 2>/dev/null || true  # started anyway where a policy-rc.d of the host let it
    fi
  done
  if ((installed != 0)); then
    tail -n 30 /tmp/linerate-setup-apt.log >&2
    echo "setup: apt-get install failed (whole log: /tmp/linerate-setup-apt.log)" >&2
    exit 1
  fi
  echo "setup: installed ${#missing[@]} packages in $((SECONDS - installing_since)) s"
fi

pages=${LR_HUGEPAGES:-1024}
if ((pages > 0)); then
  current=$(cat /proc/sys/vm/nr_hugepages)
  if ((current < pages)); then
    echo "$pages" > /proc/sys/vm/nr_hugepages 2>/dev/null || true
    got=$(cat /proc/sys/vm/nr_hugepages)
    ((got >= pages)) || echo "setup: asked for $pages hugepages, the kernel gave $got (profiles with huge_pages = \"auto\" fall back to --no-huge)"
  fi
  if ! grep -qs "^[^ ]* /dev/hugepages hugetlbfs" /proc/mounts; then
    mkdir -p /dev/hugepages
    mount -t hugetlbfs nodev /dev/hugepages 2>/dev/null || echo "setup: could not mount hugetlbfs on /dev/hugepages"
  fi
fi

# Compiles go through ccache (meson picks it up when it is installed). Its cache lives
# outside the clone (~/.cache/ccache), so a fresh clone of the same tree rebuilds from it;
# paths are hashed relative to the clone, wherever it is. Depend mode: a miss is compiled
# at once, not preprocessed first to be hashed (a tenth of a cold compile here).
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1
build=${LR_BUILD_DIR:-build}
if [[ ! -f "$build/build.ninja" ]]; then
  # Unity build, one translation unit per library or program: each parses its headers
  # once (measured cold on 2 CPUs: 174 s, 197 s at 4 sources a unit, 5.5 min without);
  # `meson configure build -Dunity=off` for quicker rebuilds while editing.
  meson setup "$build" --buildtype=release -Dunity=on -Dunity_size=100 >/dev/null
fi
building_since=$SECONDS
if ! ninja -C "$build" >"$build/setup-ninja.log" 2>&1; then
  grep -E -A12 "^FAILED|error:" "$build/setup-ninja.log" | head -n 60 >&2
  echo "setup: the build failed (whole log: $build/setup-ninja.log)" >&2
  exit 1
fi
echo "setup: built $build/dataplane/linerate-dataplane in $((SECONDS - building_since)) s"

# ./compile_commands.json for editors (clangd) and clang-tidy: the unity build's names its
# unity files, so it links to a non-unity configuration's, written at configure time.
scripts/compile-commands.sh

# The man pages and bash completion where `man linerate` and the shell find them (root
# only: /usr/local is the host's). Without root: `man -l build/control/linerate.1`.
if [[ $EUID -eq 0 ]]; then
  for page in "$build/control/linerate.1" "$build/dataplane/linerate-dataplane.1"; do
    if [[ -f $page ]]; then install -D -m 644 "$page" "/usr/local/share/man/man1/$(basename "$page")"; fi
  done
  if [[ -f $build/control/linerate.bash ]]; then
    install -D -m 644 "$build/control/linerate.bash" /usr/local/share/bash-completion/completions/linerate
  fi
fi
