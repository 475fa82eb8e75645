#!/usr/bin/env python3
"""make bench: what the series, its events and the environment cost.

usage: bench.py --kbuild DIR --pristine DIR --initramfs FILE --out DIR
                [--iterations N] [--runs N] [--fresh] [--only guest|host]

The measurements: scripts/symwalk/bench.py; the report:
scripts/symwalk/bench_report.py. Writes OUT/report.md, OUT/results.json and
OUT/walk-cost.svg, and prints the tables. make bench's OUT is results/bench,
kept in the repository: each part says the date and the commit it
measured, and the site shows them.
"""
import argparse
import json
import os
import subprocess
import sys
import time

from symwalk import git
from symwalk.bench import BenchError, guest_part, host_part
from symwalk.bench_report import markdown, plot, report_blocks
from symwalk.layout import TOP
from symwalk.qemu import GuestError


def checkout_commit(out):
    """The commit the checkout is at, with "+" if its tracked files (but
    OUT's, the results themselves) differ from it."""
    head = git.head(TOP) or "unknown"
    changed = git.quiet(TOP, "status", "--porcelain", "--untracked-files=no", "--", ".",
                        ":!" + os.path.relpath(os.path.abspath(out), TOP))
    return head + ("+" if changed else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kbuild", required=True)
    parser.add_argument("--pristine", required=True)
    parser.add_argument("--initramfs", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--fresh-runs", type=int, default=1)
    parser.add_argument("--only", choices=("guest", "host"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    # A part not run this time keeps its last figures.
    saved = os.path.join(args.out, "results.json")
    results = {}
    if args.only and os.path.exists(saved):
        with open(saved) as f:
            results = json.load(f)
    date = time.strftime("%Y-%m-%d %H:%M")
    commit = checkout_commit(args.out)
    try:
        if args.only != "host":
            results["guest"] = dict(guest_part(args), date=date, commit=commit)
        if args.only != "guest":
            results["host"] = {"rows": host_part(args), "date": date, "commit": commit,
                               "machine": os.uname().nodename}
    except (BenchError, GuestError, git.GitError, subprocess.SubprocessError) as e:
        print("bench: {}".format(e), file=sys.stderr)
        return 1
    if "guest" in results:
        plot(results["guest"], os.path.join(args.out, "walk-cost.svg"))
    report = markdown(report_blocks(results))
    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write(report)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    print()
    print(report)
    print("bench: {} (and results.json, walk-cost.svg)".format(
        os.path.join(args.out, "report.md")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
