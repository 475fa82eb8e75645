#!/bin/bash
# Pack the guest's initramfs with the kernel's own usr/gen_init_cpio.
#
# usage: mkinitramfs.sh GEN_INIT_CPIO GUEST_BIN_DIR OUTPUT
#   GUEST_BIN_DIR holds the static guest programs: tests/* and tools/*.
set -euo pipefail
shopt -s nullglob

gen_init_cpio=$1 bin=$2 out=$3
here=$(dirname "$(realpath "$0")")
top=$(dirname "$(dirname "$here")")
busybox=/bin/busybox
die() { echo "initramfs: $*" >&2; exit 1; }

[[ -x $busybox ]] || die "$busybox is missing; install busybox-static (make deps)"

list=$out.list
{
	echo "dir /bin 0755 0 0"
	echo "file /bin/busybox $busybox 0755 0 0"
	echo "file /init $here/init 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	for d in /dev /proc /sys /tmp /root /lab /symwalk /symwalk/bin \
		 /symwalk/tests /symwalk/labs /symwalk/scenarios; do
		echo "dir $d 0755 0 0"
	done
	for prog in "$bin"/tests/*; do
		echo "file /symwalk/tests/${prog##*/} $prog 0755 0 0"
	done
	for prog in "$here"/lab-setup "$here"/lab-trigger; do
		echo "file /symwalk/bin/${prog##*/} $prog 0755 0 0"
	done
	for prog in "$bin"/tools/*; do
		echo "file /symwalk/bin/${prog##*/} $prog 0755 0 0"
	done
	for scenario in "$top"/guest/scenarios/*.sh; do
		echo "file /symwalk/scenarios/${scenario##*/} $scenario 0644 0 0"
	done
	# The exercises' graders (scripts/exercise.py), run as scenarios.
	echo "file /symwalk/scenarios/exercise-lib.sh $top/exercises/grade-lib.sh 0644 0 0"
	for grader in "$top"/exercises/*/grade.sh; do
		name=$(basename "$(dirname "$grader")")
		echo "file /symwalk/scenarios/exercise-$name.sh $grader 0644 0 0"
	done
	for lab in "$top"/labs/*/ "$top"/tests/gdb/*/ "$top"/bench/*/; do
		name=$(basename "$lab")
		echo "dir /symwalk/labs/$name 0755 0 0"
		for f in setup.sh trigger; do
			[[ -f $lab/$f ]] || die "lab $name has no $f"
			echo "file /symwalk/labs/$name/$f $lab/$f 0755 0 0"
		done
	done
} >"$list"
"$gen_init_cpio" "$list" >"$out.tmp"
mv "$out.tmp" "$out"
echo "initramfs: $out ($(du -k "$out" | cut -f1) KiB)"
