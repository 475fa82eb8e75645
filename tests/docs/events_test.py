#!/usr/bin/env python3
"""The namei events' vocabulary (scripts/symwalk/events.py), read from the
patched tree's header, agrees with the kernel that make check booted: for
each event, the format file its tracefs printed in the judged run
(guest/scenarios/docs-walks.sh) prints the same keys in the same order,
each from the same field, each symbolic key with the same values and
names, and the mode from the same flag. KTAP.

usage: events_test.py [WALKS TREE]   (make check's docs-walks.txt, build/linux)
"""
import os
import re
import sys

from symwalk import docs_data, events, markers
from symwalk.layout import BUILD, SITE_RUN
from taplib import check, done

SYMBOLIC = re.compile(r"__print_symbolic\(REC->(\w+),(.*)\)$")
MODE = re.compile(r'\(\(REC->(\w+)\) & (0x[0-9a-f]+) \? "(\w+)" : "(\w+)"\)$')


def printed_keys(print_fmt):
    """[(key, field, what it prints)] of a format file's print fmt."""
    m = re.match(r'"(.*?)"\s*,\s*(.*)$', print_fmt)
    keys = re.findall(r'(\w+)=\\?"?%', m.group(1))
    args = events.split_args(m.group(2))
    found = []
    for key, arg in zip(keys, args):
        symbolic, mode = SYMBOLIC.match(arg), MODE.match(arg)
        if symbolic:
            pairs = re.findall(r'\{\s*(\d+)\s*,\s*"([^"]*)"\s*\}', symbolic.group(2))
            found.append((key, symbolic.group(1), [(int(v), n) for v, n in pairs]))
        elif mode:
            found.append((key, mode.group(1), (int(mode.group(2), 16), mode.group(3),
                                               mode.group(4))))
        else:
            field = re.search(r"REC->(\w+)|__get_str\((\w+)\)", arg)
            found.append((key, next(g for g in field.groups() if g) if field else arg, None))
    return found


def expected_keys(event):
    found = []
    for key in event.keys:
        if key.symbols:
            found.append((key.name, key.field, [(s.value, s.printed) for s in key.symbols]))
        elif key.flag is not None:
            found.append((key.name, key.field, (key.flag,) + tuple(key.choice)))
        else:
            found.append((key.name, key.field, None))
    return found


def main():
    walks = sys.argv[1] if len(sys.argv) > 1 else os.path.join(SITE_RUN, docs_data.WALKS)
    tree = sys.argv[2] if len(sys.argv) > 2 else os.path.join(BUILD, "linux")
    vocabulary = events.read(tree)
    with open(walks, errors="replace") as f:
        formats = {part.name[len("namei_"):]: part.text
                   for part in markers.sections(f.read(), "format")}
    check("the run printed the format of each event of the header",
          sorted(formats) == sorted(e.short for e in vocabulary.events.values()),
          "the run's: {}\nthe header's: {}".format(sorted(formats),
                                                    [e.short for e in vocabulary.events.values()]))
    for event in vocabulary.events.values():
        text = formats.get(event.short, "")
        fmt = re.search(r"^print fmt: (.*)$", text, re.M)
        got = printed_keys(fmt.group(1)) if fmt else []
        want = expected_keys(event)
        check("{}: the vocabulary's keys, fields, symbols and mode flag are the "
              "kernel's".format(event.name), got == want,
              "\n".join("kernel: {}\nvocabulary: {}".format(g, w)
                        for g, w in zip(got + [None] * len(want), want + [None] * len(got))
                        if g != w))
    done()


if __name__ == "__main__":
    main()
