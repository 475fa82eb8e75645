#!/bin/bash
# Configure (tinyconfig + the fragment) and build the kernel out of tree.
#
# usage: kernel.sh TREE KBUILD FRAGMENT...
set -euo pipefail

tree=$1 kbuild=$2
shift 2
fragments=("$@")
die() { echo "kernel: $*" >&2; exit 1; }
kmake() { make -s -C "$tree" O="$(realpath "$kbuild")" "$@"; }

mkdir -p "$kbuild"
# Configure anew only when the fragment changed: kbuild then rebuilds what
# the new .config touches, and nothing when it did not change.
stale=
[[ -f $kbuild/.config ]] || stale=1
for fragment in "${fragments[@]}"; do
	[[ $fragment -nt $kbuild/.config ]] && stale=1
done
if [[ -n $stale ]]; then
	echo "kernel: configuring tinyconfig + ${fragments[*]}"
	kmake tinyconfig >/dev/null
	KCONFIG_CONFIG=$kbuild/.config "$tree"/scripts/kconfig/merge_config.sh \
		-m -O "$kbuild" "$kbuild/.config" "${fragments[@]}" >/dev/null
	kmake olddefconfig
	# Every line of the fragments must have survived Kconfig's dependencies.
	lost=0
	while IFS= read -r line; do
		[[ $line =~ ^(CONFIG_[A-Z0-9_]+)=(.*)$ ]] || continue
		sym=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]}
		if [[ $val == n ]]; then
			grep -q "^$sym=" "$kbuild/.config" || continue
		else
			grep -qx "$sym=$val" "$kbuild/.config" && continue
		fi
		echo "kernel: $sym=$val from ${fragments[*]} did not make it into .config" >&2
		lost=1
	done < <(cat "${fragments[@]}")
	[[ $lost -eq 0 ]] || { rm -f "$kbuild/.config"; die "fix ${fragments[*]} (a dependency is missing)"; }
fi

echo "kernel: building in $kbuild with -j$(nproc)"
kmake -j"$(nproc)" all scripts_gdb
[[ -f $kbuild/vmlinux-gdb.py ]] || die "the build did not make $kbuild/vmlinux-gdb.py"
# The values symwalk's gdb helpers decode, from this build of fs/namei.c.
constants=$kbuild/symwalk_constants.py
if [[ ! -f $constants || $kbuild/fs/namei.o -nt $constants ]]; then
	echo "kernel: generating $constants"
	"$(dirname "$0")"/gdb-constants.py "$tree" "$kbuild" "$constants"
fi
echo "kernel: $(kmake kernelrelease) ready: $kbuild/arch/x86/boot/bzImage"
