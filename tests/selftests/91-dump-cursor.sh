#!/usr/bin/env bash
# (91) Dumps keep a cursor that survives deletions: a switch is deleted at
# every datagram boundary of switch, port and LFT dumps (4 KiB reads), every
# surviving object appears exactly once, and NLM_F_DUMP_INTR flags the change.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"

tap_plan 12
tap_check "insmod ftsw.ko" ftsw_load
links() {
	fabric_setup || return 1
	# shellcheck disable=SC2046
	links_add $(for i in $(seq 1 12); do echo "a$i b$i"; done)
}
tap_check "12 veth pairs in the fabric namespace" links
devs=()
for i in $(seq 1 12); do devs+=("a$i"); done
for i in $(seq 1 12); do devs+=("b$i"); done
fab "$PY" "$(dirname "$0")/91-dump-cursor.py" 2 "${devs[@]}" || _tap_fail=1
_tap_n=$((_tap_n + 9))
fabric_cleanup
tap_check "rmmod ftsw" ftsw_unload
tap_done
