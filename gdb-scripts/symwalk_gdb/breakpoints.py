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

    def __init__(self, comm=None, path=None, depth=None):
        self.comm = comm
        self.path = path
        self.depth = depth

    def matches(self):
        try:
            task = walk.current_task(in_stop=True)
            if self.comm is not None and task["comm"].string() != self.comm:
                return False
            nd = task["nameidata"]
            if self.path is None and self.depth is None:
                return True
            if int(nd) == 0:
                return False
            w = walk.Walk(nd)
            return (self.path is None or w.name() == self.path) and \
                (self.depth is None or w.depth == self.depth)
        except (gdb.GdbError, gdb.error, gdb.MemoryError):
            return False

    def __str__(self):
        who = "process {}".format(self.comm) if self.comm is not None \
            else "lookups of {}".format(self.path)
        return who if self.depth is None else "{}, at depth {}".format(who, self.depth)


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
lx-walk-break [-c COMM | -p PATH] [-d DEPTH]
Break where a frame of the symlink stack is complete (a link pushed, its
remnant stored), but only when the running process is named COMM (what ps
shows, at most 15 characters) or when the name being looked up is exactly
PATH; every other walk of the guest goes on. An argument with a '/' is a
PATH, one without a COMM; -c and -p say which. With -d, stop only when the
push makes the stack DEPTH frames deep. The lab programs call themselves
symwalk-lab."""

    def __init__(self):
        super(LxWalkBreak, self).__init__("lx-walk-break", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, arg, from_tty):
        usage = ("lx-walk-break: name the process or the path, e.g. "
                 "lx-walk-break symwalk-lab or lx-walk-break /lab/01-chain/l3/file")
        words = gdb.string_to_argv(arg)
        depth = None
        if len(words) >= 2 and words[-2] == "-d":
            try:
                depth = int(words[-1])
            except ValueError:
                raise gdb.GdbError("lx-walk-break: -d takes a number, not '{}'.".format(words[-1]))
            words = words[:-2]
        if len(words) == 2 and words[0] in ("-c", "-p"):
            kind, value = words
        elif len(words) == 1 and not words[0].startswith("-"):
            value = words[0]
            kind = "-p" if "/" in value else "-c"
        else:
            raise gdb.GdbError(usage)
        if kind == "-c" and len(value) > 15:
            raise gdb.GdbError("lx-walk-break: '{}' is longer than the 15 "
                               "characters a process name keeps.".format(value))
        if kind == "-c":
            walk_filter = WalkFilter(comm=value, depth=depth)
        else:
            walk_filter = WalkFilter(path=value, depth=depth)
        numbers = [WalkBreakpoint(location, walk_filter).number
                   for location in push_locations()]
        gdb.write("lx-walk-break: breakpoint{} {} stop{} after each link pushed "
                  "by {}\n".format("s" if len(numbers) > 1 else "",
                                   ", ".join(map(str, numbers)),
                                   "" if len(numbers) > 1 else "s", walk_filter))


LxWalkBreak()
