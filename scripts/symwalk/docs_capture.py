"""The docs' own guest runs, which make check makes for the site: the
traced walks of guest/scenarios/docs-walks.sh and the helper examples in
gdb (docs_data.py names what they leave). Each capture returns one line
for make check, or raises CaptureError with a sentence and the evidence.
"""
import json
import os

from symwalk import gdb_helpers, layout, markers, qemu
from symwalk.docs_data import ERROR_OUTPUT, EXAMPLES, GDB_SESSION, TRACEBACK, WALKS
from symwalk.gdbsession import gdb_session

GDB_TIMEOUT = 90


class CaptureError(Exception):
    pass


def capture_walks(vm, run_dir):
    try:
        text = qemu.run_scenario(vm, "docs-walks", run_dir)
    except qemu.GuestError as e:
        raise CaptureError("the walk data (guest/scenarios/docs-walks.sh): {}".format(e))
    walks = markers.sections(text, "walk")
    events = sum(walk.text.count("namei_") for walk in walks)
    formats = len(markers.sections(text, "format"))
    if not walks or not events or not formats:
        raise CaptureError("guest/scenarios/docs-walks.sh printed no traced walk or no "
                           "event format:\n" + text[-2000:])
    with open(os.path.join(run_dir, WALKS), "w") as f:
        f.write(text)
    return "{} walks, {} lines of trace, {} event formats".format(len(walks), events, formats)


def examples_plan(run_dir):
    """The gdb commands of the helper reference, each with the part of the
    session it belongs to: the session's (which stop in the walk), each
    helper's example, then the last ones, then the refusals; and where gdb
    writes what they printed."""
    import yaml
    with open(EXAMPLES) as f:
        config = yaml.safe_load(f) or {}
    by_name = config.get("examples") or {}
    session = list(config.get("session") or [])
    last = list(config.get("last") or [])
    steps = [{"command": c, "part": "session"} for c in session]
    for h in gdb_helpers.find_helpers(layout.GDB_SCRIPTS):
        commands = by_name.get(h.name, by_name.get(h.title))
        if commands is None:
            if any(h.uses(c) for c in last + session):
                continue  # the session or the last commands show it already
            commands = h.default_examples()
        steps += [{"command": c, "part": "example", "helper": h.name} for c in commands]
    steps += [{"command": c, "part": "last"} for c in last]
    steps += [{"command": c, "part": "refusal"} for c in config.get("refusals") or []]
    return {"steps": steps, "out": os.path.join(run_dir, GDB_SESSION)}


def capture_gdb(vm, run_dir):
    """Boot the guest paused on docs-gdb.sh and run the helper examples."""
    plan = examples_plan(run_dir)
    if os.path.exists(plan["out"]):
        os.unlink(plan["out"])
    plan_file = os.path.join(run_dir, "docs-gdb-plan.json")
    with open(plan_file, "w") as f:
        json.dump(plan, f, indent=1)
    # gdb-scripts/record_examples.py reads it (gdb inherits the variable).
    os.environ["SYMWALK_DOCS_PLAN"] = plan_file
    steps = os.path.join(layout.GDB_SCRIPTS, "docs-examples.gdb")
    finished, log, console = gdb_session(
        vm, run_dir, "symwalk.mode=scenario symwalk.scenario=docs-gdb", steps, "docs-gdb",
        GDB_TIMEOUT)
    evidence = "gdb said:\n{}\nthe guest console:\n{}".format(
        qemu.tail(log, 20), qemu.tail(console, 20))
    if not finished:
        raise CaptureError("gdb did not finish within {} s; {}".format(GDB_TIMEOUT, evidence))
    try:
        with open(plan["out"]) as f:
            transcript = json.load(f)
    except (OSError, ValueError):
        raise CaptureError("gdb ran none of the examples; " + evidence)
    session = [t for t in transcript if t["part"] == "session"]
    stops = [t for t in session if t["command"].split()[0] in ("continue", "c")]
    planned = [s for s in plan["steps"] if s["part"] == "session"]
    if not all(t["ok"] for t in stops) or len(session) < len(planned):
        raise CaptureError("gdb did not stop where {} says ({}); {}".format(
            os.path.relpath(EXAMPLES, layout.TOP),
            "; ".join(t["output"].strip() for t in stops if not t["ok"]) or
            "the session ended early", evidence))
    # The reference shows every other command as a successful run, and the
    # refusals apart, each a helper's own sentence.
    failed = ["{}: {}".format(t["command"], t["output"].strip()) for t in transcript
              if t["part"] != "refusal" and (not t["ok"] or ERROR_OUTPUT.search(t["output"]))]
    failed += ["{} (refused with a traceback, or not at all)".format(t["command"])
               for t in transcript if t["part"] == "refusal" and
               (t["ok"] or TRACEBACK.search(t["output"]))]
    if failed:
        raise CaptureError("in {}: {}; {}".format(
            os.path.relpath(EXAMPLES, layout.TOP), " | ".join(failed), evidence))
    return "{} gdb commands".format(len(transcript))
