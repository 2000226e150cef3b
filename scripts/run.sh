#!/usr/bin/env bash
# Installs what is missing, builds, and starts LockScope. With no --endpoints (and no
# ETCDCTL_ENDPOINTS) it opens on a sandbox etcd of its own, removed again when you quit.
# Usage: scripts/run.sh [lockscope options...]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$root/scripts/deps.sh"
lockscope_install_deps
"$root/scripts/build.sh" lockscope lockscopectl

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
  echo "No display found: run this from a desktop session, or try it headless with" >&2
  echo "  xvfb-run -a scripts/run.sh" >&2
  exit 1
fi
exec "$root/build/app/lockscope" "$@"
