"""The expect language of labs/NAME/expect (FileCheck-like): a lab's
patterns, matched in order against its gdb output and its console, and the
lines that met them, which the judge, the grader and the narrative's check
read."""
import os
import re

from symwalk.labs import LabError
from symwalk.layout import LABS

CONSOLE = "console: "
AGAIN = "again: "
ALONE = "alone: "


def read_expectations(name, labs=LABS):
    """The lab's expectations: one regular expression a line, to be matched
    in this order by lines of the gdb output, or, for a line starting with
    "console: ", by lines of the guest console; a line starting with
    "again: " is a console pattern for the trigger run a second time (by
    lab-trigger: labs whose second run differs from the first), and one
    starting with "alone: " a console pattern for the trigger run without
    gdb (labs whose gdb steps change what the lookups do). A pattern
    after "!" must match no line between the lines the expectations before
    and after it matched. A named group, (?P<ino>\d+), keeps what it
    matched for the later patterns of the same output (gdb's or the
    console's): (?P=ino) in them stands for that text. '#' starts a
    comment."""
    path = os.path.join(labs, name, "expect")
    try:
        with open(path) as f:
            return [line.rstrip("\n") for line in f
                    if line.strip() and not line.startswith("#")]
    except OSError as e:
        raise LabError("the expectations of {} cannot be read: {}".format(name, e))


# Never in a lab's gdb output: a traceback, an internal breakpoint's stop,
# a frame gdb cannot place, and steps that end in a resumed guest (a
# student would get no prompt and no summary; in a batch, the run goes on
# into the next lab).
NEVER = [r"Traceback \(most recent call last\)", r"^Python Exception",
         r"^Breakpoint -\d+, ", r" in \?\? \(\)$", r"^symwalk: the steps ran on into"]


def check_lab_output(patterns, gdb_output, console_output):
    """check_expectations() for the gdb patterns and the console ones, each
    in their own order, and NEVER against the whole gdb output; the
    results in the order of the patterns, NEVER's last."""
    patterns = [p for p in patterns if not p.startswith((AGAIN, ALONE))]
    gdb_patterns = [p for p in patterns if not p.startswith(CONSOLE)]
    console_patterns = [p[len(CONSOLE):] for p in patterns if p.startswith(CONSOLE)]
    gdb_results = iter(check_expectations(gdb_patterns, gdb_output))
    console_results = iter(check_expectations(console_patterns, console_output))
    results = [(p, next(console_results)[1] if p.startswith(CONSOLE) else next(gdb_results)[1])
               for p in patterns]
    for never in NEVER:
        results += check_expectations(["!" + never], gdb_output)
    return results


def check_expectations(patterns, output):
    """Match each pattern, in order, against the lines of output; a "!"
    pattern must match none of the lines between its neighbours' matches.
    Return a list of (pattern, the line that meets it or None): for a
    "!" pattern that met, "(absent)"."""
    lines = output.splitlines()
    pos = 0
    results = []
    absent = []         # [(index in results, regex)] waiting for their end
    captured = {}       # what the named groups matched so far

    def compiled(pattern):
        return re.compile(re.sub(r"\(\?P=(\w+)\)", lambda m: re.escape(
            captured[m.group(1)]) if m.group(1) in captured else m.group(0), pattern))

    def close_absences(end):
        for index, regex in absent:
            found = next((line for line in lines[pos:end] if regex.search(line)), None)
            if found is not None:
                results[index] = (results[index][0], None)
        absent.clear()

    for pattern in patterns:
        if pattern.startswith("!"):
            absent.append((len(results), compiled(pattern[1:])))
            results.append((pattern, "(absent)"))
            continue
        try:
            regex = compiled(pattern)
        except re.error:        # (?P=name) of a group that matched nothing
            results.append((pattern, None))
            continue
        for i in range(pos, len(lines)):
            match = regex.search(lines[i])
            if match:
                captured.update((k, v) for k, v in match.groupdict().items() if v is not None)
                close_absences(i)
                results.append((pattern, lines[i]))
                pos = i + 1
                break
        else:
            results.append((pattern, None))
    close_absences(len(lines))
    return results
