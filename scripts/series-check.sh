#!/bin/bash
# Check the series as a reviewer would: each patch applies with git am on
# the pristine tree, in order; the kernel builds after each one; each is
# checkpatch --strict clean (but for what the cover letter justifies); and
# fs/namei.c's kernel-doc has no warning at the end. Prints a TAP line per
# check. A separate worktree and build directory keep build/linux and
# build/kbuild as they are.
#
# usage: series-check.sh TREE PATCHES FRAGMENT WORKDIR
set -uo pipefail
shopt -s nullglob

tree=$1 patches=$(realpath "$2") fragment=$(realpath "$3") work=$(realpath -m "$4")
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/host/tap.sh"
wt=$work/linux kbuild=$work/kbuild

git -C "$tree" worktree remove --force "$wt" 2>/dev/null
rm -rf "$wt"
mkdir -p "$work"
git -C "$tree" worktree add -q --detach "$wt" pristine || { not_ok "worktree at pristine"; done_testing; }

# The checks the cover letter justifies: checkpatch's layout checks on the
# TRACE_EVENT macros of a trace header.
justified() {
	grep -E '^(CHECK|WARNING|ERROR)' | grep -vE "^CHECK: (Lines should not end with a '\('|Alignment should match open parenthesis)$"
}

for patch in "$patches"/*.patch; do
	name=$(basename "$patch")
	[[ $name == 0000-cover-letter.patch ]] && continue
	if ! out=$(git -C "$wt" am -q "$patch" 2>&1); then
		not_ok "$name applies"
		echo "$out" | sed 's/^/# /'
		git -C "$wt" am --abort 2>/dev/null
		break
	fi
	ok "$name applies"
	echo "# building the kernel with $name" >&2
	if out=$("$top/scripts/kernel.sh" "$wt" "$kbuild" "$fragment" 2>&1); then
		ok "$name builds"
	else
		not_ok "$name builds"
		echo "$out" | tail -20 | sed 's/^/# /'
	fi
	report=$(cd "$wt" && ./scripts/checkpatch.pl --strict "$patch" 2>/dev/null) ||
		true # non-zero for the justified checks too; the report decides
	problems=$(justified <<<"$report")
	if [[ -z $problems ]] && grep -q '^total: 0 errors, 0 warnings' <<<"$report"; then
		ok "$name is checkpatch --strict clean ($(grep '^total' <<<"$report"))"
	else
		not_ok "$name is checkpatch --strict clean"
		echo "$problems" | sed 's/^/# /'
	fi
done

warnings=$( (cd "$wt" && ./scripts/kernel-doc -none -Wall fs/namei.c) 2>&1)
check "scripts/kernel-doc -none -Wall fs/namei.c prints nothing" test -z "$warnings"
[[ -n $warnings ]] && echo "$warnings" | head -20 | sed 's/^/# /'

git -C "$tree" worktree remove --force "$wt"
done_testing
