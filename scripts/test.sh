#!/usr/bin/env bash
# Installs what is missing, builds everything and runs every test (real etcd, real etcdctl,
# the GUI offscreen). Usage: scripts/test.sh [--werror] [--sanitize]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/deps.sh"
lockscope_install_deps

build_dir="$root/build"
args=()
for arg in "$@"; do
  case "$arg" in
    --sanitize) build_dir="$root/build-asan"; args+=("$arg") ;;
    --werror) args+=("$arg") ;;
    *) echo "unknown option: $arg (use --werror, --sanitize)" >&2; exit 2 ;;
  esac
done

"$root/scripts/build.sh" "${args[@]}" --build-dir "$build_dir"

export LOCKSCOPE_ARTIFACTS_DIR="${LOCKSCOPE_ARTIFACTS_DIR:-$root/artifacts}"
mkdir -p "$LOCKSCOPE_ARTIFACTS_DIR"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
cd "$build_dir"
# The fault suite (label fault) measures throughput under faults: .ci/run gives it the machine
# to itself afterwards.
ctest --output-on-failure --parallel 2 --timeout 300 -LE fault
