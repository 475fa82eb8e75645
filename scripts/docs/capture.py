#!/usr/bin/python3
"""Capture the documentation's real data from the guest (QEMU, TCG):

  walks.txt            the namei events of guest/scenarios/docs-walks.sh
  gdb-session.json     the helper examples: a gdb session on
                       guest/scenarios/docs-gdb.sh (Documentation/helper-examples.yaml)
  lab-NAME.gdb.log     each lab run in batch, as `make lab BATCH=1` runs it

usage: capture.py --kbuild DIR --initramfs FILE --out DIR

Runs two guests at a time; each is bounded by a timeout. Exits non-zero
with one sentence per failure.
"""
import argparse
import concurrent.futures
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "scripts"))
sys.path.insert(0, HERE)

import guest  # noqa: E402
import helpers  # noqa: E402

SCENARIO_TIMEOUT = 60
GDB_TIMEOUT = 90
LAB_TIMEOUT = 90


class CaptureError(Exception):
    pass


def load_yaml(path):
    import yaml
    with open(path) as f:
        return yaml.safe_load(f) or {}


def capture_walks(vm, out):
    try:
        text = guest.run_scenario(vm, "docs-walks", timeout=SCENARIO_TIMEOUT)
    except guest.GuestError as e:
        raise CaptureError("the walk data (guest/scenarios/docs-walks.sh): {}".format(e))
    if "@@ walk nest" not in text:
        raise CaptureError("guest/scenarios/docs-walks.sh printed no walk: is it in "
                           "the initramfs? (make -s build/initramfs.cpio)")
    with open(os.path.join(out, "walks.txt"), "w") as f:
        f.write(text)
    return "walks: {} lines of trace".format(text.count("namei_"))


def capture_gdb(vm, out, gdb_scripts, examples_file):
    """Boot the guest paused on docs-gdb.sh and run the helper examples."""
    config = load_yaml(examples_file)
    found = helpers.find_helpers(gdb_scripts)
    by_name = config.get("examples") or {}
    last = list(config.get("last") or [])
    examples = []
    for h in found:
        commands = by_name.get(h.name, by_name.get(h.title))
        if commands is None:
            commands = h.default_examples()
        if any(h.uses(c) for c in last + list(config.get("session") or [])) and \
                h.name not in by_name:
            continue  # the session or the last commands show it already
        examples += [c for c in commands if c not in last]
    plan = {"session": list(config.get("session") or []), "examples": examples,
            "last": last, "out": os.path.abspath(os.path.join(out, "gdb-session.json"))}
    if os.path.exists(plan["out"]):
        os.unlink(plan["out"])
    run = os.path.join(out, "run")
    os.makedirs(run, exist_ok=True)
    plan_file = os.path.join(run, "gdb-examples.json")
    with open(plan_file, "w") as f:
        json.dump(plan, f, indent=1)
    # gdb-scripts/record_examples.py reads it (gdb inherits the variable).
    os.environ["SYMWALK_DOCS_PLAN"] = plan_file
    steps = os.path.join(TOP, "gdb-scripts", "docs-examples.gdb")
    finished, log, console = guest.gdb_session(
        vm, "symwalk.mode=scenario symwalk.scenario=docs-gdb", steps, "gdb-session",
        GDB_TIMEOUT, run_dir=run)
    if not finished:
        raise CaptureError(
            "the helper examples: gdb did not finish within {} s; gdb said:\n"
            "{}\nthe guest console:\n{}".format(
                GDB_TIMEOUT, guest.tail(log, 20), guest.tail(console, 20)))
    try:
        with open(plan["out"]) as f:
            transcript = json.load(f)
    except (OSError, ValueError):
        raise CaptureError("the helper examples: gdb ran none of them; gdb said:\n"
                           + guest.tail(log, 20))
    stops = [t for t in transcript if t["command"].split()[0] in ("continue", "c")]
    if not all(t["ok"] for t in stops) or len(transcript) < len(plan["session"]):
        raise CaptureError(
            "the helper examples: gdb did not stop where {} says ({}); gdb said:\n{}"
            "\nthe guest console:\n{}".format(
                os.path.relpath(examples_file, TOP),
                "; ".join(t["output"].strip() for t in stops if not t["ok"]) or
                "the session ended early", guest.tail(log, 20), guest.tail(console, 20)))
    return "gdb: {} commands".format(len(transcript))


def newest(paths):
    """The newest modification time among paths (files or folders' files)."""
    times = [0.0]
    for path in paths:
        if os.path.isdir(path):
            for root, _, files in os.walk(path):
                times += [os.path.getmtime(os.path.join(root, f)) for f in files]
        elif os.path.exists(path):
            times.append(os.path.getmtime(path))
    return max(times)


def lab_inputs(vm, name):
    """What a lab's gdb output depends on: the kernel, the helpers, the
    guest's init and tools, the lab's own files (not the initramfs as a
    whole, which changes with every lab)."""
    return [vm.bzimage, vm.vmlinux, os.path.join(TOP, "gdb-scripts"),
            os.path.join(TOP, "initramfs", "init"), os.path.join(TOP, "guest", "tools"),
            os.path.join(TOP, "scripts", "guest.py"), os.path.abspath(__file__),
            os.path.join(TOP, "labs", name)]


def capture_lab(vm, out, name):
    saved = os.path.join(out, "lab-{}.gdb.log".format(name))
    if os.path.exists(saved) and os.path.getmtime(saved) > newest(lab_inputs(vm, name)):
        return "lab {}: up to date".format(name)
    ok, report = guest.run_lab_batch(vm, name, timeout=LAB_TIMEOUT, quiet=True)
    src = os.path.join(guest.RUN, "lab-{}.gdb.log".format(name))
    if not ok:
        raise CaptureError("lab {} (make lab LAB={} BATCH=1) failed:\n{}".format(
            name, name, report))
    with open(src, errors="replace") as f:
        log = f.read()
    with open(os.path.join(out, "lab-{}.gdb.log".format(name)), "w") as f:
        f.write(log)
    return "lab {}: ok".format(name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kbuild", required=True)
    parser.add_argument("--initramfs", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--examples", default=os.path.join(TOP, "Documentation",
                                                           "helper-examples.yaml"))
    args = parser.parse_args()

    for path, what in ((os.path.join(args.kbuild, "arch/x86/boot/bzImage"), "the guest kernel"),
                       (os.path.join(args.kbuild, "vmlinux"), "the guest kernel"),
                       (args.initramfs, "the initramfs")):
        if not os.path.exists(path):
            print("docs: the pages show output of the real guest, and {} ({}) is not "
                  "built: run 'make kernel initramfs' first (make check does).".format(
                      what, path), file=sys.stderr)
            return 1
    os.makedirs(args.out, exist_ok=True)
    # The labs' batch runs write their logs here, not in build/run.
    guest.RUN = os.path.join(os.path.abspath(args.out), "run")
    os.makedirs(guest.RUN, exist_ok=True)
    vm = guest.Guest(args.kbuild, args.initramfs)

    jobs = [("walk data", capture_walks, (vm, args.out)),
            ("helper examples", capture_gdb,
             (vm, args.out, os.path.join(TOP, "gdb-scripts"), args.examples))]
    jobs += [("lab " + n, capture_lab, (vm, args.out, n)) for n in guest.lab_names()]
    print("docs: capturing the walk data, the helper examples and {} lab(s) "
          "from the guest".format(len(jobs) - 2))
    start = time.time()
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = {pool.submit(fn, *a): what for what, fn, a in jobs}
        for future in concurrent.futures.as_completed(futures):
            try:
                print("docs:   " + future.result())
            except CaptureError as e:
                failures.append(str(e))
            except guest.GuestError as e:
                failures.append("{}: {}".format(futures[future], e))
    if failures:
        for failure in failures:
            print("docs: capture failed: " + failure, file=sys.stderr)
        return 1
    print("docs: captured in {:.0f} s".format(time.time() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
