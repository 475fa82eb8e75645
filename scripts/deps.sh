#!/bin/bash
# Install, with apt-get, the Debian packages symwalk uses; only those missing.
set -euo pipefail

packages=(
	linux-source-6.12	# the kernel source the series applies to
	qemu-system-x86		# the guest, under TCG
	gdb python3		# the debugger and its Python helpers
	busybox-static		# the guest's shell and tools
	gcc make bc flex bison libelf-dev libssl-dev libc6-dev
	cpio xz-utils git
	tmux			# console and gdb side by side in `make lab`
	libtracefs-dev libtraceevent-dev pkg-config	# the fuzzer's trace reader, static
	# The site in a real browser (tests/docs/browser_test.py, make
	# docs-screenshot); selenium loads in Debian's /usr/bin/python3 only.
	chromium chromium-driver python3-selenium
	"$@"
)

missing=()
for pkg in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)
	[[ $status == ii* ]] || missing+=("$pkg")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -eq 0 ]]; then
	sudo=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
	sudo=(sudo -n)
else
	echo "deps: these Debian packages are missing and installing them needs root or password-less sudo: ${missing[*]}" >&2
	exit 1
fi

echo "deps: installing ${missing[*]}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! "${sudo[@]}" apt-get update >"$log" 2>&1; then
	tail -n 5 "$log" >&2
	echo "deps: apt-get update failed; is the Debian archive reachable?" >&2
	exit 1
fi
if ! DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y \
		--no-install-recommends "${missing[@]}" >"$log" 2>&1; then
	tail -n 5 "$log" >&2
	echo "deps: apt-get could not install ${missing[*]}; see the lines above" >&2
	exit 1
fi
