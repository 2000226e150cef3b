#!/usr/bin/env bash
# Installs the Debian 12 packages LockScope builds, runs and tests with, when any is missing.
# Sourced by run.sh and test.sh; safe to run on its own.
set -euo pipefail

LOCKSCOPE_PACKAGES=(
  cmake ninja-build ccache pkg-config g++ lld clang-format clang libclang-rt-14-dev
  qt6-base-dev qt6-base-dev-tools libgl-dev libqcustomplot-dev libqt6svg6 libqt6sql6-sqlite
  libsqlite3-dev libqt6sql6-psql postgresql
  qtkeychain-qt6-dev libsecret-1-0 gnome-keyring dbus-daemon
  libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc libssl-dev openssl
  libgtest-dev libgmock-dev
  etcd-server etcd-client curl
  python3-etcd3 nodejs
  golang-go golang-etcd-server-dev
  xvfb xauth locales
  qt6-tools-dev qt6-l10n-tools qt6-translations-l10n fonts-noto-cjk
  prometheus-cpp-dev qt6-httpserver-dev qt6-websockets-dev prometheus desktop-file-utils appstream lintian
)

lockscope_install_deps() {
  local missing=()
  for pkg in "${LOCKSCOPE_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$pkg")
  done
  # npm's etcd3 client is installed into the build by npm: Debian's npm, unless the nodejs
  # installed brings its own (NodeSource's does, and conflicts with Debian's npm package).
  command -v npm >/dev/null || missing+=(npm)
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "LockScope needs these Debian packages: ${missing[*]}"
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || {
      echo "error: not root and no sudo; install them as root: apt-get install ${missing[*]}" >&2
      return 1
    }
    sudo="sudo"
  fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  lockscope_install_deps
fi
