#
# symwalk: the kernel's constants, as generated from the build
#
# scripts/gdb-constants.py writes symwalk_constants.py next to vmlinux when
# the kernel is built, from the values the compiler saw; loaded on first
# use, so that sourcing symwalk.py needs no kernel loaded yet, and again
# when gdb is given another vmlinux or the file is generated anew.
#

import importlib.util
import os

import gdb

_loaded = (None, None)


def get():
    """The generated constants module of the vmlinux gdb has loaded."""
    global _loaded
    vmlinux = gdb.current_progspace().filename
    if not vmlinux:
        raise gdb.GdbError("no kernel is loaded: 'file build/kbuild/vmlinux' first.")
    path = os.path.join(os.path.dirname(vmlinux), "symwalk_constants.py")
    try:
        key = (path, os.stat(path).st_mtime_ns)
    except OSError:
        raise gdb.GdbError("{} is missing: run 'make kernel', which "
                           "generates it.".format(path))
    if _loaded[0] != key:
        spec = importlib.util.spec_from_file_location("symwalk_constants", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _loaded = (key, module)
    return _loaded[1]


def decode_bits(value, table):
    """'A|B' for the bits of value named in table (name -> bit), with any
    bit it does not name in hex."""
    value = int(value)
    names = [name for name, bit in sorted(table.items(), key=lambda i: i[1])
             if value & bit]
    rest = value & ~sum(table.values())
    if rest:
        names.append("{:#x}".format(rest))
    return "|".join(names) if names else "0"


def lookup_flags(value):
    return decode_bits(value, get().LOOKUP_FLAGS)


def error_name(value):
    """'-ECHILD' for -10: an error code by its name (the kernel's own
    names, ERESTARTSYS and friends included), or None."""
    value = int(value)
    if -4095 <= value < 0:
        name = get().ERRNO_NAMES.get(-value)
        return "-" + name if name else str(value)
    return None


def nd_state(value):
    return decode_bits(value, get().ND_STATE)


def last_type(value):
    return get().LAST_TYPES.get(int(value), str(int(value)))
