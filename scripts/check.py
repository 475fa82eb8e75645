#!/usr/bin/env python3
"""symwalk's test suite: host-side tests, the guest tests and every lab.

Prints one line per test and ends with "N passed, N failed[, N skipped]";
exits non-zero on any failure.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import time

import docs_data
import grade
import guest
import narrative

TOP = guest.TOP
TAP_LINE = re.compile(r"^(not )?ok \d+ (?:- )?(.*?)(?:\s+#\s*(SKIP|TODO)\b.*)?$")
PLAN_LINE = re.compile(r"^1\.\.(\d+)\b")
GUEST_TIMEOUT = 300


class Results:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def add(self, name, ok, detail=None, skipped=False):
        if skipped:
            self.skipped += 1
            print("SKIP {}".format(name))
        elif ok:
            self.passed += 1
            print("PASS {}".format(name))
        else:
            self.failed += 1
            print("FAIL {}".format(name))
            if detail:
                print("     " + detail.rstrip().replace("\n", "\n     "))
        sys.stdout.flush()

    def section(self, title):
        print("== " + title)
        sys.stdout.flush()

    def replay(self, deferred):
        for method, args in deferred.calls:
            getattr(self, method)(*args)

    def summary(self):
        line = "{} passed, {} failed".format(self.passed, self.failed)
        if self.skipped:
            line += ", {} skipped".format(self.skipped)
        return line


class Deferred:
    """The results of a part run on a worker thread, kept to be replayed
    in order once it is done, so that parts running side by side do not
    mix their lines."""

    def __init__(self):
        self.calls = []
        self.failed = 0
        self.title = None

    def section(self, title):
        self.title = self.title or title
        self.calls.append(("section", (title,)))

    def add(self, name, ok, detail=None, skipped=False):
        self.failed += not ok
        self.calls.append(("add", (name, ok, detail, skipped)))


def parse_tap(text):
    """A list of (name, ok, skipped, comment lines) per TAP result. The
    comments are those before it (kselftest prints a test's output there)
    and, for a failure, also those after it up to the next result (where our
    host tests put their diagnostics, as TAP does)."""
    results, comments = [], []
    for line in text.splitlines():
        m = TAP_LINE.match(line.strip())
        if m:
            if results and not results[-1][1]:
                results[-1][3].extend(comments)
            results.append((m.group(2), m.group(1) is None, m.group(3) == "SKIP", comments))
            comments = []
        elif line.startswith("#"):
            comments.append(line)
    if results and not results[-1][1]:
        results[-1][3].extend(comments)
    return results


def planned(text):
    """The N of the stream's one plan line, "1..N" (KTAP prints it after
    its version line, TAP may print it last), or None."""
    plans = [m.group(1) for m in (PLAN_LINE.match(line.strip()) for line in text.splitlines())
             if m]
    return int(plans[0]) if len(plans) == 1 else None


def add_tap(results, prefix, text, rc):
    """Record a TAP or KTAP stream; a program that exits non-zero, prints
    no result at all or fewer or more than its plan says is a failure of
    its own."""
    count = failed = 0
    for name, ok, skipped, comments in parse_tap(text):
        count += 1
        failed += not (ok or skipped)
        results.add("{}: {}".format(prefix, name), ok or skipped,
                    "\n".join(comments[-40:]), skipped=skipped)
    plan = planned(text)
    if count == 0:
        results.add(prefix, False, "printed no test result:\n" + text[-2000:])
    elif plan is not None and plan != count:
        results.add(prefix + " (plan)", False, "planned {} results, printed {}:\n{}".format(
            plan, count, text[-2000:]))
    elif rc != 0 and not failed:
        results.add(prefix + " (exit status)", False, "exited with {}".format(rc))


def run_host_tests(results):
    results.section("host tests")
    for where in ("host", "model"):
        # the scripts, not the C source a runner builds (model_test.c)
        for test in sorted(glob.glob(os.path.join(TOP, "tests", where, "*_test.[ps][yh]"))):
            run_tap_program(results, where + "/" + os.path.basename(test), [test], 600)


def run_guest_tests(results, vm, append="", timeout=GUEST_TIMEOUT):
    results.section("guest tests (booting the guest, at most {} s)".format(timeout))
    console = os.path.join(guest.RUN, "check.console")
    try:
        text = vm.boot(" ".join(["symwalk.mode=check", append]), console, timeout)
    except guest.GuestError as e:
        results.add("guest boot", False, str(e))
        return
    programs = re.findall(r"^symwalk: begin (\S+)$", text, re.M)
    if not programs:
        results.add("guest tests", False, "the guest ran no test; the last "
                    "lines of its console:\n" + guest.tail(console))
    for program in programs:
        m = re.search(r"^symwalk: begin {0}$(.*?)^symwalk: end {0} rc=(\d+)$".format(
            re.escape(program)), text, re.M | re.S)
        if not m:
            results.add("guest/" + program, False, "did not finish; the last lines "
                        "of the console:\n" + guest.tail(console))
            continue
        add_tap(results, "guest/" + program, m.group(1), int(m.group(2)))


def run_helper_tests(results, vm):
    results.section("gdb helpers against the guest")
    for name in guest.lab_names(guest.HELPER_TESTS):
        ok, report = guest.run_lab_batch(vm, name, quiet=True, labs=guest.HELPER_TESTS)
        results.add("gdb " + name, ok, None if ok else report)
    # make lab as a student meets it, in tmux.
    run_tap_program(results, "gdb/lab_tmux_test.py",
                    [os.path.join(TOP, "tests", "gdb", "lab_tmux_test.py")], 300)
    # The walk's TUI window, redrawn at each stop, in an 80x24 terminal.
    run_tap_program(results, "gdb/tui_tmux_test.py",
                    [os.path.join(TOP, "tests", "gdb", "tui_tmux_test.py")], 300)


def run_tap_program(results, name, command, timeout):
    """Run a program that prints TAP or KTAP, at most timeout seconds."""
    try:
        proc = subprocess.run(command, cwd=TOP, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired:
        results.add(name, False, "did not finish within {} s".format(timeout))
        return
    except OSError as e:
        results.add(name, False, "could not be run: {}".format(e))
        return
    add_tap(results, name, proc.stdout.decode(errors="replace"), proc.returncode)


def run_lab_triggers(results, vm):
    """Each lab's trigger run twice from /, as lab-trigger (a student's
    second run), without gdb: its lookups end as the lab's console
    expectations say, or its "alone: " ones, for what they do without gdb
    (the second run as its "again: " ones, if any)."""
    try:
        text = guest.run_scenario(vm, "lab-triggers", timeout=GUEST_TIMEOUT)
    except guest.GuestError as e:
        results.add("labs' triggers from /", False, str(e))
        return
    with open(os.path.join(guest.RUN, docs_data.LAB_WALKS), "w") as f:
        f.write(text)
    for name in guest.lab_names():
        expected = guest.read_expectations(name)
        first = [p[len(guest.CONSOLE):] for p in expected if p.startswith(guest.CONSOLE)]
        again = [p[len(guest.AGAIN):] for p in expected if p.startswith(guest.AGAIN)]
        alone = [p[len(guest.ALONE):] for p in expected if p.startswith(guest.ALONE)]
        for run, console in ((1, alone or first), (2, again or alone or first)):
            m = re.search(r"^symwalk: begin trigger {0} {1}\r?$(.*?)^symwalk: end trigger "
                          r"{0} {1}".format(re.escape(name), run), text, re.M | re.S)
            title = "lab {}: lab-trigger from /, run {}".format(name, run)
            if not m:
                results.add(title, False, "the scenario printed no such run")
                continue
            checked = guest.check_expectations(console, m.group(1))
            missed = [p for p, match in checked if match is None]
            results.add(title, not missed, "not met:\n" + "\n".join(missed) +
                        "\nits output:\n" + m.group(1).strip()[-3000:])


def run_labs(results, vm, timeout=60, check=True):
    """Every lab in batch; check=False: that each runs to its end, without
    holding it to its expectations."""
    results.section("labs (batch{})".format("" if check else ", run to the end"))
    if check:
        run_lab_triggers(results, vm)
    for name in guest.lab_names():
        ok, report = guest.run_lab_batch(vm, name, timeout=timeout, quiet=True, check=check)
        results.add("lab " + name + ("" if check else " runs"), ok, None if ok else report)
        if check:
            check_grader(results, name)
    if check:
        capture_docs_data(results, vm)


def capture_docs_data(results, vm):
    """The docs' own guest runs (scripts/docs_data.py)."""
    for what, capture in (("the walks of guest/scenarios/docs-walks.sh",
                           docs_data.capture_walks),
                          ("the helper examples in gdb", docs_data.capture_gdb)):
        try:
            results.add("docs data: {} ({})".format(what, capture(vm)), True)
        except (docs_data.CaptureError, guest.GuestError) as e:
            results.add("docs data: " + what, False, str(e))


def run_docs_tests(results):
    """The site, built from the results the other parts left (make docs
    boots nothing), and checked: after them all."""
    results.section("the documentation site, from this run's results")
    tests = sorted(glob.glob(os.path.join(TOP, "tests", "docs", "*_test.*")))
    # build_test.sh builds the site that the others read.
    tests.sort(key=lambda test: os.path.basename(test) != "build_test.sh")
    for test in tests:
        run_tap_program(results, "docs/" + os.path.basename(test), [test], 300)


def check_grader(results, name):
    """The lab's grader, on the run just judged (grade.self_check()), and
    its narrative's quotes of output, each in a line an expectation
    matched (narrative.unbacked())."""
    for title, ok, detail in grade.self_check(name):
        results.add(title, ok, detail)
    try:
        said, missing = narrative.unbacked(name, *grade.read_run(name))
    except (OSError, guest.GuestError) as e:
        results.add("lab {}: narrative".format(name), False, str(e))
        return
    results.add("lab {}: each of the {} outputs its narrative quotes is checked".format(
        name, len(said)), not missing, "no expectation matched a line holding: " +
        ", ".join(missing))


# What the kernel's checkers print when they catch something.
SPLAT = re.compile(r"BUG:|WARNING:|INFO: possible|possible recursive locking|"
                   r"circular locking dependency|suspicious RCU usage|KASAN|"
                   r"Kernel panic|Oops|Call Trace:")


def splats(console):
    """The console's lines, and the indexes of those that report a splat."""
    with open(console, errors="replace") as f:
        lines = f.read().splitlines()
    return lines, [i for i, line in enumerate(lines) if SPLAT.search(line)]


def check_splats(results):
    """One result per console the debug run left: no splat in it."""
    for console in sorted(glob.glob(os.path.join(guest.RUN, "*.console"))):
        lines, hits = splats(console)
        detail = None
        if hits:
            detail = "\n".join(lines[max(0, hits[0] - 5):hits[0] + 40])
        results.add("no splat in " + os.path.basename(console), not hits, detail)


def check_planted_warn(results, vm):
    """The search for splats must find one: LKDTM's WARNING plants it. Its
    console is removed then, so that check_splats() judges the others."""
    name = "the consoles' check finds a WARN planted by LKDTM"
    try:
        guest.run_scenario(vm, "plant-warn")
    except guest.GuestError as e:
        results.add(name, False, str(e))
        return
    console = os.path.join(guest.RUN, "scenario-plant-warn.console")
    lines, hits = splats(console)
    found = any("WARNING:" in lines[i] and "lkdtm" in lines[i] for i in hits)
    results.add(name, found, None if found else
                "no WARNING line from lkdtm; the console's end:\n" + guest.tail(console))
    os.remove(console)


def run_side_by_side(results, parts, start_order):
    """Run the parts two at a time (each guest is one QEMU thread: two keep
    both cores busy), the longest first as start_order says; then print
    their results in the order of parts, each part's lines together."""
    print("== {} parts of the tests, two at a time; their results follow once "
          "all are done".format(len(parts)))
    sys.stdout.flush()
    deferred = [Deferred() for _ in parts]

    def timed(part, d):
        start = time.monotonic()
        part(d)
        print("   {} done in {:.0f} s".format(d.title, time.monotonic() - start))
        sys.stdout.flush()

    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(timed, parts[i], deferred[i]) for i in start_order]
        for future in futures:
            future.result()
    for d in deferred:
        results.replay(d)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kbuild", default=os.path.join(TOP, "build", "kbuild"))
    parser.add_argument("--initramfs", default=os.path.join(TOP, "build", "initramfs.cpio"))
    parser.add_argument("--debug", action="store_true",
                        help="a debug kernel's run: every namei event on from boot, the "
                        "guest tests and the labs, then no splat in any console")
    args = parser.parse_args()

    results = Results()
    if args.debug:
        # Its own folder: build/run keeps the normal run the docs show.
        guest.RUN = os.path.join(TOP, "build", "run-debug")
        os.makedirs(guest.RUN, exist_ok=True)
        for old in glob.glob(os.path.join(guest.RUN, "*.console")):
            os.remove(old)
    # The guest boots quiet: without ignore_loglevel the console would not
    # show a WARN() or lockdep's reports, which print at KERN_WARNING.
    # noapic: mp_irqdomain_alloc() sets an ISA irq's IO-APIC chip before its
    # chip_data with interrupts on, and a tick still routed through the 8259
    # in between oopses in mask_ioapic_irq(). KASAN's checks end a TCG block
    # between the two stores, so a debug guest met it (1 boot in some
    # hundreds, before init ran); the walk needs no IO-APIC.
    append = "trace_event=namei:* ignore_loglevel noapic" if args.debug else ""
    try:
        vm = guest.Guest(args.kbuild, args.initramfs, append=append)
        # The guest tests race lookups against renames, and the helpers must
        # show the walk of the CPU that stopped: two vCPUs for those.
        smp = guest.Guest(args.kbuild, args.initramfs, append=append, cpus=2)
    except guest.GuestError as e:
        results.add("guest", False, str(e))
        if not args.debug:
            run_host_tests(results)
    else:
        if args.debug:
            # Lockdep, KASAN and the events slow the guest down many times:
            # fewer fuzz cases, and openat2's rename race left to the normal
            # run. The labs' expectations hold for the normal kernel (a
            # debug build inlines differently).
            run_guest_tests(results, smp, timeout=900, append="symwalk.fuzz_cases=2000 "
                            "symwalk.skip=ksft-openat2-rename_attack_test")
            run_labs(results, vm, timeout=180, check=False)
            check_planted_warn(results, vm)
            check_splats(results)
        else:
            run_side_by_side(results, [
                run_host_tests, lambda r: run_guest_tests(r, smp),
                lambda r: run_labs(r, vm), lambda r: run_helper_tests(r, smp)],
                start_order=[2, 1, 0, 3])
            run_docs_tests(results)
    print(results.summary())
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
