#
# symwalk: lx-lookup-flags, LOOKUP_* bits by name
#

import gdb

from symwalk_gdb import constants
from symwalk_gdb.command import one_sentence


class LxLookupFlags(gdb.Command):
    """Decode a value of LOOKUP_* flags (nd->flags, a lookup's flags argument).

lx-lookup-flags VALUE: print the names of the LOOKUP_* bits set in VALUE,
an expression such as 0x51 or $lx_nameidata()->flags. The values are those
of the kernel being debugged, taken from its headers when it was built.
LOOKUP_RCU set means RCU-walk; LOOKUP_PARENT set means link_path_walk() is
still walking the components before the last."""

    def __init__(self):
        super(LxLookupFlags, self).__init__("lx-lookup-flags", gdb.COMMAND_DATA)

    @one_sentence("lx-lookup-flags")
    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise gdb.GdbError("lx-lookup-flags: give a value, e.g. "
                               "lx-lookup-flags $lx_nameidata()->flags")
        try:
            value = int(gdb.parse_and_eval(arg))
        except (gdb.error, gdb.MemoryError) as e:
            raise gdb.GdbError("lx-lookup-flags: cannot evaluate '{}': {}.".format(
                arg, str(e).rstrip(".")))
        if not 0 <= value <= 0xffffffff:
            # nd->flags is an unsigned int: say what the value is as one.
            gdb.write("{} is not an unsigned int; as nd->flags it would be ".format(value))
            value &= 0xffffffff
        gdb.write("{:#x} = {}\n".format(value, constants.lookup_flags(value)))


LxLookupFlags()
