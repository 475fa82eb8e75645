#!/bin/bash
# Derive the patched kernel tree: unpack the pristine source, commit it, and
# apply the series with git am. Re-derive only when the series or the tarball
# changed, and never over work that is not in patches/.
#
# usage: tree.sh [--check-only] TARBALL TREE PATCHES
#   --check-only: only refuse (exit 1) if TREE holds work not in PATCHES
set -euo pipefail
shopt -s nullglob

check_only=
[[ ${1:-} == --check-only ]] && { check_only=1; shift; }
tarball=$1 tree=$2 patches=$3
stamp=$tree.stamp
die() { echo "tree: $*" >&2; exit 1; }

[[ -n $check_only || -f $tarball ]] || die "$tarball is missing; install the Debian package linux-source-6.12 (make deps)"

series() { printf '%s\n' "$patches"/*.patch | grep -v '/0000-cover-letter\.patch$' || true; }
tarball_id=$(stat -c '%n %s %Y' "$tarball" 2>/dev/null || true)
series_id=$(cat /dev/null "$patches"/*.patch | sha256sum | cut -d' ' -f1)
want="$tarball_id|$series_id"

git_tree() { git -C "$tree" "$@"; }
stamp_field() { sed -n "s/^$1=//p" "$stamp" 2>/dev/null; }
write_stamp() {
	printf 'source=%s\nhead=%s\n' "$1" "$(git_tree rev-parse HEAD)" >"$stamp"
}

# Refuse to throw away what only build/linux holds.
if [[ -d $tree/.git ]]; then
	[[ -d $tree/.git/rebase-apply ]] &&
		die "a git am is in progress in $tree; finish it (git am --continue) or drop it (git am --abort) first"
	dirty=$(git_tree status --porcelain --untracked-files=all | head -n 5)
	[[ -n $dirty ]] &&
		die "$tree has edits that are not committed; commit them and run 'make refresh-patches', or discard them:
$dirty"
	if [[ $(git_tree rev-parse HEAD) != "$(stamp_field head)" ]]; then
		git_tree log --oneline "$(stamp_field head 2>/dev/null || echo pristine)..HEAD" 2>/dev/null | sed 's/^/  /' >&2 || true
		die "$tree has commits that are not in patches/; run 'make refresh-patches' to export them, or reset $tree to what patches/ holds"
	fi
	[[ -n $check_only ]] && exit 0
	if [[ $(stamp_field source) == "$want" ]]; then
		echo "tree: $tree is up to date ($(stamp_field version))"
		exit 0
	fi
fi

if [[ ! -d $tree/.git || $(stamp_field source) != "$tarball_id|"* ]]; then
	echo "tree: unpacking $tarball into $tree"
	rm -rf "$tree" "$tree.new" "$stamp"
	mkdir -p "$tree.new"
	tar -xf "$tarball" -C "$tree.new" --strip-components=1
	git -C "$tree.new" init -q -b main
	# No automatic repack of the 90,000 objects after the commit: git
	# would start one in the background, and its minutes of delta search
	# would take a core from the kernel's build.
	git -C "$tree.new" config gc.auto 0
	git -C "$tree.new" config user.name "symwalk"
	git -C "$tree.new" config user.email "symwalk@localhost"
	# Stored as is, not deflated: 5 s less of a fresh make check's 40 s
	# here, for 1 GiB more of build/.
	git -C "$tree.new" -c core.looseCompression=0 add -A -f
	# A fixed date gives the pristine commit the same id on every machine,
	# so the series' base-commit line stays put.
	GIT_AUTHOR_DATE=2000-01-01T00:00:00Z GIT_COMMITTER_DATE=2000-01-01T00:00:00Z \
		git -C "$tree.new" commit -q -m "pristine $(basename "$tarball")"
	git -C "$tree.new" tag pristine
	mv "$tree.new" "$tree"
else
	echo "tree: the series changed; resetting $tree to the pristine source"
	git_tree reset -q --hard pristine
fi

version=$(make -s -C "$tree" kernelversion 2>/dev/null || echo unknown)
package=$(dpkg-query -W -f='${Package} ${Version}' linux-source-6.12 2>/dev/null || true)
[[ $tarball == /usr/src/* && -n $package ]] && version="$version, Debian $package"

# The cover letter has no diff: keep its subject and text as the branch
# description, which format-patch --cover-from-description writes back.
cover=$patches/0000-cover-letter.patch
if [[ -f $cover ]]; then
	description=$("$(dirname "$0")"/cover-letter.py read "$cover")
	git_tree config branch.main.description "$description"
	git_tree config symwalk.derived-description "$description"
fi

n=0
for patch in $(series); do
	if ! out=$(git_tree am -q --keep-cr --committer-date-is-author-date "$(realpath "$patch")" 2>&1); then
		git_tree am --abort 2>/dev/null || true
		echo "$out" | head -n 20 >&2
		write_stamp "$tarball_id|failed"
		die "$(basename "$patch") does not apply on top of the $n patches before it; fix it in $tree (git am, edit, commit) and run 'make refresh-patches'"
	fi
	n=$((n + 1))
done
write_stamp "$want"
echo "version=$version" >>"$stamp"
echo "tree: $tree is $version with $n patches applied"
