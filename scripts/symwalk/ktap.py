"""Reading the TAP and KTAP streams of test programs (kselftest's, our own
host tests', the exercises' graders)."""
import re

TAP_LINE = re.compile(r"^(not )?ok \d+ (?:- )?(.*?)(?:\s+#\s*(SKIP|TODO)\b.*)?$")
PLAN_LINE = re.compile(r"^1\.\.(\d+)\b")


def parse_tap(text):
    """A list of (name, ok, skipped, comment lines) per TAP result. The
    comments are those before it (kselftest prints a test's output there)
    and, for a failure, also those after it up to the next result (where our
    host tests put their diagnostics, as TAP does)."""
    results, comments = [], []
    for line in text.splitlines():
        m = TAP_LINE.match(line.strip())
        if m:
            if results and not results[-1][1]:
                results[-1][3].extend(comments)
            results.append((m.group(2), m.group(1) is None, m.group(3) == "SKIP", comments))
            comments = []
        elif line.startswith("#"):
            comments.append(line)
    if results and not results[-1][1]:
        results[-1][3].extend(comments)
    return results


def planned(text):
    """The N of the stream's one plan line, "1..N" (KTAP prints it after
    its version line, TAP may print it last), or None."""
    plans = [m.group(1) for m in (PLAN_LINE.match(line.strip()) for line in text.splitlines())
             if m]
    return int(plans[0]) if len(plans) == 1 else None
