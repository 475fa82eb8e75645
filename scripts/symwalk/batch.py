"""Labs run without a terminal, as make check, make grade and make lab
BATCH=1 run them: one lab in a guest of its own, or several in one guest
and one gdb session, its log cut into one part a lab; and the judge that
holds each part to the lab's expectations."""
import os
import re

from symwalk import expect, markers, qemu
from symwalk.gdbsession import gdb_session
from symwalk.layout import LABS

# A number of gdb's value history ($1), not a convenience variable ($_x).
HISTORY_NUMBER = re.compile(r"(?<![\w$])\$(\d+)\b")
# gdb's lines that start a lab of a batch, as a regex: a new one shows the
# batch makes progress.
BATCH_MARK = re.compile(r"^" + re.escape(markers.begin("lab", "")), re.M)


def run_lab_batch(vm, name, run_dir, timeout=60, quiet=False, labs=LABS, steps=None,
                  check=True):
    """Run a lab without a terminal, its logs kept in run_dir. Return (ok,
    report text). steps: gdb commands to run instead of the lab's lab.gdb;
    check=False: do not check the lab's expectations."""
    finished, gdb_log, console = gdb_session(
        vm, run_dir, "symwalk.mode=lab symwalk.batch=1 symwalk.lab=" + name,
        steps or os.path.join(labs, name, "lab.gdb"), "lab-" + name, timeout)
    if not finished:
        return False, ("lab {}: gdb did not finish within {} s.\n"
                       "gdb said:\n{}\nThe guest console:\n{}").format(
                           name, timeout, qemu.tail(gdb_log), qemu.tail(console))
    with open(gdb_log, errors="replace") as f:
        output = f.read()
    try:
        with open(console, errors="replace") as f:
            console_output = f.read()
    except OSError:
        console_output = ""
    return judge_lab(name, output, console_output, console, labs, quiet, check)


def renumbered(output, first):
    """output with gdb's values from $first on numbered from $1, as a
    session of the lab's own would show them."""
    return HISTORY_NUMBER.sub(lambda m: "${}".format(int(m.group(1)) - first + 1)
                              if int(m.group(1)) >= first else m.group(0), output)


def lab_parts(gdb_log):
    """{name: (where its begin is in the log, its output with its values
    numbered from $1)} of a batch's gdb log."""
    parts = {}
    for part in markers.sections(gdb_log, "lab"):
        first = markers.GDB_FIRST_VALUE.match(part.what)
        if first:
            parts[part.name] = (part.start, renumbered(part.text, int(first.group("first"))))
    return parts


def run_labs_batch(vm, names, run_dir, stem, timeout=60, labs=LABS, check=True):
    """Run the labs one after the other in one guest and one gdb session
    (one boot and one gdb start for all of them: make check's way), the
    whole run kept as stem.gdb.log and stem.console in run_dir, each lab's
    part of them as lab-NAME.gdb.log (its values numbered from $1) and
    lab-NAME.console, and judge each part. timeout: the seconds a lab may
    take. Return [(name, ok, report)] in the order of names."""
    if len(set(names)) != len(names):
        raise qemu.GuestError("a batch runs each lab once: {}".format(", ".join(names)))
    plan = [[name, os.path.join(labs, name, "lab.gdb")] for name in names]
    finished, gdb_log, console = gdb_session(
        vm, run_dir, "symwalk.mode=lab symwalk.batch=1 symwalk.lab=" + ",".join(names),
        None, stem, timeout, batch_labs=plan, progress=BATCH_MARK)
    with open(gdb_log, errors="replace") as f:
        whole_log = f.read()
    outputs = {name: part for name, part in lab_parts(whole_log).items() if name in names}
    try:
        with open(console, errors="replace") as f:
            whole_console = f.read()
    except OSError:
        whole_console = ""
    consoles = {s.name: s for s in markers.sections(whole_console, "lab")}
    # What gdb said before the first lab (the attach, the boot) is held to
    # NEVER with the first lab's output.
    preamble = whole_log[:outputs[names[0]][0]] if names[0] in outputs else ""
    verdicts = []
    for name in names:
        stem_of_lab = os.path.join(run_dir, "lab-" + name)
        output = outputs[name][1] if name in outputs else ""
        if name == names[0] and preamble.strip():
            output = preamble + output
        console_part = consoles[name].text if name in consoles else ""
        for path, text in ((stem_of_lab + ".gdb.log", output),
                           (stem_of_lab + ".console", console_part)):
            with open(path, "w") as f:
                f.write(text)
        if name not in consoles or not consoles[name].ended:
            why = ("a lab took more than {} s and gdb was stopped".format(timeout)
                   if not finished else "the guest ended first")
            began = list(consoles)
            verdicts.append((name, False, (
                "lab {}: the batch did not reach its end ({}); the last lab the guest "
                "began: {}.\ngdb said:\n{}\nThe guest console:\n{}").format(
                    name, why, began[-1] if began else "none",
                    qemu.tail(stem_of_lab + ".gdb.log") if output.strip()
                    else qemu.tail(gdb_log),
                    qemu.tail(stem_of_lab + ".console") if console_part.strip()
                    else qemu.tail(console))))
            continue
        verdicts.append((name,) + judge_lab(name, output, console_part,
                                            stem_of_lab + ".console", labs, quiet=True,
                                            check=check))
    return verdicts


def judge_lab(name, output, console_output, console, labs=LABS, quiet=False, check=True):
    """Hold a lab's gdb output and console to its expectations (none but
    NEVER when check is False). Return (ok, report text)."""
    patterns = expect.read_expectations(name, labs) if check else []
    results = expect.check_lab_output(patterns, output, console_output)
    failed = [p for p, m in results if m is None]
    report = [] if quiet else [output.rstrip(), ""]
    for pattern, match in results:
        report.append("{} {}".format("met    " if match else "NOT MET", pattern))
        on_console = pattern.startswith(expect.CONSOLE)
        bare = pattern[len(expect.CONSOLE):] if on_console else pattern
        if not match and bare.startswith("!"):
            text = console_output if on_console else output
            regex = re.compile(bare[1:])
            report += ["          found: " + line for line in text.splitlines()
                       if regex.search(line)][:3]
    report.append("lab {}: {} expectations met, {} not met".format(
        name, len(results) - len(failed), len(failed)))
    if failed:
        report.append("The guest console:\n" + qemu.tail(console))
    return not failed, "\n".join(report)

