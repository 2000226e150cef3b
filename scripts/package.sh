#!/usr/bin/env bash
# Builds the Debian package of both programs (build-package/lockscope_<version>_<arch>.deb)
# and checks it: desktop-file-validate, appstreamcli validate and lintian must find no error.
# Usage: scripts/package.sh [--werror] [--build-dir DIR]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$root/build-package"
werror=OFF
while [ $# -gt 0 ]; do
  case "$1" in
    --werror) werror=ON ;; # CI: the flags of its test build, so ccache has every object
    --build-dir) build_dir="$2"; shift ;;
    *) echo "usage: scripts/package.sh [--werror] [--build-dir DIR]" >&2; exit 2 ;;
  esac
  shift
done

source "$root/scripts/deps.sh"
lockscope_install_deps

export CCACHE_BASEDIR="$root"
# Only the programs: `install` must not build the tests and the benchmark first.
cmake -S "$root" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOCKSCOPE_WERROR="$werror" \
  -DLOCKSCOPE_BUILD_TESTS=OFF -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON >/dev/null
ninja -C "$build_dir" lockscope lockscopectl lockscope_gzipped_docs
(cd "$build_dir" && rm -f ./*.deb && cpack -G DEB >/dev/null)
deb="$(ls "$build_dir"/*.deb)"

desktop-file-validate "$root/resources/lockscope.desktop"
appstreamcli validate --no-net --explain "$root/resources/lockscope.metainfo.xml"
# lintian exits non-zero on an error; warnings are printed for the reader.
lintian --fail-on error "$deb"
echo "$deb ($(du -k "$deb" | cut -f1) KiB)"
dpkg-deb --field "$deb" Depends Recommends Suggests
