# SPDX-License-Identifier: GPL-2.0
"""symwalk-events: the reference of the namei trace events.

.. symwalk-events::

renders each event of the system namei as the guest's tracefs describes it:
its events/namei/EVENT/format file, which guest/scenarios/docs-walks.sh
printed in make check's run (fields, C types, the print format), with the
fields each key of a trace line prints and the values of the symbolic ones.
From the patched tree it adds what tracefs does not say: the header's
comments (what all events share, what each event means, the meaning of
each value of a reason) and the sites of fs/namei.c that fire each event.
Each event's examples are lines of the traced walks of the same run.
"""
import os
import re

from docutils.parsers.rst import Directive

import symwalk_run
from symwalk import docs_data, events, markers, sites
from symwalk_rst import code, esc, heading, literal, parse

SYSTEM = events.SYSTEM
# The walks whose events give the examples, in the order they are sought
# (the labs' triggers after them).
EXAMPLE_WALKS = ["nest", "chain", "jump", "magic", "unlazy", "loop"]


def formats(text):
    """{event: events.Format} of the "format" sections of docs-walks.sh."""
    return {part.name: events.Format(part.name, part.text.replace("\r", ""))
            for part in markers.sections(text, "format")}


def call_sites(tree):
    """{event: [(function, file, line)]}: the namei_trace(EVENT, ...) sites of
    fs/namei.c, each with the function around it."""
    found = {}
    for site in sites.read_tree(tree):
        found.setdefault(site.event, []).append((site.function, sites.NAMEI_C, site.line))
    return found


def first_sentence(comment):
    """The comment's first sentence, on one line."""
    text = " ".join(comment.split())
    m = re.match(r"(.+?\.)(\s|$)", text)
    return m.group(1) if m else text


def examples(records):
    """{event: [(walk, event)]}: the first line of each event the walks
    show, then one with another reason, else with other fields."""
    seen = {}
    for key in EXAMPLE_WALKS + [k for k in records if k not in EXAMPLE_WALKS]:
        if key in records:
            for e in records[key].lookup():
                seen.setdefault(e.name, []).append((key, e))
    found = {}
    for name, lines in seen.items():
        first = lines[0][1]
        other = [(k, e) for k, e in lines if e.args.get("reason") != first.args.get("reason")] \
            or [(k, e) for k, e in lines if e.args != first.args]
        found[name] = lines[:1] + other[:1]
    return found


def event_lines(fmt, vocabulary, fired_from, shown, records):
    event = vocabulary.events.get(fmt.name)
    comment, cls = (event.comment, event.cls) if event else ("", None)
    meaning = {s.printed: s.meaning for symbols in vocabulary.tables.values() for s in symbols}
    lines = [".. _event-{}:".format(fmt.name), ""] + heading(fmt.name, "-")
    if comment:
        lines += [esc(comment), ""]
    if cls:
        lines.append(":Class: ``{}``".format(cls))
    if fired_from.get(fmt.name):
        lines.append(":Fired from: " + ", ".join(
            "{}() (``{}:{}``)".format(fn, path, line) if fn else "``{}:{}``".format(path, line)
            for fn, path, line in fired_from[fmt.name]))
    lines += [":Enable: ``echo 1 > /sys/kernel/tracing/events/{}/{}/enable``".format(
        SYSTEM, fmt.name), ""]
    lines += [".. list-table::", "   :header-rows: 1", "   :widths: 25 35 40", "",
              "   * - field", "     - C type", "     - printed as"]
    for field, ctype in fmt.fields:
        lines += ["   * - " + literal(field), "     - " + literal(ctype),
                  "     - " + (", ".join(literal(k + "=") for k in fmt.printed_as(field))
                               or "(not printed)")]
    lines.append("")
    for printed in fmt.printed:
        key = printed.key
        values = [name for _, name in printed.symbols] or list(printed.choice or [])
        if key and values and printed.flags:
            lines += ["``{}=`` is made of these flags, joined by ``|``: {}.".format(
                key, ", ".join(literal(v) for v in values)), ""]
        elif key and values:
            lines += ["``{}=`` is one of:".format(key), ""]
            lines += ["- ``{}``{}".format(v, ": " + esc(meaning[v]) if meaning.get(v) else "")
                      for v in values]
            lines.append("")
    lines += ["Its format, as the guest's ``/sys/kernel/tracing/events/{}/{}/format`` "
              "printed it:".format(SYSTEM, fmt.name), ""] + code(fmt.text)
    if shown:
        lines += ["Example, from the walk{} {}:".format(
            "s" if len({k for k, _ in shown}) > 1 else "",
            ", ".join(sorted({"``{}``".format(records[k].path() or k) for k, _ in shown}))), ""]
        lines += code("\n".join(e.short() for _, e in shown))
    else:
        lines += ["*No walk of the documentation's scenario fired this event.*", ""]
    return lines


class Events(Directive):
    def run(self):
        env = self.state.document.settings.env
        tree = env.config.kerneldoc_srctree
        header_path = os.path.join(tree, events.HEADER)
        if not os.path.exists(header_path):
            raise self.error("{} is missing: the series' tracepoint patch is not "
                             "applied".format(events.HEADER))
        env.note_dependency(header_path)
        try:
            vocabulary = events.read(tree)
        except ValueError as e:
            raise self.error("{}: {}".format(events.HEADER, e))
        try:
            found = formats(symwalk_run.read(env, docs_data.WALKS))
        except ValueError as e:
            raise self.error("{}: {}".format(symwalk_run.relative(symwalk_run.path(
                env, docs_data.WALKS)), e))
        if not found:
            raise self.error("{} holds no event format: run 'make check' (its "
                             "guest/scenarios/docs-walks.sh prints them)".format(
                                 symwalk_run.relative(symwalk_run.path(
                                     env, docs_data.WALKS))))
        records = symwalk_run.records(env)
        shown = examples(records)
        try:
            fired_from = call_sites(tree)
        except (OSError, ValueError) as e:
            raise self.error(str(e))
        lines = ["The header says of them:", ""]
        lines += ["   " + esc(line) if line else "" for line in vocabulary.comment.split("\n")]
        lines += ["", "Names, link bodies and remnants are cut to {} bytes. The names of "
                  "dentries (``link=``, ``target=``) are copied a byte at a time, without "
                  "``d_lock``: in RCU-walk a concurrent rename may change them under the "
                  "event.".format(vocabulary.name_max), ""]
        first = next((e for _, e in shown.get("namei_link_push", [])), None)
        if first:
            lines += ["A line of the trace starts with the task and its pid, the CPU, the "
                      "irq and preemption flags and the time; the examples below leave "
                      "these columns out. A whole line, as the trace buffer has it:", ""]
            lines += code(first.text())
        # In the header's order, which follows a walk.
        order = [n for n in vocabulary.events if n in found] + sorted(
            n for n in found if n not in vocabulary.events)
        lines += [".. list-table::", "   :header-rows: 1", "   :widths: 22 38 40", "",
                  "   * - event", "     - what it reports", "     - prints"]
        for name in order:
            event = vocabulary.events.get(name)
            lines += ["   * - :ref:`{0} <event-{0}>`".format(name),
                      "     - " + (esc(first_sentence(event.comment)) if event else ""),
                      "     - " + literal(found[name].print_fmt)]
        lines.append("")
        for name in order:
            lines += event_lines(found[name], vocabulary, fired_from, shown.get(name), records)
        return parse(self, lines, events.HEADER)


def setup(app):
    app.setup_extension("symwalk_run")
    app.add_directive("symwalk-events", Events)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
