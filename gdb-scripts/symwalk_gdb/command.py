#
# symwalk: what every command of symwalk's shares
#

import contextlib
import functools

import gdb

from symwalk_gdb import walk


def one_sentence(name):
    """Decorate a gdb.Command's invoke (or a gdb.Function's): whatever gdb
    raises inside becomes one sentence that names the command, never a
    Python traceback."""
    def decorate(invoke):
        @functools.wraps(invoke)
        def run(*args):
            try:
                return invoke(*args)
            except gdb.GdbError:
                raise
            except gdb.MemoryError as e:
                raise gdb.GdbError("{}: the guest's memory cannot be read there "
                                   "({}).".format(name, str(e).rstrip(".")))
            except gdb.error as e:
                raise gdb.GdbError("{}: {}.".format(name, str(e).rstrip(".")))
            except KeyboardInterrupt:
                raise gdb.GdbError("{}: interrupted.".format(name))
        return run
    return decorate


class CtrlC:
    """with CtrlC() as ctrl_c: ctrl_c.pressed says whether the guest
    stopped for a Ctrl-C (SIGINT) meanwhile. gdb's own continue returns
    normally at such a stop, as at any other, so a script that resumes the
    guest must ask."""

    def __enter__(self):
        self.pressed = False
        gdb.events.stop.connect(self.stopped)
        return self

    def stopped(self, event):
        if isinstance(event, gdb.SignalEvent) and event.stop_signal == "SIGINT":
            self.pressed = True

    def __exit__(self, *exc):
        gdb.events.stop.disconnect(self.stopped)


def plural(count, word):
    """'1 link', '2 links'."""
    return "{} {}{}".format(count, word, "" if count == 1 else "s")


def source_of(frame):
    """(file relative to the tree, line) of a frame, or None."""
    sal = frame.find_sal()
    if not sal.symtab:
        return None
    return sal.symtab.filename.split("linux/", 1)[-1], sal.line


def own_source_frame(frame):
    """frame, or, if it is a header's helper inlined in its caller (the
    static branch of an event site in jump_label.h, ERR_PTR()), the first
    frame out of it in the caller's own source."""
    while frame.type() == gdb.INLINE_FRAME and frame.older() is not None and \
            "include/" in (source_of(frame) or ("include/",))[0]:
        frame = frame.older()
    return frame


def stop_location():
    """Where the guest stopped, in words: 'restore_nameidata()
    (fs/namei.c:821)'. A header's helper inlined there (ERR_PTR()) is not
    the place: its caller is."""
    try:
        frame = gdb.newest_frame()
        if walk.walk_ended() and frame.name() != "restore_nameidata":
            # inlined where gdb shows no frame of its own
            source = source_of(frame)
            return "restore_nameidata() (inlined in {}(){})".format(
                frame.name() or "??", ", {}:{}".format(*source) if source else "")
        frame = own_source_frame(frame)
        where = "{}()".format(frame.name() or "??")
        source = source_of(frame)
        if source and "include/" in source[0] and frame.type() == gdb.NORMAL_FRAME:
            # The return address of a call may open a header's inlined
            # code (ERR_PTR()) that gdb gives no frame: the call's own line
            # is the place.
            call = gdb.find_pc_line(frame.pc() - 1)
            if call.symtab and "include/" not in call.symtab.filename:
                source = call.symtab.filename.split("linux/", 1)[-1], call.line
        if source:
            where += " ({}:{})".format(*source)
        return where
    except gdb.error:
        return "a place gdb cannot name"


@contextlib.contextmanager
def breakpoints_held():
    """The user's enabled breakpoints disabled while it lasts, so that none
    of them cuts short what runs meanwhile; enabled again after."""
    held = [b for b in gdb.breakpoints() if b.enabled]
    for b in held:
        b.enabled = False
    try:
        yield
    finally:
        for b in held:
            if b.is_valid():
                b.enabled = True
