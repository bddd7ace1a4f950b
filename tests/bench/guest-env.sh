# shellcheck shell=bash
# Sourced by the benchmarks that run inside the test VM, so that they can
# be started by hand as their headers show (tests/vm/run --plain -- SCRIPT):
# FTSW defaults to this tree's build/ftsw, FTSW_KMOD to the module built
# for the flavour the VM booted (tests/vm/run passes FTSW_VM_TREE, whose
# name carries it: make kmod-plain or kmod-debug builds it). A wrapper's
# own FTSW and FTSW_KMOD win.
: "${FTSW_TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${FTSW:=$FTSW_TOP/build/ftsw}"
if [ -z "${FTSW_KMOD:-}" ]; then
	case "${FTSW_VM_TREE:-}" in
	*-plain-*) FTSW_KMOD=$FTSW_TOP/build/kmod-plain/kmod ;;
	*-debug-*) FTSW_KMOD=$FTSW_TOP/build/kmod-debug/kmod ;;
	*) echo "bench: FTSW_KMOD unset outside the test VM (run this through tests/vm/run)" >&2
	   exit 2 ;;
	esac
fi
[ -f "$FTSW_KMOD/ftsw.ko" ] ||
	{ echo "bench: no ftsw.ko in $FTSW_KMOD (make kmod-plain or kmod-debug)" >&2; exit 2; }
export FTSW_TOP FTSW FTSW_KMOD
