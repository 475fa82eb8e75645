#!/usr/bin/env python3
"""make labs-soak: every lab in batch many times in a row, the machine
loaded (scripts/symwalk/labs_soak.py); ends with "N passed, N failed"."""
import argparse
import sys

from symwalk import layout
from symwalk.labs import LabError, lab_names, resolve_lab
from symwalk.labs_soak import soak
from symwalk.qemu import Guest, GuestError


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kbuild", default=layout.KBUILD)
    parser.add_argument("--initramfs", default=layout.INITRAMFS)
    parser.add_argument("--runs", type=int, default=20, help="runs of each lab (20)")
    parser.add_argument("--load", type=int, default=2,
                        help="CPU-bound processes beside the labs (2)")
    parser.add_argument("labs", nargs="*", help="lab names or unique prefixes (all)")
    args = parser.parse_args()
    if args.runs < 1 or args.load < 0:
        parser.error("--runs must be 1 or more, --load 0 or more")
    try:
        vm = Guest(args.kbuild, args.initramfs)
        names = [resolve_lab(n) for n in args.labs] or lab_names()
    except (GuestError, LabError) as e:
        print("labs-soak: {}".format(e), file=sys.stderr)
        return 1
    passed, failed = soak(vm, names, args.runs, args.load)
    print("{} passed, {} failed".format(passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
