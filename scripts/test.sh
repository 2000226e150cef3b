#!/usr/bin/env bash
# Installs what is missing, builds everything and runs every test (real etcd, real etcdctl,
# the GUI offscreen). Usage: scripts/test.sh [--werror] [--sanitize | --tsan]
# --sanitize: AddressSanitizer + UndefinedBehaviorSanitizer (build-asan); --tsan:
# ThreadSanitizer (build-tsan), running the tests labelled `tsan`.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Each phase's time, printed at the end (a fresh machine's figures: docs/performance-history.md).
phases=()
phase_began=$(date +%s)
phase_done() {
  phases+=("$(printf '%5d s  %s' $(( $(date +%s) - phase_began )) "$1")")
  phase_began=$(date +%s)
}
print_phases() { echo "== phases"; printf '%s\n' "${phases[@]}"; }
trap print_phases EXIT

source "$root/scripts/deps.sh"
lockscope_install_deps
phase_done "Debian packages"

build_dir="$root/build"
args=()
ctest_args=()
targets=()
run=()
tsan=false
for arg in "$@"; do
  case "$arg" in
    --sanitize) build_dir="$root/build-asan"; args+=("$arg") ;;
    --tsan) build_dir="$root/build-tsan"; args+=("$arg"); ctest_args+=(-L tsan); tsan=true ;;
    --werror) args+=("$arg") ;;
    *) echo "unknown option: $arg (use --werror, --sanitize, --tsan)" >&2; exit 2 ;;
  esac
done

if $tsan; then
  # Only the programs of the tests labelled tsan (tests/CMakeLists.txt), as the labels say: the
  # GUI's under TSan would take long to build and are not run.
  "$root/scripts/build.sh" "${args[@]}" --build-dir "$build_dir" --configure-only
  tsan_programs="$("$root/scripts/tsan_programs.sh" "$build_dir")"
  [ -n "$tsan_programs" ] || { echo "error: no test is labelled tsan" >&2; exit 1; }
  mapfile -t programs <<<"$tsan_programs"
  for program in "${programs[@]}"; do targets+=("$(basename "$program")"); done
fi
"$root/scripts/build.sh" "${args[@]}" --build-dir "$build_dir" "${targets[@]}"
phase_done "build ($(basename "$build_dir"))"
if $tsan; then
  # ctest leaves out a GoogleTest program that is not built, with its labels: say it instead.
  for program in "${programs[@]}"; do
    [ -x "$program" ] || { echo "error: $program has tests labelled tsan but was not built" >&2; exit 1; }
  done
fi

export LOCKSCOPE_ARTIFACTS_DIR="${LOCKSCOPE_ARTIFACTS_DIR:-$root/artifacts}"
mkdir -p "$LOCKSCOPE_ARTIFACTS_DIR"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# die_after_fork=0: a test that runs a program with QProcess while its gRPC client is alive
# forks a multi-threaded process, and TSan kills the child when a thread starts in it before
# exec ("starting new threads after multi-threaded fork"). The child only execs the program.
# history_size=7: the longest per-thread history. With the default, a busy client thread's stack
# of a queued call was lost before the recording thread freed it ("failed to restore the stack"),
# so the suppression of QMetaObject::invokeMethodImpl could not match: the full-disk recording
# test died of that report in 3 of 5 runs, and in none of 4 with the longer history.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1:die_after_fork=0:history_size=7:suppressions=$root/tests/tsan.supp}"
if [ "$build_dir" = "$root/build-tsan" ]; then
  # GCC 12's ThreadSanitizer runs with vm.mmap_rnd_bits up to 28 (Debian's default); kernels
  # set to more (32 on recent Ubuntu) make it die with "unexpected memory mapping". Rather than
  # change the machine's sysctl, run the tests without address randomization there.
  rnd_bits=$(cat /proc/sys/vm/mmap_rnd_bits 2>/dev/null || echo 0)
  if [ "$rnd_bits" -gt 28 ]; then
    echo "vm.mmap_rnd_bits is $rnd_bits: running the tests under setarch -R for TSan" >&2
    run=(setarch "$(uname -m)" -R)
  fi
fi
cd "$build_dir"
# The fault suite (label fault) measures throughput under faults: it runs after the rest, with
# the machine to itself, and only in the plain build (a sanitizer's slowdown is a fault of its
# own: sessions starved of CPU past their TTL are rightly declared lost).
# Most tests wait on etcd, timers and child processes rather than compute: two per core keep
# the cores busy (164 s against 308 s at one per core, plain build). Under a sanitizer they
# compute: at two per core under ASan, sessions with a 3 s TTL starved past it and were lost,
# so sanitized tests stay at one per core.
jobs=$(( 2 * $(nproc) ))
[ "$build_dir" != "$root/build" ] && jobs=$(nproc)
"${run[@]}" ctest --output-on-failure --parallel "$jobs" --timeout 300 -LE fault "${ctest_args[@]}"
phase_done "tests"
if [ "$build_dir" = "$root/build" ]; then
  echo "== fault suite: etcd members killed, stopped and restarted under lock contention"
  # Verbose: each scenario prints its figures (acquisitions per second before, during and
  # after the fault, sessions lost, time to recover, keys and leases left, stale writes).
  ctest --output-on-failure --timeout 300 -L fault --verbose
  phase_done "fault suite"
fi
