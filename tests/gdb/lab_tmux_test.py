#!/usr/bin/env python3
"""make lab as a student meets it, driven through tmux.

`make lab LAB=04-chain` runs on a pseudo-terminal of its own, with a tmux
server of its own (TMUX_TMPDIR), so that neither the student's tmux nor
their port 1234 is touched. The test types what a student types (send-keys)
and reads the panes (capture-pane): the first screen, `continue`,
`lab-trigger` in the guest pane, the stop at the lab's push,
`lx-symlink-stack`, `quit`; then make lab typed inside a tmux session of
the student's own, with a client attached and with none. Every wait is
bounded; a failure shows both panes. Output: KTAP.
"""
import fcntl
import os
import pty
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, "tests", "host"))
import taplib  # noqa: E402

LAB = "04-chain"
# Never in a pane of a lab: a traceback, an internal breakpoint's stop,
# where gdb thinks a paused guest starts.
NEVER = re.compile(r"Traceback|Python Exception|^Breakpoint -\d+|in \?\? \(\)", re.M)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait(what, seconds):
    """Wait until what() is true, at most seconds; its last value."""
    deadline = time.monotonic() + seconds
    while True:
        value = what()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(0.2)


class OwnTmux:
    """A tmux server of the test's own (TMUX_TMPDIR), for one lab on a free
    port: neither the student's tmux nor their port 1234 is touched.
    run(argv, rows, columns) starts a program on a pseudo-terminal of that
    size, whose output is read (so that it never blocks on it) and kept."""

    def __init__(self):
        self.port = free_port()
        self.session = "symwalk-{}-{}".format(LAB, self.port)
        self.tmpdir = tempfile.mkdtemp(prefix="symwalk-tmux-")
        self.env = dict(os.environ, TMUX_TMPDIR=self.tmpdir)
        for name in ("TMUX", "MAKEFLAGS", "MAKELEVEL", "MFLAGS"):
            self.env.pop(name, None)
        self.terminal = []
        self.pid = None
        self.status = None

    def run(self, argv, rows, columns):
        self.pid, master = pty.fork()
        if self.pid == 0:
            # The size before it starts: a tmux session is made at it.
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
            os.chdir(TOP)
            os.execvpe(argv[0], argv, self.env)
        threading.Thread(target=self.drain, args=(master,), daemon=True).start()

    def drain(self, master):
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            self.terminal.append(data)

    def tmux(self, *args):
        return subprocess.run(["tmux"] + list(args), env=self.env, capture_output=True,
                              text=True, timeout=10)

    def exited(self):
        """Whether the program run (make lab, a tmux client) has ended."""
        if self.status is None and self.pid:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = status
        return self.status is not None

    def close(self):
        self.tmux("kill-server")
        if self.pid and not self.exited():
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        shutil.rmtree(self.tmpdir, ignore_errors=True)
        # make lab's session file, named after this lab's port
        session_file = os.path.join(TOP, "build", "student-run",
                                    "lab-{}-port{}.session.json".format(LAB, self.port))
        if os.path.exists(session_file):
            os.remove(session_file)


class Lab(OwnTmux):
    """make lab on a pseudo-terminal, and its tmux session."""

    def __init__(self, make_args=(), rows=50, columns=200):
        """make_args: more for make lab (TUI=1); rows, columns: the size of
        make lab's terminal."""
        super().__init__()
        self.run(["make", "-s", "lab", "LAB=" + LAB, "GDB_PORT={}".format(self.port)]
                 + list(make_args), rows, columns)

    def screen(self, index, joined=False):
        """What a pane shows now, without its history; joined: a line the
        terminal wrapped is one line, as long as what was written."""
        out = self.tmux("capture-pane", "-p", *(["-J"] if joined else []),
                        "-t", "{}:0.{}".format(self.session, index))
        return out.stdout if out.returncode == 0 else ""

    def pane(self, index):
        """The whole text of a pane, its history included."""
        out = self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t",
                        "{}:0.{}".format(self.session, index))
        return out.stdout if out.returncode == 0 else ""

    def type(self, index, text):
        self.tmux("send-keys", "-t", "{}:0.{}".format(self.session, index), text, "Enter")

    def wait(self, what, seconds):
        return wait(what, seconds)

    def alive(self):
        return self.tmux("has-session", "-t", self.session).returncode == 0

    def started(self, seconds=150):
        """Wait until make lab has made its tmux session, or has failed:
        under load, make's look at the kernel's build alone takes a minute
        or more, and the waits for the lab's screens start after it."""
        self.wait(lambda: self.alive() or self.exited(), seconds)
        return self.alive()


def check(name, ok, lab=None, detail=""):
    """A KTAP result (taplib); a failure's detail ends with the last lines
    of both panes and of make lab's terminal, read now."""
    if not ok and lab is not None:
        shown = [detail] if detail else []
        for index, title in ((1, "gdb pane"), (0, "guest pane")):
            shown.append("--- {} (last 25 lines):".format(title))
            shown += ["  " + line for line in lab.pane(index).rstrip().splitlines()[-25:]]
        shown.append("--- make lab's terminal: " +
                     b"".join(lab.terminal)[-500:].decode(errors="replace"))
        detail = "\n".join(shown)
    return taplib.check(name, ok, detail)


class StudentTmux(OwnTmux):
    """A student's own tmux session ("student", 200x50), with a client
    attached on a pseudo-terminal or none, from which make lab is typed."""

    def __init__(self, attached):
        super().__init__()
        self.tmux("new-session", "-d", "-s", "student", "-x", "200", "-y", "50", "-c", TOP)
        if attached:
            self.run(["tmux", "attach", "-t", "student"], 50, 200)

    def clients(self):
        """The session each attached client shows."""
        return self.tmux("list-clients", "-F", "#{client_session}").stdout.split()

    def pane(self, target):
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", target).stdout

    def make_lab(self):
        self.tmux("send-keys", "-t", "student", "make -s lab LAB={} GDB_PORT={}".format(
            LAB, self.port), "Enter")


def check_inside_tmux():
    """make lab typed in a tmux session of the student's own: with a client
    attached, the client goes to the lab and, at quit, back to the
    student's session; with none, the lab runs on its own and make lab
    says how to reach it."""
    student = StudentTmux(attached=True)
    try:
        wait(lambda: student.clients() == ["student"], 10)
        student.make_lab()
        gdb_pane = student.session + ":0.1"
        done = wait(lambda: "its steps are done" in student.pane(gdb_pane), 240)
        taplib.check("make lab inside tmux: the student's client is switched to the lab",
                     done and student.clients() == [student.session],
                     "clients on {}; the student's pane:\n{}".format(
                         student.clients(), student.pane("student")[-1500:]))
        student.tmux("send-keys", "-t", gdb_pane, "quit", "Enter")
        back = wait(lambda: student.clients() == ["student"], 30)
        taplib.check("quit: the client is back on the student's own session, the lab's gone",
                     back and student.tmux("has-session", "-t", student.session).returncode,
                     "clients on {}".format(student.clients()))
    finally:
        student.close()
    student = StudentTmux(attached=False)
    try:
        student.make_lab()
        said = wait(lambda: "no tmux client is attached" in student.pane("student"), 240)
        taplib.check("make lab inside tmux with no client: the lab runs on its own, and make "
                     "lab says how to reach it",
                     said and student.tmux("has-session", "-t", student.session).returncode == 0
                     and "Error" not in student.pane("student"), student.pane("student")[-1500:])
    finally:
        student.close()


def main():
    if not shutil.which("tmux"):
        taplib.ksft.print_header()
        print("1..0 # SKIP tmux is not installed (make deps)")
        return
    lab = Lab()
    try:
        started = lab.started() and lab.wait(lambda: "its steps are done" in lab.pane(1), 120)
        first = lab.pane(1)
        if check("make lab: the gdb pane reaches the end of the lab's steps", started, lab):
            check("the first screen shows each lab.gdb command before its output",
                      all(c in first for c in ("(gdb) lx-walk-break symwalk-lab",
                                               "(gdb) continue", "(gdb) lx-nameidata",
                                               "(gdb) lx-walk-trace")), lab)
            check("the last lines say where the student is and what to type next",
                      re.search(r"the guest is paused in restore_nameidata\(\).*\n"
                                r"  continue .*let the guest go on", first) is not None, lab)
            check("before the steps, make lab says they show the answers to predict",
                  "and the steps below show their answers" in first, lab)
            check("the first screen holds no traceback, no internal stop, no '?? ()'",
                      not NEVER.search(first), lab, "found: {}".format(
                          NEVER.search(first).group(0) if NEVER.search(first) else ""))
            lab.type(1, "continue")
            shell = lab.wait(lambda: "guest shell" in lab.pane(0), 60)
            check("continue: the trigger finishes and the guest shell starts", shell, lab)
            pushes = lab.pane(1).count("pushed /lab/04-chain/l3")
            lab.type(0, "lab-trigger")
            stopped = lab.wait(lambda: lab.pane(1).count("pushed /lab/04-chain/l3") > pushes, 60)
            check("lab-trigger in the guest pane stops gdb at the lab's push", stopped, lab)
            stacks = lab.pane(1).count("symlink stack of the walk of symwalk-lab")
            lab.type(1, "lx-symlink-stack")
            shown = lab.wait(lambda: lab.pane(1).count(
                "symlink stack of the walk of symwalk-lab") > stacks, 20)
            check("lx-symlink-stack at that stop shows the stack", shown, lab)
            check("the whole session holds no traceback, no internal stop",
                      not NEVER.search(lab.pane(1)), lab)
            lab.type(1, "quit")
            ended = lab.wait(lambda: not lab.alive(), 20)
            check("quit in gdb ends the lab (the tmux session is gone)", ended, lab)
    finally:
        lab.close()
    check_inside_tmux()
    taplib.done()


if __name__ == "__main__":
    main()
