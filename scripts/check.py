#!/usr/bin/env python3
"""make check and make debug-check: symwalk's test suite, the host tests,
the guest tests and every lab (scripts/symwalk/check.py's parts).

Prints one line per test and ends with "N passed, N failed[, N skipped]";
exits non-zero on any failure. make check keeps its runs in build/run, the
ones the site shows; --debug keeps the debug kernel's in build/run-debug.
"""
import argparse
import glob
import os
import sys

from symwalk import check, layout
from symwalk.labs import lab_names
from symwalk.qemu import Guest, GuestError
from symwalk.runner import Results, run_units


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kbuild", default=layout.KBUILD)
    parser.add_argument("--initramfs", default=layout.INITRAMFS)
    parser.add_argument("--debug", action="store_true",
                        help="a debug kernel's run: every namei event on from boot, the "
                        "guest tests and the labs, then no splat in any console")
    args = parser.parse_args()

    results = Results()
    run_dir = layout.DEBUG_RUN if args.debug else layout.SITE_RUN
    os.makedirs(run_dir, exist_ok=True)
    if args.debug:
        for old in glob.glob(os.path.join(run_dir, "*.console")):
            os.remove(old)
    # The guest boots quiet: without ignore_loglevel the console would not
    # show a WARN() or lockdep's reports, which print at KERN_WARNING.
    # noapic: mp_irqdomain_alloc() sets an ISA irq's IO-APIC chip before its
    # chip_data with interrupts on, and a tick still routed through the 8259
    # in between oopses in mask_ioapic_irq(). KASAN's checks end a TCG block
    # between the two stores, so a debug guest met it (1 boot in some
    # hundreds, before init ran); the walk needs no IO-APIC.
    append = "trace_event=namei:* ignore_loglevel noapic" if args.debug else ""
    workers = os.cpu_count() or 2
    try:
        vm = Guest(args.kbuild, args.initramfs, append=append)
        # The guest tests race lookups against renames, and the helpers must
        # show the walk of the CPU that stopped: two vCPUs for those.
        smp = Guest(args.kbuild, args.initramfs, append=append, cpus=2)
    except GuestError as e:
        results.add("guest", False, str(e))
        if not args.debug:
            run_units(results, [("host tests", check.host_units())], workers, run_dir)
    else:
        if args.debug:
            # Lockdep, KASAN and the events slow the guest down many times:
            # fewer fuzz cases, and openat2's rename race left to the normal
            # run. The labs' expectations hold for the normal kernel (a
            # debug build inlines differently).
            results.section("guest tests (booting the guest, at most 900 s)")
            check.run_guest_tests(results, smp, run_dir, timeout=900,
                                  append="symwalk.fuzz_cases=2000 "
                                  "symwalk.skip=ksft-openat2-rename_attack_test")
            results.section("labs (batch, run to the end)")
            check.run_labs(results, vm, lab_names(), run_dir, timeout=180, check=False)
            check.check_planted_warn(results, vm, run_dir)
            check.check_splats(results, run_dir)
        else:
            run_units(results, check.check_parts(vm, smp, run_dir), workers, run_dir)
    print(results.summary())
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
