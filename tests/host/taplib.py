"""KTAP for the tests written in Python, printed by the kernel's own
kselftest/ksft.py, from build/linux (make check derives the tree before it
runs a test): check() records a result; done() prints the header, the plan,
each result with a failure's detail as "# " lines, and the totals, and
exits non-zero if any check failed. KTAP's plan, 1..N, comes before the
results, so they are printed at the end."""
import os
import sys

KSELFTEST = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                          "build", "linux", "tools", "testing", "selftests",
                                          "kselftest"))
sys.path.insert(0, KSELFTEST)
try:
    import ksft
except ImportError:
    print("Bail out! {}/ksft.py is missing: make tree derives build/linux".format(KSELFTEST))
    sys.exit(1)

results = []


def check(name, ok, detail=""):
    results.append((name, bool(ok), detail))
    return ok


def done():
    ksft.print_header()
    ksft.set_plan(len(results))
    for name, ok, detail in results:
        ksft.test_result(ok, name)
        if not ok and detail != "":
            for line in str(detail).splitlines():
                ksft.print_msg(line)
    ksft.finished()
