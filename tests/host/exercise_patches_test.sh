#!/bin/bash
# Each exercise's patches apply to the series as it is now: the starting
# state on the series' last commit in build/linux, the reference solution
# and each wrong solution on the starting state. A series change that
# moves their context is caught here, in seconds, not by the graders'
# kernel builds of make exercises-check. Applied to a scratch index only:
# no checkout, build/linux untouched.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/tap.sh"

linux=$top/build/linux
index=$(mktemp)
trap 'rm -f "$index"; tap_exit' EXIT
# apply PATCH [--check]: onto the scratch index, or only checked against it
apply() {
	GIT_INDEX_FILE=$index git -C "$linux" apply --cached "$@"
}

for dir in "$top"/exercises/*/; do
	name=$(basename "$dir")
	[[ -f $dir/solution.patch ]] || continue
	rm -f "$index"
	GIT_INDEX_FILE=$index git -C "$linux" read-tree HEAD
	start="the series"
	if [[ -f $dir/start.patch ]]; then
		check "$name: start.patch applies to the series" apply "$dir/start.patch"
		start=start.patch
		commit=$(python3 "$top/scripts/exercise.py" starting-commit "$name")
		check "$name: the starting commit is the series with start.patch, on the pristine source" \
			test "$(git -C "$linux" rev-parse "$commit^{tree}")" = \
			"$(GIT_INDEX_FILE=$index git -C "$linux" write-tree)" -a \
			"$(git -C "$linux" rev-parse "$commit^")" = \
			"$(git -C "$linux" rev-list --max-parents=0 main)"
		# Each line the solution adds (but short ones, such as " */"), as a
		# line the diff of the start removes.
		answer=$(grep '^+[^+]' "$dir/solution.patch" | sed 's/^+/-/' | grep -E '^-.{12}')
		check "$name: git show of the starting commit does not show the solution's lines removed" \
			bash -c '! git -C "$1" show "$2" | grep -qxF -f <(printf "%s\n" "$3")' _ \
			"$linux" "$commit" "$answer"
	fi
	check "$name: solution.patch applies to $start" apply --check "$dir/solution.patch"
	for wrong in "$dir"/wrong-*.patch; do
		[[ -f $wrong ]] || continue
		check "$name: $(basename "$wrong") applies to $start" apply --check "$wrong"
	done
done
done_testing
