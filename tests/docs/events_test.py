#!/usr/bin/env python3
"""The namei events' vocabulary (scripts/symwalk/events.py), read from the
patched tree's header, agrees with the kernel that make check booted: for
each event, the format file its tracefs printed in the judged run
(guest/scenarios/docs-walks.sh) prints the same keys in the same order,
each from the same field, each symbolic key with the same values and
names, and the mode from the same flag. And each event of the header
opens with a comment that says what it reports, not with one of its
fields. KTAP.

usage: events_test.py [WALKS TREE]   (make check's docs-walks.txt, build/linux)
"""
import os
import sys

from symwalk import docs_data, events, markers
from symwalk.layout import SITE_RUN, TREE
from taplib import check, done

def printed_keys(fmt):
    """[(key, field, what it prints)] of a format file's keys."""
    found = []
    for printed in (p for p in fmt.printed if p.key):
        field = printed.fields[0] if printed.fields else printed.arg
        if printed.symbols and not printed.flags:
            found.append((printed.key, field, printed.symbols))
        elif printed.flag is not None:
            found.append((printed.key, field, (printed.flag,) + tuple(printed.choice)))
        else:
            found.append((printed.key, field, None))
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
    tree = sys.argv[2] if len(sys.argv) > 2 else TREE
    vocabulary = events.read(tree)
    with open(walks, errors="replace") as f:
        formats = {part.name[len("namei_"):]: part.text
                   for part in markers.sections(f.read(), "format")}
    check("the run printed the format of each event of the header",
          sorted(formats) == sorted(e.short for e in vocabulary.events.values()),
          "the run's: {}\nthe header's: {}".format(sorted(formats),
                                                    [e.short for e in vocabulary.events.values()]))
    for event in vocabulary.events.values():
        got = printed_keys(events.Format(event.name, formats.get(event.short, "")))
        want = expected_keys(event)
        check("{}: the vocabulary's keys, fields, symbols and mode flag are the "
              "kernel's".format(event.name), got == want,
              "\n".join("kernel: {}\nvocabulary: {}".format(g, w)
                        for g, w in zip(got + [None] * len(want), want + [None] * len(got))
                        if g != w))
    undescribed = []
    for event in vocabulary.events.values():
        first = event.comment.split()[:1]
        fields = {field for field, _, _ in event.fields}
        if not first or first[0].rstrip(":,") in fields:
            undescribed.append("{}: {!r}".format(event.name, event.comment[:60]))
    check("each of the {} events' comments says what it reports, before any "
          "field".format(len(vocabulary.events)), not undescribed, "\n".join(undescribed))
    done()


if __name__ == "__main__":
    main()
