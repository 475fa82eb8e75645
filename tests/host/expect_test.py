#!/usr/bin/env python3
"""The lab expectation checker: in order, every pattern, and it can fail."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import guest  # noqa: E402

OUTPUT = "a\n  depth: 1\nb\n  depth: 3\nc\n"
n = 0
failed = False


def case(name, patterns, want):
    global n, failed
    n += 1
    got = [match is not None for _, match in guest.check_expectations(patterns, OUTPUT)]
    if got == want:
        print("ok {} {}".format(n, name))
    else:
        failed = True
        print("not ok {} {}\n# wanted {}, got {}".format(n, name, want, got))


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
n += 1
got = [m is not None for _, m in guest.check_lab_output(
    ["^a"], "a\nPython Exception <class 'gdb.error'>: x\nBreakpoint -18, f ()\n", "")]
if got == [True, True, False, False, True]:
    print("ok {} no lab output may hold a traceback, an internal breakpoint's stop".format(n))
else:
    failed = True
    print("not ok {} no lab output may hold a traceback, an internal stop\n# got {}".format(n, got))
n += 1
got = [m is not None for _, m in guest.check_lab_output(
    ["^a", "console: ^stat x: ELOOP", "^b", "console: ^never"], OUTPUT, "boot\nstat x: ELOOP\n")]
if got[:4] == [True, True, True, False]:
    print("ok {} console patterns are matched against the console".format(n))
else:
    failed = True
    print("not ok {} console patterns are matched against the console\n# got {}".format(n, got))
import check  # noqa: E402

SPLATS = [
    "[    3.1] WARNING: CPU: 0 PID: 33 at fs/namei.c:700 put_link+0x1/0x2",
    "[    3.1] BUG: KASAN: slab-use-after-free in namei_trace_copy+0x10/0x20",
    "[    3.1] WARNING: possible circular locking dependency detected",
    "[    3.1] WARNING: suspicious RCU usage",
]
CLEAN = ["ok 1 stat: 2000 cases, 0 mismatches", "symwalk: end fuzz_walk rc=0"]
n += 1
missed = [line for line in SPLATS if not check.SPLAT.search(line)]
false = [line for line in CLEAN if check.SPLAT.search(line)]
if missed or false:
    failed = True
    print("not ok {} the debug run's splat filter\n# missed {}, false {}".format(n, missed, false))
else:
    print("ok {} the debug run's splat filter catches BUG, WARNING, lockdep, KASAN, RCU".format(n))
TAP = "# RUN a\nok 1 a\n# RUN b\n# b broke\nnot ok 2 b\n# why b failed\nok 3 c\nnot ok 4 d\n# why d failed\n"
n += 1
got = [(name, ok, comments) for name, ok, _, comments in check.parse_tap(TAP)]
want = [("a", True, ["# RUN a"]), ("b", False, ["# RUN b", "# b broke", "# why b failed"]),
        ("c", True, ["# why b failed"]), ("d", False, ["# why d failed"])]
if got == want:
    print("ok {} a failure's diagnostics are kept, before it (kselftest) and after it (TAP)".format(n))
else:
    failed = True
    print("not ok {} a failure's diagnostics are kept\n# got {}".format(n, got))
n += 1
labs = guest.lab_names()
try:
    guest.resolve_lab("0")
    ambiguous = None
except guest.GuestError as e:
    ambiguous = str(e)
if guest.resolve_lab("04") == "04-chain" and ambiguous and "could be any of" in ambiguous:
    print("ok {} make lab LAB=04 is 04-chain; LAB=0 asks which".format(n))
else:
    failed = True
    print("not ok {} a lab by a prefix of its name\n# {}".format(n, ambiguous))
for name in labs:
    n += 1
    if guest.read_expectations(name):
        print("ok {} lab {} has expectations".format(n, name))
    else:
        failed = True
        print("not ok {} lab {} has expectations".format(n, name))
print("1..{}".format(n))
sys.exit(1 if failed else 0)
