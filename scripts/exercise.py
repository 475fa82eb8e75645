#!/usr/bin/env python3
"""The exercises: change the walk, rebuild, let the grader decide.

Each exercise is a folder exercises/NAME/: README.rst (what to do),
start.patch (the starting state, on top of the series; none: the series
itself), solution.patch (a reference solution, on top of the starting state;
out of the student's way), wrong-*.patch (plausible wrong solutions, which
the grader must fail) and grade.sh, its grader, run in the guest as a
scenario (TAP; "# vcpus: N" at its top boots N vCPUs).

  start NAME   the starting state: branch exercise/NAME of build/linux,
               checked out in the worktree build/exercise/linux, and its
               kernel built in build/exercise/kbuild (incrementally)
  grade NAME   build the worktree as it is, boot it, run the grader
  check        for every exercise: its grader fails on the starting state
               and on each wrong solution, and passes on the reference one
  soak         each grader --runs times on its reference solution, --load
               CPU-bound processes beside
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time

import guest
import ktap
import labs_soak

TOP = guest.TOP
EXERCISES = os.path.join(TOP, "exercises")
TREE = os.path.join(TOP, "build", "linux")
WORKTREE = os.path.join(TOP, "build", "exercise", "linux")
KBUILD = os.path.join(TOP, "build", "exercise", "kbuild")
MAIN_CONFIG = os.path.join(TOP, "build", "kbuild", ".config")
INITRAMFS = os.path.join(TOP, "build", "initramfs.cpio")
GRADE_TIMEOUT = 300


class ExerciseError(Exception):
    pass


def names():
    return sorted(d for d in os.listdir(EXERCISES)
                  if os.path.isfile(os.path.join(EXERCISES, d, "grade.sh")))


def resolve(name):
    if name in names():
        return name
    raise ExerciseError("there is no exercise named '{}'; the exercises: {}".format(
        name, ", ".join(names())))


def git(*args, cwd=WORKTREE):
    proc = subprocess.run(["git"] + list(args), cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if proc.returncode:
        raise ExerciseError("git {} failed:\n{}".format(" ".join(args), proc.stdout.strip()))
    return proc.stdout


def ensure_worktree():
    if not os.path.isdir(os.path.join(TREE, ".git")):
        raise ExerciseError("{} is missing: run make tree".format(TREE))
    if os.path.exists(WORKTREE) and subprocess.run(
            ["git", "-C", WORKTREE, "rev-parse", "--git-dir"], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL).returncode:
        # make tree derived build/linux anew: this worktree's repository is gone.
        print("exercise: {} belonged to a build/linux made before this one: made "
              "again".format(os.path.relpath(WORKTREE, TOP)))
        shutil.rmtree(WORKTREE)
    if not os.path.exists(WORKTREE):
        os.makedirs(os.path.dirname(WORKTREE), exist_ok=True)
        git("worktree", "prune", cwd=TREE)
        git("worktree", "add", "--detach", WORKTREE, "main", cwd=TREE)


def apply(patch):
    """Commit a patch of the exercise on top of the worktree's branch."""
    git("am", "--keep-cr", patch)


def start(name, force=False):
    """Check out the starting state of an exercise, on a branch of its own."""
    ensure_worktree()
    changes = git("status", "--porcelain", "--untracked-files=no")
    if changes and not force:
        raise ExerciseError(
            "{} has changes not committed:\n{}Commit them on the branch "
            "(git -C {} commit -a) or set them aside (git -C {} stash), then "
            "start again.".format(os.path.relpath(WORKTREE, TOP), changes,
                                  os.path.relpath(WORKTREE, TOP), os.path.relpath(WORKTREE, TOP)))
    # An earlier start whose patch did not apply leaves git am's session.
    subprocess.run(["git", "-C", WORKTREE, "am", "--abort"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    git("reset", "--hard", "--quiet")
    git("checkout", "--quiet", "-B", "exercise/" + name, "main")
    patch = os.path.join(EXERCISES, name, "start.patch")
    if os.path.exists(patch):
        apply(patch)
    build()


def build():
    """Build the worktree's kernel with the main kernel's configuration:
    only what the exercise changed is compiled again."""
    if not os.path.exists(MAIN_CONFIG):
        raise ExerciseError("{} is missing: run make kernel first".format(MAIN_CONFIG))
    print("exercise: building {} into {}".format(os.path.relpath(WORKTREE, TOP),
                                                 os.path.relpath(KBUILD, TOP)), flush=True)
    proc = subprocess.run([os.path.join(TOP, "scripts", "kernel.sh"), "--config", MAIN_CONFIG,
                           WORKTREE, KBUILD])
    if proc.returncode:
        raise ExerciseError("the kernel of {} does not build (see above)".format(
            os.path.relpath(WORKTREE, TOP)))


def vcpus(name):
    with open(os.path.join(EXERCISES, name, "grade.sh")) as f:
        m = re.search(r"^# vcpus: (\d+)$", f.read(), re.M)
    return int(m.group(1)) if m else 1


def grade(name):
    """Build the worktree, boot it, run the grader: [(ok, check, detail)]."""
    build()
    return run_grader(name)


def run_grader(name):
    """Boot the worktree's kernel as built and run the grader (its console
    kept in build/exercise/run: never with the site's runs)."""
    guest.RUN = os.path.join(TOP, "build", "exercise", "run")
    vm = guest.Guest(KBUILD, INITRAMFS, cpus=vcpus(name))
    try:
        text = guest.run_scenario(vm, "exercise-" + name, timeout=GRADE_TIMEOUT,
                                  stem="exercise-" + name)
    except guest.GuestError as e:
        return [(False, "the grader ran to its end", str(e))]
    results = [(ok or skipped, name, "\n".join(c[2:] for c in comments))
               for name, ok, skipped, comments in ktap.parse_tap(text)]
    if not results:
        return [(False, "the grader printed its checks", text[-2000:])]
    return results


def report(results, prefix=""):
    for ok, check, detail in results:
        print("{} {}{}".format("PASS" if ok else "FAIL", prefix, check))
        if not ok and detail:
            print("     " + detail.rstrip().replace("\n", "\n     "))


def wrong_solutions(name):
    """The plausible wrong solutions of an exercise that its grader must
    fail: exercises/NAME/wrong-*.patch, each on top of the starting state."""
    return sorted(glob.glob(os.path.join(EXERCISES, name, "wrong-*.patch")))


def check_all(only=None):
    """Each grader fails on the starting state and on each plausible wrong
    solution, and passes on the reference solution."""
    passed = failed = 0
    began = time.time()
    for name in only or names():
        print("== exercise {}".format(name), flush=True)
        try:
            start(name, force=True)
            before = grade(name)
            wrong = []
            for patch in wrong_solutions(name):
                start(name, force=True)
                apply(patch)
                wrong.append((os.path.basename(patch), grade(name)))
            start(name, force=True)
            apply(os.path.join(EXERCISES, name, "solution.patch"))
            after = grade(name)
        except ExerciseError as e:
            before = after = None
            print("FAIL exercise {}: {}".format(name, e))
            failed += 1
            continue
        outcomes = [
            ("the grader fails on the starting state ({} of {} checks fail)".format(
                sum(1 for ok, _, _ in before if not ok), len(before)),
             any(not ok for ok, _, _ in before), before)]
        outcomes += [
            ("the grader fails the wrong solution {} ({})".format(patch, "; ".join(
                check for ok, check, _ in results if not ok) or "no check fails"),
             any(not ok for ok, _, _ in results), results)
            for patch, results in wrong]
        outcomes.append(
            ("the grader passes on the reference solution ({} checks)".format(len(after)),
             all(ok for ok, _, _ in after), after))
        for title, ok, results in outcomes:
            print("{} exercise {}: {}".format("PASS" if ok else "FAIL", name, title))
            if not ok:
                report(results, "  ")
            passed, failed = passed + ok, failed + (not ok)
    print("exercises-check: {:.0f} s".format(time.time() - began))
    print("{} passed, {} failed".format(passed, failed))
    return 1 if failed else 0


def soak(only, runs, load):
    """Each grader RUNS times in a row on its reference solution, LOAD
    CPU-bound processes beside: a grader that passes once may still depend
    on timing. The reports of failed runs are kept in build/soak/."""
    os.makedirs(labs_soak.SOAK, exist_ok=True)
    exercises = only or names()
    print("exercises-soak: {} graders, {} runs each on the reference solution, {} "
          "CPU-bound process{} beside".format(len(exercises), runs, load,
                                              "" if load == 1 else "es"), flush=True)
    passed = failed = 0
    for name in exercises:
        start(name, force=True)
        apply(os.path.join(EXERCISES, name, "solution.patch"))
        build()
        spinning = labs_soak.spinners(load)
        began, bad = time.monotonic(), []
        try:
            for run in range(1, runs + 1):
                results = run_grader(name)
                if all(ok for ok, _, _ in results):
                    continue
                bad.append(run)
                path = os.path.join(labs_soak.SOAK, "exercise-{}-run{}.txt".format(name, run))
                with open(path, "w") as f:
                    f.write("".join("{} {}\n{}".format("ok" if ok else "not ok", check, detail)
                                    for ok, check, detail in results))
        finally:
            for process in spinning:
                process.kill()
                process.wait()
        passed, failed = passed + runs - len(bad), failed + len(bad)
        print("{} {}: {} of {} passed{} ({:.0f} s)".format(
            "ok    " if not bad else "FAILED", name, runs - len(bad), runs,
            "; failed runs {} (reports in build/soak/)".format(", ".join(map(str, bad)))
            if bad else "", time.monotonic() - began), flush=True)
    print("{} passed, {} failed".format(passed, failed))
    return 1 if failed else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list")
    for command in ("start", "grade"):
        sub.add_parser(command).add_argument("name")
    sub.add_parser("check").add_argument("names", nargs="*")
    soaking = sub.add_parser("soak")
    soaking.add_argument("--runs", type=int, default=20)
    soaking.add_argument("--load", type=int, default=2)
    soaking.add_argument("names", nargs="*")
    args = parser.parse_args()
    try:
        if args.command == "list":
            for name in names():
                print(name)
            return 0
        if args.command == "check":
            return check_all([resolve(n) for n in args.names])
        if args.command == "soak":
            if args.runs < 1 or args.load < 0:
                parser.error("--runs must be 1 or more, --load 0 or more")
            return soak([resolve(n) for n in args.names], args.runs, args.load)
        name = resolve(args.name)
        if args.command == "start":
            start(name)
            print("exercise {0}: the starting state is on branch exercise/{0} in {1}, its "
                  "kernel built. Read exercises/{0}/README.rst, change the code there, "
                  "then 'make grade EXERCISE={0}'.".format(name, os.path.relpath(WORKTREE, TOP)))
            return 0
        results = grade(name)
        report(results)
        failed = sum(1 for ok, _, _ in results if not ok)
        print("{} passed, {} failed".format(len(results) - failed, failed))
        return 1 if failed else 0
    except ExerciseError as e:
        print("exercise: {}".format(e), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
