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

kernel=(-ex "set auto-load python-scripts off"
	-ex "set index-cache directory $top/build/gdb-index-cache" -ex "set index-cache enabled on"
	-ex "file $kbuild/vmlinux"
	-ex "source $kbuild/vmlinux-gdb.py" -ex "source gdb-scripts/symwalk.py")

gdb_says "symwalk.py without the kernel's helpers asks for them" \
	"load the kernel's helpers first" -ex "source gdb-scripts/symwalk.py"

# The checks with the kernel loaded, in one gdb (an error does not end a
# batch run): name, what the output must hold, the command.
checks=(
	"lx-nameidata before gdb is attached" "gdb is not attached to the guest" "lx-nameidata"
	"lx-walk-break without a name" "name the process or the path" "lx-walk-break"
	"lx-walk-break with a name longer than a comm" "longer than the 15"
	"lx-walk-break a-very-long-process-name"
	"lx-walk-break breaks where the kernel traces a push"
	"breakpoints 1, 2, 3 stop after each link pushed by process symwalk-lab"
	"lx-walk-break symwalk-lab"
	"lx-walk-break takes a path" "stop after each link pushed by lookups of /lab/x"
	"lx-walk-break /lab/x"
	"lx-symlink-stack before gdb is attached" "gdb is not attached to the guest"
	"lx-symlink-stack"
	"lx-walk-trace before gdb is attached" "gdb is not attached to the guest" "lx-walk-trace"
	"lx-lookup-flags decodes with the built kernel's values"
	"0x10051 = LOOKUP_FOLLOW|LOOKUP_PARENT|LOOKUP_RCU|LOOKUP_NO_SYMLINKS"
	"lx-lookup-flags 0x10051"
	"lx-lookup-flags names unknown bits in hex" "0x80000001 = LOOKUP_FOLLOW|0x80000000"
	"lx-lookup-flags 0x80000001"
	"lx-lookup-flags without a value" "give a value" "lx-lookup-flags"
	"\$lx_nameidata() before gdb is attached" "gdb is not attached to the guest"
	"p \$lx_nameidata()"
	"\$lx_err() without a value: one sentence" "takes one value" "p \$lx_err()"
	"\$lx_err() names an error without a guest" '"-ELOOP"' "p \$lx_err(-40)"
	"\$lx_err() names -2 ENOENT, not another header's E* macro of value 2" '"-ENOENT"'
	"p \$lx_err(-2)"
	"help lx-nameidata is the docstring" "Show the path walk the current task is in"
	"help lx-nameidata"
)
# Each check's output is framed by markers, cut by scripts/symwalk/markers.py.
commands=()
for ((i = 0; i < ${#checks[@]}; i += 3)); do
	commands+=(-ex "echo symwalk: begin check $i\n" -ex "${checks[i + 2]}"
		-ex "echo symwalk: end check $i\n")
done
all=$(cd "$top" && timeout 60 gdb -nx -batch "${kernel[@]}" "${commands[@]}" 2>&1)
for ((i = 0; i < ${#checks[@]}; i += 3)); do
	out=$(python3 -c 'import sys
from symwalk import markers
part = markers.section(sys.stdin.read(), "check", sys.argv[1])
print(part.text if part else "", end="")' "$i" <<<"$all")
	if grep -q -- "${checks[i + 1]}" <<<"$out" && ! grep -q "Traceback\|Python Exception" <<<"$out"; then
		ok "${checks[i]}"
	else
		not_ok "${checks[i]}"
		echo "${out:-(no output: gdb ended before this check; its last lines follow)}" | sed 's/^/# /'
		[[ -n $out ]] || tail -20 <<<"$all" | sed 's/^/# /'
	fi
done

# make gdb with no guest: one sentence, not a blank screen, once gdb's short
# wait for a gdbstub (gdb-scripts/symwalk_gdb/gdbstub.py) is over, and gdb
# ends. timeout(1) bounds the test; a bound in seconds on make's own run
# would fail on a loaded machine (make took 7 to 10 s beside other test
# runs, before gdb's start and its wait of 5 s), so the test asserts that it
# ends by itself.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
start=$SECONDS
out=$(cd "$top" && env -u MAKEFLAGS -u MAKELEVEL timeout 40 make -s gdb GDB_PORT="$port" </dev/null 2>&1)
rc=$? took=$((SECONDS - start))
if [[ $rc -ne 0 && $rc -ne 124 ]] && grep -q "no guest answers on localhost:$port: start one with 'make run'" <<<"$out" &&
	! grep -q "Traceback\|Python Exception" <<<"$out"; then
	ok "make gdb without a guest says so and ends by itself (${took} s)"
else
	not_ok "make gdb without a guest says so and ends by itself (exit $rc after ${took} s; 124: killed by timeout 40)"
	echo "$out" | sed 's/^/# /'
fi

done_testing
