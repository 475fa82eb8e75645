#
# symwalk: places in fs/namei.c, found in the source the kernel was built from
#
# Line numbers move with every patch; the statements do not, so the helpers
# find their breakpoint lines by the statements' text.
#

import os
import re

import gdb

from symwalk import events


def namei_symtab():
    """The symtab of the kernel's fs/namei.c."""
    try:
        return gdb.decode_line("link_path_walk")[1][0].symtab
    except (gdb.error, IndexError, TypeError):
        raise gdb.GdbError("link_path_walk is not in the symbols: load "
                           "build/kbuild/vmlinux first.")


def namei_source():
    """(filename as gdb knows it, list of lines) of the kernel's fs/namei.c."""
    symtab = namei_symtab()
    try:
        with open(symtab.fullname()) as f:
            return symtab.filename, f.read().split("\n")
    except OSError:
        raise gdb.GdbError("the kernel source {} cannot be read: run "
                           "'make tree'.".format(symtab.fullname()))


_vocabulary = {}


def vocabulary():
    """The namei events' vocabulary (scripts/symwalk/events.py) of the tree
    the kernel was built from."""
    tree = os.path.dirname(os.path.dirname(namei_symtab().fullname()))
    header = os.path.join(tree, events.HEADER)
    try:
        key = (header, os.stat(header).st_mtime_ns)
    except OSError:
        raise gdb.GdbError("{} cannot be read: run 'make tree'.".format(header))
    if key not in _vocabulary:
        _vocabulary.clear()
        try:
            _vocabulary[key] = events.read(tree)
        except (OSError, ValueError) as e:
            raise gdb.GdbError("the namei events of {} cannot be read: {}.".format(tree, e))
    return _vocabulary[key]


# A site of a namei event in fs/namei.c: namei_trace(EVENT, args...), the
# event being namei_EVENT.
TRACE_SITE = re.compile(r"\bnamei_trace\((\w+),")


def trace_calls(event_pattern):
    """[(location, event, source text)] of each site of a namei event whose
    name (namei_...) matches event_pattern, in fs/namei.c."""
    filename, lines = namei_source()
    calls = []
    for number, line in enumerate(lines, 1):
        m = TRACE_SITE.search(line)
        if not m or line.lstrip().startswith(("#", "*", "/*")):
            continue
        event = "namei_" + m.group(1)
        if re.fullmatch(event_pattern, event):
            # The whole call, for the arguments that tell sites apart.
            text = line
            following = number
            while text.count("(") > text.count(")") and following < len(lines):
                text += " " + lines[following].strip()
                following += 1
            calls.append(("{}:{}".format(filename, number), event, text.strip()))
    return calls


def line_after(text):
    """'fs/namei.c:N', the line after the first line of fs/namei.c that is
    text (stripped), or None."""
    filename, lines = namei_source()
    for number, line in enumerate(lines, 1):
        if line.strip() == text:
            return "{}:{}".format(filename, number + 1)
    return None
