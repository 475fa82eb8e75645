#!/bin/bash
# Configure (tinyconfig + the fragments, or a copy of another build's
# .config) and build the kernel out of tree.
#
# usage: kernel.sh [--no-guest-modules] [--make-var VAR=VALUE]... TREE KBUILD FRAGMENT...
#        kernel.sh [--no-guest-modules] [--make-var VAR=VALUE]... --config CONFIG TREE KBUILD
#
# --make-var passes a variable to Kbuild (make coverage's
# GCOV_PROFILE_namei.o=y): give the same ones to every build of KBUILD.
#
# With CONFIG_MODULES, the guest's own modules (guest/modules/) are built
# against the kernel too, into KBUILD/symwalk-modules.cpio, an archive
# that scripts/symwalk/qemu.py appends to the initramfs of every boot of this
# kernel (--no-guest-modules: not, for builds that are never booted).
set -euo pipefail

config= guest_modules=1 make_vars=()
while [[ ${1:-} == --* ]]; do
	case $1 in
	--config) config=$2; shift 2 ;;
	--make-var) make_vars+=("$2"); shift 2 ;;
	--no-guest-modules) guest_modules=; shift ;;
	*) echo "kernel: unknown option $1" >&2; exit 2 ;;
	esac
done
tree=$1 kbuild=$2
shift 2
fragments=("$@")
die() { echo "kernel: $*" >&2; exit 1; }
kmake() { make -s -C "$tree" O="$(realpath "$kbuild")" ${make_vars[@]+"${make_vars[@]}"} "$@"; }

mkdir -p "$kbuild"
# Configure anew only when the fragment changed: kbuild then rebuilds what
# the new .config touches, and nothing when it did not change.
stale=
[[ -f $kbuild/.config ]] || stale=1
for fragment in "${fragments[@]}"; do
	[[ $fragment -nt $kbuild/.config ]] && stale=1
done
if [[ -n $config ]]; then
	[[ -f $config ]] || die "$config is missing: build the kernel whose configuration it is first"
	# The same configuration, to the byte: kbuild rebuilds what changed.
	if ! cmp -s "$config" "$kbuild/.config"; then
		echo "kernel: configuring $kbuild as $config"
		cp "$config" "$kbuild/.config"
		kmake olddefconfig
		cmp -s "$config" "$kbuild/.config" ||
			die "$tree gives $config another meaning (olddefconfig changed it): not the same configuration"
	fi
elif [[ -n $stale ]]; then
	echo "kernel: configuring tinyconfig + ${fragments[*]}"
	kmake tinyconfig >/dev/null
	KCONFIG_CONFIG=$kbuild/.config "$tree"/scripts/kconfig/merge_config.sh \
		-m -O "$kbuild" "$kbuild/.config" "${fragments[@]}" >/dev/null
	kmake olddefconfig
	# Every symbol of the fragments must have survived Kconfig's
	# dependencies, with the value of the last fragment that sets it.
	declare -A wanted=()
	while IFS= read -r line; do
		[[ $line =~ ^(CONFIG_[A-Z0-9_]+)=(.*)$ ]] || continue
		wanted[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
	done < <(cat "${fragments[@]}")
	lost=0
	for sym in "${!wanted[@]}"; do
		val=${wanted[$sym]}
		if [[ $val == n ]]; then
			grep -q "^$sym=" "$kbuild/.config" || continue
		else
			grep -qx "$sym=$val" "$kbuild/.config" && continue
		fi
		echo "kernel: $sym=$val from ${fragments[*]} did not make it into .config" >&2
		lost=1
	done
	[[ $lost -eq 0 ]] || { rm -f "$kbuild/.config"; die "fix ${fragments[*]} (a dependency is missing)"; }
fi

# Kbuild decides what is stale, but finding nothing to do takes it 7 s of
# a 2-core machine, at every make lab and make check. A tree that git
# says holds no edit, at the commit and with the .config of the last build
# that finished here, built the same kernel: skip Kbuild then.
built_from=$kbuild/symwalk-built-from
source_id() {
	local top head
	# the tree's own repository, not one it happens to sit in (pristine/)
	top=$(git -C "$tree" rev-parse --show-toplevel 2>/dev/null) || return 1
	[[ $top == "$(realpath "$tree")" ]] || return 1
	head=$(git -C "$tree" rev-parse -q --verify HEAD 2>/dev/null) || return 1
	[[ -z $(git -C "$tree" status --porcelain 2>/dev/null) ]] || return 1
	echo "$head $(sha256sum <"$kbuild/.config" | cut -d' ' -f1)${make_vars[*]+ ${make_vars[*]}}"
}
id=$(source_id) || id=
if [[ -n $id && $id == "$(cat "$built_from" 2>/dev/null)" && -f $kbuild/vmlinux &&
      -f $kbuild/arch/x86/boot/bzImage && -f $kbuild/usr/gen_init_cpio ]]; then
	kbuild_done=1
else
	rm -f "$built_from"
fi

# Say "building" only once Kbuild compiles something, and how far it got
# now and then; its own lines go to a log.
log=$kbuild/build.log
before=$(stat -c %Y "$kbuild/vmlinux" 2>/dev/null || echo none)
start=$SECONDS
if [[ -z ${kbuild_done:-} ]] && ! make -C "$tree" O="$(realpath "$kbuild")" --no-print-directory -j"$(nproc)" \
	${make_vars[@]+"${make_vars[@]}"} all scripts_gdb 2>&1 | tee "$log" | awk -v kbuild="$kbuild" -v jobs="$(nproc)" '
	/^  (CC|AS|LD|AR|HOSTCC|HOSTLD|CPP|OBJCOPY|LDS|VDSO|RELOCS) / && !/bzImage/ {
		if (!n++) printf "kernel: building in %s with -j%s (Kbuild'"'"'s lines: %s/build.log)\n", kbuild, jobs, kbuild
		if (n % 500 == 0) printf "kernel: %d objects built so far\n", n
		fflush()
	}'; then
	tail -n 30 "$log" >&2
	die "the build failed; the last lines above, all of them in $log"
fi
[[ -n $id && -z ${kbuild_done:-} ]] && echo "$id" >"$built_from"
built=
[[ $(stat -c %Y "$kbuild/vmlinux" 2>/dev/null) != "$before" ]] && built=$((SECONDS - start))
[[ -f $kbuild/vmlinux-gdb.py ]] || die "the build did not make $kbuild/vmlinux-gdb.py"
# The values symwalk's gdb helpers decode, from this build of fs/namei.c.
constants=$kbuild/symwalk_constants.py
generator=$(dirname "$0")/gdb-constants.py
if [[ ! -f $constants || $kbuild/fs/namei.o -nt $constants || $generator -nt $constants ]]; then
	echo "kernel: generating $constants"
	"$generator" "$tree" "$kbuild" "$constants"
fi
# The guest's modules, built in a folder of the kernel's build (Kbuild
# writes an external module's objects beside its sources), again whenever
# the kernel or a source is newer than the archive.
modules=$(dirname "$0")/../guest/modules
archive=$kbuild/symwalk-modules.cpio
if [[ -n $guest_modules ]] && grep -qx CONFIG_MODULES=y "$kbuild/.config"; then
	rebuild=
	for f in "$kbuild/vmlinux" "$modules"/*; do
		[[ $f -nt $archive ]] && rebuild=1
	done
	if [[ -n $rebuild ]]; then
		echo "kernel: building the guest's modules (guest/modules) for $kbuild"
		mkdir -p "$kbuild/symwalk-modules"
		cp "$modules"/* "$kbuild/symwalk-modules/"
		kmake M="$(realpath "$kbuild/symwalk-modules")" modules >"$kbuild/symwalk-modules/build.log" 2>&1 ||
			{ tail -n 30 "$kbuild/symwalk-modules/build.log" >&2; die "the guest's modules do not build"; }
		{
			echo "dir /symwalk/modules 0755 0 0"
			for ko in "$kbuild"/symwalk-modules/*.ko; do
				echo "file /symwalk/modules/${ko##*/} $ko 0644 0 0"
			done
		} >"$archive.list"
		"$kbuild/usr/gen_init_cpio" "$archive.list" >"$archive.tmp"
		mv "$archive.tmp" "$archive"
	fi
fi
if [[ -n $built ]]; then
	echo "kernel: $(kmake kernelrelease) built in $built s: $kbuild/arch/x86/boot/bzImage"
else
	echo "kernel: $kbuild ($(kmake kernelrelease)) is up to date"
fi
