#
# symwalk: lx-walk-break, stopping in the walk for one process or one path
#

import gdb

from symwalk_gdb import constants, sites, source, walk
from symwalk_gdb.command import one_sentence

# Without the namei events (a pristine kernel), the statement after which
# link_path_walk() has a complete frame.
PUSH_DONE = "nd->stack[depth++].name = name;"


def push_locations():
    """Where a frame of the symlink stack is complete: at the sites of the
    namei_link_body event (link_path_walk() has stored the remnant, or
    starts on a trailing link's body) and where pick_link() pops a pure
    jump, which has no body left; on a kernel without the events, the line
    past the push in link_path_walk()."""
    body = sites.event_sites("namei_link_body|namei_link_pop")
    locations = [s.location for s in body if s.event == "namei_link_body" or
                 (s.arguments.get("reason") == "NAMEI_POP_WALKED" and "pick_link" in s.functions)]
    if locations:
        return locations
    location = source.line_after(PUSH_DONE)
    if location is None:
        raise gdb.GdbError("fs/namei.c has no line '{}': this kernel's walk is "
                           "not the one symwalk knows.".format(PUSH_DONE))
    return [location]


class WalkFilter:
    """Whether the running walk is the one to stop for: by process name
    (comm) or by the name being looked up."""

    def __init__(self, comm=None, path=None, depth=None, pushed=False):
        """pushed: only for a walk with a link on its stack."""
        self.comm = comm
        self.path = path
        self.depth = depth
        self.pushed = pushed

    def matches(self):
        try:
            task = walk.current_task(in_stop=True)
            if self.comm is not None and task["comm"].string() != self.comm:
                return False
            nd = task["nameidata"]
            if self.path is None and self.depth is None and not self.pushed:
                return True
            if int(nd) == 0:
                return False
            w = walk.Walk(nd)
            return (self.path is None or w.name() == self.path) and \
                (self.depth is None or w.depth == self.depth) and \
                (not self.pushed or w.depth > 0)
        except (gdb.GdbError, gdb.error, gdb.MemoryError):
            return False

    def __str__(self):
        who = "process {}".format(self.comm) if self.comm is not None \
            else "lookups of {}".format(self.path)
        return who if self.depth is None else "{}, at depth {}".format(who, self.depth)

    def __eq__(self, other):
        return (self.comm, self.path, self.depth, self.pushed) == \
            (other.comm, other.path, other.depth, other.pushed)


# The hits of every WalkBreakpoint: a repeat is of the last one reported.
HITS = walk.RepeatedHits()


class WalkBreakpoint(gdb.Breakpoint):
    """A breakpoint that stops only for the walks its filter accepts."""

    def __init__(self, location, walk_filter):
        super(WalkBreakpoint, self).__init__(location)
        self.walk_filter = walk_filter

    def stop(self):
        if not self.walk_filter.matches():
            return False
        try:
            return not HITS.repeated(walk.Walk(walk.current_nameidata(in_stop=True)))
        except (gdb.GdbError, gdb.error, gdb.MemoryError):
            return True  # no walk to compare: the filter accepted the stop


def site_note(site):
    """At an event's site gdb names the static branch inlined there (frame
    0, in a header): the function of fs/namei.c the site is in, and the
    frame that selects it."""
    frame, level = walk.namei_frame()
    sal = frame.find_sal()
    return "At the {} site in {}() (fs/namei.c:{}), where gdb shows the event's " \
        "static branch as frame 0: 'frame {}' selects {}().\n".format(
            site.event, frame.name(), sal.line, level, frame.name())


def push_summary():
    """What a stop of lx-walk-break shows after gdb's own line: the push,
    and how to see the walk when the function's nd is optimized out."""
    task = walk.current_task()
    w = walk.Walk(walk.current_nameidata(task))
    mode = "RCU-walk" if w.rcu else "REF-walk"
    site = sites.site_at(int(gdb.newest_frame().pc()))
    text = site_note(site) if site else ""
    if site and site.event == "namei_lookup_start":
        return text + "{} begins an attempt at \"{}\": path_init() sets its flags " \
            "and path after this site.\n".format(walk.task_name(task), w.name() or "")
    if w.frames:
        text += "{} pushed {}: depth {}, {} of {} links, {}.\n".format(
            walk.task_name(task), walk.Names().path(w.frames[-1].link), w.depth,
            w.total_link_count, constants.get().MAXSYMLINKS, mode)
    else:
        text += "{} walks \"{}\", no link on its stack, {}.\n".format(
            walk.task_name(task), w.name() or "", mode)
    try:
        nd_gone = walk.evaluate("nd").is_optimized_out
    except gdb.error:
        nd_gone = True
    if nd_gone:
        text += "nd is optimized out here: the walk is $lx_nameidata() (p *$lx_nameidata())"
    else:
        text += "The walk: nd here, $lx_nameidata() anywhere"
    return text + "; lx-nameidata and lx-symlink-stack show it.\n"


def on_stop(event):
    if isinstance(event, gdb.BreakpointEvent) and \
            any(isinstance(b, WalkBreakpoint) for b in event.breakpoints):
        try:
            gdb.write(push_summary())
        except (gdb.GdbError, gdb.error) as e:
            gdb.write("lx-walk-break: {}\n".format(e))


gdb.events.stop.connect(on_stop)


def running_comms():
    """The names of the guest's processes, or None when gdb cannot list
    them (no guest attached)."""
    try:
        from linux import tasks
        return {t["comm"].string() for t in tasks.task_lists()}
    except (gdb.error, gdb.MemoryError, ImportError):
        return None


def parse_depth(words):
    """(words without -d N, N or None), N checked against the stack's size."""
    if "-d" not in words:
        return words, None
    at = words.index("-d")
    limit = constants.get().MAXSYMLINKS
    if at + 1 >= len(words):
        raise gdb.GdbError("lx-walk-break: -d needs a depth, from 1 to {} "
                           "(MAXSYMLINKS).".format(limit))
    try:
        depth = int(words[at + 1])
    except ValueError:
        raise gdb.GdbError("lx-walk-break: -d takes a depth from 1 to {}, not "
                           "'{}'.".format(limit, words[at + 1]))
    if not 1 <= depth <= limit:
        raise gdb.GdbError("lx-walk-break: a push leaves the stack 1 to {} (MAXSYMLINKS) "
                           "frames deep, so -d {} would never stop.".format(limit, depth))
    return words[:at] + words[at + 2:], depth


class LxWalkBreak(gdb.Command):
    """Stop each time one process, or a lookup of one path, pushes a symlink.

lx-walk-break COMM
lx-walk-break PATH
lx-walk-break [-c COMM | -p PATH] [-d DEPTH]
Break where a frame of the symlink stack is complete (a link pushed, its
remnant stored) and the walk is about to walk its body, or about to pop a
pure jump, but only when the running process is named COMM (what ps
shows, at most 15 characters) or when the name being looked up is exactly
PATH; every other walk of the guest goes on. An argument with a '/' is a
PATH, one without a COMM; -c and -p say which. With -d, stop only when the
push makes the stack DEPTH frames deep. The lab programs call themselves
symwalk-lab."""

    def __init__(self):
        super(LxWalkBreak, self).__init__("lx-walk-break", gdb.COMMAND_BREAKPOINTS)

    @one_sentence("lx-walk-break")
    def invoke(self, arg, from_tty):
        usage = ("lx-walk-break: name the process or the path, e.g. "
                 "lx-walk-break symwalk-lab or lx-walk-break /lab/04-chain/l3/file")
        words, depth = parse_depth(gdb.string_to_argv(arg))
        if "-c" in words and "-p" in words:
            raise gdb.GdbError("lx-walk-break: -c and -p exclude each other: the "
                               "breakpoints stop for a process or for a path; run "
                               "lx-walk-break once for each.")
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
            walk_filter = WalkFilter(comm=value, depth=depth, pushed=True)
        else:
            walk_filter = WalkFilter(path=value, depth=depth, pushed=True)
        existing = [b for b in gdb.breakpoints() if isinstance(b, WalkBreakpoint)]
        same = [b.number for b in existing if b.walk_filter == walk_filter]
        if same:
            raise gdb.GdbError("lx-walk-break: breakpoint{} {} already stop{} for {} "
                               "('delete {}' removes them).".format(
                                   "s" if len(same) > 1 else "", ", ".join(map(str, same)),
                                   "" if len(same) > 1 else "s", walk_filter,
                                   " ".join(map(str, same))))
        numbers = [WalkBreakpoint(location, walk_filter).number
                   for location in push_locations()]
        gdb.write("lx-walk-break: breakpoint{} {} stop{} after each link pushed "
                  "by {}\n".format("s" if len(numbers) > 1 else "",
                                   ", ".join(map(str, numbers)),
                                   "" if len(numbers) > 1 else "s", walk_filter))
        others = sorted({str(b.walk_filter) for b in existing})
        if others:
            gdb.write("  (and the breakpoints of an earlier lx-walk-break still stop for "
                      "{})\n".format(", ".join(others)))
        if kind == "-p":
            gdb.write("  (the name is matched as the lookup spells it: a lookup of "
                      "'l3/file' made in /lab/04-chain is not one of {})\n".format(value))
        comms = running_comms() if kind == "-c" else None
        if comms is not None and value not in comms:
            gdb.write("  no process named {} runs yet: they stop once one does\n".format(value))


LxWalkBreak()
