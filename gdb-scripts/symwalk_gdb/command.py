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


def plural(count, word):
    """'1 link', '2 links'."""
    return "{} {}{}".format(count, word, "" if count == 1 else "s")


def source_of(frame):
    """(file relative to the tree, line) of a frame, or None."""
    sal = frame.find_sal()
    if not sal.symtab:
        return None
    return sal.symtab.filename.split("linux/", 1)[-1], sal.line


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
        while frame.type() == gdb.INLINE_FRAME and frame.older() is not None and \
                "include/" in (source_of(frame) or ("include/",))[0]:
            frame = frame.older()
        where = "{}()".format(frame.name() or "??")
        source = source_of(frame)
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
