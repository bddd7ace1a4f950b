#!/usr/bin/env bash
# (8) Netns deletion and rmmod while traffic flows (UDP floods and TCP in
# both directions): clean under KASAN, lockdep and kmemleak (the VM harness
# fails the run on any kernel report).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fabric-lib.sh"
export HOST_NO_V6=1

setup() {
	chain_setup && ping_ok 0 "$(host_ip 1)" 1
}
traffic() {
	hx 1 iperf3 -s -D -1 >/dev/null 2>&1
	sleep 0.3
	hx 0 iperf3 -c "$(host_ip 1)" -t 30 >/dev/null 2>&1 &
	hx 0 ping -f -q -w 30 "$(host_ip 1)" >/dev/null 2>&1 &
	hx 1 ping -f -q -w 30 "$(host_ip 0)" >/dev/null 2>&1 &
	sleep 2
}
stop_traffic() {
	local n
	for n in 0 1; do
		ip netns pids "$(hns "$n")" 2>/dev/null | xargs -r kill 2>/dev/null
	done
	wait 2>/dev/null
}
flowing() { [ "$(port_stat 1 2 tx_packets)" -gt 10 ]; }

tap_plan 8
tap_check "insmod ftsw.ko" ftsw_load
tap_check "chain of two switches" setup
traffic
tap_check "traffic flowing" flowing
tap_check "delete the fabric namespace under traffic" ip netns del "$FAB"
sleep 1
stop_traffic
fabric_cleanup
tap_check "module still answers, fabric of the init namespace empty" \
	bash -c "'$FTSW' fabric show | grep -q 'switches 0'"
tap_check "rebuild the chain" setup
traffic
tap_check "rmmod ftsw under traffic" ftsw_unload
stop_traffic
fabric_cleanup
tap_check "module gone" bash -c '! [ -d /sys/module/ftsw ]'
tap_done
