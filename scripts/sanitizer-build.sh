#!/usr/bin/env bash
# The sanitizer and fuzz build, build-asan/: clang 16 with AddressSanitizer + UBSan, and
# libFuzzer's coverage in every object, so that one compile serves both the sanitized
# test suites (scripts/test.sh) and the fuzz targets (scripts/fuzz.sh).
#   scripts/sanitizer-build.sh [TARGET...]   builds the named targets (ninja's names,
#                                            e.g. tests/fuzz/profile_fuzz), or else every
#                                            executable the sanitized suites and fuzz.sh run
# clang rather than g++: at -O0 it compiles this tree in about half g++'s time, and
# libFuzzer comes with it. Compiles go through ccache when the host has it.
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1 CCACHE_DEPEND=1  # as scripts/setup.sh
dir=build-asan

compiler=$(command -v clang++-16 || true)
if [[ -z $compiler ]]; then
  echo "sanitizer-build: clang 16 is not installed (apt-get install clang-16 libclang-rt-16-dev)"; exit 1
fi
# A build-asan/ configured otherwise (g++, or full debug info, by an older checkout) is set
# up again.
if [[ -f $dir/build.ninja ]] && ! grep -q 'gline-tables-only' "$dir/build.ninja"; then
  rm -rf "$dir"
fi
if [[ ! -f $dir/build.ninja ]]; then
  cxx=$compiler
  command -v ccache >/dev/null && cxx="ccache $compiler"
  # Unity build, one translation unit per library or program: each parses its headers
  # once (measured cold on 2 CPUs: 153 s, 182 s at 4 sources a unit).
  # -O0 with line tables only: what a sanitizer's or libFuzzer's stack trace needs (file and
  # line), without full debug info, which cost a tenth of the compile. lld links these large
  # executables several times faster than ld.
  linker=()
  command -v ld.lld-16 >/dev/null && linker=(-Dcpp_link_args=-fuse-ld=lld)
  CXX=$cxx meson setup "$dir" --buildtype=plain -Doptimization=0 -Ddebug=false -Dcpp_args=-gline-tables-only \
    "${linker[@]}" -Db_sanitize=address,undefined -Db_lundef=false \
    -Dperf=disabled -Dunity=on -Dunity_size=100 -Dfuzz=true >/dev/null
fi

targets=("$@")
if ((${#targets[@]} == 0)); then
  ninja -C "$dir" build.ninja >/dev/null
  # Only executables: not the benchmarks (perf is off), not the header checks.
  mapfile -t targets < <(meson introspect "$dir" --targets | python3 -c "
import json, os, sys
for t in json.load(sys.stdin):
    if t['type'] == 'executable' and t['name'] != 'rx_accounting_bench':
        print(os.path.relpath(t['filename'][0], '$dir'))")
fi
ninja -C "$dir" "${targets[@]}" > "$dir/ninja.log" \
  || { grep -A12 -E "FAILED|error" "$dir/ninja.log" | head -60; exit 1; }  # the compiler's words, in the CI log
