#!/usr/bin/env bash
# Sets the host up (scripts/setup.sh) and runs the built-in virtual loopback profile with
# `linerate run`, which starts a data plane for the run: two streams over net_ring0, a
# live line per second, then the per-stream table. The JSON report goes to
# loopback-report.json (or $1).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec build/control/linerate run config/examples/loopback.toml --report "${1:-loopback-report.json}"
