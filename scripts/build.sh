#!/usr/bin/env bash
# Configures and builds LockScope with Ninja (and ccache when present).
# Usage: scripts/build.sh [--werror] [--sanitize | --tsan] [--build-dir DIR] [--configure-only]
#        [ninja targets...]
# --sanitize: AddressSanitizer + UndefinedBehaviorSanitizer; --tsan: ThreadSanitizer.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$root/build"
werror=OFF
sanitize=OFF
targets=()
configure_only=false
while [ $# -gt 0 ]; do
  case "$1" in
    --werror) werror=ON ;;
    --sanitize) sanitize=address ;;
    --tsan) sanitize=thread ;;
    --build-dir) build_dir="$2"; shift ;;
    --configure-only) configure_only=true ;;
    *) targets+=("$1") ;;
  esac
  shift
done

export CCACHE_BASEDIR="$root"
cmake -S "$root" -B "$build_dir" -G Ninja \
  -DCMAKE_BUILD_TYPE="${LOCKSCOPE_BUILD_TYPE:-RelWithDebInfo}" \
  -DLOCKSCOPE_WERROR="$werror" -DLOCKSCOPE_SANITIZE="$sanitize" >/dev/null
$configure_only && exit 0
ninja -C "$build_dir" "${targets[@]}"
