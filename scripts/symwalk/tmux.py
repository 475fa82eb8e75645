"""make lab on a terminal: the guest's console and gdb side by side in a
tmux session of the lab's own."""
import os
import shlex
import shutil
import subprocess
import sys

from symwalk import qemu
from symwalk.gdbsession import GDB, write_session
from symwalk.layout import LABS, TOP


def session_file(run_dir, name, port):
    """gdb's session file of a lab on a port: named after the port, so that
    a batch run of the lab (make grade's) or another lab on another port
    reads its own."""
    return os.path.join(run_dir, "lab-{}-port{}.session.json".format(name, port))


def run_lab_interactive(vm, name, port, run_dir, tui=False):
    """The guest console and gdb side by side in tmux, gdb's session file
    kept in run_dir."""
    if not sys.stdin.isatty():
        raise qemu.GuestError("make lab needs a terminal; without one, run "
                              "make lab BATCH=1")
    if not shutil.which("tmux"):
        raise qemu.GuestError("make lab needs tmux: run make deps")
    if qemu.port_in_use(port):
        raise qemu.GuestError("localhost:{} is taken (a 'make run' or another lab?): end "
                              "it, or give this lab another port with GDB_PORT=".format(port))
    env = write_session(vm, session_file(run_dir, name, port), port, lab=name,
                        steps=os.path.join(LABS, name, "lab.gdb"), tui=tui)
    # Named after the port too, so that a lab on another port (a test's)
    # never ends this one.
    session = "symwalk-{}-{}".format(name, port)
    guest = shlex.join(vm.qemu_cmd("symwalk.mode=lab symwalk.lab=" + name,
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
    panes = ["-c", TOP, guest, ";",
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
