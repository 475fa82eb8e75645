#!/bin/bash
# Write build/linux's commits after the pristine one back to patches/.
#
# usage: refresh-patches.sh TREE PATCHES
set -euo pipefail
shopt -s nullglob

tree=$1 patches=$2
die() { echo "refresh-patches: $*" >&2; exit 1; }

[[ -d $tree/.git ]] || die "$tree does not exist; run 'make tree' first"
dirty=$(git -C "$tree" status --porcelain --untracked-files=all | head -n 5)
[[ -z $dirty ]] || die "$tree has edits that are not committed; commit them first:
$dirty"
n=$(git -C "$tree" rev-list --count pristine..HEAD)

# The cover letter's text is the branch description; take an edit made to
# patches/0000-cover-letter.patch since the tree was derived, unless the
# description was edited too.
cover=$patches/0000-cover-letter.patch
if [[ -f $cover ]]; then
	in_file=$("$(dirname "$0")"/cover-letter.py read "$cover")
	derived=$(git -C "$tree" config symwalk.derived-description || true)
	current=$(git -C "$tree" config branch.main.description || true)
	if [[ $in_file != "$derived" ]]; then
		[[ $current == "$derived" ]] ||
			die "both $cover and the branch description of $tree changed; merge them with 'git -C $tree branch --edit-description'"
		git -C "$tree" config branch.main.description "$in_file"
	fi
fi

# The version of the series, from the cover letter's "Changes in vN:"
# sections: the newest one names it.
series_version() {
	git -C "$tree" config branch.main.description | sed -n 's/^Changes in \(v[0-9]*\):$/\1/p' | head -n 1
}

version=$(series_version)
prefix="PATCH${version:+ $version}"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if [[ $n -gt 0 ]]; then
	# The cover letter takes its date from the committer date: pin it to
	# the newest commit, so that a refresh with no change changes nothing.
	# So does the length of the index lines' blob ids: git's default grows
	# with the objects it counts, fewer while they are loose (tree.sh
	# turns off gc), more once they are packed.
	GIT_COMMITTER_DATE=$(git -C "$tree" log -1 --format=%cI HEAD) \
		git -C "$tree" -c core.abbrev=9 format-patch -q --cover-letter --cover-from-description=subject \
		--base=pristine --zero-commit --subject-prefix="$prefix" \
		-o "$out" pristine..HEAD
fi
rm -f "$patches"/*.patch
mkdir -p "$patches"
cp "$out"/*.patch "$patches"/ 2>/dev/null || true
grep -l '\*\*\* \(SUBJECT\|BLURB\) HERE \*\*\*' "$patches"/0000-cover-letter.patch 2>/dev/null &&
	echo "refresh-patches: the cover letter has no text yet: set it with 'git -C $tree branch --edit-description'" >&2

# The tree now matches patches/: record that, so make tree keeps it.
git -C "$tree" config symwalk.derived-description "$(git -C "$tree" config branch.main.description || true)"
series_id=$(cat /dev/null "$patches"/*.patch | sha256sum | cut -d' ' -f1)
[[ -f $tree.stamp ]] && sed -i -e "s/^\(source=.*|\).*/\1$series_id/" -e "s/^head=.*/head=$(git -C "$tree" rev-parse HEAD)/" "$tree.stamp"
echo "refresh-patches: wrote $n patches to $patches/"
