# SPDX-License-Identifier: GPL-2.0
"""symwalk-helpers: the reference of symwalk's gdb helpers.

.. symwalk-helpers::

renders a table of the helpers, then a section per helper: its gdb help
text (the docstring of its class in gdb-scripts/symwalk_gdb/, read without
gdb by scripts/symwalk/gdb_helpers.py), and its example: the commands of the
gdb session make check recorded (build/run/docs-gdb.json, planned from
Documentation/helper-examples.yaml by scripts/symwalk/docs_capture.py) with
what gdb printed, or for lx-walk-tui the screens tests/gdb/tui_tmux_test.py
kept. Every example is a successful run; what the helpers refuse comes last,
in a section of its own.
"""
import json
import os

from docutils.parsers.rst import Directive

import symwalk_run
from symwalk import docs_data, gdb_helpers
from symwalk_rst import code, esc, heading, parse

KINDS = {"command": "gdb command", "function": "gdb convenience function",
         "parameter": "gdb parameter"}

# The screens of the walk's window that make check's tests/gdb/tui_tmux_test.py
# kept (make lab TUI=1, lab 04-chain, an 80x24 terminal).
TUI_SCREENS = [
    ("first-push", "After ``lab-trigger``, stopped at the first push: ``l3``, marked "
     "``*`` as the frame that changed."),
    ("after-next", "A few ``next`` later, past the next push: ``l3`` was popped and "
     "``l2`` pushed in its place."),
]


def screen_text(text):
    """A terminal's screen with paths from the top (clean_paths()), each
    border as long as before: a shortened title keeps its box's corner above
    the box's right edge."""
    lines = []
    for line in text.splitlines():
        short = symwalk_run.clean_paths(line)
        if len(short) < len(line) and short.endswith(("\u2510", "\u2518")):
            short = short[:-1] + "\u2500" * (len(line) - len(short)) + short[-1]
        lines.append(short)
    return "\n".join(lines)


def tui_screens(env):
    """lx-walk-tui's example: the window as the TUI test saw it in a
    terminal, or how to get it."""
    lines = heading("Example", "~")
    names = ["tui-{}.txt".format(name) for name, _ in TUI_SCREENS]
    if not all(os.path.exists(os.path.join(symwalk_run.RUN, n)) for n in names):
        return lines + ["The screens of this window appear here after ``make check`` (its "
                        "``gdb/tui_tmux_test.py`` keeps them in ``build/run/tui-*.txt``).", ""]
    lines += ["``make lab TUI=1`` in an 80x24 terminal (the TUI needs one: in batch gdb "
              "it is refused, see :ref:`helper-refusals`), lab 04-chain, after ``continue`` "
              "and ``lab-trigger`` in the guest:", ""]
    for (_, caption), name in zip(TUI_SCREENS, names):
        lines += [caption, ""]
        lines += code(screen_text(symwalk_run.read(env, name).rstrip()))
    return lines


def examples(helper, transcript):
    """The entries of the transcript that show helper: its own example,
    every command of it; else the session's, from its first command that
    uses the helper to the stop the session set up; else the later commands
    that use it. Never a refusal."""
    own = [t for t in transcript if t.get("helper") == helper.name]
    if own:
        return own
    session = [t for t in transcript if t["part"] == "session"]
    for i, entry in enumerate(session):
        if helper.uses(entry["command"]):
            return session[i:]
    return [t for t in transcript if t["part"] == "last" and helper.uses(t["command"])]


def refusals(found, transcript):
    """The section of what the helpers refuse: each command, the helper it
    calls, and the one line gdb printed."""
    lines = [".. _helper-refusals:", ""] + heading("What the helpers refuse", "-")
    lines += ["The examples above are successful runs. These commands, run in the same "
              "session once its walk has ended, are what the helpers turn down, each with "
              "the sentence it says why in.", ""]
    for entry in (t for t in transcript if t["part"] == "refusal"):
        helper = next((h for h in found if h.uses(entry["command"])), None)
        command = "``{}``".format(entry["command"])
        lines += [":ref:`{} <helper-{}>`: {}".format(esc(helper.title), helper.name, command)
                  if helper else command, ""]
        lines += code(symwalk_run.clean_paths(entry["output"].strip()))
    return lines


class Helpers(Directive):
    def run(self):
        env = self.state.document.settings.env
        env.note_dependency(docs_data.EXAMPLES)
        transcript = json.loads(symwalk_run.read(env, docs_data.GDB_SESSION))
        if not all("part" in t for t in transcript):
            raise self.error("build/run/{} is an older make check's, with no part for its "
                             "commands: run make check (its unit \"the helper examples in "
                             "gdb\") again".format(docs_data.GDB_SESSION))
        gdb_scripts = os.path.join(symwalk_run.TOP, "gdb-scripts")
        found = gdb_helpers.find_helpers(gdb_scripts)
        for h in found:
            env.note_dependency(os.path.join(gdb_scripts, "symwalk_gdb", h.module + ".py"))
        if not found:
            raise self.error("no gdb helper in gdb-scripts/symwalk_gdb/")
        lines = [".. list-table::", "   :header-rows: 1", "   :widths: 30 70", "",
                 "   * - helper", "     - what it does"]
        for h in found:
            lines += ["   * - :ref:`{} <helper-{}>`".format(esc(h.title), h.name),
                      "     - " + esc(h.summary)]
        lines.append("")
        for h in found:
            lines += [".. _helper-{}:".format(h.name), ""] + heading(h.title, "-")
            lines += [esc(h.summary), "",
                      ":Kind: " + KINDS[h.kind],
                      ":Defined in: ``gdb-scripts/symwalk_gdb/{}.py``, class ``{}``".format(
                          h.module, h.cls), ""]
            if h.details:
                lines += code(h.details, names=True)
            if h.name == "lx-walk-tui":
                lines += tui_screens(env)
                continue
            shown = examples(h, transcript)
            if shown:
                lines += heading("Example", "~")
                lines += code(symwalk_run.clean_paths("".join(
                    "(gdb) {}\n{}".format(e["command"], e["output"]) for e in shown)))
            else:
                lines += ["*The documentation's gdb session did not run this helper.*", ""]
        lines += refusals(found, transcript)
        return parse(self, lines, "gdb-scripts/symwalk_gdb")


def setup(app):
    app.setup_extension("symwalk_run")
    app.add_directive("symwalk-helpers", Helpers)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
