# TAP helpers for the host tests: source it, call ok/not_ok, end with done_testing.
tap_n=0
tap_failed=0
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n $*"; }
not_ok() { tap_n=$((tap_n + 1)); tap_failed=1; echo "not ok $tap_n $*"; }
# check NAME COMMAND...: ok if COMMAND succeeds, else not ok with its output.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then ok "$name"; else not_ok "$name"; echo "$out" | sed 's/^/# /'; fi
}
done_testing() { echo "1..$tap_n"; exit $tap_failed; }
