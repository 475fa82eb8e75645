#
# symwalk: lx-walk-break, stopping in the walk for one process or one path
#

import gdb

from symwalk_gdb import source, walk

# Without the namei tracepoints (a pristine kernel), the statement after
# which link_path_walk() has a complete frame.
PUSH_DONE = "nd->stack[depth++].name = name;"


def push_locations():
    """Where a frame of the symlink stack is complete: the namei_link_push
    trace calls when the kernel has them, else the line past the push in
    link_path_walk()."""
    calls = source.trace_calls("namei_link_push")
    if calls:
        return [location for location, _, _ in calls]
    filename, lines = source.namei_source()
    for number, line in enumerate(lines, 1):
        if line.strip() == PUSH_DONE:
            return ["{}:{}".format(filename, number + 1)]
    raise gdb.GdbError("fs/namei.c has no line '{}': this kernel's walk is "
                       "not the one symwalk knows.".format(PUSH_DONE))


class WalkFilter:
    """Whether the running walk is the one to stop for: by process name
    (comm) or by the name being looked up."""

    def __init__(self, comm=None, path=None):
        self.comm = comm
        self.path = path

    def matches(self):
        try:
            task = walk.current_task(in_stop=True)
            if self.comm is not None:
                return task["comm"].string() == self.comm
            nd = task["nameidata"]
            return int(nd) != 0 and walk.Walk(nd).name() == self.path
        except (gdb.GdbError, gdb.error, gdb.MemoryError):
            return False

    def __str__(self):
        return "process {}".format(self.comm) if self.comm is not None \
            else "lookups of {}".format(self.path)


class WalkBreakpoint(gdb.Breakpoint):
    """A breakpoint that stops only for the walks its filter accepts."""

    def __init__(self, location, walk_filter):
        super(WalkBreakpoint, self).__init__(location)
        self.walk_filter = walk_filter

    def stop(self):
        return self.walk_filter.matches()


class LxWalkBreak(gdb.Command):
    """Stop each time one process, or a lookup of one path, pushes a symlink.

lx-walk-break COMM
lx-walk-break PATH
lx-walk-break -c COMM | -p PATH
Break where a frame of the symlink stack is complete (a link pushed, its
remnant stored), but only when the running process is named COMM (what ps
shows, at most 15 characters) or when the name being looked up is exactly
PATH; every other walk of the guest goes on. An argument with a '/' is a
PATH, one without a COMM; -c and -p say which. The lab programs call
themselves symwalk-lab."""

    def __init__(self):
        super(LxWalkBreak, self).__init__("lx-walk-break", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        words = gdb.string_to_argv(arg)
        if len(words) == 2 and words[0] in ("-c", "-p"):
            kind, value = words
        elif len(words) == 1 and not words[0].startswith("-"):
            value = words[0]
            kind = "-p" if "/" in value else "-c"
        else:
            raise gdb.GdbError("lx-walk-break: name the process or the path, e.g. "
                               "lx-walk-break symwalk-lab or lx-walk-break /lab/chain3/l3/file")
        if kind == "-c" and len(value) > 15:
            raise gdb.GdbError("lx-walk-break: '{}' is longer than the 15 "
                               "characters a process name keeps.".format(value))
        walk_filter = WalkFilter(comm=value) if kind == "-c" else WalkFilter(path=value)
        numbers = [WalkBreakpoint(location, walk_filter).number
                   for location in push_locations()]
        gdb.write("lx-walk-break: breakpoint{} {} stop{} after each link pushed "
                  "by {}\n".format("s" if len(numbers) > 1 else "",
                                   ", ".join(map(str, numbers)),
                                   "" if len(numbers) > 1 else "s", walk_filter))


LxWalkBreak()
