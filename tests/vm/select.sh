# shellcheck shell=bash
# selftest_selected NAME: true when $FTSW_SELFTESTS is empty or one of its
# space-separated globs matches NAME (e.g. FTSW_SELFTESTS="1?? 20-*").
selftest_selected() {
	local g
	[ -z "${FTSW_SELFTESTS:-}" ] && return 0
	for g in $FTSW_SELFTESTS; do
		# shellcheck disable=SC2053
		[[ $1 == $g ]] && return 0
	done
	return 1
}
