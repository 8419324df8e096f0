#!/usr/bin/env bash
# Leaves ./compile_commands.json (git-ignored) for editors (clangd) and clang-tidy: a link to
# the compile commands of build-tidy/, a non-unity clang++-16 configuration. The release build
# (build/) is a unity build, whose commands name build/**/*-unity0.cpp, not the sources.
# Meson writes the file at configure time, so nothing is compiled here (a few seconds); a
# configured build-tidy/ is regenerated (new sources, changed meson.build files) by
# `ninja build.ninja`, which reruns meson only when a meson.build changed.
#   LR_TIDY_DIR   the directory (default build-tidy)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${LR_TIDY_DIR:-build-tidy}
if [[ ! -f $dir/build.ninja ]]; then
  # clang++-16: clang-tidy-16 reads the flags clang takes (g++'s -Wno-restrict is not one),
  # and meson adds the flag clang 16 needs for libstdc++ 12's <expected> (meson.build).
  CXX=${LR_TIDY_CXX:-clang++-16} meson setup "$dir" --buildtype=debug -Dunity=off >"/tmp/linerate-$(basename "$dir")-setup.log" 2>&1 || {
    tail -n 20 "/tmp/linerate-$(basename "$dir")-setup.log" >&2
    echo "compile-commands: meson setup $dir failed" >&2
    exit 1
  }
else
  ninja -C "$dir" build.ninja >/dev/null
fi
ln -sfn "$dir/compile_commands.json" compile_commands.json
