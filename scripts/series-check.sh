#!/bin/bash
# Check the series as a reviewer would: each patch applies with git am on
# the pristine tree, in order; the kernel builds after each one; each is
# checkpatch --strict clean (but for what the cover letter justifies); and
# fs/namei.c's kernel-doc has no warning at the end. Prints a KTAP line per
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
# TRACE_EVENT macros of a trace header; its lookup of a commit id cited in a
# message, which Debian's tree (no upstream history) cannot answer; and its
# question about MAINTAINERS for a patch whose new files are all under a
# directory that MAINTAINERS lists (F:) once the patch is applied.
justified() {
	local maintained=
	new_files_maintained && maintained=1
	grep -E '^(CHECK|WARNING|ERROR)' |
		grep -vE "^CHECK: (Lines should not end with a '\('|Alignment should match open parenthesis)$" |
		grep -vE "^WARNING: Unknown commit id '[0-9a-f]{12}', maybe rebased or not pulled\?$" |
		if [[ -n $maintained ]]; then
			grep -vxF 'WARNING: added, moved or deleted file(s), does MAINTAINERS need updating?'
		else
			cat
		fi
}

# Whether every file the worktree's last commit adds is in a directory
# that its MAINTAINERS lists.
new_files_maintained() {
	local file
	while IFS= read -r file; do
		grep -qE "^F:[[:space:]]+$(dirname "$file")/\$" "$wt/MAINTAINERS" || return 1
	done < <(git -C "$wt" show --name-only --diff-filter=A --format= HEAD)
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
	if out=$("$top/scripts/kernel.sh" --no-guest-modules "$wt" "$kbuild" "$fragment" 2>&1); then
		ok "$name builds"
	else
		not_ok "$name builds"
		echo "$out" | tail -20 | sed 's/^/# /'
	fi
	# /usr/bin first: its python3 has ply, which spdxcheck.py needs.
	report=$(cd "$wt" && PATH=/usr/bin:$PATH ./scripts/checkpatch.pl --strict "$patch" 2>/dev/null) ||
		true # non-zero for the justified checks too; the report decides
	problems=$(justified <<<"$report")
	if [[ -z $problems ]] && grep -q '^total: ' <<<"$report"; then
		total=$(grep '^total' <<<"$report")
		if [[ $total == "total: 0 errors, 0 warnings, 0 checks, "* ]]; then
			ok "$name is checkpatch --strict clean ($total)"
		else
			ok "$name is checkpatch --strict clean but for what the cover letter justifies ($total)"
		fi
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
