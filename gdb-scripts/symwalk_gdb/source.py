#
# symwalk: places in fs/namei.c, found in the source the kernel was built from
#
# Line numbers move with every patch; the statements do not, so the helpers
# find their breakpoint lines by the statements' text.
#

import re

import gdb


def namei_source():
    """(filename as gdb knows it, list of lines) of the kernel's fs/namei.c."""
    try:
        symtab = gdb.decode_line("link_path_walk")[1][0].symtab
    except (gdb.error, IndexError, TypeError):
        raise gdb.GdbError("link_path_walk is not in the symbols: load "
                           "build/kbuild/vmlinux first.")
    try:
        with open(symtab.fullname()) as f:
            return symtab.filename, f.read().split("\n")
    except OSError:
        raise gdb.GdbError("the kernel source {} cannot be read: run "
                           "'make tree'.".format(symtab.fullname()))


def trace_calls(event_pattern):
    """[(location, event, source line)] of each trace_namei_* call whose
    event name matches event_pattern, in fs/namei.c."""
    filename, lines = namei_source()
    calls = []
    for number, line in enumerate(lines, 1):
        m = re.search(r"\btrace_(namei_\w+)\(", line)
        if m and re.fullmatch(event_pattern, m.group(1)):
            # The whole call, for the arguments that tell sites apart.
            text = line
            following = number
            while text.count("(") > text.count(")") and following < len(lines):
                text += " " + lines[following].strip()
                following += 1
            calls.append(("{}:{}".format(filename, number), m.group(1), text.strip()))
    return calls
