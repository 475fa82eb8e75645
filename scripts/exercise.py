#!/usr/bin/env python3
"""The exercises: change the walk, rebuild, let the grader decide
(scripts/symwalk/exercise.py says how an exercise is laid out).

  list         the exercises, a line each
  start NAME   the starting state: branch exercise/NAME of build/linux,
               checked out in the worktree build/exercise/linux, and its
               kernel built in build/exercise/kbuild (incrementally)
  grade NAME   build the worktree as it is, boot it, run the grader
  build NAME   build the started exercise's kernel, for a lab run against it
  check        for every exercise: its grader fails on the starting state
               and on each wrong solution, and passes on the reference one
  soak         each grader --runs times on its reference solution, --load
               CPU-bound processes beside
"""
import argparse
import os
import sys

from symwalk import grade as grading
from symwalk.exercise import (WORKTREE, answers_name, build_started, check_all, grade, questions,
                              report, soak, start, starting_commit, write_template)
from symwalk.exercises import ExerciseError, names, resolve, title
from symwalk.layout import TOP


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list")
    sub.add_parser("start").add_argument("name")
    grading_parser = sub.add_parser("grade")
    grading_parser.add_argument("name")
    grading_parser.add_argument("--answers", help="the predictions (default "
                                "answers/exercise-NAME.txt)")
    sub.add_parser("build", help="build the started exercise's kernel, for a "
                   "lab run against it").add_argument("name")
    sub.add_parser("starting-commit", help="make the starting state's commit (no "
                   "checkout) and print its id").add_argument("name")
    sub.add_parser("check").add_argument("names", nargs="*")
    soaking = sub.add_parser("soak")
    soaking.add_argument("--runs", type=int, default=20)
    soaking.add_argument("--load", type=int, default=2)
    soaking.add_argument("names", nargs="*")
    args = parser.parse_args()
    try:
        if args.command == "list":
            for name in names():
                print("{:<16} {}".format(name, title(name)))
            return 0
        if args.command == "check":
            return check_all([resolve(n) for n in args.names])
        if args.command == "soak":
            if args.runs < 1 or args.load < 0:
                parser.error("--runs must be 1 or more, --load 0 or more")
            return soak([resolve(n) for n in args.names], args.runs, args.load)
        name = resolve(args.name)
        if args.command == "build":
            build_started(name)
            return 0
        if args.command == "starting-commit":
            print(starting_commit(name))
            return 0
        asked = questions(name)
        answers = args.answers if args.command == "grade" and args.answers else \
            grading.answers_path(answers_name(name))
        if args.command == "start":
            start(name)
            if asked:
                write_template(name, asked)
            print("exercise {0}: the starting state is on branch exercise/{0} in {1}, its "
                  "kernel built. Read exercises/{0}/README.rst{2}, change the code there, "
                  "then 'make grade EXERCISE={0}'.".format(
                      name, os.path.relpath(WORKTREE, TOP),
                      ", answer its predictions in {} first".format(os.path.relpath(answers))
                      if asked else ""))
            return 0
        given = {}
        if asked:
            if not os.path.exists(answers):
                write_template(name, asked)
                raise ExerciseError("predict first: the questions are in {} (made now); "
                                    "answer them, then make grade EXERCISE={} again".format(
                                        os.path.relpath(answers), name))
            given = grading.read_answers(answers)
            refused = grading.unanswered(asked, given)
            if refused:
                raise ExerciseError("answer every prediction in {} first (nothing was "
                                    "run, nothing is shown):\n  {}".format(
                                        os.path.relpath(answers), "\n  ".join(refused)))
        results, console = grade(name)
        report(results)
        failed = sum(1 for ok, _, _ in results if not ok)
        print("{} passed, {} failed".format(len(results) - failed, failed))
        if asked and failed:
            print("Your predictions are graded once your kernel passes every check.")
        elif asked:
            graded = grading.grade(asked, given, "", console)
            for q, right, line in graded:
                print("{} {}".format("right" if right else "WRONG", line))
            wrong = sum(1 for _, right, _ in graded if not right)
            print("predictions: {} right, {} wrong".format(len(graded) - wrong, wrong))
            failed += wrong
        return 1 if failed else 0
    except ExerciseError as e:
        print("exercise: {}".format(e), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
