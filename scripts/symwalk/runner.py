"""make check's runner: units of work (a guest boot, a batch of labs, a
test program) run side by side on a few threads, the longest chain first,
their results printed part by part once all are done, ending with the
line "N passed, N failed[, N skipped]"; and the test programs' TAP or KTAP
read into results.
"""
import glob
import json
import os
import subprocess
import sys
import threading
import time
import traceback

from symwalk.ktap import parse_tap, planned
from symwalk.layout import TOP

# What the test programs import without editing sys.path: the package, the
# tests' own helpers (taplib), the docs' modules they test.
TEST_PYTHONPATH = os.pathsep.join(os.path.join(TOP, d) for d in (
    "scripts", os.path.join("tests", "host"), os.path.join("Documentation", "sphinx")))


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


def run_tap_program(results, name, command, timeout):
    """Run a program that prints TAP or KTAP, at most timeout seconds."""
    try:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            filter(None, [TEST_PYTHONPATH, os.environ.get("PYTHONPATH")])))
        proc = subprocess.run(command, cwd=TOP, stdout=subprocess.PIPE, env=env,
                              stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired:
        results.add(name, False, "did not finish within {} s".format(timeout))
        return
    except OSError as e:
        results.add(name, False, "could not be run: {}".format(e))
        return
    add_tap(results, name, proc.stdout.decode(errors="replace"), proc.returncode)


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


def run_units(results, parts, workers, run_dir):
    """Run the units of every part on workers threads (each guest is a
    QEMU thread or two: as many as the host's cores keep them busy). Of
    the units whose `after` have ended, the one with the longest road
    ahead goes first, so that the longest chains (a guest boot of fuzzing,
    the docs after the runs they show) start early. Then print the
    results part by part, each part's units in their order."""
    units = [unit for _, part_units in parts for unit in part_units]
    # Each unit's seconds in the last run, kept in the run folder of whoever
    # runs them: the next run starts the longest first.
    times = os.path.join(run_dir, "check-times.json")
    try:
        with open(times) as f:
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
    os.makedirs(run_dir, exist_ok=True)
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


