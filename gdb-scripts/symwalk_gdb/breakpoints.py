#
# symwalk: lx-walk-break, stopping in the walk for one process only
#

import gdb

from symwalk_gdb import walk

# In link_path_walk(), the statement after which a new frame is complete:
# pick_link() pushed it and link_path_walk() stored the remnant.
PUSH_DONE = "nd->stack[depth++].name = name;"


def push_done_location():
    """fs/namei.c:LINE just past the push of a link in link_path_walk()."""
    try:
        symtab = gdb.decode_line("link_path_walk")[1][0].symtab
    except (gdb.error, IndexError, TypeError):
        raise gdb.GdbError("link_path_walk is not in the symbols: "
                           "load build/kbuild/vmlinux first.")
    try:
        with open(symtab.fullname()) as source:
            lines = source.read().split("\n")
    except OSError:
        raise gdb.GdbError("the kernel source {} cannot be read: run "
                           "'make tree'.".format(symtab.fullname()))
    for number, line in enumerate(lines, 1):
        if line.strip() == PUSH_DONE:
            return "{}:{}".format(symtab.filename, number + 1)
    raise gdb.GdbError("fs/namei.c has no line '{}': this kernel's walk is "
                       "not the one symwalk knows.".format(PUSH_DONE))


class WalkBreakpoint(gdb.Breakpoint):
    """Stops after each link pushed by a process named comm."""

    def __init__(self, comm):
        super(WalkBreakpoint, self).__init__(push_done_location(), internal=False)
        self.comm = comm

    def stop(self):
        try:
            return walk.current_task()["comm"].string() == self.comm
        except gdb.GdbError:
            return False


class LxWalkBreak(gdb.Command):
    """Stop the guest each time one process pushes a symlink on its walk.

lx-walk-break COMM: break in link_path_walk() right after a link was pushed
on the symlink stack (pick_link() filled the frame and the remnant is
stored), but only when the running process is named COMM; every other
process of the guest walks on. COMM is what ps shows (at most 15 chars).
The lab programs call themselves symwalk-lab."""

    def __init__(self):
        super(LxWalkBreak, self).__init__("lx-walk-break", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        comm = arg.strip()
        if not comm:
            raise gdb.GdbError("lx-walk-break: name the process, e.g. "
                               "lx-walk-break symwalk-lab")
        if len(comm) > 15:
            raise gdb.GdbError("lx-walk-break: '{}' is longer than the 15 "
                               "characters a process name keeps.".format(comm))
        WalkBreakpoint(comm)


LxWalkBreak()
