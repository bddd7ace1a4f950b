#!/usr/bin/env bash
# (install) ftsw.ko through DKMS on the running kernel, as the ftsw-dkms
# package does it: `make install-dkms` puts the module's sources and
# dkms.conf in /usr/src/ftsw-VERSION, then dkms add, build (against the
# test kernel's tree, the kernel running here), install, `modprobe ftsw`,
# and a lab on the module DKMS built forwards every pair's pings.
#
# The guest's root is the host's, read-only: /usr/src, /var/lib/dkms and
# /lib/modules get a tmpfs each, in a mount namespace of this test only.
. "$(dirname "$0")/../selftests/lib.sh"
. "$(dirname "$0")/../selftests/lab-lib.sh"

tap_plan 7
VERSION=$(sed -n 's/^#define FTSW_VERSION "\(.*\)"/\1/p' "$FTSW_TOP/user/lib/libftsw.h")
KVER=$(uname -r)

# The tree this kernel was built in: the one the VM harness booted
# (FTSW_VM_TREE), else from its cache (its owner's home, or FTSW_CACHE) the
# one whose kernel.release is the running one. Both test kernels report
# the same release, so without FTSW_VM_TREE the debug tree comes first.
find_kdir() {
	local owner home d
	if [ -n "${FTSW_VM_TREE:-}" ] && [ -f "$FTSW_VM_TREE/Module.symvers" ]; then
		echo "$FTSW_VM_TREE"
		return 0
	fi
	owner=$(stat -c %U "$FTSW_TOP")
	home=$(getent passwd "$owner" | cut -d: -f6)
	for d in ${FTSW_CACHE:-} "$home/.cache/ftsw" /root/.cache/ftsw; do
		[ -d "$d" ] || continue
		for t in "$d"/linux-*-debug-* "$d"/linux-*-plain-*; do
			[ -f "$t/include/config/kernel.release" ] &&
				[ "$(cat "$t/include/config/kernel.release")" = "$KVER" ] &&
				[ -f "$t/Module.symvers" ] && { echo "$t"; return 0; }
		done
	done
	return 1
}
KDIR=$(find_kdir) || KDIR=
tap_check "the running kernel's build tree is found ($KVER)" test -n "$KDIR"

ftsw_unload 2>/dev/null
# Everything below in one private mount namespace: its tmpfs mounts vanish
# with it, and the module it loads stays loaded.
dkms_run() {
	unshare -m --propagation private bash -euo pipefail -c '
		for d in /usr/src /var/lib/dkms /lib/modules; do mount -t tmpfs tmpfs "$d"; done
		mkdir -p "/lib/modules/$2"
		ln -s "$3" "/lib/modules/$2/build"
		make -s -C "$1" install-dkms >/dev/null
		dkms add "ftsw/$4"
		nice dkms build "ftsw/$4" -k "$2" --kernelsourcedir "$3" ||
			{ cat "/var/lib/dkms/ftsw/$4/build/make.log"; exit 1; }
		# DKMS cleans its build area afterwards: list what it keeps.
		echo "dkms built:" $(cd "/var/lib/dkms/ftsw/$4/$2/$(uname -m)/module" && ls -- *.ko*)
		dkms install "ftsw/$4" -k "$2"
		dkms status ftsw
		modinfo -n ftsw
		modprobe ftsw
	' dkms "$FTSW_TOP" "$KVER" "$KDIR" "$VERSION"
}
dkms_out=$(dkms_run 2>&1)
rc=$?
if [ $rc = 0 ]; then tap_ok "make install-dkms; dkms add, build, install ftsw/$VERSION for $KVER; modprobe ftsw"
else tap_fail "make install-dkms; dkms add, build, install ftsw/$VERSION for $KVER; modprobe ftsw"; fi
printf '%s\n' "$dkms_out" | tail -n 20 | tap_diag

# DKMS builds ftsw.ko alone, not the KUnit module (FTSW_NO_KUNIT=1 in
# dkms.conf), though this kernel has CONFIG_KUNIT: half the compile.
tap_check "DKMS built ftsw.ko only (no ftsw_test.ko on this KUnit kernel)" \
	grep -qx 'dkms built: ftsw.ko' <<<"$dkms_out"

# The loaded module is DKMS's: from updates/dkms, not the harness's ftsw.ko.
which_ko() {
	ftsw_loaded || { echo "ftsw not loaded"; return 1; }
	echo "$dkms_out" | grep -q "/lib/modules/$KVER/updates/dkms/ftsw.ko" || return 1
	# same sources as the harness's module: the same srcversion
	[ "$(cat /sys/module/ftsw/srcversion)" = "$(modinfo -F srcversion "$FTSW_KMOD/ftsw.ko")" ]
}
tap_check "the module loaded is the one DKMS installed (updates/dkms), same srcversion as the tree's" which_ko

tap_check "a lab on the DKMS module: FT(4,2) D-Mod-K, every pair pings" lab_up_ping ftmn:4,2 dmodk
tap_check "nothing left behind" lab_gone
tap_check "rmmod ftsw" ftsw_unload
tap_done
