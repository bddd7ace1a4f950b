#!/usr/bin/env bash
# (92) Per-command policies: every command, doit and dump, refuses an
# attribute it does not take with an extack naming it, changing nothing;
# SL2VL_GET replies carry SL2VL_GET; PORT_CLEAR; a full LFT dumps through
# 4 KiB, 8 KiB and 64 KiB buffers; a renamed device shows its new name.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"

tap_plan 34
tap_check "insmod ftsw.ko" ftsw_load
tap_check "a veth pair in the fabric namespace" eval 'fabric_setup && link_add v1 v2'
fab "$PY" "$(dirname "$0")/92-nl-replies.py" 2 v1 v2 || _tap_fail=1
_tap_n=$((_tap_n + 31))
fabric_cleanup
tap_check "rmmod ftsw" ftsw_unload
tap_done
