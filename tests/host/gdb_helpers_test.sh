#!/bin/bash
# symwalk's gdb helpers in the states where they must refuse: one sentence,
# never a Python traceback. (The helpers on a live guest are the labs' job.)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/tap.sh"
kbuild=$top/build/kbuild

# gdb_says NAME PATTERN GDB-ARGS...: gdb's output matches PATTERN and holds
# no traceback.
gdb_says() {
	local name=$1 pattern=$2 out
	shift 2
	out=$(cd "$top" && timeout 60 gdb -nx -batch "$@" 2>&1)
	if grep -q -- "$pattern" <<<"$out" && ! grep -q "Traceback\|Python Exception" <<<"$out"; then
		ok "$name"
	else
		not_ok "$name"
		echo "$out" | sed 's/^/# /'
	fi
}

kernel=(-ex "set auto-load python-scripts off" -ex "file $kbuild/vmlinux"
	-ex "source $kbuild/vmlinux-gdb.py" -ex "source gdb-scripts/symwalk.py")

gdb_says "symwalk.py without the kernel's helpers asks for them" \
	"load the kernel's helpers first" -ex "source gdb-scripts/symwalk.py"
gdb_says "lx-nameidata before gdb is attached" \
	"gdb is not attached to the guest" "${kernel[@]}" -ex "lx-nameidata"
gdb_says "lx-nameidata with an expression that does not evaluate" \
	"cannot evaluate 'no_such_symbol'" "${kernel[@]}" -ex "lx-nameidata no_such_symbol"
gdb_says "lx-walk-break without a name" \
	"name the process" "${kernel[@]}" -ex "lx-walk-break"
gdb_says "lx-walk-break with a name longer than a comm" \
	"longer than the 15" "${kernel[@]}" -ex "lx-walk-break a-very-long-process-name"
gdb_says "lx-walk-break sets its breakpoint in link_path_walk" \
	"Breakpoint 1 at .*fs/namei.c" "${kernel[@]}" -ex "lx-walk-break symwalk-lab"
gdb_says "help lx-nameidata is the docstring" \
	"Show the path walk the current task is in" "${kernel[@]}" -ex "help lx-nameidata"

done_testing
