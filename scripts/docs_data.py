"""The guest runs make check keeps for the documentation, in guest.RUN:

  lab-triggers.txt    every lab's trigger, its first run traced
                      (guest/scenarios/lab-triggers.sh, judged by check.py)
  docs-walks.txt      the namei events of guest/scenarios/docs-walks.sh, and
                      the format of each event as tracefs printed it
  docs-gdb.json       the helper examples: a gdb session on
                      guest/scenarios/docs-gdb.sh (Documentation/helper-examples.yaml)
  lab-NAME.gdb.log    each lab's part of make check's batch of labs
                      (labs-batch.gdb.log), the one its expectations judged

make docs reads them and boots nothing. Each capture here returns one line
for make check, or raises CaptureError with a sentence and the evidence.
"""
import json
import os

import gdb_helpers
import guest

GDB_TIMEOUT = 90
WALKS = "docs-walks.txt"
LAB_WALKS = "lab-triggers.txt"
GDB_SESSION = "docs-gdb.json"
EXAMPLES = os.path.join(guest.TOP, "Documentation", "helper-examples.yaml")


class CaptureError(Exception):
    pass


def capture_walks(vm):
    try:
        text = guest.run_scenario(vm, "docs-walks")
    except guest.GuestError as e:
        raise CaptureError("the walk data (guest/scenarios/docs-walks.sh): {}".format(e))
    walks, formats = text.count("@@ walk "), text.count("@@ format ")
    if not walks or "namei_" not in text or not formats:
        raise CaptureError("guest/scenarios/docs-walks.sh printed no traced walk or no "
                           "event format:\n" + text[-2000:])
    with open(os.path.join(guest.RUN, WALKS), "w") as f:
        f.write(text)
    return "{} walks, {} lines of trace, {} event formats".format(
        walks, text.count("namei_"), formats)


def examples_plan():
    """The gdb commands of the helper reference: the session's (which stop
    in the walk), one example or more per helper, then the last ones."""
    import yaml
    with open(EXAMPLES) as f:
        config = yaml.safe_load(f) or {}
    by_name = config.get("examples") or {}
    session = list(config.get("session") or [])
    last = list(config.get("last") or [])
    examples = []
    for h in gdb_helpers.find_helpers(os.path.join(guest.TOP, "gdb-scripts")):
        commands = by_name.get(h.name, by_name.get(h.title))
        if commands is None:
            commands = h.default_examples()
        if any(h.uses(c) for c in last + session) and h.name not in by_name:
            continue  # the session or the last commands show it already
        examples += [c for c in commands if c not in last]
    return {"session": session, "examples": examples, "last": last,
            "out": os.path.join(guest.RUN, GDB_SESSION)}


def capture_gdb(vm):
    """Boot the guest paused on docs-gdb.sh and run the helper examples."""
    plan = examples_plan()
    if os.path.exists(plan["out"]):
        os.unlink(plan["out"])
    plan_file = os.path.join(guest.RUN, "docs-gdb-plan.json")
    with open(plan_file, "w") as f:
        json.dump(plan, f, indent=1)
    # gdb-scripts/record_examples.py reads it (gdb inherits the variable).
    os.environ["SYMWALK_DOCS_PLAN"] = plan_file
    steps = os.path.join(guest.TOP, "gdb-scripts", "docs-examples.gdb")
    finished, log, console = guest.gdb_session(
        vm, "symwalk.mode=scenario symwalk.scenario=docs-gdb", steps, "docs-gdb", GDB_TIMEOUT)
    evidence = "gdb said:\n{}\nthe guest console:\n{}".format(
        guest.tail(log, 20), guest.tail(console, 20))
    if not finished:
        raise CaptureError("gdb did not finish within {} s; {}".format(GDB_TIMEOUT, evidence))
    try:
        with open(plan["out"]) as f:
            transcript = json.load(f)
    except (OSError, ValueError):
        raise CaptureError("gdb ran none of the examples; " + evidence)
    stops = [t for t in transcript if t["command"].split()[0] in ("continue", "c")]
    if not all(t["ok"] for t in stops) or len(transcript) < len(plan["session"]):
        raise CaptureError("gdb did not stop where {} says ({}); {}".format(
            os.path.relpath(EXAMPLES, guest.TOP),
            "; ".join(t["output"].strip() for t in stops if not t["ok"]) or
            "the session ended early", evidence))
    # An example may show a helper's error sentence; a traceback is a bug.
    broken = [t["command"] for t in transcript if t["output"].startswith("Python Exception")]
    if broken:
        raise CaptureError("these examples raised a Python exception in gdb: {}; {}".format(
            ", ".join(broken), evidence))
    return "{} gdb commands".format(len(transcript))
