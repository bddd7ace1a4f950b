# shellcheck shell=bash
# Common definitions of the ftsw VM harness; sourced, not run.

FTSW_VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FTSW_TOP=$(cd "$FTSW_VM_DIR/../.." && pwd)
FTSW_CACHE=${FTSW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ftsw}
FTSW_SRC_TARBALL=${FTSW_SRC_TARBALL:-$(ls -1 /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n 1)}

vm_die() { echo "tests/vm: $*" >&2; exit 2; }

# Version of the kernel source: the Debian package version, which changes
# whenever the tarball does.
vm_src_version() {
	dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null ||
		vm_die "linux-source-6.1 is not installed (run: make deps)"
}

# The config fragments that make up a flavour, in application order.
vm_fragments() {
	case "$1" in
	plain) echo "$FTSW_VM_DIR/base.config $FTSW_VM_DIR/plain.config" ;;
	debug) echo "$FTSW_VM_DIR/base.config $FTSW_VM_DIR/debug.config" ;;
	*) vm_die "unknown flavour '$1' (plain or debug)" ;;
	esac
}

# Build tree of a flavour: keyed by source version and fragment hash, so a
# changed fragment or a new source package gets its own tree.
vm_tree() {
	local flavour=$1 hash
	# shellcheck disable=SC2046
	hash=$(cat $(vm_fragments "$flavour") | sha256sum | cut -c1-12)
	echo "$FTSW_CACHE/linux-$(vm_src_version)-$flavour-$hash"
}

vm_src() { echo "$FTSW_CACHE/src-$(vm_src_version)"; }

# The stock flavour: Debian's own kernel, not built here. Its release is
# that of the newest linux-headers-6.1.*-amd64 installed (make deps
# installs the archive's newest), whose linux-image package the archive
# holds; ftsw.ko is built against those headers as DKMS would.
vm_stock_kver() {
	local h
	h=$(ls -1d /usr/src/linux-headers-6.1.*-amd64 2>/dev/null | sort -V | tail -n 1)
	[ -n "$h" ] || vm_die "no /usr/src/linux-headers-6.1.*-amd64 (run: make deps)"
	echo "${h#/usr/src/linux-headers-}"
}
vm_stock_kdir() { echo "/usr/src/linux-headers-$(vm_stock_kver)"; }
# The unpacked package, its module index and the initramfs.
vm_stock_tree() { echo "$FTSW_CACHE/debian-$(vm_stock_kver)"; }
