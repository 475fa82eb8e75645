# SPDX-License-Identifier: GPL-2.0
"""symwalk-helpers: the reference of symwalk's gdb helpers.

.. symwalk-helpers::

renders a table of the helpers, then a section per helper: its gdb help
text (the docstring of its class in gdb-scripts/symwalk_gdb/, read without
gdb by scripts/symwalk/gdb_helpers.py), and the commands that use it in the
gdb session make check recorded (build/run/docs-gdb.json, planned from
Documentation/helper-examples.yaml by scripts/symwalk/docs_capture.py) with what gdb
printed; lx-walk-tui also gets the screens tests/gdb/tui_tmux_test.py kept.
"""
import json
import os

import yaml
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


def tui_screens(env):
    """The window as the TUI test saw it, or how to get it."""
    names = ["tui-{}.txt".format(name) for name, _ in TUI_SCREENS]
    if not all(os.path.exists(os.path.join(symwalk_run.RUN, n)) for n in names):
        return ["The screens of this window appear here after ``make check`` (its "
                "``gdb/tui_tmux_test.py`` keeps them in ``build/run/tui-*.txt``).", ""]
    lines = heading("The window", "~")
    for (_, caption), name in zip(TUI_SCREENS, names):
        lines += [caption, ""]
        lines += code(symwalk_run.clean_paths(symwalk_run.read(env, name).rstrip()))
    return lines


def examples(helper, transcript, session_len):
    """The entries of the transcript that show helper: from the session's
    first command that uses it to the stop the session set up, else each
    later command that uses it."""
    shown = []
    for i, entry in enumerate(transcript):
        if helper.uses(entry["command"]):
            if i < session_len:
                return transcript[i:session_len]
            shown.append(entry)
    return shown


class Helpers(Directive):
    def run(self):
        env = self.state.document.settings.env
        env.note_dependency(docs_data.EXAMPLES)
        with open(docs_data.EXAMPLES) as f:
            session_len = len((yaml.safe_load(f) or {}).get("session") or [])
        transcript = json.loads(symwalk_run.read(env, docs_data.GDB_SESSION))
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
            shown = examples(h, transcript, session_len)
            if shown:
                lines += heading("Example", "~")
                lines += code(symwalk_run.clean_paths("".join(
                    "(gdb) {}\n{}".format(e["command"], e["output"]) for e in shown)))
            else:
                lines += ["*The documentation's gdb session did not run this helper.*", ""]
        return parse(self, lines, "gdb-scripts/symwalk_gdb")


def setup(app):
    app.setup_extension("symwalk_run")
    app.add_directive("symwalk-helpers", Helpers)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
