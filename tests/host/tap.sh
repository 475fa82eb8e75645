# KTAP for the tests written in shell, printed by the kernel's own
# kselftest/ktap_helpers.sh, from build/linux (make check derives the tree
# before it runs a test). Source it; call ok NAME, not_ok NAME, or check
# NAME COMMAND..., with a failure's diagnostics as "# " lines after it; end
# with done_testing.
#
# KTAP's plan, 1..N, comes before the results: what the test prints is held
# in a file until done_testing (or the test's exit, if it stops before)
# prints the header, the plan, the held lines and the totals. A test that
# sets an EXIT trap of its own calls tap_exit in it.
tap_helpers=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build/linux/tools/testing/selftests/kselftest/ktap_helpers.sh
if [[ ! -f $tap_helpers ]]; then
	echo "Bail out! $tap_helpers is missing: make tree derives build/linux"
	exit 1
fi
. "$tap_helpers"

tap_held=$(mktemp)
exec {tap_stdout}>&1 >"$tap_held"

# ktap_helpers.sh echoes the description unquoted: no globbing there.
tap_result() {
	local glob=1
	[[ $- == *f* ]] && glob=
	set -f
	"$@"
	[[ -n $glob ]] && set +f
	return 0
}
ok() { tap_result ktap_test_pass "$*"; }
not_ok() { tap_result ktap_test_fail "$*"; }
# check NAME COMMAND...: ok if COMMAND succeeds, else not ok with its output.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then ok "$name"; else not_ok "$name"; echo "$out" | sed 's/^/# /'; fi
}

# The header, the plan and the held lines, once.
tap_exit() {
	[[ -n $tap_held ]] || return 0
	exec >&"$tap_stdout" {tap_stdout}>&-
	ktap_print_header
	ktap_set_plan $((KTAP_TESTNO - 1))
	cat "$tap_held"
	rm -f "$tap_held"
	tap_held=
	[[ -n ${tap_done:-} ]] || echo "Bail out! the test stopped before done_testing"
}
trap tap_exit EXIT
done_testing() { tap_done=1; tap_exit; ktap_finished; }
