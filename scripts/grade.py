#!/usr/bin/env python3
"""make grade LAB=NAME: run the lab in batch and grade the student's
predictions (answers/NAME.txt) against what the run showed.

The questions' format and the grader: scripts/symwalk/grade.py. The run is
the student's, kept in build/student-run: never the one the site shows.
"""
import argparse
import os
import sys

from symwalk import layout
from symwalk.batch import run_lab_batch
from symwalk.grade import (QuestionsError, answers_path, grade, read_answers, read_questions,
                           read_run, self_check, unanswered, write_template)
from symwalk.labs import LabError, resolve_lab
from symwalk.qemu import Guest, GuestError

# A student's runs, graded where they are kept: not make check's, which the
# site shows.
RUN = layout.STUDENT_RUN


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kbuild", default=layout.KBUILD)
    parser.add_argument("--initramfs", default=layout.INITRAMFS)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("template", help="make the student's answers file for a lab")
    p.add_argument("name")
    p = sub.add_parser("self-check", help="the grader on the lab's last run: it passes "
                       "the reference answers and fails wrong ones")
    p.add_argument("name")
    p = sub.add_parser("lab", help="run a lab in batch and grade the answers")
    p.add_argument("name")
    p.add_argument("--answers", help="the answers file (default answers/NAME.txt)")
    p.add_argument("--last-run", action="store_true",
                   help="grade against the lab's last batch run instead of running it")
    args = parser.parse_args()
    try:
        name = resolve_lab(args.name)
        if args.command == "self-check":
            checks = self_check(name, RUN)
            for title, ok, detail in checks:
                print("{} {}".format("PASS" if ok else "FAIL", title))
                if not ok:
                    print("  " + detail.replace("\n", "\n  "))
            failed = sum(1 for _, ok, _ in checks if not ok)
            print("{} passed, {} failed".format(len(checks) - failed, failed))
            return 1 if failed else 0
        questions = read_questions(name)
        if args.command == "template":
            if not questions:
                return 0
            existed = os.path.exists(answers_path(name))
            path = write_template(name, questions)
            print("Predict first: {} question{} of lab {} {} in {}; answer them there, "
                  "then 'make grade LAB={}' runs the lab and grades them.".format(
                      len(questions), "" if len(questions) == 1 else "s", name,
                      "wait" if existed else "are written", os.path.relpath(path), name))
            return 0
        if not questions:
            raise LabError("lab {} has no questions yet".format(name))
        path = args.answers or answers_path(name)
        if not os.path.exists(path):
            write_template(name, questions)
            raise LabError("no answers yet: write them in {} (made now, with the "
                                   "questions), then run make grade LAB={} again".format(
                                       os.path.relpath(path), name))
        answers = read_answers(path)
        refused = unanswered(questions, answers)
        if refused:
            raise LabError("answer every question in {} first (nothing was run, "
                                   "nothing is shown):\n  {}".format(
                                       os.path.relpath(path), "\n  ".join(refused)))
        if not args.last_run:
            print("grade {}: running the lab in batch".format(name), flush=True)
            vm = Guest(args.kbuild, args.initramfs)
            ok, report = run_lab_batch(vm, name, RUN, quiet=True)
            if not ok:
                raise LabError("the lab's run did not show what its narrative "
                                       "says, so it cannot grade you; its report:\n" + report)
        graded = grade(questions, answers, *read_run(name, RUN))
        for q, right, line in graded:
            print("{} {}".format("right" if right else "WRONG", line))
        wrong = sum(1 for _, right, _ in graded if not right)
        print("{} right, {} wrong{}".format(
            len(graded) - wrong, wrong,
            "" if wrong else ": the answers are in the folded section of the lab's page"))
        return 1 if wrong else 0
    except (GuestError, LabError, QuestionsError, OSError) as e:
        print("grade: {}".format(e), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
