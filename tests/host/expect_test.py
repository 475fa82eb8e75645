#!/usr/bin/env python3
"""The lab expectation checker: in order, every pattern, and it can fail;
the markers that cut logs into parts; make check's filters of the guest's
output. KTAP."""
from taplib import check, done
from symwalk import batch, expect, ktap, labs, markers, runner
from symwalk.check import SPLAT

OUTPUT = "a\n  depth: 1\nb\n  depth: 3\nc\n"


def case(name, patterns, want):
    got = [match is not None for _, match in expect.check_expectations(patterns, OUTPUT)]
    check(name, got == want, "wanted {}, got {}".format(want, got))


case("patterns met in order", [r"^  depth: 1$", r"^  depth: 3$"], [True, True])
case("a pattern nothing matches is not met", [r"^  depth: 2$"], [False])
case("order matters", [r"^  depth: 3$", r"^  depth: 1$"], [True, False])
case("one line meets one pattern only", [r"depth", r"depth", r"depth"], [True, True, False])
case("an absence between two matches holds", [r"^a$", r"!^c$", r"^b$"], [True, True, True])
case("an absence between two matches fails", [r"^a$", r"!depth: 1", r"^b$"], [True, False, True])
case("an absence after the last match runs to the end", [r"^b$", r"!^c$"], [True, False])
case("an absence before the first match starts at the top", [r"!^a$", r"depth: 3"], [False, True])
case("a named group's text stands in later patterns",
     [r"^  depth: (?P<d>\d+)$", r"^b$", r"^  depth: (?P=d)$"], [True, True, False])
case("a named group compared with itself holds",
     [r"^(?P<first>a)$", r"^(?P=first)$|^c$"], [True, True])
case("a reference to a group that matched nothing is not met", [r"^  depth: (?P=none)$"], [False])
got = [m is not None for _, m in expect.check_lab_output(
    ["^a"], "a\nPython Exception <class 'gdb.error'>: x\nBreakpoint -18, f ()\n", "")]
check("no lab output may hold a traceback, an internal breakpoint's stop",
      got == [True, True, False, False, True, True], "got {}".format(got))
got = [m is not None for _, m in expect.check_lab_output(
    ["^a"], "a\nsymwalk: the steps ran on into the next lab; the rest of them are "
    "skipped.\n", "")]
check("no lab's steps may end with the guest running on (into the next lab)",
      got == [True, True, True, True, True, False], "got {}".format(got))
got = [m is not None for _, m in expect.check_lab_output(
    ["^a", "console: ^stat x: ELOOP", "^b", "console: ^never"], OUTPUT, "boot\nstat x: ELOOP\n")]
check("console patterns are matched against the console",
      got[:4] == [True, True, True, False], "got {}".format(got))
BATCH_CONSOLE = ("boot\nsymwalk: begin lab a\nA1\nsymwalk: begin gcda lab/a\nZZ\n"
                 "symwalk: end gcda lab/a\nsymwalk: end lab a\r\n"
                 "symwalk: begin lab b\nB1\nB2\nsymwalk: begin lab c\nC1\n"
                 "symwalk: begin test t\nT\nsymwalk: end test t rc=3\n")
got = {s.name: (s.text, s.ended, s.rc) for s in markers.sections(BATCH_CONSOLE, "lab")}
check("the console is cut into each lab's part, from its begin to its end or the next "
      "begin, other kinds inside it",
      got == {"a": ("A1\nsymwalk: begin gcda lab/a\nZZ\nsymwalk: end gcda lab/a\n", True,
                    None),
              "b": ("B1\nB2\n", False, None),
              "c": ("C1\nsymwalk: begin test t\nT\nsymwalk: end test t rc=3\n", False,
                    None)}, "got {}".format(got))
got = [(s.name, s.text, s.ended, s.rc) for s in markers.sections(BATCH_CONSOLE, "test")]
check("a marker's end gives its exit status", got == [("t", "T\n", True, 3)],
      "got {}".format(got))
# gdb's marks, as gdb-scripts/symwalk_gdb/lab.py writes them from the template
mark = markers.gdb_batch_mark().format
BATCH_GDB = ("attached\n" + mark(name="a", first=1) + "\n$1 = 1\n" + mark(name="b", first=2)
             + "\n$2 = 7 ($3) $lx_current() $1 $10\n")
got = {name: part for name, (_, part) in batch.lab_parts(BATCH_GDB).items()}
check("a batch's gdb output is cut at each lab's mark, its values numbered from $1",
      got == {"a": "$1 = 1\n", "b": "$1 = 7 ($2) $lx_current() $1 $9\n"}, "got {}".format(got))
check("a batch's progress is seen at each lab's mark",
      len(batch.BATCH_MARK.findall(BATCH_GDB)) == 2, BATCH_GDB)
WALKS = ("symwalk: begin walk nest n1/f\nE1\nsymwalk: end walk nest\r\n"
         "symwalk: begin lab-walk 04-chain lookup -t stat /lab/04-chain/l3/file\nE2\n"
         "symwalk: end lab-walk 04-chain\n")
got = [(s.kind, s.name, s.what, s.text) for kind in ("walk", "lab-walk")
       for s in markers.sections(WALKS, kind)]
check("a begin line's rest says what the part is of",
      got == [("walk", "nest", "n1/f", "E1\n"),
              ("lab-walk", "04-chain", "lookup -t stat /lab/04-chain/l3/file", "E2\n")],
      "got {}".format(got))

SPLATS = [
    "[    3.1] WARNING: CPU: 0 PID: 33 at fs/namei.c:700 put_link+0x1/0x2",
    "[    3.1] BUG: KASAN: slab-use-after-free in namei_trace_copy+0x10/0x20",
    "[    3.1] WARNING: possible circular locking dependency detected",
    "[    3.1] WARNING: suspicious RCU usage",
]
CLEAN = ["ok 1 stat: 2000 cases, 0 mismatches", "symwalk: end fuzz_walk rc=0"]
missed = [line for line in SPLATS if not SPLAT.search(line)]
false = [line for line in CLEAN if SPLAT.search(line)]
check("the debug run's splat filter catches BUG, WARNING, lockdep, KASAN, RCU",
      not missed and not false, "missed {}, false {}".format(missed, false))
TAP = "# RUN a\nok 1 a\n# RUN b\n# b broke\nnot ok 2 b\n# why b failed\nok 3 c\nnot ok 4 d\n# why d failed\n"
got = [(name, ok, comments) for name, ok, _, comments in ktap.parse_tap(TAP)]
want = [("a", True, ["# RUN a"]), ("b", False, ["# RUN b", "# b broke", "# why b failed"]),
        ("c", True, ["# why b failed"]), ("d", False, ["# why d failed"])]
check("a failure's diagnostics are kept, before it (kselftest) and after it (TAP)",
      got == want, "got {}".format(got))


class Recorded:
    """What add_tap() records, as (name, ok)."""

    def __init__(self):
        self.added = []

    def add(self, name, ok, detail=None, skipped=False):
        self.added.append((name, ok))


for stream, want, name in [
        ("TAP version 13\n1..2\nok 1 a\nok 2 b\n# Totals: pass:2\n", [("x: a", True), ("x: b", True)],
         "a KTAP stream as its plan says is its results"),
        ("ok 1 a\nok 2 b\n1..2\n", [("x: a", True), ("x: b", True)],
         "a TAP stream with its plan last is its results"),
        ("TAP version 13\n1..3\nok 1 a\nok 2 b\n", [("x: a", True), ("x: b", True), ("x (plan)", False)],
         "a stream with fewer results than its plan fails")]:
    recorded = Recorded()
    runner.add_tap(recorded, "x", stream, 0)
    check(name, recorded.added == want, "got {}".format(recorded.added))
try:
    labs.resolve_lab("0")
    ambiguous = None
except labs.LabError as e:
    ambiguous = str(e)
check("make lab LAB=04 is 04-chain; LAB=0 asks which",
      labs.resolve_lab("04") == "04-chain" and ambiguous and "could be any of" in ambiguous,
      ambiguous)
for name in labs.lab_names():
    check("lab {} has expectations".format(name), expect.read_expectations(name))
done()
