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
import re
import shutil

import taplib
from symwalk import expect
from symwalk.layout import TOP
from symwalk.tmux_driver import Lab, OwnTmux, wait

LAB = "04-chain"
# Never in a pane of a lab: what no lab's gdb output may show.
NEVER = re.compile("|".join(expect.NEVER), re.M)


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
        super().__init__(LAB)
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
    lab = Lab(LAB)
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
