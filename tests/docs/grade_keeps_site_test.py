#!/usr/bin/env python3
"""A student's make grade leaves the site as make check made it.

make grade LAB=06-nesting with a wrong answer to every question runs as
make grade runs it (scripts/grade.py, with the build's kernel and
initramfs): it grades them wrong and runs the lab in the student's run
folder, while the runs the lab's page is made of (docs_data.lab_page_runs())
and every file of the lab in make check's run folder stay byte for byte
what make check left. Run after make check's runs, with the site's tests.
KTAP."""
import glob
import os
import subprocess
import sys
import tempfile
import time

from taplib import check, done
from symwalk import docs_data, grade
from symwalk.layout import INITRAMFS, KBUILD, SITE_RUN, STUDENT_RUN, TOP

LAB = "06-nesting"


def site_runs():
    """{path: bytes} of the site's runs of the lab (None: missing)."""
    paths = {os.path.join(SITE_RUN, name) for name in docs_data.lab_page_runs(LAB)}
    paths |= set(glob.glob(os.path.join(SITE_RUN, "lab-{}.*".format(LAB))))
    runs = {}
    for path in sorted(paths):
        try:
            with open(path, "rb") as f:
                runs[path] = f.read()
        except OSError:
            runs[path] = None
    return runs


def main():
    before = site_runs()
    missing = [os.path.relpath(p, TOP) for p, text in before.items() if text is None]
    questions = grade.read_questions(LAB)
    began = time.time()
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as answers:
        answers.write("".join("{}: {}\n".format(ident, answer)
                              for ident, answer in grade.wrong_answers(questions).items()))
        answers.flush()
        env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL")}
        proc = subprocess.run([sys.executable, os.path.join(TOP, "scripts", "grade.py"),
                               "--kbuild", KBUILD, "--initramfs", INITRAMFS, "lab", LAB,
                               "--answers", answers.name], cwd=TOP, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=180)
    check("make grade LAB={} grades a wrong answer to each of its {} questions wrong".format(
              LAB, len(questions)),
          proc.returncode == 1 and proc.stdout.count("\nWRONG ") + proc.stdout.startswith(
              "WRONG ") == len(questions), "exit {}:\n{}".format(proc.returncode, proc.stdout))
    mine = os.path.join(STUDENT_RUN, docs_data.lab_log(LAB))
    check("it ran the lab in the student's run folder, {}".format(
              os.path.relpath(STUDENT_RUN, TOP)),
          os.path.exists(mine) and os.path.getmtime(mine) >= began, mine)
    after = site_runs()
    changed = [os.path.relpath(p, TOP) for p in sorted(set(before) | set(after))
               if before.get(p) != after.get(p)]
    check("the {} runs of make check the site's page of lab {} is made of are byte for "
          "byte as they were".format(len(before), LAB), not missing and not changed,
          "missing before the grade (run make check): {}; changed by it: {}".format(
              ", ".join(missing) or "none", ", ".join(changed) or "none"))
    done()


if __name__ == "__main__":
    main()
