#!/usr/bin/env python3
"""Run every lab in batch many times in a row, the machine loaded.

A lab that passes once may still depend on timing: the guest runs under
TCG, gdb stops and resumes it, some labs race a rename. This runs each lab
RUNS times in a row (make lab BATCH=1's run, expectations checked) while
LOAD processes spin on the host's CPUs, prints a line per lab and ends with
"N passed, N failed"; the report and the gdb log of each failed run are
kept in build/soak/. A soak, not a test: make check does not run it.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

import guest

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOAK = os.path.join(TOP, "build", "soak")


def spinners(count):
    """count processes that keep a CPU busy until killed."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(count)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kbuild", default=os.path.join(TOP, "build", "kbuild"))
    parser.add_argument("--initramfs", default=os.path.join(TOP, "build", "initramfs.cpio"))
    parser.add_argument("--runs", type=int, default=20, help="runs of each lab (20)")
    parser.add_argument("--load", type=int, default=2,
                        help="CPU-bound processes beside the labs (2)")
    parser.add_argument("labs", nargs="*", help="lab names or unique prefixes (all)")
    args = parser.parse_args()
    if args.runs < 1 or args.load < 0:
        parser.error("--runs must be 1 or more, --load 0 or more")
    # The soak's runs are its own: never the site's.
    guest.RUN = os.path.join(SOAK, "run")
    try:
        vm = guest.Guest(args.kbuild, args.initramfs)
        names = [guest.resolve_lab(n) for n in args.labs] or guest.lab_names()
    except guest.GuestError as e:
        print("labs-soak: {}".format(e), file=sys.stderr)
        return 1
    os.makedirs(SOAK, exist_ok=True)
    print("labs-soak: {} labs, {} runs each, {} CPU-bound process{} beside".format(
        len(names), args.runs, args.load, "" if args.load == 1 else "es"))
    passed = failed = 0
    load = spinners(args.load)
    try:
        for name in names:
            start, bad = time.monotonic(), []
            for run in range(1, args.runs + 1):
                ok, report = guest.run_lab_batch(vm, name, quiet=True, timeout=180)
                if ok:
                    passed += 1
                    continue
                failed += 1
                bad.append(run)
                path = os.path.join(SOAK, "{}-run{}.txt".format(name, run))
                with open(path, "w") as f:
                    f.write(report + "\n")
                # The next run overwrites the gdb log: keep the failed one.
                shutil.copyfile(os.path.join(guest.RUN, "lab-{}.gdb.log".format(name)),
                                path[:-len(".txt")] + ".gdb.log")
            print("{} {}: {} of {} passed{} ({:.0f} s)".format(
                "ok    " if not bad else "FAILED", name, args.runs - len(bad), args.runs,
                "; failed runs {} (reports in build/soak/)".format(
                    ", ".join(map(str, bad))) if bad else "",
                time.monotonic() - start))
            sys.stdout.flush()
    except KeyboardInterrupt:
        print("labs-soak: interrupted")
        failed += 1
    finally:
        for process in load:
            process.kill()
            process.wait()
    print("{} passed, {} failed".format(passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
