"""make lab driven as a student drives it, for the tests and make bench:
make lab on a pseudo-terminal of its own, with a tmux server of its own
(TMUX_TMPDIR) and a free port, so that neither the student's tmux nor
their port 1234 is touched; what it shows is read from its panes."""
import fcntl
import os
import pty
import shutil
import signal
import struct
import subprocess
import tempfile
import termios
import threading
import time

from symwalk import qemu, tmux
from symwalk.layout import STUDENT_RUN, TOP


def wait(what, seconds):
    """Wait until what() is true, at most seconds; its last value."""
    deadline = time.monotonic() + seconds
    while True:
        value = what()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(0.2)


class OwnTmux:
    """A tmux server of its own (TMUX_TMPDIR), for one lab, lab, on a free
    port. run(argv, rows, columns) starts a program on a pseudo-terminal of
    that size, whose output is read (so that it never blocks on it) and
    kept."""

    def __init__(self, lab):
        self.lab = lab
        self.port = qemu.free_port()
        self.session = "symwalk-{}-{}".format(lab, self.port)
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
        session_file = tmux.session_file(STUDENT_RUN, self.lab, self.port)
        if os.path.exists(session_file):
            os.remove(session_file)
class Lab(OwnTmux):
    """make lab on a pseudo-terminal, and its tmux session."""

    def __init__(self, lab, make_args=(), rows=50, columns=200):
        """make lab LAB=lab; make_args: more for make lab (TUI=1); rows,
        columns: the size of make lab's terminal."""
        super().__init__(lab)
        self.run(["make", "-s", "lab", "LAB=" + lab, "GDB_PORT={}".format(self.port)]
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

