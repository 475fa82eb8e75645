#
# symwalk: what the walk's functions return, errors by name
#
# Walk functions return an errno (int) or an ERR_PTR() (a pointer in the
# last page of the address space): gdb shows the latter as an address it
# cannot read. $lx_err() and lx-finish say -ECHILD instead.
#

import gdb

from symwalk_gdb import constants, walk
from symwalk_gdb.command import breakpoints_held, one_sentence, stop_location


def describe(value):
    """A returned value in words: an error by name (ERR_PTR(-ECHILD) or
    -EXDEV), a string pointer as its text, anything else as gdb prints it."""
    code = value.type.strip_typedefs().code
    if code == gdb.TYPE_CODE_PTR:
        address = int(value)
        signed = address - (1 << 64) if address >= 1 << 63 else address
        name = constants.error_name(signed)
        if name:
            return "ERR_PTR({})".format(name)
        if address == 0:
            return "NULL"
        target = value.type.strip_typedefs().target().strip_typedefs()
        if target.code == gdb.TYPE_CODE_INT and target.sizeof == 1:
            try:
                return "{:#x} \"{}\"".format(address, walk.read_string(address, limit=256))
            except gdb.MemoryError:
                pass
        return "{:#x}".format(address)
    if code in (gdb.TYPE_CODE_INT, gdb.TYPE_CODE_ENUM, gdb.TYPE_CODE_BOOL):
        name = constants.error_name(int(value))
        if name:
            return "{} ({})".format(int(value), name)
    return str(value)


class LxErr(gdb.Function):
    """Name the error a walk function returned.

$lx_err(VALUE): "-ECHILD" for -10, "ERR_PTR(-ECHILD)" for the pointer
ERR_PTR(-ECHILD) and for the same 64 bits as an integer
(0xfffffffffffffff6), "ECHILD, positive" for 10 (the walk's errors are
negative), the text of any other value; e.g. p $lx_err($) after finish,
or p $lx_err(link) for pick_link()'s result."""

    def __init__(self):
        super(LxErr, self).__init__("lx_err")

    @one_sentence("$lx_err()")
    def invoke(self, *values):
        # gdb would answer a wrong count with the TypeError of a Python call.
        if len(values) != 1:
            raise gdb.GdbError("$lx_err() takes one value, e.g. p $lx_err($) after "
                               "finish: it was given {}.".format(len(values)))
        value = values[0]
        type_ = value.type.strip_typedefs()
        if type_.code == gdb.TYPE_CODE_PTR:
            return describe(value)
        number = int(value)
        if type_.sizeof == 8 and number >= 1 << 63:
            # An ERR_PTR() read as an unsigned long, or typed as a number.
            name = constants.error_name(number - (1 << 64))
            if name:
                return "ERR_PTR({})".format(name)
        name = constants.error_name(number)
        if name:
            return name
        if 0 < number <= 4095 and constants.get().ERRNO_NAMES.get(number):
            return "{}, positive (the walk returns -{})".format(
                constants.get().ERRNO_NAMES[number], constants.get().ERRNO_NAMES[number])
        return describe(value)


LxErr()


class LxFinish(gdb.Command):
    """Run until the selected function returns, and show what it returned.

lx-finish: like finish, with two differences: the other breakpoints are
held off until the function returns (so that no other stop cuts it short),
and the value is shown as the walk means it: an errno or an ERR_PTR() by
its name (-18 (-EXDEV), ERR_PTR(-ECHILD)), a string by its text. The value
is also kept in gdb's history ($)."""

    def __init__(self):
        super(LxFinish, self).__init__("lx-finish", gdb.COMMAND_RUNNING)

    @one_sentence("lx-finish")
    def invoke(self, arg, from_tty):
        if arg.strip():
            raise gdb.GdbError("lx-finish takes no argument: 'up' first to finish "
                               "an outer function.")
        walk.guest_stopped()
        frame = gdb.selected_frame()
        function = frame.name() or "??"
        if frame.type() == gdb.INLINE_FRAME:
            # No return of its own to stop at, and no value gdb can name.
            gdb.write("lx-finish: {}() is inlined into its caller: gdb's finish steps "
                      "out of it, without a value.\n".format(function))
            gdb.execute("finish")
            return
        # gdb's finish, quiet: it records the value in the history after
        # the mark, if the function returns one.
        mark = gdb.add_history(gdb.Value(0))
        with breakpoints_held():
            try:
                gdb.execute("set suppress-cli-notifications on")
                gdb.execute("finish", to_string=True)
            finally:
                gdb.execute("set suppress-cli-notifications off")
        if gdb.selected_frame() == frame or not gdb.selected_thread().is_valid():
            raise gdb.GdbError("lx-finish: the guest stopped before {}() "
                               "returned.".format(function))
        try:
            value = gdb.history(mark + 1)
        except gdb.error:
            gdb.write("{}() returned, to {}\n".format(function, stop_location()))
            return
        gdb.write("{}() returned {} (${}), to {}\n".format(
            function, describe(value), mark + 1, stop_location()))


LxFinish()
