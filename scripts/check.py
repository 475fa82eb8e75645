#!/usr/bin/env python3
"""symwalk's test suite: host-side tests, the guest tests and every lab.

Prints one line per test and ends with "N passed, N failed[, N skipped]";
exits non-zero on any failure.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import traceback

import docs_data
import grade
import guest
import markers
import narrative
from ktap import parse_tap, planned

TOP = guest.TOP
GUEST_TIMEOUT = 300


def unit_times():
    """Where each unit's seconds in the last run are kept (in the run
    folder of whoever runs them): the next run starts the longest first."""
    return os.path.join(guest.RUN, "check-times.json")


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
        for call in deferred.calls:
            self.add(*call)

    def summary(self):
        line = "{} passed, {} failed".format(self.passed, self.failed)
        if self.skipped:
            line += ", {} skipped".format(self.skipped)
        return line


class Deferred:
    """The results of a unit run on a worker thread, kept to be replayed
    in order once all are done, so that units running side by side do not
    mix their lines."""

    def __init__(self):
        self.calls = []

    def add(self, name, ok, detail=None, skipped=False):
        self.calls.append((name, ok, detail, skipped))


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


def test_programs(where):
    """The test programs of tests/WHERE (NAME_test.*)."""
    return sorted(glob.glob(os.path.join(TOP, "tests", where, "*_test.*")))


def run_guest_tests(results, vm, append="", timeout=GUEST_TIMEOUT, console="check.console"):
    """One boot that runs the guest tests (those append picks), at most
    timeout seconds; its console is kept in guest.RUN as console."""
    console = os.path.join(guest.RUN, console)
    try:
        text = vm.boot(" ".join(["symwalk.mode=check", append]), console, timeout)
    except guest.GuestError as e:
        results.add("guest boot", False, str(e))
        return
    programs = markers.sections(text, "test")
    if not programs:
        results.add("guest tests", False, "the guest ran no test; the last "
                    "lines of its console:\n" + guest.tail(console))
    for program in programs:
        if not program.ended:
            results.add("guest/" + program.name, False, "did not finish; the last lines "
                        "of the console:\n" + guest.tail(console))
            continue
        add_tap(results, "guest/" + program.name, program.text, program.rc)


def run_helper_tests(results, vm, names, check=True):
    """The gdb helpers' tests, laid out as labs, in one guest; one with
    steps before the boot (before-boot.gdb) in a guest of its own.
    check=False: that each runs to its end, without holding it to its
    expectations."""
    alone = [n for n in names
             if os.path.exists(os.path.join(guest.HELPER_TESTS, n, "before-boot.gdb"))]
    verdicts = guest.run_labs_batch(vm, [n for n in names if n not in alone],
                                    "helper-tests-batch", labs=guest.HELPER_TESTS, check=check)
    for name in alone:
        ok, report = guest.run_lab_batch(vm, name, quiet=True, labs=guest.HELPER_TESTS,
                                         check=check)
        verdicts.append((name, ok, report))
    for name, ok, report in sorted(verdicts):
        results.add("gdb " + name + ("" if check else " runs"), ok, None if ok else report)


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
            found = markers.section(text, "trigger", "{}/{}".format(name, run))
            title = "lab {}: lab-trigger from /, run {}".format(name, run)
            if not found or not found.ended:
                results.add(title, False, "the scenario printed no such run")
                continue
            checked = guest.check_expectations(console, found.text)
            missed = [p for p, match in checked if match is None]
            results.add(title, not missed, "not met:\n" + "\n".join(missed) +
                        "\nits output:\n" + found.text.strip()[-3000:])
    check_trigger_misuse(results, text)


# What lab-trigger answers a misuse with (guest/scenarios/lab-triggers.sh).
TRIGGER_MISUSE = [
    ("a unique prefix names its lab", r"^lab-trigger 04:\n(?!lab-trigger:).*\S"),
    ("an ambiguous prefix lists the labs it could be",
     r"^lab-trigger 0:\nlab-trigger: '0' could be any of: 01-plain-path 02-mid-link .*; say which$"),
    ("a name of no lab lists the labs",
     r"^lab-trigger no-such-lab:\nlab-trigger: there is no lab named 'no-such-lab'; "
     r"the labs: 01-plain-path "),
    ("a lab whose fixture this guest lacks says which guest has it",
     r"^lab-trigger gdb-depth:\nlab-trigger: lab gdb-depth's fixture is not built in this "
     r"guest, which has .*only: 'make lab LAB=gdb-depth' boots a guest for it"),
]


def check_trigger_misuse(results, text):
    found = markers.section(text, "trigger", "misuse")
    output = found.text if found and found.ended else ""
    for title, pattern in TRIGGER_MISUSE:
        results.add("lab-trigger: " + title, re.search(pattern, output, re.M) is not None,
                    "its output:\n" + output.strip())


def run_labs(results, vm, names, timeout=60, check=True):
    """The labs in batch, in one guest (guest.run_labs_batch()), each
    judged on its own; check=False: that each runs to its end, without
    holding it to its expectations."""
    for name, ok, report in guest.run_labs_batch(vm, names, "labs-batch", timeout=timeout,
                                                 check=check):
        results.add("lab " + name + ("" if check else " runs"), ok, None if ok else report)
        if check:
            check_grader(results, name)


def check_student_grade(results, kbuild, initramfs, name="06-nesting"):
    """make grade with wrong answers runs the lab where a student's runs
    are kept: the run make check judged, which the site shows, stays as
    it was."""
    title = "make grade LAB={} with wrong answers leaves the site's run of the lab".format(name)
    site = [os.path.join(guest.SITE_RUN, "lab-{}.{}".format(name, kind))
            for kind in ("gdb.log", "console")]
    mine = os.path.join(guest.STUDENT_RUN, "lab-{}.gdb.log".format(name))

    def contents():
        out = []
        for path in site:
            with open(path, "rb") as f:
                out.append(f.read())
        return out

    try:
        before = contents()
        wrong = grade.wrong_answers(grade.read_questions(name))
    except (OSError, grade.QuestionsError) as e:
        results.add(title, False, str(e))
        return
    began = time.time()
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as answers:
        answers.write("".join("{}: {}\n".format(k, v) for k, v in wrong.items()))
        answers.flush()
        env = {k: v for k, v in os.environ.items() if k != "SYMWALK_RUN"}
        proc = subprocess.run([sys.executable, os.path.join(TOP, "scripts", "grade.py"),
                               "--kbuild", kbuild, "--initramfs", initramfs, "lab", name,
                               "--answers", answers.name], cwd=TOP, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    graded = proc.returncode == 1 and "WRONG" in proc.stdout
    kept = contents() == before
    ran = os.path.exists(mine) and os.path.getmtime(mine) >= began
    results.add(title, graded and kept and ran,
                "graded wrong: {}; the site's run unchanged: {}; the student's run in {}: "
                "{}\n{}".format(graded, kept, os.path.relpath(guest.STUDENT_RUN, TOP), ran,
                                proc.stdout[-2000:]))


def capture_docs_data(results, vm, what, capture):
    """One of the docs' own guest runs (scripts/docs_data.py)."""
    try:
        results.add("docs data: {} ({})".format(what, capture(vm)), True)
    except (docs_data.CaptureError, guest.GuestError) as e:
        results.add("docs data: " + what, False, str(e))


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
    """One result per console the debug run left: no splat in it (the
    labs' consoles are parts of their batch's, judged whole)."""
    batched = set(glob.glob(os.path.join(guest.RUN, "lab-*.console")))
    for console in sorted(set(glob.glob(os.path.join(guest.RUN, "*.console"))) - batched):
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


class Unit:
    """A piece of make check that runs on its own (a guest boot, a batch
    of labs, a test program): run(results) records its results, cost is
    about how many seconds it takes (until a run has measured it), after
    the units it needs the results of."""

    def __init__(self, name, run, cost, after=()):
        self.name, self.run, self.cost, self.after = name, run, cost, list(after)
        self.results = Deferred()
        self.rank = None
        self.seconds = None


def rank(unit, units):
    """How long the road from the unit's start to the end of all that
    waits for it is: the unit's cost and its longest chain of dependents'."""
    if unit.rank is None:
        unit.rank = unit.cost + max((rank(u, units) for u in units if unit in u.after),
                                    default=0)
    return unit.rank


def run_units(results, parts, workers):
    """Run the units of every part on workers threads (each guest is a
    QEMU thread or two: as many as the host's cores keep them busy). Of
    the units whose `after` have ended, the one with the longest road
    ahead goes first, so that the longest chains (a guest boot of fuzzing,
    the docs after the runs they show) start early. Then print the
    results part by part, each part's units in their order."""
    units = [unit for _, part_units in parts for unit in part_units]
    try:
        with open(unit_times()) as f:
            measured = json.load(f)
    except (OSError, ValueError):
        measured = {}
    for unit in units:
        unit.cost = measured.get(unit.name, unit.cost)
    pending = sorted(units, key=lambda unit: -rank(unit, units))
    ended = set()
    ready = threading.Condition()
    began = time.monotonic()
    print("== {} runs of {} parts, {} at a time; the results follow once all are "
          "done".format(len(units), len(parts), workers))
    sys.stdout.flush()

    def take():
        with ready:
            while pending:
                for unit in pending:
                    if all(needed in ended for needed in unit.after):
                        pending.remove(unit)
                        return unit
                ready.wait()
        return None

    def work():
        while True:
            unit = take()
            if unit is None:
                return
            started = time.monotonic()
            try:
                unit.run(unit.results)
            except Exception:  # a bug of check.py's: a failure, not a hang
                unit.results.add(unit.name, False, traceback.format_exc())
            unit.seconds = time.monotonic() - started
            with ready:
                ended.add(unit)
                ready.notify_all()
                for title, part_units in parts:
                    if unit in part_units and all(u in ended for u in part_units):
                        print("   {}: done at {:.0f} s".format(title, time.monotonic() - began))
                        sys.stdout.flush()

    threads = [threading.Thread(target=work) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    times = unit_times()
    os.makedirs(os.path.dirname(times), exist_ok=True)
    measured = {unit.name: round(unit.seconds, 1) for unit in units}
    # Whole or not at all: two make checks at once may write it.
    with open(times + ".new", "w") as f:
        json.dump(measured, f, indent=1, sort_keys=True)
    os.replace(times + ".new", times)
    longest = sorted(units, key=lambda unit: -unit.seconds)[:8]
    print("   the longest runs: " + ", ".join(
        "{} {:.1f} s".format(unit.name, unit.seconds) for unit in longest))
    for title, part_units in parts:
        results.section(title)
        for unit in part_units:
            results.replay(unit.results)


def program(where, test, cost, after=()):
    """A unit that runs a TAP test program of tests/WHERE."""
    name = where + "/" + os.path.basename(test)
    return Unit(name, lambda r: run_tap_program(r, name, [test], 600), cost, after)


def host_units():
    """The tests of tests/host and tests/model: they need no guest."""
    return [program(where, test, {"gdb_helpers_test.sh": 6, "tree_test.sh": 6}.get(
                os.path.basename(test), 0.5))
            for where in ("host", "model") for test in test_programs(where)]


def check_parts(vm, smp, initramfs):
    """make check's parts, as units (title, [Unit]). The costs are the
    seconds each took on a 2-core machine, for a run that has no
    measured times of its own yet."""
    host = host_units()
    guest_tests = [
        # The guest tests race lookups against renames: two vCPUs for those.
        Unit("guest tests", lambda r: run_guest_tests(
            r, smp, append="symwalk.skip=fuzz_walk"), 16),
        # The fuzzer checks answers and events, not races: one vCPU, cheaper.
        Unit("fuzz_walk", lambda r: run_guest_tests(
            r, vm, append="symwalk.only=fuzz_walk", console="check-fuzz.console"), 24)]
    # What the docs show: the labs' runs, the docs' own runs, the TUI's screens.
    shown = [Unit("lab triggers", lambda r: run_lab_triggers(r, vm), 3)]
    # One guest and one gdb for all the labs: a boot and a gdb start each
    # would double their cost.
    labs = Unit("labs", lambda r: run_labs(r, vm, guest.lab_names()), 20)
    shown.append(labs)
    # A student's make grade, once make check's labs have run: their run
    # stays the site's.
    shown.append(Unit("a student's make grade", lambda r: check_student_grade(
        r, vm.kbuild, initramfs), 4, after=[labs]))
    shown += [Unit(what, lambda r, what=what, capture=capture: capture_docs_data(
                r, vm, what, capture), cost)
              for what, capture, cost in (
                  ("the walks of guest/scenarios/docs-walks.sh", docs_data.capture_walks, 3),
                  ("the helper examples in gdb", docs_data.capture_gdb, 5))]
    # The helpers must show the walk of the CPU that stopped: two vCPUs.
    helpers = [Unit("gdb helper tests", lambda r: run_helper_tests(
        r, smp, guest.lab_names(guest.HELPER_TESTS)), 9)]
    gdb_tests = os.path.join(TOP, "tests", "gdb")
    # make lab as a student meets it, in tmux; the walk's TUI window,
    # redrawn at each stop, in an 80x24 terminal (its screens are shown).
    helpers.append(program("gdb", os.path.join(gdb_tests, "lab_tmux_test.py"), 15))
    tui = program("gdb", os.path.join(gdb_tests, "tui_tmux_test.py"), 10)
    helpers.append(tui)
    # The site, built from the results the runs above left (make docs boots
    # nothing), then checked.
    docs_tests = sorted(glob.glob(os.path.join(TOP, "tests", "docs", "*_test.*")))
    site = program("docs", os.path.join(TOP, "tests", "docs", "build_test.sh"), 11,
                   after=shown + [tui])
    docs = [site] + [program("docs", test, {"pages_test.sh": 4, "browser_test.py": 17}.get(
                                 os.path.basename(test), 0.5),
                             after=[site])
                     for test in docs_tests if os.path.basename(test) != "build_test.sh"]
    return [("host tests", host),
            ("guest tests (booting the guest, at most {} s)".format(GUEST_TIMEOUT), guest_tests),
            ("labs (batch), and the docs' runs", shown),
            ("gdb helpers against the guest", helpers),
            ("the documentation site, from this run's results", docs)]


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
            run_units(results, [("host tests", host_units())], os.cpu_count() or 2)
    else:
        if args.debug:
            # Lockdep, KASAN and the events slow the guest down many times:
            # fewer fuzz cases, and openat2's rename race left to the normal
            # run. The labs' expectations hold for the normal kernel (a
            # debug build inlines differently).
            results.section("guest tests (booting the guest, at most 900 s)")
            run_guest_tests(results, smp, timeout=900, append="symwalk.fuzz_cases=2000 "
                            "symwalk.skip=ksft-openat2-rename_attack_test")
            results.section("labs (batch, run to the end)")
            run_labs(results, vm, guest.lab_names(), timeout=180, check=False)
            check_planted_warn(results, vm)
            check_splats(results)
        else:
            run_units(results, check_parts(vm, smp, args.initramfs),
                      workers=os.cpu_count() or 2)
    print(results.summary())
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
