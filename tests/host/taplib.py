"""TAP for the host tests written in Python: check() prints "ok N name" or
"not ok N name" with the detail as comments; done() prints the plan and
exits non-zero if any check failed."""
import sys

count = 0
failed = False


def check(name, ok, detail=""):
    global count, failed
    count += 1
    print("{}ok {} {}".format("" if ok else "not ", count, name))
    if not ok:
        failed = True
        print("# " + str(detail).replace("\n", "\n# "))
    return ok


def done():
    print("1..{}".format(count))
    sys.exit(1 if failed else 0)
