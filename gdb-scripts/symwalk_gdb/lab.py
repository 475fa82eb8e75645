#
# symwalk: a lab's gdb session, from the attach to the student's prompt
#
# scripts/symwalk/gdbsession.py starts gdb, gdb-scripts/session.py loads the
# kernel's helpers and symwalk's, then calls start(): attach to QEMU's
# gdbstub (bounded, symwalk_gdb/gdbstub.py), let the guest boot
# to the lab quietly, run the lab's steps with each command shown before its
# output, and end with a sentence that says where the student is and what to
# type next.
#
# Every stop costs the guest ~7 ms under TCG (make bench), even one whose
# condition then fails: QEMU retranslates its code each time gdb steps over
# a breakpoint.
# So while the steps run, their breakpoints are gated (LabGate): enabled
# only while the lab's process makes its lookups. lookup, the lab program
# (guest/tools/lookup.c), sets the guest's hostname to its process name for
# that time, and init sets it to READY once the fixture is built, just
# before the trigger. make check runs all the labs in one guest
# (start_batch()): init writes each lab's name to domainname as it starts
# it.
#

import os

import gdb

from symwalk_gdb import gdbstub, walk
from symwalk_gdb.command import CtrlC, stop_location

# The hostnames the guest announces (guest/initramfs/init, guest/tools/lookup.c).
READY = "symwalk-ready"
LAB_PROCESS = "symwalk-lab"

# Where sethostname() enters the kernel and where its two arguments are
# found there, per gdb architecture: the only architecture-specific part of
# symwalk's gdb code.
SETHOSTNAME = {
    "i386:x86-64": ("__x64_sys_sethostname", "(struct pt_regs *)$rdi", "di", "si"),
}


class Quiet:
    """No stop is reported while it lasts: the boot's stops are not the
    student's business."""

    def __enter__(self):
        gdb.execute("set suppress-cli-notifications on")

    def __exit__(self, *exc):
        gdb.execute("set suppress-cli-notifications off")


def attach(port, seconds):
    gdbstub.wait_for_gdbstub(port, seconds)
    with Quiet():
        gdb.execute("target remote 127.0.0.1:{}".format(port))


def sethostname_entry():
    """(location, pt_regs expression, name register, length register)."""
    arch = gdb.selected_inferior().architecture().name()
    if arch not in SETHOSTNAME:
        raise gdb.GdbError("symwalk's labs know where sethostname() enters the "
                           "kernel on x86_64 only, and this guest is {}.".format(arch))
    return SETHOSTNAME[arch]


def new_hostname():
    """At sethostname()'s entry: the name the guest is given."""
    _, regs, name, length = sethostname_entry()
    regs = gdb.parse_and_eval(regs).dereference()
    size = min(int(regs[length]), 64)
    memory = gdb.selected_inferior().read_memory(int(regs[name]), size)
    return bytes(memory).decode(errors="replace")


class HostnameBreakpoint(gdb.Breakpoint):
    """Stops when the guest is named hostname."""

    def __init__(self, hostname):
        super(HostnameBreakpoint, self).__init__(sethostname_entry()[0], internal=True)
        self.silent = True
        self.hostname = hostname
        self.hit = False

    def stop(self):
        try:
            self.hit = new_hostname() == self.hostname
        except (gdb.error, gdb.MemoryError):
            self.hit = False
        return self.hit


def continue_to(breakpoint, what):
    """continue until breakpoint stops the guest, or say why it did not."""
    breakpoint.hit = False
    with CtrlC() as ctrl_c:
        gdb.execute("continue")
    hit = breakpoint.hit
    breakpoint.delete()
    if ctrl_c.pressed:
        raise KeyboardInterrupt
    if not hit:
        raise gdb.GdbError("the guest stopped before {}: see its console (above, or "
                           "the .console files in {}).".format(
                               what, os.path.dirname(os.environ.get("SYMWALK_SESSION", "")) or
                               "the run's folder"))


class StartKernel(gdb.Breakpoint):
    """A hardware breakpoint at start_kernel: software ones need the
    kernel's text in place first."""

    def __init__(self):
        super(StartKernel, self).__init__("start_kernel", type=gdb.BP_HARDWARE_BREAKPOINT,
                                          internal=True)
        self.silent = True
        self.hit = False

    def stop(self):
        self.hit = True
        return True


def boot_to_lab():
    """Let the guest boot until its lab is ready: the fixture built, the
    trigger about to run."""
    with Quiet():
        continue_to(StartKernel(), "the kernel started")
        continue_to(HostnameBreakpoint(READY), "its lab was ready")


class LabGate(gdb.Breakpoint):
    """Keeps the breakpoints created after it enabled only while the
    guest's hostname is comm."""

    def __init__(self, comm):
        super(LabGate, self).__init__(sethostname_entry()[0], internal=True)
        self.silent = True
        self.comm = comm
        self.open = False
        self.gated = []
        gdb.events.breakpoint_created.connect(self.created)

    def created(self, breakpoint):
        if breakpoint.number > 0:
            self.gated.append(breakpoint)
            breakpoint.enabled = self.open

    def stop(self):
        try:
            self.open = new_hostname() == self.comm
        except (gdb.error, gdb.MemoryError):
            self.open = True
        self.gated = [b for b in self.gated if b.is_valid()]
        for breakpoint in self.gated:
            breakpoint.enabled = self.open
        return False

    def disarm(self):
        """Leave the breakpoints that remain enabled, as if never gated."""
        gdb.events.breakpoint_created.disconnect(self.created)
        for breakpoint in self.gated:
            if breakpoint.is_valid():
                breakpoint.enabled = True
        self.delete()


# gdb commands that take a block of lines up to "end".
BLOCKS = ("python", "py", "commands", "define", "document", "if", "while")


def read_steps(path):
    """The steps of a gdb command file: [(comment lines, command text)],
    a block (python ... end) as one command."""
    with open(path) as f:
        lines = f.read().splitlines()
    steps, comments, i = [], [], 0
    while i < len(lines):
        line = lines[i].rstrip()
        i += 1
        if not line.strip():
            continue
        if line.lstrip().startswith("#"):
            comments.append(line)
            continue
        command = [line]
        words = line.split()
        if words[0] in BLOCKS and (words[0] not in ("python", "py") or len(words) == 1):
            depth = 1
            while i < len(lines) and depth:
                inner = lines[i].rstrip()
                i += 1
                command.append(inner)
                first = inner.split()[0] if inner.split() else ""
                if first == "end":
                    depth -= 1
                elif words[0] not in ("python", "py") and first in BLOCKS:
                    depth += 1
        steps.append((comments, "\n".join(command)))
        comments = []
    return steps


RESUMING = ("continue", "c")


def run_step(command):
    """Run one command of the steps. A continue that QEMU's gdbstub answers
    with the stop the guest was already at (now and then it reports one
    breakpoint hit twice; walk.RepeatedHits) is continued again, the
    repeat's output left out: the next stop is the one the steps expect."""
    if command.strip() not in RESUMING:
        gdb.execute(command)
        return
    before = walk.stopped_at()
    output = gdbstub.past_repeats(lambda: gdb.execute(command, to_string=True),
                                  lambda: before is not None and walk.stopped_at() == before)
    gdb.write(output.lstrip("\n"))  # as gdb -batch prints a stop


def run_steps(path, overran=lambda: False):
    """Run each step of path, each command shown before its output as the
    student would have typed it; an error is reported and the steps go
    on, until a Ctrl-C, or overran() says the guest went past the lab's
    end. True if every step ran. Every step runs to its end: a step must
    not leave the guest running in the background (continue &), since
    nothing would let gdb see it stop before the next one."""
    for comments, command in read_steps(path):
        for line in comments:
            gdb.write(line + "\n")
        gdb.write("(gdb) " + command.replace("\n", "\n      ") + "\n")
        gdb.flush()
        with CtrlC() as ctrl_c:
            try:
                run_step(command)
            except KeyboardInterrupt:
                ctrl_c.pressed = True
            except gdb.error as e:
                gdb.write("{}\n".format(e), gdb.STDERR)
        if ctrl_c.pressed:
            gdb.write("symwalk: the lab's steps were interrupted (Ctrl-C) at the one "
                      "above; the rest are not run (they are in {}).\n".format(
                          os.path.relpath(path)))
            return False
        if overran():
            gdb.write("symwalk: the steps ran on into the next lab; the rest of "
                      "them are skipped.\n")
            return False
    return True


def guest_alive():
    """Whether gdb still has a guest: it may have powered off."""
    return gdb.selected_inferior().pid != 0


def where_now(lab):
    """The last lines of a lab's steps: where the student is, what next."""
    running = False
    try:
        running = gdb.selected_thread() is not None and gdb.selected_thread().is_running()
    except gdb.error:
        pass
    if running:
        state = "the guest runs"
    else:
        state = "the guest is paused in {}".format(stop_location())
    if any(b.enabled for b in gdb.breakpoints() if b.number > 0):
        again = ("                        makes the lab's lookups again and gdb stops in them\n")
    else:
        again = ("                        makes the lab's lookups again; no breakpoint is left\n"
                 "                        to stop them: lx-walk-break symwalk-lab sets some\n")
    gdb.write((
        "\nsymwalk: lab {0}: its steps are done; {1}.\n"
        "  continue              let the guest go on: the trigger finishes, then the\n"
        "                        guest shell above takes commands; there, lab-trigger\n"
        + again +
        "  lx-nameidata, lx-symlink-stack, lx-walk-trace\n"
        "                        the walk, at a stop inside one ('help lx-nameidata')\n"
        "  lx-walk-tui           the walk in a window, redrawn at every stop\n"
        "  Ctrl-C                pause the guest again; quit ends the lab\n"
        "  make grade LAB={0}\n"
        "                        (in a shell) grades your predictions\n").format(lab, state))


# The students' predictions, one file a lab (scripts/grade.py).
ANSWERS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "answers")


def start(port, lab, steps=None, before_boot=None, batch=False, wait=30, tui=False):
    """A lab's session: attach, boot to the lab, run its steps. In batch,
    let the guest run to its end; otherwise say where the student is, and
    with tui open the walk's window."""
    answers = os.path.join(ANSWERS, lab + ".txt")
    if not batch and os.path.exists(answers):
        gdb.write("symwalk: predict first: the questions of lab {0} are in {1}, and the "
                  "steps below show their answers: answer them there before you read on; "
                  "'make grade LAB={0}' grades them.\n".format(lab, os.path.relpath(answers)))
    try:
        _start(port, lab, steps, before_boot, batch, wait)
        if tui and not batch and guest_alive():
            gdb.execute("lx-walk-tui")
    except KeyboardInterrupt:
        gdb.write("symwalk: the lab's start was interrupted; 'quit' ends it.\n", gdb.STDERR)
    except gdb.GdbError as e:
        # From the python command of the session's script, not from a
        # command: gdb would print it with a traceback.
        gdb.write("symwalk: {}: {}\n".format(lab, e), gdb.STDERR)


def attach_only(port, wait=5):
    """make gdb: attach to a running guest, and say so."""
    try:
        attach(port, wait)
    except KeyboardInterrupt:
        gdb.write("symwalk: interrupted before gdb attached; 'quit' ends gdb.\n", gdb.STDERR)
        return
    except gdb.GdbError as e:
        # make gdb with no guest ends, as it started, with a sentence.
        gdb.write("symwalk: {}\n".format(e), gdb.STDERR)
        gdb.execute("quit 1")
    gdb.write("symwalk: attached to the guest on localhost:{}; it is paused in {}.\n"
              "  continue lets it run, Ctrl-C pauses it again; lx-walk-break COMM stops "
              "in the walks of process COMM.\n".format(port, stop_location()))


class LabStart(gdb.Breakpoint):
    """Stops where the guest's init, in a batch, names the lab it starts:
    it writes the name to /proc/sys/kernel/domainname, which nothing else
    in the guest writes (the lab's process renames the host instead, and
    a stop at each of its lookups would cost ~7 ms). name: the last one
    stopped at; hit: whether it stopped since the last clear."""

    def __init__(self):
        super(LabStart, self).__init__("proc_do_uts_string", internal=True)
        self.silent = True
        self.name = None
        self.hit = False

    def stop(self):
        try:
            table = gdb.parse_and_eval("table").dereference()
            if not int(gdb.parse_and_eval("write")) or \
                    table["procname"].string() != "domainname":
                return False
            size = min(int(gdb.parse_and_eval("*lenp")), 64)
            text = gdb.selected_inferior().read_memory(
                int(gdb.parse_and_eval("buffer")), size)
        except (gdb.error, gdb.MemoryError):
            return False
        self.name = bytes(text).decode(errors="replace").strip()
        self.hit = True
        return True


def resume_until(*breakpoints):
    """continue, quietly, until one of breakpoints stops the guest (a stop
    of none of them, which QEMU's gdbstub reports now and then, is
    continued, a few times); False if the guest powered off first."""
    for breakpoint in breakpoints:
        breakpoint.hit = False

    def resume():
        if not guest_alive():
            return False
        with Quiet():
            try:
                gdb.execute("continue", to_string=True)
            except gdb.error:
                return False
        return True

    def hit():
        return any(breakpoint.hit for breakpoint in breakpoints)

    return gdbstub.past_repeats(resume, lambda: guest_alive() and not hit()) and hit()


def start_batch(port, labs, mark, wait=30):
    """make check's labs in one guest: [[name, steps]], in the order the
    guest's init runs them (symwalk.lab=NAME,NAME,...). The line mark, a
    template of {name} and {first} (scripts/symwalk/markers.py's), before
    each lab's output lets scripts/symwalk/batch.py cut the output into one
    log a lab and number its values from $1 (gdb cannot clear its value
    history). A lab whose fixture fails, or whose
    steps let the guest run on into the next lab, fails alone."""
    try:
        attach(port, wait)
        with Quiet():
            continue_to(StartKernel(), "the kernel started")
        lab_start = LabStart()
        for name, steps in labs:
            gdb.write(mark.format(name=name, first=gdb.history_count() + 1) + "\n")
            if lab_start.name != name and not resume_until(lab_start):
                gdb.write("symwalk: lab {}: the guest powered off before it; its "
                          "console says why.\n".format(name))
                return
            if lab_start.name != name:
                gdb.write("symwalk: lab {}: the guest started lab {} instead.\n".format(
                    name, lab_start.name))
                continue
            ready = HostnameBreakpoint(READY)
            # QEMU's gdbstub may report the stop at the lab's start a second
            # time (as run_step() knows): on to its READY.
            gdbstub.past_repeats(lambda: resume_until(ready, lab_start),
                                 lambda: lab_start.hit and lab_start.name == name)
            ready.delete()
            if not ready.hit:
                gdb.write("symwalk: lab {}: its fixture failed; its console says "
                          "why.\n".format(name))
                continue
            gate = LabGate(LAB_PROCESS)
            run_steps(steps, overran=lambda: lab_start.hit)
            if not guest_alive():
                return
            gate.disarm()
            gdb.execute("delete")
        lab_start.delete()
        # Its "[Inferior 1 (process 1) exited normally]" in no lab's log.
        resume_until()
    except gdb.GdbError as e:
        gdb.write("symwalk: {}\n".format(e), gdb.STDERR)


def _start(port, lab, steps, before_boot, batch, wait):
    attach(port, wait)
    if before_boot:
        run_steps(before_boot)
    boot_to_lab()
    if steps:
        gate = LabGate(LAB_PROCESS)
        done = run_steps(steps)
        if guest_alive():
            gate.disarm()
        if not done and not batch and guest_alive():
            gdb.write("symwalk: lab {}: the guest is paused in {}; continue lets it go "
                      "on, quit ends the lab.\n".format(lab, stop_location()))
            return
    if batch:
        # The guest powers off once the trigger is done: its console then
        # holds the trigger's output.
        if guest_alive():
            gdb.execute("delete")
            gdb.execute("continue")
    elif guest_alive():
        where_now(lab)
    else:
        gdb.write("symwalk: lab {}: the guest has powered off (its console says why); "
                  "quit ends the lab.\n".format(lab))
