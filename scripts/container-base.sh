#!/bin/bash
# Makes the base image docker/Dockerfile starts FROM (debian:12) on a host that reaches
# Debian's package archive but no container registry: debootstrap builds a minimal Debian 12
# root, which is imported under the name FROM resolves to, so the build finds it locally
# and pulls nothing.
#
#   scripts/container-base.sh [--force]
#     --force   rebuild it even when the image is already there
#   LINERATE_CONTAINER_ENGINE=podman|docker picks the engine (default: podman, else docker).
#
# Needs root, debootstrap and podman or docker. Takes a few minutes (the packages come from
# debootstrap's default archive). Leaves no mounts and no temporary root behind.
set -euo pipefail

# "debian:12" in a FROM line: docker normalises it to docker.io/library/debian:12, podman
# resolves the short name through its alias (registries.conf.d/shortnames.conf) to the same
# name, and both look in local storage before pulling.
image=docker.io/library/debian:12
suite=bookworm

force=0
if [[ ${1:-} == --force ]]; then
  force=1
elif [[ $# -gt 0 ]]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi

engine=${LINERATE_CONTAINER_ENGINE:-}
if [[ -z $engine ]]; then
  for candidate in podman docker; do
    if command -v "$candidate" >/dev/null; then
      engine=$candidate
      break
    fi
  done
fi
if [[ -z $engine ]] || ! command -v "$engine" >/dev/null; then
  echo "container-base: neither podman nor docker is installed" >&2
  exit 1
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "container-base: debootstrap needs root (run it with sudo)" >&2
  exit 1
fi
if ! command -v debootstrap >/dev/null; then
  echo "container-base: debootstrap is not installed (apt-get install debootstrap)" >&2
  exit 1
fi

# Idempotent: an image already there (built here or pulled) is kept.
if [[ $force -eq 0 ]] && "$engine" image inspect "$image" >/dev/null 2>&1; then
  echo "container-base: $image is already in $engine's storage (--force rebuilds it)"
  exit 0
fi

root=$(mktemp -d /var/tmp/linerate-base.XXXXXX)
cleanup() {
  # debootstrap mounts proc and sys in the root while it works and may leave them mounted
  # if it fails: unmount everything under the root, deepest first, before removing it, so
  # that rm never walks into the host's /proc or /sys.
  local mounts
  mounts=$(findmnt -rn -o TARGET | grep -F "$root/" | sort -r || true)
  if [[ -n $mounts ]]; then
    while read -r mnt; do
      umount -l "$mnt" || true
    done <<<"$mounts"
  fi
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT

start=$SECONDS
echo "container-base: debootstrap --variant=minbase $suite into $root"
debootstrap --variant=minbase "$suite" "$root"

# What the official image also leaves out: the downloaded .debs and apt's lists (the
# Dockerfile runs apt-get update first).
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*

echo "container-base: importing it as $image into $engine"
tar -C "$root" --numeric-owner -cf - . \
  | "$engine" import --change 'CMD ["bash"]' - "$image" >/dev/null

echo "container-base: $image ready in $((SECONDS - start)) s"
"$engine" image ls "$image"
