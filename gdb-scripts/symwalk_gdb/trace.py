#
# symwalk: lx-walk-trace, the rest of a walk as a sequence of steps
#

import re

import gdb

from symwalk_gdb import constants, sites, source, walk
from symwalk_gdb.command import CtrlC, breakpoints_held, one_sentence, plural, stop_location

# The namei events at whose sites the trace stops: all but an attempt's
# start and end.
EVENTS = (r"namei_(link_push|link_body|link_pop|stack_spill|eloop|unlazy|"
          r"jump_root|jump_link)")


def stack_summary(w, names):
    if not w.frames:
        return "    stack: (empty)"
    return "    stack: " + " | ".join(
        "[{}] {}".format(f.index, names.path(f.link)) for f in w.frames)


def local_value(name):
    """A local of the stopped frame, or None when gdb cannot read it."""
    try:
        value = gdb.selected_frame().read_var(name)
        return None if value.is_optimized_out else value
    except (gdb.error, ValueError):
        return None


def local_string(name):
    value = local_value(name)
    try:
        return walk.read_string(value, limit=256) if value is not None else None
    except gdb.MemoryError:
        return None


def argument_number(site, parameter, w):
    """The value a site passes for a parameter of its helper, as gdb
    evaluates its source text in the stopped frame; else, where gdb cannot
    (an enum constant the kernel's DWARF leaves out, nd optimized out), a
    number, an enum constant of the events' vocabulary, true or false, or
    an expression of the walk's depth and the frame's locals (nd->depth -
    i - 1). None when a local it needs is optimized out."""
    text = site.arguments.get(parameter, "")
    try:
        value = gdb.parse_and_eval(text)
        if not value.is_optimized_out:
            return int(value)
    except gdb.error:
        pass
    symbol = source.vocabulary().symbol(text)
    if symbol is not None:
        return symbol.value
    if text in ("true", "false"):
        return int(text == "true")
    terms = re.split(r"\s*([-+])\s*", text.replace("nd->depth", str(w.depth)))
    total, sign = 0, 1
    for term in terms:
        if term in "-+":
            sign = -1 if term == "-" else 1
            continue
        if not re.fullmatch(r"\d+", term):
            value = local_value(term) if re.fullmatch(r"\w+", term) else None
            if value is None:
                return None
            term = int(value)
        total += sign * int(term)
    return total


def key_text(site, key, value):
    """What the trace would print for a key of the site's event."""
    return source.vocabulary().events[site.event].key(key).text(value)


def reason_symbol(site, value):
    """The enum constant a reason's value is, in the vocabulary."""
    printed = key_text(site, "reason", value)
    return next((s for s in source.vocabulary().events[site.event].key("reason").symbols
                 if s.printed == printed), None)


def popped(site, w):
    """(top, lowest) indexes of the frames a pop site releases: its helper
    pops count frames below top; None when a local it needs is optimized out."""
    top = argument_number(site, "top", w)
    count = argument_number(site, "count", w)
    if top is None or count is None:
        return None
    return top, max(top - count, 0)


def describe_pops(site, w, names):
    """The frames a pop site releases, top first, each with the reason the
    header gives of its site's reason unless that is the walk of its body."""
    reason = reason_symbol(site, argument_number(site, "reason", w))
    frames = popped(site, w) or (w.depth, 0)
    note = "" if reason is None or reason.printed == "walked" else "  ({}: {})".format(
        reason.printed, reason.meaning)
    lines = ["pop   [{}] {}{}".format(f.index, names.path(f.link), note)
             for f in reversed(w.frames) if frames[1] <= f.index < frames[0]]
    return "\n     ".join(lines) if lines else None


def describe_error(site, parameter, w):
    """The error a jump site passes: 0, or the name of its local's value."""
    value = argument_number(site, parameter, w)
    if value == 0:
        return None
    return constants.error_name(value) if value is not None else "an error"


def describe(site, w, names):
    """One line for an event, from the walk as it stands at its site."""
    c = constants.get()
    event = site.event
    mode = "RCU-walk" if w.rcu else "REF-walk"
    if event == "namei_link_push":
        top = w.frames[-1] if w.frames else None
        link = names.path(top.link) if top else "?"
        return "push  [{}] {}  ({} of {} links, {})".format(
            w.depth - 1, link, w.total_link_count, c.MAXSYMLINKS, mode)
    if event == "namei_link_body":
        if not w.depth:
            return None     # link_path_walk() on the name itself: no event
        body, remnant = (local_string(site.arguments[p]) if site.arguments[p] != '""' else ""
                         for p in ("body", "remnant"))
        text = "walk the body of [{}]".format(w.depth - 1)
        if body is not None:
            text += ": \"{}\"".format(body)
        if remnant:
            text += ", then \"{}\"".format(remnant)
        return text
    if event == "namei_link_pop":
        return describe_pops(site, w, names)
    if event == "namei_stack_spill":
        return "spill the {} embedded frames to a heap array of {} ({})".format(
            c.EMBEDDED_LEVELS, c.MAXSYMLINKS, mode)
    if event == "namei_eloop":
        reason = reason_symbol(site, argument_number(site, "reason", w))
        reason = reason.constant if reason else None
        if reason == "NAMEI_ELOOP_NO_SYMLINKS" and \
                not w.flags & c.LOOKUP_FLAGS["LOOKUP_NO_SYMLINKS"]:
            # As namei_trace_eloop() does: the flags tell a nosymfollow mount.
            reason = "NAMEI_ELOOP_NOSYMFOLLOW"
        symbol = source.vocabulary().symbol(reason)
        return "ELOOP ({}) after {}".format(symbol.printed if symbol else "?",
                                            plural(w.total_link_count, "link"))
    if event == "namei_unlazy":
        ok = argument_number(site, "legitimized", w)
        why = argument_number(site, "reason", w)
        why = key_text(site, "reason", why) if why is not None else None
        return "leave RCU-walk: {} ({}in {})".format(
            "references taken, going on in REF-walk" if ok
            else "failed, the attempt ends and is made again in REF-walk",
            "{}, ".format(why) if why else "", caller_name())
    if event == "namei_jump_root":
        error = describe_error(site, "error", w)
        what = "an absolute link" if w.depth else "an absolute name"
        if error is None:
            return "jump to the root {} ({})".format(names.path(w.nd["root"]), what)
        return "jump to the root refused: {} ({})".format(error, what)
    if event == "namei_jump_link":
        error = describe_error(site, "error", w)
        if error is None:
            return "jump (a magic link: ->get_link() called nd_jump_link())"
        return "jump of a magic link refused: {}".format(error)
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

    def __init__(self, site, tracer):
        super(TraceBreakpoint, self).__init__(site.location, internal=True)
        self.silent = True
        self.site = site
        self.tracer = tracer

    def stop(self):
        return self.tracer.step(self.site)


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
        self.interrupted = False
        self.ended = False
        self.hits = walk.RepeatedHits()

    def ours(self):
        task = walk.current_task(in_stop=True)
        return int(task.address) == self.task and int(task["nameidata"]) == self.nd

    def step(self, site):
        try:
            if not self.ours():
                return False
            w = walk.Walk(self.nd)
            if self.hits.repeated(w):
                return False
            names = walk.Names()
            text = describe(site, w, names)
            if text is None:
                return False
            if site.event == "namei_link_pop":
                # The site comes before the pop: the stack after it.
                w.frames = w.frames[:(popped(site, w) or (0, 0))[1]]
            self.steps += 1
            gdb.write("{:>3}. {}\n{}\n".format(self.steps, text, stack_summary(w, names)))
        except KeyboardInterrupt:
            # A Ctrl-C while gdb ran this: the guest is stopped here.
            self.interrupted = True
            return True
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
        except KeyboardInterrupt:
            self.interrupted = True
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
The steps are the sites of the namei events of the patched kernel, found
in the kernel's jump table."""

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
        event_sites = sites.event_sites(EVENTS)
        if not event_sites:
            raise gdb.GdbError("this kernel has no namei events: build it "
                               "with symwalk's series (make tree kernel).")
        tracer = Tracer(task, nd)
        gdb.write("tracing the walk of {} until it ends\n".format(walk.task_name(task)))
        # gdb steps over a breakpoint where the guest stopped without
        # reporting it: a site there is the trace's first step.
        pc = int(gdb.newest_frame().pc())
        for site in event_sites:
            if site.address == pc:
                tracer.step(site)
        with breakpoints_held(), CtrlC() as ctrl_c:
            ours = []
            try:
                ours = [TraceBreakpoint(site, tracer) for site in event_sites]
                ours.append(EndBreakpoint(tracer))
                gdb.execute("continue")
            except KeyboardInterrupt:
                tracer.interrupted = True
            finally:
                for b in ours:
                    b.delete()
        if ctrl_c.pressed or tracer.interrupted:
            raise gdb.GdbError("lx-walk-trace: interrupted (Ctrl-C) after {}; the guest "
                               "is paused in {}.".format(plural(tracer.steps, "step"),
                                                         stop_location()))
        if tracer.failure:
            raise gdb.GdbError("lx-walk-trace stopped: " + tracer.failure)
        if not tracer.ended:
            raise gdb.GdbError("lx-walk-trace: the guest stopped before the walk "
                               "ended, after {}.".format(plural(tracer.steps, "step")))
        gdb.write("gdb stopped in {}, where the lookup gives the nameidata back; "
                  "'continue' lets it go on.\n".format(stop_location()))


LxWalkTrace()
