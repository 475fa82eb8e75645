#!/bin/bash
# Check the series as a reviewer would: each patch applies with git am on
# the pristine tree, in order; the kernel builds after each one; each is
# checkpatch --strict clean (but for what the cover letter justifies); and
# each adds no kernel-doc warning to the C files it touches; and
# fs/namei.c's kernel-doc has no warning at the end. Prints a KTAP line per
# check. A separate worktree and build directory keep build/linux and
# build/kbuild as they are.
#
# The KTAP goes to WORKDIR/results.ktap too, and the sha256 of each patch
# checked to WORKDIR/patches.sha256: the series pages of the site show each
# patch's results from there, as long as the patch is the one checked.
#
# usage: series-check.sh TREE PATCHES FRAGMENT WORKDIR
set -uo pipefail
shopt -s nullglob

tree=$1 patches=$(realpath "$2") fragment=$(realpath "$3") work=$(realpath -m "$4")
top=$(cd "$(dirname "$0")/.." && pwd)
wt=$work/linux kbuild=$work/kbuild

git -C "$tree" worktree remove --force "$wt" 2>/dev/null
rm -rf "$wt"
mkdir -p "$work"
(cd "$patches" && sha256sum -- *.patch) >"$work/patches.sha256"
exec > >(tee "$work/results.ktap")
. "$top/tests/host/tap.sh"
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

# kernel_doc_warnings REV FILE: how many warnings scripts/kernel-doc -Wall
# prints for FILE as it is at REV of the worktree (none if REV lacks it).
kernel_doc_warnings() {
	local copy
	copy=$(mktemp --suffix=".${2##*.}")
	git -C "$wt" show "$1:$2" >"$copy" 2>/dev/null
	(cd "$wt" && ./scripts/kernel-doc -none -Wall "$copy" 2>&1) | grep -c 'warning:'
	rm -f "$copy"
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
	counts=() grew=()
	while IFS= read -r file; do
		before=$(kernel_doc_warnings HEAD~1 "$file") after=$(kernel_doc_warnings HEAD "$file")
		counts+=("$file $before -> $after")
		((after > before)) && grew+=("$file: $before warnings before it, $after with it")
	done < <(git -C "$wt" show --name-only --diff-filter=AM --format= HEAD -- '*.c' '*.h')
	summary="no C file or header"
	if [[ ${#counts[@]} -gt 0 ]]; then
		summary=$(printf '%s, ' "${counts[@]}")
		summary=${summary%, }
	fi
	if [[ ${#grew[@]} -eq 0 ]]; then
		ok "$name adds no kernel-doc warning (kernel-doc -Wall: $summary)"
	else
		not_ok "$name adds no kernel-doc warning"
		printf '# %s\n' "${grew[@]}"
	fi
done

warnings=$( (cd "$wt" && ./scripts/kernel-doc -none -Wall fs/namei.c) 2>&1)
check "scripts/kernel-doc -none -Wall fs/namei.c prints nothing" test -z "$warnings"
[[ -n $warnings ]] && echo "$warnings" | head -20 | sed 's/^/# /'

git -C "$tree" worktree remove --force "$wt"
done_testing
