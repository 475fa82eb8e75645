#!/usr/bin/env python3
"""Boot the symwalk guest under QEMU (TCG) and drive gdb against it.

usage: guest.py [--kbuild DIR] [--initramfs FILE] COMMAND ...

  run [--gdb-port N]              the guest's shell on this terminal
  gdb [--gdb-port N]              gdb with the helpers, attached to `run`
  lab [--gdb-port N] [--batch] [NAME]
                                  boot paused, attach gdb, run the lab's steps
  labs                            list the labs

Every QEMU run is bounded: a guest that does not finish in time is killed
and the tail of its console printed.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time

import markers

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LABS = os.path.join(TOP, "labs")
# The gdb helpers' own tests: laid out as labs, run as labs, not listed.
HELPER_TESTS = os.path.join(TOP, "tests", "gdb")
# Where runs are kept, by who makes them. make check's are what the site
# shows (SITE_RUN); a student's (make lab, make lab BATCH=1, make grade) go
# to STUDENT_RUN, the debug kernel's, make coverage's, make labs-soak's and
# the exercises' graders' to folders of their own: none of them changes
# what the site shows. SYMWALK_RUN puts a command's runs elsewhere.
SITE_RUN = os.path.join(TOP, "build", "run")
STUDENT_RUN = os.path.join(TOP, "build", "student-run")
RUN = os.environ.get("SYMWALK_RUN") or SITE_RUN
GDB_INDEX_CACHE = os.path.join(TOP, "build", "gdb-index-cache")
# gdb as every session starts it; SYMWALK_SESSION in its environment says
# what the session is (Guest.gdb_session_file()).
GDB = ["gdb", "-nx", "-x", os.path.join(TOP, "gdb-scripts", "session.py")]
CONSOLE_TAIL = 50
# Guest time as executed instructions (one per nanosecond), identical from
# boot to boot: no time passes while the guest idles, and its clock starts
# at a fixed date. The instrument of every figure measured in the guest.
ICOUNT = ["-icount", "shift=0,sleep=off", "-rtc", "base=2025-01-01T00:00:00,clock=vm"]
# How long make gdb waits for a guest's gdbstub to answer.
GDBSTUB_WAIT = 3


# With two vCPUs, a TSC the kernel trusts at boot makes it patch the static
# branch in sched_clock_cpu() late in boot ("sched_clock: Marking stable"),
# while the other vCPU runs that function at every tick. Under QEMU's
# multi-threaded TCG the other vCPU can still execute the patch's int3 once
# the patch is done: "Oops: int3" in sched_clock_cpu(), seen once in make
# check. An unstable TSC leaves that branch as it is from the start.
# The same race hit __schedule() after a guest test turned its trace
# events off: enabling the first event of any instance makes tracing record
# command names, which hooks sched_switch, and disabling the last one
# unhooks it, patching __schedule() each time while the other vCPU runs it.
# An event enabled from boot that never fires after it (initcall_finish)
# keeps that hook in place, so the tests' events no longer patch it.
SMP_APPEND = "tsc=unstable trace_event=initcall:initcall_finish"
# Every boot: TCG's CPU has no TSC-deadline timer, so the kernel calibrates
# the local APIC timer against the PIT, a busy wait of about a third of a
# second of the guest's 0.7 s to init (of some 40 boots a make check).
# Without it the PIT's tick is broadcast to every vCPU.
BOOT_APPEND = "console=ttyS0 nokaslr panic=-1 quiet noapictimer"


class GuestError(Exception):
    """A failure to report in one sentence (and maybe a console tail)."""


def free_port():
    """A TCP port on localhost that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tail(path, lines=CONSOLE_TAIL):
    """The last lines of a log file, for a failure report."""
    try:
        with open(path, errors="replace") as f:
            text = f.read().splitlines()
    except OSError:
        return "(no console output at {})".format(path)
    return "\n".join(text[-lines:])


def with_kernel_modules(initramfs, kbuild):
    """The initramfs to boot kbuild's kernel with: the shared one, and the
    guest's modules built for that kernel (scripts/kernel.sh) appended as
    a second archive, which the kernel unpacks after the first."""
    modules = os.path.join(kbuild, "symwalk-modules.cpio")
    if not os.path.exists(modules):
        return initramfs
    both = os.path.join(kbuild, "symwalk-initramfs.cpio")
    if not all(os.path.exists(both) and os.path.getmtime(both) >= os.path.getmtime(part)
               for part in (initramfs, modules)):
        # Whole or not at all: several guests may start at once.
        partial = "{}.{}".format(both, os.getpid())
        with open(partial, "wb") as out:
            for part in (initramfs, modules):
                with open(part, "rb") as f:
                    shutil.copyfileobj(f, out)
        os.replace(partial, both)
    return both


class Guest:
    """One QEMU run of the kernel and initramfs."""

    def __init__(self, kbuild, initramfs, append="", qemu_args=(), cpus=1):
        """append: more kernel command line for every boot; qemu_args:
        more QEMU options (ICOUNT, say); cpus: the guest's vCPUs, each a
        thread of QEMU's multi-threaded TCG."""
        self.append = append
        self.cpus = cpus
        self.qemu_args = list(qemu_args)
        self.kbuild = kbuild
        self.bzimage = os.path.join(kbuild, "arch/x86/boot/bzImage")
        self.vmlinux = os.path.join(kbuild, "vmlinux")
        for path, target in ((self.bzimage, "kernel"), (initramfs, "initramfs")):
            if not os.path.exists(path):
                raise GuestError("{} is missing: run 'make {}'".format(path, target))
        self.initramfs = with_kernel_modules(initramfs, kbuild)

    def qemu_cmd(self, append, gdb_port=None, paused=False, console=None):
        """The QEMU command line. console=None puts the serial console
        (and QEMU's monitor, Ctrl-a c) on this terminal."""
        # A socket per vCPU: the MP table lists one CPU per socket, and
        # without ACPI the kernel knows only the CPUs it lists.
        cmd = ["qemu-system-x86_64", "-accel", "tcg",
               "-smp", "{0},sockets={0}".format(self.cpus),
               "-m", "256M", "-no-reboot",
               # No network card and no VGA: the firmware would run their
               # option ROMs at every boot, 80 ms of it under TCG.
               "-net", "none", "-vga", "none",
               "-kernel", self.bzimage, "-initrd", self.initramfs,
               "-append", " ".join(filter(None, [BOOT_APPEND,
                                                  SMP_APPEND if self.cpus > 1 else "",
                                                  self.append, append]))]
        if console is None:
            cmd += ["-nographic"]
        else:
            cmd += ["-display", "none", "-monitor", "none",
                    "-serial", "file:" + console]
        if gdb_port:
            cmd += ["-gdb", "tcp:127.0.0.1:{}".format(gdb_port)]
        if paused:
            cmd += ["-S"]
        return cmd + self.qemu_args

    def boot(self, append, console, timeout):
        """Boot to completion (the guest powers itself off); return the
        console text. Raises GuestError on a timeout or a panic."""
        os.makedirs(os.path.dirname(console), exist_ok=True)
        qemu = subprocess.Popen(self.qemu_cmd(append, console=console),
                                stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            out, _ = qemu.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            qemu.kill()
            qemu.communicate()
            raise GuestError("the guest did not finish within {} s; the last "
                             "lines of its console:\n{}".format(timeout, tail(console)))
        with open(console, errors="replace") as f:
            text = f.read()
        if qemu.returncode != 0:
            raise GuestError("QEMU failed ({}): {}".format(
                qemu.returncode, out.decode(errors="replace").strip()))
        if "Kernel panic" in text:
            raise GuestError("the guest kernel panicked; the last lines of its "
                             "console:\n{}".format(tail(console)))
        return text

    def gdb_session_file(self, path, port, lab=None, steps=None, batch=False, tui=False,
                         batch_labs=None):
        """Write the file gdb-scripts/session.py reads: the kernel to load
        and whether to attach to a running guest (lab None) or to boot a
        lab's guest, paused before its boot, and run the lab's steps
        (gdb-scripts/symwalk_gdb/lab.py); a before-boot.gdb beside the
        steps runs before the boot. batch_labs, [[name, steps]]: several
        labs in one guest, one after the other, instead. Return the
        environment gdb needs."""
        before = os.path.join(os.path.dirname(steps or ""), "before-boot.gdb")
        session = {"vmlinux": self.vmlinux, "kbuild": self.kbuild,
                   "index_cache": GDB_INDEX_CACHE, "port": port, "lab": lab,
                   "steps": steps, "batch": batch, "tui": tui, "batch_labs": batch_labs,
                   "before_boot": before if steps and os.path.exists(before) else None}
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(session, f, indent=1)
        return dict(os.environ, SYMWALK_SESSION=path)


def run_scenario(vm, name, timeout=120, stem=None):
    """Boot the guest to run guest/scenarios/NAME.sh; return its output
    (the console between its begin and end lines). The console is kept in
    RUN, named after stem (by default the scenario's name)."""
    console = os.path.join(RUN, "scenario-{}.console".format(stem or name))
    text = vm.boot("symwalk.mode=scenario symwalk.scenario=" + name, console, timeout)
    found = markers.section(text, "scenario", name)
    if not found or not found.ended:
        raise GuestError("scenario {} did not finish; the last lines of the "
                         "console:\n{}".format(name, tail(console)))
    if found.rc != 0:
        raise GuestError("scenario {} failed (rc={}):\n{}".format(
            name, found.rc, found.text.strip()[-3000:]))
    return found.text


def lab_names(labs=LABS):
    if not os.path.isdir(labs):
        return []
    return sorted(d for d in os.listdir(labs)
                  if os.path.isfile(os.path.join(labs, d, "setup.sh")))


def lab_title(name):
    """The lab's one-line summary: the title of its narrative."""
    try:
        with open(os.path.join(LABS, name, "lab.rst")) as f:
            for line in f:
                if line.strip() and not re.match(r"^[=\-~^*#]+$", line.strip()) \
                        and not line.startswith(".."):
                    return line.strip()
    except OSError:
        pass
    return "(no lab.rst)"


def resolve_lab(name, labs=LABS):
    """The lab a name stands for: its full name, or a prefix of one only."""
    names = lab_names(labs)
    if not name:
        return names[0]
    if name in names:
        return name
    matches = [n for n in names if n.startswith(name)]
    if len(matches) == 1:
        return matches[0]
    listing = "\n".join("  {:<16} {}".format(n, lab_title(n)) for n in matches or names)
    if matches:
        raise GuestError("'{}' could be any of these labs; say which:\n{}".format(
            name, listing))
    raise GuestError("there is no lab named '{}'; the labs are:\n{}".format(name, listing))


def port_in_use(port):
    """Whether something listens on localhost:port already."""
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def wait_for_listener(port, seconds):
    """Whether something listens on localhost:port within seconds."""
    deadline = time.monotonic() + seconds
    while not port_in_use(port):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.1)
    return True


CONSOLE = "console: "
AGAIN = "again: "
ALONE = "alone: "


def read_expectations(name, labs=LABS):
    """The lab's expectations: one regular expression a line, to be matched
    in this order by lines of the gdb output, or, for a line starting with
    "console: ", by lines of the guest console; a line starting with
    "again: " is a console pattern for the trigger run a second time (by
    lab-trigger: labs whose second run differs from the first), and one
    starting with "alone: " a console pattern for the trigger run without
    gdb (labs whose gdb steps change what the lookups do). A pattern
    after "!" must match no line between the lines the expectations before
    and after it matched. A named group, (?P<ino>\d+), keeps what it
    matched for the later patterns of the same output (gdb's or the
    console's): (?P=ino) in them stands for that text. '#' starts a
    comment."""
    path = os.path.join(labs, name, "expect")
    try:
        with open(path) as f:
            return [line.rstrip("\n") for line in f
                    if line.strip() and not line.startswith("#")]
    except OSError as e:
        raise GuestError("the expectations of {} cannot be read: {}".format(name, e))


# What no gdb session of a lab may show: a Python traceback, a stop at an
# internal breakpoint, gdb's idea of where a paused guest starts.
# Never in a lab's gdb output: a traceback, an internal breakpoint's stop,
# a frame gdb cannot place, and steps that end in a resumed guest (a
# student would get no prompt and no summary; in a batch, the run goes on
# into the next lab).
NEVER = [r"Traceback \(most recent call last\)", r"^Python Exception",
         r"^Breakpoint -\d+, ", r" in \?\? \(\)$", r"^symwalk: the steps ran on into"]


def check_lab_output(patterns, gdb_output, console_output):
    """check_expectations() for the gdb patterns and the console ones, each
    in their own order, and NEVER against the whole gdb output; the
    results in the order of the patterns, NEVER's last."""
    patterns = [p for p in patterns if not p.startswith((AGAIN, ALONE))]
    gdb_patterns = [p for p in patterns if not p.startswith(CONSOLE)]
    console_patterns = [p[len(CONSOLE):] for p in patterns if p.startswith(CONSOLE)]
    gdb_results = iter(check_expectations(gdb_patterns, gdb_output))
    console_results = iter(check_expectations(console_patterns, console_output))
    results = [(p, next(console_results)[1] if p.startswith(CONSOLE) else next(gdb_results)[1])
               for p in patterns]
    for never in NEVER:
        results += check_expectations(["!" + never], gdb_output)
    return results


def check_expectations(patterns, output):
    """Match each pattern, in order, against the lines of output; a "!"
    pattern must match none of the lines between its neighbours' matches.
    Return a list of (pattern, the line that meets it or None): for a
    "!" pattern that met, "(absent)"."""
    lines = output.splitlines()
    pos = 0
    results = []
    absent = []         # [(index in results, regex)] waiting for their end
    captured = {}       # what the named groups matched so far

    def compiled(pattern):
        return re.compile(re.sub(r"\(\?P=(\w+)\)", lambda m: re.escape(
            captured[m.group(1)]) if m.group(1) in captured else m.group(0), pattern))

    def close_absences(end):
        for index, regex in absent:
            found = next((line for line in lines[pos:end] if regex.search(line)), None)
            if found is not None:
                results[index] = (results[index][0], None)
        absent.clear()

    for pattern in patterns:
        if pattern.startswith("!"):
            absent.append((len(results), compiled(pattern[1:])))
            results.append((pattern, "(absent)"))
            continue
        try:
            regex = compiled(pattern)
        except re.error:        # (?P=name) of a group that matched nothing
            results.append((pattern, None))
            continue
        for i in range(pos, len(lines)):
            match = regex.search(lines[i])
            if match:
                captured.update((k, v) for k, v in match.groupdict().items() if v is not None)
                close_absences(i)
                results.append((pattern, lines[i]))
                pos = i + 1
                break
        else:
            results.append((pattern, None))
    close_absences(len(lines))
    return results


def gdb_session(vm, append, steps, stem, timeout, run_dir=None, batch_labs=None,
                progress=None):
    """Boot the guest paused (kernel command line + append), run steps (or
    batch_labs, Guest.gdb_session_file()) in gdb -batch against it, at most
    timeout seconds (with progress, a regex: timeout seconds without a new
    match of it in gdb's output). Return (finished in time, the gdb log,
    the console log), both named after stem in run_dir (RUN by default,
    looked up at call time: callers may move it)."""
    run_dir = run_dir or RUN
    os.makedirs(run_dir, exist_ok=True)
    port = free_port()
    console = os.path.join(run_dir, stem + ".console")
    gdb_log = os.path.join(run_dir, stem + ".gdb.log")
    env = vm.gdb_session_file(os.path.join(run_dir, stem + ".session.json"), port,
                              lab=None if batch_labs else stem, steps=steps, batch=True,
                              batch_labs=batch_labs)
    qemu = subprocess.Popen(vm.qemu_cmd(append, gdb_port=port, paused=True, console=console),
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        with open(gdb_log, "w") as log:
            gdb = subprocess.Popen(GDB + ["-batch"], stdin=subprocess.DEVNULL, stdout=log,
                                   stderr=subprocess.STDOUT, cwd=TOP, env=env)
            finished = wait_making_progress(gdb, gdb_log, timeout, progress)
    finally:
        qemu.kill()
        qemu.wait()
    return finished, gdb_log, console


def wait_making_progress(process, log, timeout, progress=None):
    """Wait for process to end; kill it after timeout seconds (with
    progress, a regex: timeout seconds without a new match of it in the
    file log). Return whether it ended by itself."""
    matches, since = 0, time.monotonic()
    while True:
        try:
            process.wait(timeout=1 if progress else timeout)
            return True
        except subprocess.TimeoutExpired:
            pass
        if progress:
            with open(log, errors="replace") as f:
                now = len(progress.findall(f.read()))
            if now != matches:
                matches, since = now, time.monotonic()
        if time.monotonic() - since >= timeout:
            process.kill()
            process.wait()
            return False


def run_lab_batch(guest, name, timeout=60, quiet=False, labs=LABS, steps=None,
                  check=True):
    """Run a lab without a terminal. Return (ok, report text). steps: gdb
    commands to run instead of the lab's lab.gdb; check=False: do not
    check the lab's expectations."""
    finished, gdb_log, console = gdb_session(
        guest, "symwalk.mode=lab symwalk.batch=1 symwalk.lab=" + name,
        steps or os.path.join(labs, name, "lab.gdb"), "lab-" + name, timeout)
    if not finished:
        return False, ("lab {}: gdb did not finish within {} s.\n"
                       "gdb said:\n{}\nThe guest console:\n{}").format(
                           name, timeout, tail(gdb_log), tail(console))
    with open(gdb_log, errors="replace") as f:
        output = f.read()
    try:
        with open(console, errors="replace") as f:
            console_output = f.read()
    except OSError:
        console_output = ""
    return judge_lab(name, output, console_output, console, labs, quiet, check)


# Where each lab of a batch begins in the gdb output (symwalk_gdb/lab.py's
# start_batch(), which says from which number gdb's values are the lab's);
# in the console, init's markers frame it (scripts/markers.py).
BATCH_GDB_MARK = re.compile(r"^@@ symwalk: lab (?P<name>\S+), values from \$(?P<first>\d+)$",
                            re.M)
# A number of gdb's value history ($1), not a convenience variable ($_x).
HISTORY_NUMBER = re.compile(r"(?<![\w$])\$(\d+)\b")


def split_batch(text, mark, names):
    """{name: (its mark, its part of text)}: each part from the name's
    first mark to the next mark (or to the end), for the names marked."""
    marks = list(mark.finditer(text))
    parts = {}
    for i, m in enumerate(marks):
        name = m.group("name")
        if name in names and name not in parts:
            stop = marks[i + 1].start() if i + 1 < len(marks) else len(text)
            parts[name] = (m, text[m.end():stop].lstrip("\n"))
    return parts


def renumbered(output, first):
    """output with gdb's values from $first on numbered from $1, as a
    session of the lab's own would show them."""
    return HISTORY_NUMBER.sub(lambda m: "${}".format(int(m.group(1)) - first + 1)
                              if int(m.group(1)) >= first else m.group(0), output)


def run_labs_batch(guest, names, stem, timeout=60, labs=LABS, check=True):
    """Run the labs one after the other in one guest and one gdb session
    (one boot and one gdb start for all of them: make check's way), the
    whole run kept as stem.gdb.log and stem.console in RUN, each lab's part
    of them as lab-NAME.gdb.log (its values numbered from $1) and
    lab-NAME.console, and judge each part. timeout: the seconds a lab may
    take. Return [(name, ok, report)] in the order of names."""
    if len(set(names)) != len(names):
        raise GuestError("a batch runs each lab once: {}".format(", ".join(names)))
    plan = [[name, os.path.join(labs, name, "lab.gdb")] for name in names]
    finished, gdb_log, console = gdb_session(
        guest, "symwalk.mode=lab symwalk.batch=1 symwalk.lab=" + ",".join(names),
        None, stem, timeout, batch_labs=plan, progress=BATCH_GDB_MARK)
    with open(gdb_log, errors="replace") as f:
        whole_log = f.read()
    outputs = split_batch(whole_log, BATCH_GDB_MARK, names)
    try:
        with open(console, errors="replace") as f:
            whole_console = f.read()
    except OSError:
        whole_console = ""
    consoles = {s.name: s for s in markers.sections(whole_console, "lab")}
    # What gdb said before the first lab (the attach, the boot) is held to
    # NEVER with the first lab's output.
    preamble = whole_log[:outputs[names[0]][0].start()] if names[0] in outputs else ""
    verdicts = []
    for name in names:
        stem_of_lab = os.path.join(RUN, "lab-" + name)
        output = ""
        if name in outputs:
            mark, part = outputs[name]
            output = renumbered(part, int(mark.group("first")))
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
                    tail(stem_of_lab + ".gdb.log") if output.strip() else tail(gdb_log),
                    tail(stem_of_lab + ".console") if console_part.strip() else tail(console))))
            continue
        verdicts.append((name,) + judge_lab(name, output, console_part,
                                            stem_of_lab + ".console", labs, quiet=True,
                                            check=check))
    return verdicts


def judge_lab(name, output, console_output, console, labs=LABS, quiet=False, check=True):
    """Hold a lab's gdb output and console to its expectations (none but
    NEVER when check is False). Return (ok, report text)."""
    patterns = read_expectations(name, labs) if check else []
    results = check_lab_output(patterns, output, console_output)
    failed = [p for p, m in results if m is None]
    report = [] if quiet else [output.rstrip(), ""]
    for pattern, match in results:
        report.append("{} {}".format("met    " if match else "NOT MET", pattern))
        on_console = pattern.startswith(CONSOLE)
        bare = pattern[len(CONSOLE):] if on_console else pattern
        if not match and bare.startswith("!"):
            text = console_output if on_console else output
            regex = re.compile(bare[1:])
            report += ["          found: " + line for line in text.splitlines()
                       if regex.search(line)][:3]
    report.append("lab {}: {} expectations met, {} not met".format(
        name, len(results) - len(failed), len(failed)))
    if failed:
        report.append("The guest console:\n" + tail(console))
    return not failed, "\n".join(report)


def run_lab_interactive(guest, name, port, tui=False):
    """The guest console and gdb side by side in tmux."""
    if not sys.stdin.isatty():
        raise GuestError("make lab needs a terminal; without one, run "
                         "make lab BATCH=1")
    if not shutil.which("tmux"):
        raise GuestError("make lab needs tmux: run make deps")
    if port_in_use(port):
        raise GuestError("localhost:{} is taken (a 'make run' or another lab?): end it, "
                         "or give this lab another port with GDB_PORT=".format(port))
    # Named after the port: a batch run of the lab (make grade's) or another
    # lab on another port reads its own.
    env = guest.gdb_session_file(os.path.join(RUN, "lab-{}-port{}.session.json".format(
        name, port)), port,
                                 lab=name, steps=os.path.join(LABS, name, "lab.gdb"), tui=tui)
    # Named after the port too, so that a lab on another port (a test's)
    # never ends this one.
    session = "symwalk-{}-{}".format(name, port)
    qemu = shlex.join(guest.qemu_cmd("symwalk.mode=lab symwalk.lab=" + name,
                                     gdb_port=port, paused=True))
    # Started inside tmux: when gdb ends, its client goes back to the
    # student's own session before the lab's is killed (tmux would detach
    # a client whose session goes).
    student = subprocess.run(["tmux", "display-message", "-p", "#{session_name}"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True).stdout.strip() if os.environ.get("TMUX") else ""
    back = "tmux switch-client -t {} 2>/dev/null; ".format(
        shlex.quote("=" + student)) if student else ""
    gdb = "SYMWALK_SESSION={} {} -q; {}tmux kill-session -t {}".format(
        shlex.quote(env["SYMWALK_SESSION"]), shlex.join(GDB), back, session)
    subprocess.run(["tmux", "kill-session", "-t", session], stderr=subprocess.DEVNULL)
    print("lab {}: guest console above, gdb below; Ctrl-b o moves between them, "
          "'quit' in gdb ends the lab.".format(name))
    # gdb must start in a pane of its final size: gdb 13 misses a resize
    # that comes during its startup script (the whole lab start) once the
    # guest has run, keeps the old width, and its TUI draws lines that
    # wide. A session made detached at 200x50 was resized when the client
    # attached, and under load that came late enough. So the session is
    # made at the terminal's size: by the client itself, or inside tmux
    # at the size of the client it switches to (-x - -y -).
    panes = ["-c", TOP, qemu, ";",
             "set-option", "-t", session, "remain-on-exit", "off", ";",
             "split-window", "-v", "-p", "80" if tui else "65", "-t", session, "-c", TOP, gdb]
    if os.environ.get("TMUX"):
        subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "-", "-y", "-"]
                       + panes, check=True)
        if subprocess.run(["tmux", "switch-client", "-t", session],
                          stderr=subprocess.DEVNULL).returncode:
            print("lab {}: no tmux client is attached to this session to show it, so the "
                  "lab runs in tmux session {} on its own: 'tmux switch-client -t {}' from "
                  "a client, or 'tmux attach -t {}' from a terminal.".format(
                      name, session, session, session))
        return
    os.execvp("tmux", ["tmux", "new-session", "-s", session] + panes)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kbuild", default=os.path.join(TOP, "build", "kbuild"))
    parser.add_argument("--initramfs", default=os.path.join(TOP, "build", "initramfs.cpio"))
    parser.add_argument("--cpus", type=int, default=1, choices=range(1, 9), metavar="N",
                        help="the guest's vCPUs, 1 to 8")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("run", "gdb", "lab"):
        p = sub.add_parser(name)
        p.add_argument("--gdb-port", type=int, default=1234)
    sub.choices["lab"].add_argument("--batch", action="store_true")
    sub.choices["lab"].add_argument("--tui", action="store_true",
                                    help="gdb's TUI, with the walk's window (lx-walk-tui)")
    sub.choices["lab"].add_argument("--helper-test", action="store_true",
                                    help="NAME is one of the gdb helpers' tests (tests/gdb)")
    sub.choices["lab"].add_argument("name", nargs="?")
    sub.add_parser("labs")
    args = parser.parse_args()
    global RUN
    RUN = os.environ.get("SYMWALK_RUN") or STUDENT_RUN

    try:
        if args.command == "labs":
            for name in lab_names():
                print("{:<16} {}".format(name, lab_title(name)))
            return 0
        if args.command == "gdb":
            if not os.path.exists(os.path.join(args.kbuild, "vmlinux")):
                raise GuestError("there is no kernel to debug yet: run make run")
            if not wait_for_listener(args.gdb_port, GDBSTUB_WAIT):
                raise GuestError("no guest answers on localhost:{}: start one with "
                                 "'make run' in another terminal (or give its port with "
                                 "GDB_PORT=)".format(args.gdb_port))
            guest = Guest(args.kbuild, args.initramfs)
            env = guest.gdb_session_file(os.path.join(RUN, "attach.session.json"),
                                         args.gdb_port)
            os.execvpe("gdb", GDB + ["-q"], env)
        guest = Guest(args.kbuild, args.initramfs, cpus=args.cpus)
        if args.command == "run":
            if port_in_use(args.gdb_port):
                raise GuestError("localhost:{} is taken (another 'make run' or a lab?): "
                                 "end it, or pick another port with GDB_PORT=".format(
                                     args.gdb_port))
            print("symwalk: booting the guest; gdbstub on localhost:{} ('make gdb' "
                  "in another terminal); Ctrl-a x quits QEMU".format(args.gdb_port))
            os.execvp("qemu-system-x86_64",
                      guest.qemu_cmd("", gdb_port=args.gdb_port))
        labs = HELPER_TESTS if args.helper_test else LABS
        name = resolve_lab(args.name, labs)
        if args.batch:
            if args.tui:
                raise GuestError("TUI=1 needs a terminal: a batch run has none")
            ok, report = run_lab_batch(guest, name, labs=labs)
            print(report)
            return 0 if ok else 1
        run_lab_interactive(guest, name, args.gdb_port, tui=args.tui)
    except GuestError as e:
        print("symwalk: {}".format(e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
