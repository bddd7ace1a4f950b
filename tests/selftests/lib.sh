# shellcheck shell=bash
# Helpers for ftsw selftests (kselftest-style TAP). Sourced by each
# tests/selftests/*.sh, which run as root inside the test VM with:
#   FTSW_TOP   the repository      FTSW_KMOD  directory holding ftsw.ko
#   FTSW       the ftsw CLI binary
set -u

: "${FTSW_TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${FTSW_KMOD:=$FTSW_TOP/build/kmod-debug/kmod}"
: "${FTSW:=$FTSW_TOP/build/ftsw}"

_tap_n=0
_tap_fail=0

# tap_plan N: print the TAP header and plan.
tap_plan() {
	echo "TAP version 13"
	echo "1..$1"
}

tap_ok() { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n $*"; }
tap_fail() { _tap_n=$((_tap_n + 1)); _tap_fail=1; echo "not ok $_tap_n $*"; }
tap_diag() { sed 's/^/# /'; }

# tap_check DESC CMD...: run CMD, ok if it succeeds; its output becomes
# diagnostics when it fails.
tap_check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		tap_ok "$desc"
	else
		tap_fail "$desc"
		printf '%s\n' "$out" | tap_diag
	fi
}

# tap_done: exit status of the script (non-zero if anything failed).
tap_done() { exit $_tap_fail; }

ftsw_loaded() { [ -d /sys/module/ftsw ]; }

ftsw_load() {
	ftsw_loaded || insmod "$FTSW_KMOD/ftsw.ko"
}

ftsw_unload() {
	! ftsw_loaded || rmmod ftsw
}
