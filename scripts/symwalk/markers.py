"""The markers that frame a part of a log, one format and its one reader.

Everything the guest runs for the host (guest/initramfs/init, the
scenarios) is framed on the console by

    symwalk: begin KIND NAME [WHAT]
    ...
    symwalk: end KIND NAME [rc=N]

KIND says what it is (test, scenario, lab, trigger, gcda, walk, lab-walk,
format), NAME which one, one word; WHAT, the rest of a begin line, what the
part is of (a walk's path, a lab's trigger); rc is the exit status where
there is one. gdb frames each lab of a batch in its log the same way
(begin only: the next begin ends a part), the line made here
(gdb_batch_mark()) and handed to gdb in its session file.
"""
import re

MARK = re.compile(r"^symwalk: (?P<edge>begin|end) (?P<kind>\S+) (?P<name>\S+)"
                  r"(?: rc=(?P<rc>-?\d+)| (?P<what>.*?))?\r?$", re.M)
# What a lab's begin in gdb's log says: the first of gdb's values that are
# the lab's ($N).
GDB_FIRST_VALUE = re.compile(r"^values from \$(?P<first>\d+)$")


class Section:
    """What a log shows between a begin marker and its end: ended is
    False when the end never came (the text then runs to the next begin
    of the same kind, or to the end), rc None when it has none, what the
    rest of its begin line ("" if none)."""

    def __init__(self, kind, name, text, ended, rc, what, start):
        self.kind, self.name, self.text, self.ended, self.rc = kind, name, text, ended, rc
        self.what = what
        self.start = start      # where its begin line starts in the log


def begin(kind, name, what=""):
    return "symwalk: begin {} {}".format(kind, name) + (" " + what if what else "")


def end(kind, name, rc=None):
    return "symwalk: end {} {}".format(kind, name) + ("" if rc is None else " rc={}".format(rc))


def gdb_batch_mark():
    """The line gdb writes before each lab of a batch, a template of
    {name} and {first} (the number of the lab's first value)."""
    return begin("lab", "{name}", "values from ${first}")


def sections(text, kind):
    """The sections of one kind in the text, in order; a name begun twice
    (a gdbstub that repeated a stop, a retried run) counts once, from its
    first begin."""
    marks = [m for m in MARK.finditer(text) if m.group("kind") == kind]
    found = {}
    for i, m in enumerate(marks):
        if m.group("edge") != "begin" or m.group("name") in found:
            continue
        stop = next((n for n in marks[i + 1:]
                     if n.group("name") == m.group("name") or n.group("edge") == "begin"),
                    None)
        ended = stop is not None and stop.group("edge") == "end" and \
            stop.group("name") == m.group("name")
        body = text[m.end():stop.start() if stop else len(text)].lstrip("\r\n")
        rc = int(stop.group("rc")) if ended and stop.group("rc") is not None else None
        found[m.group("name")] = Section(kind, m.group("name"), body, ended, rc,
                                         m.group("what") or "", m.start())
    return list(found.values())


def section(text, kind, name):
    """The section KIND NAME of the text, or None."""
    return next((s for s in sections(text, kind) if s.name == name), None)
