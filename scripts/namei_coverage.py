#!/usr/bin/env python3
"""make coverage: the lines and branches of the walk that make check runs
(scripts/symwalk/namei_coverage.py says how), the runs kept in
build/run-coverage; ends with "N passed, N failed"."""
import argparse
import os
import shutil
import sys

from symwalk.coverage_lists import CoverageError
from symwalk.layout import COVERAGE_RUN
from symwalk.namei_coverage import report, run_parts
from symwalk.qemu import GuestError
from symwalk.runner import Results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kbuild", required=True)
    parser.add_argument("--initramfs", required=True)
    parser.add_argument("--tree", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--report-only", action="store_true",
                        help="report on the counters of the last run, without booting")
    args = parser.parse_args()

    results = Results()
    try:
        notes = os.path.join(args.kbuild, "fs", "namei.gcno")
        if not os.path.exists(notes):
            raise CoverageError("{} is missing: is {} built with GCOV_PROFILE_namei.o=y "
                                "(make coverage-kernel)?".format(notes, args.kbuild))
        if not args.report_only:
            shutil.rmtree(COVERAGE_RUN, ignore_errors=True)
            os.makedirs(COVERAGE_RUN)
            run_parts(args.kbuild, args.initramfs, COVERAGE_RUN, results)
        report(args, COVERAGE_RUN, results)
    except (CoverageError, GuestError, OSError) as e:
        results.add("coverage", False, str(e))
    print(results.summary())
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
