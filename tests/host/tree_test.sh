#!/bin/bash
# make tree and make refresh-patches on a small stand-in for the kernel
# source: derivation, re-derivation, refusals and the cover letter round trip.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"; tap_exit' EXIT
cd "$work"

# A tarball laid out like Debian's: one top-level folder.
mkdir -p src/linux-source-6.12/fs
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 118\nkernelversion:\n\t@echo 6.12.118\n' \
	>src/linux-source-6.12/Makefile
printf 'line one\nline two\n' >src/linux-source-6.12/fs/namei.c
printf '.*\n' >src/linux-source-6.12/.gitignore
tar -cJf source.tar.xz -C src linux-source-6.12

tree_sh() { "$top/scripts/tree.sh" "$@" "$work/source.tar.xz" "$work/linux" "$work/patches"; }
refresh() { "$top/scripts/refresh-patches.sh" "$work/linux" "$work/patches"; }
git_tree() { git -C "$work/linux" "$@"; }
mkdir patches

out=$(tree_sh 2>&1)
check "derives the tree from the tarball with no patches" test "$(git_tree rev-list --count HEAD)" = 1
check "prints the source version it used" grep -q "6.12.118" <<<"$out"
check "commits the files the tarball's .gitignore ignores" test -n "$(git_tree ls-files .gitignore)"

# A developer's commit, exported with its cover letter text.
echo "line three" >>linux/fs/namei.c
git_tree commit -q -am "namei: add a third line" -m "Why the line is there."
git_tree config branch.main.description "$(printf 'namei: three lines\n\nThe whole story of the series.')"
check "refresh-patches exports the commit" refresh
check "with a cover letter and one patch" test "$(ls patches | tr '\n' ' ')" = "0000-cover-letter.patch 0001-namei-add-a-third-line.patch "
check "the cover letter carries the subject" grep -q "Subject: \[PATCH 0/1\] namei: three lines" patches/0000-cover-letter.patch
check "and the text" grep -q "The whole story of the series." patches/0000-cover-letter.patch

head=$(git_tree rev-parse HEAD)
out=$(tree_sh 2>&1)
check "after refresh-patches, tree is up to date" grep -q "up to date" <<<"$out"
check "and keeps the commit" test "$(git_tree rev-parse HEAD)" = "$head"

# A fresh derivation from patches/ gives the same series back.
rm -rf linux linux.stamp
check "a fresh tree applies the series" tree_sh
check "the patch is applied" grep -q "line three" linux/fs/namei.c
cp -r patches patches.before
check "refresh-patches after a fresh tree" refresh
check "gives byte-identical patches (cover letter included)" diff -r patches.before patches

# Refusals: work only build/linux holds is never thrown away.
echo "uncommitted" >>linux/fs/namei.c
touch patches/0000-cover-letter.patch  # no change of content: still up to date
sed -i 's/whole story/full story/' patches/0000-cover-letter.patch
out=$(tree_sh 2>&1) && not_ok "refuses to re-derive over uncommitted edits" || ok "refuses to re-derive over uncommitted edits"
check "says so" grep -q "edits that are not committed" <<<"$out"
check "and keeps the edit" grep -q uncommitted linux/fs/namei.c
git_tree checkout -q fs/namei.c

echo "new file" >linux/fs/new.c
out=$(tree_sh 2>&1) && not_ok "refuses over a new file" || ok "refuses over a new file"
rm linux/fs/new.c

echo "line four" >>linux/fs/namei.c
git_tree commit -q -am "namei: a fourth line"
out=$(tree_sh 2>&1) && not_ok "refuses to re-derive over unexported commits" || ok "refuses to re-derive over unexported commits"
check "says so and names the commit" grep -q "a fourth line" <<<"$out"
out=$("$top/scripts/tree.sh" --check-only "$work/source.tar.xz" "$work/linux" "$work/patches" 2>&1) &&
	not_ok "distclean's check refuses too" || ok "distclean's check refuses too"
check "refresh-patches exports it" refresh
check "the cover letter's text survives" grep -q "full story" patches/0000-cover-letter.patch

# A patch that does not apply is named.
sed -i 's/^+line four$/+line four, changed/; s/^ line three$/ line 3/' patches/0002-namei-a-fourth-line.patch
rm -rf linux linux.stamp
out=$(tree_sh 2>&1) && not_ok "a patch that does not apply fails" || ok "a patch that does not apply fails"
check "and is named" grep -q "0002-namei-a-fourth-line.patch does not apply" <<<"$out"
check "the patches before it are applied" grep -q "line three" linux/fs/namei.c

out=$("$top/scripts/tree.sh" "$work/missing.tar.xz" "$work/linux2" "$work/patches" 2>&1) &&
	not_ok "a missing tarball fails" || ok "a missing tarball fails"
check "with a sentence naming the package" grep -q "install the Debian package linux-source-6.12" <<<"$out"

# A kernel with nothing to rebuild is said to be up to date, not "building".
if [[ -f $top/build/kbuild/vmlinux ]]; then
	out=$(cd "$top" && env -u MAKEFLAGS -u MAKELEVEL make -s kernel 2>&1)
	if grep -q "kernel: build/kbuild (.*) is up to date" <<<"$out" && ! grep -q "building" <<<"$out"; then
		ok "make kernel with nothing to rebuild says it is up to date"
	else
		not_ok "make kernel with nothing to rebuild says it is up to date"
		echo "$out" | sed 's/^/# /'
	fi
fi

done_testing
