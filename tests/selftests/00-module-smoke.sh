#!/usr/bin/env bash
# The module loads, registers the "ftsw" generic netlink family, answers in a
# fresh network namespace too, and unloads leaving no family behind.
. "$(dirname "$0")/lib.sh"

tap_plan 5
tap_check "insmod ftsw.ko" ftsw_load
tap_check "genl family ftsw is registered" \
	bash -c 'genl ctrl get name ftsw | grep -q "Name: ftsw"'
tap_check "family visible from a new network namespace" \
	unshare --net bash -c 'genl ctrl get name ftsw | grep -q "Name: ftsw"'
tap_check "rmmod ftsw" ftsw_unload
tap_check "family gone after rmmod" \
	bash -c '! genl ctrl get name ftsw 2>/dev/null | grep -q "Name: ftsw"'
tap_done
