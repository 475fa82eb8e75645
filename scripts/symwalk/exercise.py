"""The exercises: change the walk, rebuild, let the grader decide.

Each exercise is a folder exercises/NAME/: README.rst (what to do),
start.patch (the change that makes the starting state: applied to the
series and committed, with it, as one commit on the pristine source, so
that the commit does not show how to undo it; none: the series itself),
solution.patch (a reference solution, on top of the starting state; out
of the student's way), wrong-*.patch (plausible wrong solutions, which
the grader must fail) and grade.sh, its grader, run in the guest as a
scenario (TAP; "# vcpus: N" at its top boots N vCPUs).

Here: the worktree and its kernel, the grader's run in the guest (its
console in build/exercise/run), the predictions, the check of every
grader and its soak; scripts/exercise.py is the command.
"""
import glob
import os
import re
import shutil
import subprocess
import tempfile
import time

from symwalk import grade as grading
from symwalk import git, ktap, labs_soak, qemu
from symwalk.exercises import ExerciseError, names
from symwalk.layout import BUILD, EXERCISE_RUN, EXERCISES, INITRAMFS, KBUILD as MAIN_KBUILD
from symwalk.layout import SOAK, TOP, TREE

WORKTREE = os.path.join(BUILD, "exercise", "linux")
KBUILD = os.path.join(BUILD, "exercise", "kbuild")
MAIN_CONFIG = os.path.join(MAIN_KBUILD, ".config")
GRADE_TIMEOUT = 300


def git_in(repo, *args, env=None):
    try:
        return git.run(repo, *args, env=env)
    except git.GitError as e:
        raise ExerciseError(str(e))


def ensure_worktree():
    if not os.path.isdir(os.path.join(TREE, ".git")):
        raise ExerciseError("{} is missing: run make tree".format(TREE))
    if os.path.exists(WORKTREE) and not git.ok(WORKTREE, "rev-parse", "--git-dir"):
        # make tree derived build/linux anew: this worktree's repository is gone.
        print("exercise: {} belonged to a build/linux made before this one: made "
              "again".format(os.path.relpath(WORKTREE, TOP)))
        shutil.rmtree(WORKTREE)
    if not os.path.exists(WORKTREE):
        os.makedirs(os.path.dirname(WORKTREE), exist_ok=True)
        git_in(TREE, "worktree", "prune")
        git_in(TREE, "worktree", "add", "--detach", WORKTREE, "main")


def commit_patched(base, patch, parent, message, repo=TREE):
    """A commit of base's tree with patch applied, on parent, made in a
    scratch index: no checkout. Return its id."""
    with tempfile.NamedTemporaryFile(prefix="symwalk-index-") as index:
        env = dict(os.environ, GIT_INDEX_FILE=index.name)

        def run(*args):
            return git_in(repo, *args, env=env).strip()

        run("read-tree", base)
        run("apply", "--cached", patch)
        tree = run("write-tree")
        return run("commit-tree", tree, "-p", parent, *[a for m in message for a in ("-m", m)])


def patch_subject(patch):
    with open(patch) as f:
        m = re.search(r"^Subject: (?:\[PATCH[^]]*\] )?(.*(?:\n .*)*)", f.read(), re.M)
    return " ".join(m.group(1).split()) if m else os.path.basename(patch)


def starting_commit(name, repo=TREE):
    """The starting state of an exercise that has a start.patch, as one
    commit on the pristine source (the first commit of build/linux): the
    series' tree with the patch applied. git show HEAD then shows the series
    as the exercise has it, not a diff that undoes the answer. Return its
    id."""
    patch = os.path.join(EXERCISES, name, "start.patch")
    pristine = git_in(repo, "rev-list", "--max-parents=0", "main").split()[0]
    return commit_patched("main", patch, pristine, [
        patch_subject(patch),
        "symwalk's series on the pristine source, in one commit, with the change the "
        "exercise is about. Read exercises/{}/README.rst.".format(name)], repo)


def apply(patch):
    """Commit a patch of the exercise on top of the worktree's branch."""
    git_in(WORKTREE, "am", "--keep-cr", patch)


def start(name, force=False):
    """Check out the starting state of an exercise, on a branch of its own."""
    ensure_worktree()
    changes = git_in(WORKTREE, "status", "--porcelain", "--untracked-files=no")
    if changes and not force:
        raise ExerciseError(
            "{} has changes not committed:\n{}Commit them on the branch "
            "(git -C {} commit -a) or set them aside (git -C {} stash), then "
            "start again.".format(os.path.relpath(WORKTREE, TOP), changes,
                                  os.path.relpath(WORKTREE, TOP), os.path.relpath(WORKTREE, TOP)))
    # An earlier start whose patch did not apply leaves git am's session.
    git.ok(WORKTREE, "am", "--abort")
    git_in(WORKTREE, "reset", "--hard", "--quiet")
    start_point = "main"
    if os.path.exists(os.path.join(EXERCISES, name, "start.patch")):
        start_point = starting_commit(name)
    git_in(WORKTREE, "checkout", "--quiet", "-B", "exercise/" + name, start_point)
    build()


def build():
    """Build the worktree's kernel with the main kernel's configuration:
    only what the exercise changed is compiled again."""
    if not os.path.exists(MAIN_CONFIG):
        raise ExerciseError("{} is missing: run make kernel first".format(MAIN_CONFIG))
    first = not os.path.exists(os.path.join(KBUILD, "vmlinux"))
    print("exercise: building {} into {}{}".format(
        os.path.relpath(WORKTREE, TOP), os.path.relpath(KBUILD, TOP),
        ": the first build compiles the whole kernel, about 5 minutes on 2 CPUs (the "
        "builds after it, only what changed)" if first else ""), flush=True)
    proc = subprocess.run([os.path.join(TOP, "scripts", "kernel.sh"), "--config", MAIN_CONFIG,
                           WORKTREE, KBUILD])
    if proc.returncode:
        raise ExerciseError("the kernel of {} does not build (see above)".format(
            os.path.relpath(WORKTREE, TOP)))


def vcpus(name):
    with open(os.path.join(EXERCISES, name, "grade.sh")) as f:
        m = re.search(r"^# vcpus: (\d+)$", f.read(), re.M)
    return int(m.group(1)) if m else 1


def build_started(name):
    """Build the worktree's kernel for a lab run against it (make lab
    LAB=x EXERCISE=name), once it is on the exercise's branch."""
    branch = git.quiet(WORKTREE, "symbolic-ref", "--short", "HEAD") \
        if os.path.isdir(WORKTREE) else ""
    if branch != "exercise/" + name:
        raise ExerciseError("exercise {0} is not started{1}: make exercise NAME={0} "
                            "starts it".format(name, " ({} is on {})".format(
                                os.path.relpath(WORKTREE, TOP), branch) if branch else ""))
    build()


def grade(name):
    """Build the worktree, boot it, run the grader: ([(ok, check, detail)],
    its console)."""
    build()
    return run_grader(name)


def run_grader(name):
    """Boot the worktree's kernel as built and run the grader (its console
    kept in build/exercise/run: never with the site's runs)."""
    vm = qemu.Guest(KBUILD, INITRAMFS, cpus=vcpus(name))
    try:
        text = qemu.run_scenario(vm, "exercise-" + name, EXERCISE_RUN, timeout=GRADE_TIMEOUT,
                                 stem="exercise-" + name)
    except qemu.GuestError as e:
        return [(False, "the grader ran to its end", str(e))], ""
    results = [(ok or skipped, name, "\n".join(c[2:] for c in comments))
               for name, ok, skipped, comments in ktap.parse_tap(text)]
    if not results:
        return [(False, "the grader printed its checks", text[-2000:])], text
    return results, text


# The student's predictions of an exercise, one file each, beside the labs'.
def answers_name(name):
    return "exercise-" + name


def questions(name):
    """The exercise's questions (exercises/NAME/questions), [] if none."""
    try:
        return grading.read_questions(name, EXERCISES)
    except grading.QuestionsError as e:
        raise ExerciseError(str(e))


def write_template(name, asked):
    return grading.write_template(answers_name(name), asked, "exercise " + name,
                                  "make grade EXERCISE=" + name)


def predictions_checks(name, console):
    """[(title, ok, [(ok, line, "")])]: on the reference solution's run,
    the questions' reference answers are right and a wrong answer to each
    is wrong, named."""
    asked = questions(name)
    if not asked:
        return []
    graded = grading.grade(asked, {q.ident: q.answer for q in asked}, "", console)
    checks = [("its predictions: the {} reference answers are right on this run".format(
        len(asked)), all(right for _, right, _ in graded),
        [(right, line, "") for _, right, line in graded])]
    graded = grading.grade(asked, grading.wrong_answers(asked), "", console)
    checks.append(("its predictions: a wrong answer to each of the {} is wrong, named".format(
        len(asked)), all(not right and line.startswith(q.ident + ": you said ")
                         for q, right, line in graded),
        [(not right, line, "") for _, right, line in graded]))
    return checks


def report(results, prefix=""):
    for ok, check, detail in results:
        print("{} {}{}".format("PASS" if ok else "FAIL", prefix, check))
        if not ok and detail:
            print("     " + detail.rstrip().replace("\n", "\n     "))


def wrong_solutions(name):
    """The plausible wrong solutions of an exercise that its grader must
    fail: exercises/NAME/wrong-*.patch, each on top of the starting state."""
    return sorted(glob.glob(os.path.join(EXERCISES, name, "wrong-*.patch")))


def headers_changed(name):
    """How many headers of include/ the exercise's patches change."""
    changed = set()
    for patch in glob.glob(os.path.join(EXERCISES, name, "*.patch")):
        with open(patch) as f:
            changed.update(re.findall(r"^\+\+\+ b/(include/\S+)", f.read(), re.M))
    return len(changed)


def check_all(only=None):
    """Each grader fails on the starting state and on each plausible wrong
    solution, and passes on the reference solution. The exercises that
    change headers go last, fewest first: a header changed by one and
    reverted by the next would rebuild what includes it twice."""
    passed = failed = 0
    began = time.time()
    for name in sorted(only or names(), key=lambda n: (headers_changed(n), n)):
        print("== exercise {}".format(name), flush=True)
        try:
            start(name, force=True)
            before = grade(name)[0]
            # Each solution checked out straight from the one before: the
            # files they share (no-dotdot's headers) are written, and their
            # dependents compiled, once.
            begin = git_in(WORKTREE, "rev-parse", "HEAD").strip()
            wrong = []
            for patch in wrong_solutions(name) + [os.path.join(EXERCISES, name,
                                                               "solution.patch")]:
                git_in(WORKTREE, "checkout", "--quiet", "-B", "exercise/" + name,
                       commit_patched(begin, patch, begin, [patch_subject(patch)]))
                wrong.append((os.path.basename(patch), grade(name)))
            (_, (after, console)) = wrong.pop()
            wrong = [(patch, results) for patch, (results, _) in wrong]
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
        outcomes += predictions_checks(name, console)
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
    os.makedirs(SOAK, exist_ok=True)
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
                results, console = run_grader(name)
                results += [(ok, title, "\n".join(line for _, line, _ in lines))
                            for title, ok, lines in predictions_checks(name, console)]
                if all(ok for ok, _, _ in results):
                    continue
                bad.append(run)
                path = os.path.join(SOAK, "exercise-{}-run{}.txt".format(name, run))
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
