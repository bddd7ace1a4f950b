#!/usr/bin/env bash
# (9) Malformed requests (raw netlink: wrong lengths, ranges, unknown and
# output-only attributes, missing attributes, bad objects) are each
# rejected with an extack message and change nothing; the CLI surfaces the
# kernel's message.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"

NCASES=$(grep -c '^    ("' "$(dirname "$0")/nlprobe.py")
tap_plan $((NCASES + 7))
tap_check "insmod ftsw.ko" ftsw_load
setup() {
	fabric_setup && link_add v1 v2 && fsw switch add id 1 ports 4 &&
		fsw port bind switch 1 port 2 dev v2 kind link &&
		fsw lft set switch 1 lid 1 port 2 && fsw commit >/dev/null
}
tap_check "one switch, one link port, committed table" setup
state() { fsw -j switch show; fsw -j port show; fsw -j lft show switch 1; fsw -j lft show switch 1 staged; fsw -j fabric show; }
before=$(state)
fab "$PY" "$(dirname "$0")/nlprobe.py" 2 v1
_tap_n=$((_tap_n + NCASES))
after=$(state)
unchanged() { [ "$before" = "$after" ] || { diff <(echo "$before") <(echo "$after"); return 1; }; }
tap_check "fabric, switches, ports and tables unchanged" unchanged
cli_msg() {
	local out
	out=$(fsw switch add id 9 ports 0 2>&1) && return 1
	echo "$out"; echo "$out" | grep -q "attribute 'switch ports'"
}
tap_check "CLI names the attribute at fault" cli_msg
cli_msg2() {
	local out
	out=$(fsw port bind switch 1 port 1 dev v1 kind edge 2>&1) && return 1
	echo "$out"; echo "$out" | grep -q "needs the host's base LID"
}
tap_check "CLI shows the kernel's message" cli_msg2
cli_missing() {
	local out
	out=$("$FTSW" switch show 2>&1)
	out=$(fsw port bind switch 1 port 1 dev nosuchdev kind link 2>&1) && return 1
	echo "$out"; echo "$out" | grep -q "no device 'nosuchdev'"
}
tap_check "CLI names a missing device" cli_missing
fabric_cleanup
tap_check "rmmod ftsw" ftsw_unload
tap_done
