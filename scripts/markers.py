"""The guest's console markers, one format and its one reader.

Everything the guest runs for the host (guest/initramfs/init, the
scenarios) is framed on the console by

    symwalk: begin KIND NAME
    ...
    symwalk: end KIND NAME [rc=N]

KIND says what it is (test, scenario, lab, trigger, gcda), NAME which one,
one word; rc is the exit status where there is one.
"""
import re

MARK = re.compile(r"^symwalk: (?P<edge>begin|end) (?P<kind>\S+) (?P<name>\S+)"
                  r"(?: rc=(?P<rc>-?\d+))?\r?$", re.M)


class Section:
    """What the console shows between a begin marker and its end: ended
    is False when the end never came (the text then runs to the next
    begin of the same kind, or to the end), rc None when it has none."""

    def __init__(self, kind, name, text, ended, rc):
        self.kind, self.name, self.text, self.ended, self.rc = kind, name, text, ended, rc


def begin(kind, name):
    return "symwalk: begin {} {}".format(kind, name)


def end(kind, name, rc=None):
    return "symwalk: end {} {}".format(kind, name) + ("" if rc is None else " rc={}".format(rc))


def sections(text, kind):
    """The sections of one kind in the console text, in order; a name
    begun twice (a gdbstub that repeated a stop, a retried run) counts
    once, from its first begin."""
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
        found[m.group("name")] = Section(kind, m.group("name"), body, ended, rc)
    return list(found.values())


def section(text, kind, name):
    """The section KIND NAME of the console text, or None."""
    return next((s for s in sections(text, kind) if s.name == name), None)
