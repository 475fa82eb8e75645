"""make check's parts: the guest tests, the labs and their triggers, the
docs' own runs, the gdb helpers' tests, the host and docs test programs,
as units for the runner (runner.py); and make debug-check's search of the
consoles for splats. Every part keeps its runs in the run folder it is
given: make check's is the one the site shows.
"""
import glob
import os
import re

from symwalk import batch, docs_capture, docs_data, expect, grade, labs, markers, narrative, qemu
from symwalk.layout import HELPER_TESTS, TOP
from symwalk.runner import Unit, add_tap, program, test_programs

GUEST_TIMEOUT = 300
# The seconds a test program took on a 2-core machine, where more than the
# default, for a run that has no measured times of its own yet.
HOST_TEST_COSTS = {"gdb_helpers_test.sh": 6, "tree_test.sh": 6}
GDB_TEST_COSTS = {"lab_tmux_test.py": 15, "tui_tmux_test.py": 10}
DOCS_TEST_COSTS = {"pages_test.sh": 4, "grade_keeps_site_test.py": 8, "browser_test.py": 30,
                   "xref_test.py": 1}


def run_guest_tests(results, vm, run_dir, append="", timeout=GUEST_TIMEOUT,
                    console="check.console"):
    """One boot that runs the guest tests (those append picks), at most
    timeout seconds; its console is kept in run_dir as console."""
    console = os.path.join(run_dir, console)
    try:
        text = vm.boot(" ".join(["symwalk.mode=check", append]), console, timeout)
    except qemu.GuestError as e:
        results.add("guest boot", False, str(e))
        return
    programs = markers.sections(text, "test")
    if not programs:
        results.add("guest tests", False, "the guest ran no test; the last "
                    "lines of its console:\n" + qemu.tail(console))
    for test in programs:
        if not test.ended:
            results.add("guest/" + test.name, False, "did not finish; the last lines "
                        "of the console:\n" + qemu.tail(console))
            continue
        add_tap(results, "guest/" + test.name, test.text, test.rc)


def run_helper_tests(results, vm, names, run_dir, check=True):
    """The gdb helpers' tests, laid out as labs, in one guest; one with
    steps before the boot (before-boot.gdb) in a guest of its own.
    check=False: that each runs to its end, without holding it to its
    expectations."""
    alone = [n for n in names
             if os.path.exists(os.path.join(HELPER_TESTS, n, "before-boot.gdb"))]
    verdicts = batch.run_labs_batch(vm, [n for n in names if n not in alone], run_dir,
                                    "helper-tests-batch", labs=HELPER_TESTS, check=check)
    for name in alone:
        ok, report = batch.run_lab_batch(vm, name, run_dir, quiet=True, labs=HELPER_TESTS,
                                         check=check)
        verdicts.append((name, ok, report))
    for name, ok, report in sorted(verdicts):
        results.add("gdb " + name + ("" if check else " runs"), ok, None if ok else report)


def run_lab_triggers(results, vm, run_dir):
    """Each lab's trigger run twice from /, as lab-trigger (a student's
    second run), without gdb: its lookups end as the lab's console
    expectations say, or its "alone: " ones, for what they do without gdb
    (the second run as its "again: " ones, if any)."""
    try:
        text = qemu.run_scenario(vm, "lab-triggers", run_dir, timeout=GUEST_TIMEOUT)
    except qemu.GuestError as e:
        results.add("labs' triggers from /", False, str(e))
        return
    with open(os.path.join(run_dir, docs_data.LAB_WALKS), "w") as f:
        f.write(text)
    for name in labs.lab_names():
        expected = expect.read_expectations(name)
        first = [p[len(expect.CONSOLE):] for p in expected if p.startswith(expect.CONSOLE)]
        again = [p[len(expect.AGAIN):] for p in expected if p.startswith(expect.AGAIN)]
        alone = [p[len(expect.ALONE):] for p in expected if p.startswith(expect.ALONE)]
        for run, console in ((1, alone or first), (2, again or alone or first)):
            found = markers.section(text, "trigger", "{}/{}".format(name, run))
            title = "lab {}: lab-trigger from /, run {}".format(name, run)
            if not found or not found.ended:
                results.add(title, False, "the scenario printed no such run")
                continue
            checked = expect.check_expectations(console, found.text)
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


def run_labs(results, vm, names, run_dir, timeout=60, check=True):
    """The labs in batch, in one guest (batch.run_labs_batch()), each
    judged on its own; check=False: that each runs to its end, without
    holding it to its expectations."""
    for name, ok, report in batch.run_labs_batch(vm, names, run_dir, "labs-batch",
                                                 timeout=timeout, check=check):
        results.add("lab " + name + ("" if check else " runs"), ok, None if ok else report)
        if check:
            check_grader(results, name, run_dir)


def capture_docs_data(results, vm, what, capture, run_dir):
    """One of the docs' own guest runs (docs_capture.py)."""
    try:
        results.add("docs data: {} ({})".format(what, capture(vm, run_dir)), True)
    except (docs_capture.CaptureError, qemu.GuestError) as e:
        results.add("docs data: " + what, False, str(e))


def check_grader(results, name, run_dir):
    """The lab's grader, on the run just judged (grade.self_check()), and
    its narrative's quotes of output, each in a line an expectation
    matched (narrative.unbacked())."""
    for title, ok, detail in grade.self_check(name, run_dir):
        results.add(title, ok, detail)
    try:
        said, missing = narrative.unbacked(name, *grade.read_run(name, run_dir))
    except (OSError, labs.LabError) as e:
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


def check_splats(results, run_dir):
    """One result per console the debug run left: no splat in it (the
    labs' consoles are parts of their batch's, judged whole)."""
    batched = set(glob.glob(os.path.join(run_dir, "lab-*.console")))
    for console in sorted(set(glob.glob(os.path.join(run_dir, "*.console"))) - batched):
        lines, hits = splats(console)
        detail = None
        if hits:
            detail = "\n".join(lines[max(0, hits[0] - 5):hits[0] + 40])
        results.add("no splat in " + os.path.basename(console), not hits, detail)


def check_planted_warn(results, vm, run_dir):
    """The search for splats must find one: LKDTM's WARNING plants it. Its
    console is removed then, so that check_splats() judges the others."""
    name = "the consoles' check finds a WARN planted by LKDTM"
    try:
        qemu.run_scenario(vm, "plant-warn", run_dir)
    except qemu.GuestError as e:
        results.add(name, False, str(e))
        return
    console = os.path.join(run_dir, "scenario-plant-warn.console")
    lines, hits = splats(console)
    found = any("WARNING:" in lines[i] and "lkdtm" in lines[i] for i in hits)
    results.add(name, found, None if found else
                "no WARNING line from lkdtm; the console's end:\n" + qemu.tail(console))
    os.remove(console)


def host_units():
    """The tests of tests/host and tests/model: they need no guest."""
    return [program(where, test, HOST_TEST_COSTS.get(os.path.basename(test), 0.5))
            for where in ("host", "model") for test in test_programs(where)]


def check_parts(vm, smp, run_dir):
    """make check's parts, as units (title, [Unit]), their runs kept in
    run_dir. The costs are the seconds each took on a 2-core machine, for a
    run that has no measured times of its own yet."""
    host = host_units()
    guest_tests = [
        # The guest tests race lookups against renames: two vCPUs for those.
        Unit("guest tests", lambda r: run_guest_tests(
            r, smp, run_dir, append="symwalk.skip=fuzz_walk"), 16),
        # The fuzzer checks answers and events, not races: one vCPU, cheaper.
        Unit("fuzz_walk", lambda r: run_guest_tests(
            r, vm, run_dir, append="symwalk.only=fuzz_walk", console="check-fuzz.console"), 24)]
    # What the docs show: the labs' runs, the docs' own runs, the TUI's screens.
    shown = [Unit("lab triggers", lambda r: run_lab_triggers(r, vm, run_dir), 3)]
    # One guest and one gdb for all the labs: a boot and a gdb start each
    # would double their cost.
    shown.append(Unit("labs", lambda r: run_labs(r, vm, labs.lab_names(), run_dir), 20))
    shown += [Unit(what, lambda r, what=what, capture=capture: capture_docs_data(
                r, vm, what, capture, run_dir), cost)
              for what, capture, cost in (
                  ("the walks of guest/scenarios/docs-walks.sh", docs_capture.capture_walks, 3),
                  ("the helper examples in gdb", docs_capture.capture_gdb, 5))]
    # The helpers must show the walk of the CPU that stopped: two vCPUs.
    # Beside them, tests/gdb's programs: make lab as a student meets it, in
    # tmux, and the walk's TUI window (its screens are shown on the site).
    gdb_programs = [program("gdb", test, GDB_TEST_COSTS.get(os.path.basename(test), 1))
                    for test in test_programs("gdb")]
    helpers = [Unit("gdb helper tests", lambda r: run_helper_tests(
        r, smp, labs.lab_names(HELPER_TESTS), run_dir), 9)] + gdb_programs
    # The site, built from the results the runs above left (make docs boots
    # nothing), then checked, against them too.
    site = program("docs", os.path.join(TOP, "tests", "docs", "build_test.sh"), 11,
                   after=shown + gdb_programs)
    docs = [site] + [program("docs", test, DOCS_TEST_COSTS.get(os.path.basename(test), 0.5),
                             after=[site])
                     for test in test_programs("docs") if os.path.basename(test) != "build_test.sh"]
    return [("host tests", host),
            ("guest tests (booting the guest, at most {} s)".format(GUEST_TIMEOUT), guest_tests),
            ("labs (batch), and the docs' runs", shown),
            ("gdb helpers against the guest", helpers),
            ("the documentation site, from this run's results", docs)]
