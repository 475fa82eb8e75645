#!/usr/bin/env python3
"""Benchmarks (not tests): the gdb helpers' cost on a 40-frame stack."""
import os
import re
import sys

import guest


def main():
    vm = guest.Guest(os.path.join(guest.TOP, "build", "kbuild"),
                     os.path.join(guest.TOP, "build", "initramfs.cpio"))
    ok, report = guest.run_lab_batch(
        vm, "gdb-depth", quiet=True, labs=guest.HELPER_TESTS,
        steps=os.path.join(guest.TOP, "bench", "stack40.gdb"), check=False)
    with open(os.path.join(guest.RUN, "lab-gdb-depth.gdb.log")) as f:
        lines = [line for line in f if line.startswith("bench: ")]
    if not lines:
        print(report)
        sys.exit("bench: the benchmark printed no result")
    sys.stdout.write("".join(lines))
    depth40 = [line for line in lines if "at depth 40" in line]
    if len(depth40) != len(lines):
        sys.exit("bench: the walk was not 40 links deep when measured")


if __name__ == "__main__":
    main()
