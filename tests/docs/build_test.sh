#!/bin/bash
# The documentation site, built from the results make check's guest parts
# left in build/run (check.py runs this after them, and before the other
# tests of tests/docs/, which read the site it builds): make docs boots no
# guest (a qemu on PATH that only records its call proves it), says which
# command to run when those results are missing, and renders with
# sphinx-build -W (a warning fails it).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/host/tap.sh"
cd "$top"

fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
for qemu in qemu-system-x86_64 qemu-system-i386; do
	printf '#!/bin/sh\necho "$0 $*" >> %s/booted\nexit 1\n' "$fake" > "$fake/$qemu"
	chmod +x "$fake/$qemu"
done

mkdir "$fake/run"
out=$(PATH=$fake:$PATH make -s --no-print-directory docs DOCS_RUN="$fake/run" 2>&1)
rc=$?
if [[ $rc -ne 0 ]] && grep -q "run 'make check' first" <<<"$out"; then
	ok "make docs without make check's results fails, saying to run make check"
else
	not_ok "make docs without make check's results fails, saying to run make check"
	echo "$out" | tail -n 5 | sed 's/^/# /'
fi

start=$(date +%s)
if out=$(PATH=$fake:$PATH make -s --no-print-directory docs 2>&1); then
	ok "make docs builds the site, sphinx-build -W: $(grep -o '([0-9]* warnings)' <<<"$out") in $(($(date +%s) - start)) s"
else
	not_ok "make docs builds the site, sphinx-build -W"
	echo "$out" | tail -n 40 | sed 's/^/# /'
	done_testing
fi
if [[ -e $fake/booted ]]; then
	not_ok "make docs booted no guest"
	sed 's/^/# /' "$fake/booted"
else
	ok "make docs booted no guest"
fi

done_testing
