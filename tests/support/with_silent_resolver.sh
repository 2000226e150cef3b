#!/usr/bin/env bash
# Runs a command in a mount namespace of its own in which the name server never answers: DNS
# questions go to 127.0.0.2:53, which the command binds and never reads (nothing bound there
# would refuse them at once), and /etc/hosts names `slowhost` as 127.0.0.1 until the command
# unmounts it. The machine's own files are not touched. Needs root (or CAP_SYS_ADMIN).
# Usage: with_silent_resolver.sh COMMAND [ARGS...]
set -euo pipefail

if [ -z "${LOCKSCOPE_SILENT_RESOLVER:-}" ]; then
  export LOCKSCOPE_SILENT_RESOLVER=1
  exec unshare --mount --propagation private -- "$0" "$@"
fi

dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
# One try of 5 s a question: a lookup of a name not in /etc/hosts takes 5-10 s, then fails.
printf 'nameserver 127.0.0.2\noptions timeout:5 attempts:1\n' >"$dir/resolv.conf"
{ cat /etc/hosts; printf '127.0.0.1 slowhost\n'; } >"$dir/hosts"
mount --bind "$dir/resolv.conf" /etc/resolv.conf
mount --bind "$dir/hosts" /etc/hosts
"$@"
