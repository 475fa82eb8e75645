#
# symwalk: lx-walk-trace, the rest of a walk as a sequence of steps
#

import re

import gdb

from symwalk_gdb import constants, source, walk
from symwalk_gdb.command import breakpoints_held, one_sentence, plural, stop_location

# The namei tracepoints whose call sites the trace stops at.
EVENTS = r"namei_(link_push|link_pop|stack_spill|eloop|unlazy|unlazy_next|jump_root|jump_link)"


def stack_summary(w, names):
    if not w.frames:
        return "    stack: (empty)"
    return "    stack: " + " | ".join(
        "[{}] {}".format(f.index, names.path(f.link)) for f in w.frames)


def describe(event, call, w, names):
    """One line for an event, from the walk as it stands at its trace call."""
    c = constants.get()
    mode = "RCU-walk" if w.rcu else "REF-walk"
    if event == "namei_link_push":
        top = w.frames[-1] if w.frames else None
        link = names.path(top.link) if top else "?"
        return "push  [{}] {}  ({} of {} links, {})".format(
            w.depth - 1, link, w.total_link_count, c.MAXSYMLINKS, mode)
    if event == "namei_link_pop":
        # put_link() has lowered depth: the frame popped sits just above it.
        popped = w.popped_frame()
        return "pop   [{}] {}".format(w.depth, names.path(popped.link) if popped else "")
    if event == "namei_stack_spill":
        return "spill the {} embedded frames to a heap array of {} ({})".format(
            c.EMBEDDED_LEVELS, c.MAXSYMLINKS, mode)
    if event == "namei_eloop":
        reason = re.search(r"NAMEI_ELOOP_(\w+)", call)
        if "NAMEI_ELOOP_NO_SYMLINKS" in call and "NAMEI_ELOOP_NOSYMFOLLOW" in call:
            # pick_link()'s site: the flag tells which of the two it is.
            no_symlinks = w.flags & c.LOOKUP_FLAGS["LOOKUP_NO_SYMLINKS"]
            reason = "NO_SYMLINKS" if no_symlinks else "NOSYMFOLLOW"
        else:
            reason = reason.group(1) if reason else "?"
        return "ELOOP ({}) after {} links".format(reason.lower(), w.total_link_count)
    if event in ("namei_unlazy", "namei_unlazy_next"):
        # The call site says which outcome it traces.
        ok = ", true," in call
        return "leave RCU-walk: {} (in {})".format(
            "references taken, going on in REF-walk" if ok
            else "failed, the walk restarts in REF-walk", caller_name())
    if event == "namei_jump_root":
        return "jump to the root {} (an absolute link)".format(names.path(w.nd["root"]))
    if event == "namei_jump_link":
        return "jump (a magic link: ->get_link() called nd_jump_link())"
    return event


def caller_name():
    """The function that asked to leave RCU-walk: the caller of
    try_to_unlazy() or try_to_unlazy_next()."""
    try:
        frame = gdb.selected_frame()
        while frame is not None and frame.name() in ("try_to_unlazy", "try_to_unlazy_next"):
            frame = frame.older()
        return frame.name() if frame is not None else "?"
    except gdb.error:
        return "?"


class TraceBreakpoint(gdb.Breakpoint):
    """Prints one step of the traced walk and goes on."""

    def __init__(self, location, event, call, tracer):
        super(TraceBreakpoint, self).__init__(location, internal=True)
        self.silent = True
        self.event = event
        self.call = call
        self.tracer = tracer

    def stop(self):
        return self.tracer.step(self.event, self.call)


class EndBreakpoint(gdb.Breakpoint):
    """Stops when the traced walk's nameidata is given back; silent, the
    tracer says so itself."""

    def __init__(self, tracer):
        super(EndBreakpoint, self).__init__("restore_nameidata", internal=True)
        self.silent = True
        self.tracer = tracer

    def stop(self):
        return self.tracer.end()


class Tracer:
    def __init__(self, task, nd):
        self.task = int(task.address)
        self.nd = int(nd)
        self.steps = 0
        self.failure = None
        self.ended = False
        self.last_stop = None

    def ours(self):
        task = walk.current_task(in_stop=True)
        return int(task.address) == self.task and int(task["nameidata"]) == self.nd

    def step(self, event, call):
        try:
            if not self.ours():
                return False
            w = walk.Walk(self.nd)
            # gdb may report one breakpoint hit twice: a step is a change.
            stop = (event, call, w.depth, w.total_link_count, w.flags)
            if stop == self.last_stop:
                return False
            self.last_stop = stop
            names = walk.Names()
            self.steps += 1
            gdb.write("{:>3}. {}\n{}\n".format(self.steps, describe(event, call, w, names),
                                               stack_summary(w, names)))
        except (gdb.GdbError, gdb.error, gdb.MemoryError) as e:
            self.failure = str(e)
            return True
        return False

    def end(self):
        try:
            if not self.ours():
                return False
            w = walk.Walk(self.nd)
            gdb.write("end of the walk of \"{}\": {} followed, {} traced\n".format(
                w.name() or "", plural(w.total_link_count, "link"),
                plural(self.steps, "step")))
            self.ended = True
        except (gdb.GdbError, gdb.error, gdb.MemoryError) as e:
            self.failure = str(e)
        return True


class LxWalkTrace(gdb.Command):
    """Trace the rest of the current walk, step by step, until it ends.

lx-walk-trace: from the walk the current task is in (stop in it first,
e.g. with lx-walk-break) until the lookup gives its nameidata back
(restore_nameidata()), print each step that changes the symlink stack or
the walk's mode, with the stack after it: a link pushed, a link popped, the
spill of the 2 embedded frames to the heap array, ELOOP and its reason, a
jump (an absolute link to the root, a magic link through nd_jump_link()),
and each switch from RCU-walk to REF-walk with the function that asked for
it. Other breakpoints are disabled meanwhile; the guest stops at the end.
The steps are the call sites of the namei tracepoints of the patched
kernel."""

    def __init__(self):
        super(LxWalkTrace, self).__init__("lx-walk-trace", gdb.COMMAND_RUNNING)

    @one_sentence("lx-walk-trace")
    def invoke(self, arg, from_tty):
        if arg.strip():
            raise gdb.GdbError("lx-walk-trace takes no argument: it traces the "
                               "walk the current task is in.")
        task = walk.current_task()
        nd = walk.current_nameidata(task)
        if walk.walk_ended():
            raise gdb.GdbError(
                "lx-walk-trace: the walk of {} has ended: gdb stopped in "
                "restore_nameidata(), which gives its nameidata back. 'continue' "
                "to a stop in the next walk (lx-walk-break stops at its pushes) "
                "and trace that one.".format(walk.task_name(task)))
        calls = source.trace_calls(EVENTS)
        if not calls:
            raise gdb.GdbError("this kernel has no namei tracepoints: build it "
                               "with symwalk's series (make tree kernel).")
        tracer = Tracer(task, nd)
        with breakpoints_held():
            ours = []
            try:
                ours = [TraceBreakpoint(loc, event, call, tracer) for loc, event, call in calls]
                ours.append(EndBreakpoint(tracer))
                gdb.write("tracing the walk of {} until it ends\n".format(walk.task_name(task)))
                gdb.execute("continue")
            finally:
                for b in ours:
                    b.delete()
        if tracer.failure:
            raise gdb.GdbError("lx-walk-trace stopped: " + tracer.failure)
        if not tracer.ended:
            raise gdb.GdbError("lx-walk-trace: the guest stopped before the walk "
                               "ended, after {}.".format(plural(tracer.steps, "step")))
        gdb.write("gdb stopped in {}, where the lookup gives the nameidata back; "
                  "'continue' lets it go on.\n".format(stop_location()))


LxWalkTrace()
