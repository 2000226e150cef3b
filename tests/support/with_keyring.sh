#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked GNOME keyring of its own (a
# real Secret Service, kept in a temporary home), so keyring tests never touch a user's keyring
# and need no desktop. Usage: with_keyring.sh COMMAND [ARGS...]
set -euo pipefail

if [ -z "${LOCKSCOPE_KEYRING_SESSION:-}" ]; then
  export LOCKSCOPE_KEYRING_SESSION=1
  exec dbus-run-session -- "$0" "$@"
fi

home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
export HOME="$home" XDG_DATA_HOME="$home/share" XDG_RUNTIME_DIR="$home/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
unset XDG_CURRENT_DESKTOP DESKTOP_SESSION KDE_FULL_SESSION # QtKeychain: the Secret Service
# The login keyring is created and unlocked with this password; no prompt is needed.
printf 'lockscope-test-keyring' |
  gnome-keyring-daemon --unlock --components=secrets --daemonize >/dev/null
"$@"
