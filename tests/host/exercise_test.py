#!/usr/bin/env python3
"""The exercises' driver (scripts/exercise.py and scripts/symwalk/), the
parts that need no kernel: names resolved as the labs' are (a unique prefix will do), the
listing with a line each, every exercise's questions read and graded on
the grader's own lines, and predictions refused, unseen, before anything
is built or booted while one is blank or malformed. KTAP."""
import os
import subprocess
import sys
import tempfile

from taplib import check, done
from symwalk import exercise, exercises
from symwalk.layout import TOP


def resolved(name):
    try:
        return exercises.resolve(name)
    except exercises.ExerciseError as e:
        return "error: " + str(e)


check("a whole name, a unique prefix: the exercise",
      (resolved("nesting-limit"), resolved("nest")) == ("nesting-limit", "nesting-limit"))
check("an ambiguous prefix: the exercises it could be, to choose from",
      resolved("n") == "error: 'n' could be any of these exercises; say which: "
      "nesting-limit, no-dotdot", resolved("n"))
check("a name of none: the exercises", resolved("nesting").startswith("nesting") and
      resolved("zz").startswith("error: there is no exercise named 'zz'; the exercises: "),
      resolved("zz"))
listing = subprocess.run([sys.executable, os.path.join(TOP, "scripts", "exercise.py"), "list"],
                         stdout=subprocess.PIPE, text=True).stdout.splitlines()
check("make exercises: a line each, the name and what the exercise asks",
      len(listing) == len(exercises.names()) and
      all(line.split()[0] == name and len(line.split()) > 2
          for line, name in zip(listing, exercises.names())), listing)
for name in exercises.names():
    asked = exercise.questions(name)
    check("exercise {}: its predictions are questions over the grader's console".format(name),
          asked and all(q.pattern.startswith("console: ") for q in asked),
          [q.pattern for q in asked])
    observed = [line for line in open(os.path.join(TOP, "exercises", name, "grade.sh"))
                if line.startswith("observe ")]
    check("exercise {}: its grader prints what they are graded against (observe)".format(name),
          observed, "no observe line in grade.sh")

answers = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
answers.write("nine-pops: 8\nnine-attempts: one\n")
answers.close()
proc = subprocess.run([sys.executable, os.path.join(TOP, "scripts", "exercise.py"), "grade",
                       "nesting-limit", "--answers", answers.name],
                      stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
check("make grade EXERCISE= with a malformed prediction: refused, naming it, nothing run",
      proc.returncode == 2 and "nine-attempts: 'one' is not a number" in proc.stdout
      and "building" not in proc.stdout, proc.stdout)
check("... and nothing of the answer shown", "run showed" not in proc.stdout
      and "terminate_walk" not in proc.stdout, proc.stdout)
os.unlink(answers.name)
done()
