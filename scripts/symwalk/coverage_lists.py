"""make coverage's reviewed lists: the functions of the walk it reports
on (tests/coverage/functions) and each of their lines nothing reaches,
with the reason (tests/coverage/unreached)."""
import os

from symwalk.layout import TOP

FUNCTIONS = os.path.join(TOP, "tests", "coverage", "functions")
UNREACHED = os.path.join(TOP, "tests", "coverage", "unreached")


class CoverageError(Exception):
    pass


def read_list(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip() and not line.startswith("#")]


def read_unreached(path):
    """{(function, key): reason} from the reviewed list: a function's name
    at column 0, each of its lines indented by 4, the reason by 8."""
    entries, function, key = {}, None, None
    with open(path) as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            if not line.startswith(" "):
                function, key = line.strip(), None
            elif line.startswith("        ") and key:
                entries[(function, key)] += (" " if entries[(function, key)] else "") + line.strip()
            elif line.startswith("    ") and not line.startswith("     ") and function:
                key = line.strip()
                entries[(function, key)] = ""
            else:
                raise CoverageError("{}:{}: neither a function, a line (4 spaces) nor a "
                                    "reason (8 spaces)".format(path, number))
    missing = [k for k, reason in entries.items() if not reason]
    if missing:
        raise CoverageError("{}: no reason given for {}".format(
            path, ", ".join("{}: {}".format(*k) for k in missing)))
    return entries
