#
# symwalk: the docs' helper examples, run inside gdb by scripts/symwalk/docs_capture.py
# (through docs-examples.gdb, as a lab's steps). Each command goes through
# gdb.execute() and its output or its error is recorded, so that one
# failing example does not stop the others.
#
# SYMWALK_DOCS_PLAN names a JSON file: {"session": [commands that take the
# guest to the walk], "examples": [...], "last": [...], "out": the
# transcript's JSON file}.
#

import json
import os

import gdb


def record(command, transcript, out):
    try:
        output = gdb.execute(command, to_string=True)
        ok = True
    except gdb.error as e:
        output, ok = str(e) + "\n", False
    except Exception as e:  # a helper's bug: shown as such
        output, ok = "Python Exception {}: {}\n".format(type(e).__name__, e), False
    transcript.append({"command": command, "output": output, "ok": ok})
    with open(out, "w") as f:
        json.dump(transcript, f, indent=1)
    return ok


def main():
    with open(os.environ["SYMWALK_DOCS_PLAN"]) as f:
        plan = json.load(f)
    transcript = []
    for command in plan["session"]:
        if not record(command, transcript, plan["out"]) and \
                command.split()[0] in ("continue", "c"):
            return
    for command in plan["examples"] + plan["last"]:
        record(command, transcript, plan["out"])


main()
