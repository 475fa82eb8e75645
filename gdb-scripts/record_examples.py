#
# symwalk: the docs' helper examples, run inside gdb by scripts/symwalk/docs_capture.py
# (through docs-examples.gdb, as a lab's steps). Each command goes through
# gdb.execute() and its output or its error is recorded, so that one
# failing example does not stop the others.
#
# SYMWALK_DOCS_PLAN names a JSON file: {"steps": [{"command", "part"
# (session, example, last or refusal), "helper" (an example's)}], "out":
# the transcript's JSON file}. The transcript is the steps, each with what
# gdb printed ("output") and whether the command succeeded ("ok").
#

import json
import os

import gdb


def record(step, transcript, out):
    try:
        output = gdb.execute(step["command"], to_string=True)
        ok = True
    except gdb.error as e:
        output, ok = str(e) + "\n", False
    except Exception as e:  # a helper's bug: shown as such
        output, ok = "Python Exception {}: {}\n".format(type(e).__name__, e), False
    transcript.append(dict(step, output=output, ok=ok))
    with open(out, "w") as f:
        json.dump(transcript, f, indent=1)
    return ok


def main():
    with open(os.environ["SYMWALK_DOCS_PLAN"]) as f:
        plan = json.load(f)
    transcript = []
    for step in plan["steps"]:
        # The rest needs the walk the session stops in.
        if not record(step, transcript, plan["out"]) and step["part"] == "session" and \
                step["command"].split()[0] in ("continue", "c"):
            return


main()
