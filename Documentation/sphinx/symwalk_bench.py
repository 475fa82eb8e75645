# SPDX-License-Identifier: GPL-2.0
"""symwalk-bench: the report of the last ``make bench`` as a page.

.. symwalk-bench::

reads results.json and walk-cost.svg from the folder make bench writes
(config value symwalk_bench_dir, results/bench by default: kept in the
repository, so that a checkout's site shows the figures of its last make
bench, with their date and commit, without running it), renders the
report's blocks (scripts/symwalk/bench_report.py's report_blocks(), the same
the Markdown report is made of) as reStructuredText, and inlines the plot. Without
results it is an error. It boots nothing and measures nothing itself.
"""
import json
import os

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.statemachine import ViewList
from sphinx.util.nodes import nested_parse_with_titles

from symwalk.bench_report import report_blocks
from symwalk.layout import TOP

TITLE_CHARS = {2: "-", 3: "~"}


def rst_lines(blocks):
    """The report's blocks (but its title) as reStructuredText lines."""
    lines = []
    for block in blocks:
        kind = block[0]
        if kind == "heading" and block[1] in TITLE_CHARS:
            lines += [block[2], TITLE_CHARS[block[1]] * len(block[2]), ""]
        elif kind == "para":
            lines += [block[1].replace("*", "\\*"), ""]
        elif kind == "table":
            lines += [".. list-table::", "   :header-rows: 1", ""]
            for row in [block[1]] + block[2]:
                cells = [str(c) if str(c) else "\u2014" for c in row]
                lines.append("   * - ``{}``".format(cells[0]) if row is not block[1]
                             else "   * - " + cells[0])
                lines += ["     - " + c for c in cells[1:]]
            lines.append("")
    return lines


class BenchReport(Directive):
    has_content = False

    def run(self):
        env = self.state.document.settings.env
        folder = env.config.symwalk_bench_dir
        results = os.path.join(folder, "results.json")
        if not os.path.exists(results):
            raise self.error("{} is missing: make bench writes it (results/bench is "
                             "kept in the repository)".format(os.path.relpath(results, TOP)))
        env.note_dependency(results)
        with open(results) as f:
            blocks = report_blocks(json.load(f))
        content = ViewList()
        for n, line in enumerate(rst_lines(blocks)):
            content.append(line, results, n)
        section = nodes.section()
        nested_parse_with_titles(self.state, content, section)
        out = section.children
        plot = os.path.join(folder, "walk-cost.svg")
        if os.path.exists(plot):
            env.note_dependency(plot)
            with open(plot) as f:
                out.append(nodes.raw("", '<div class="bench-plot">{}</div>'.format(f.read()),
                                     format="html"))
        return out


def setup(app):
    app.add_config_value("symwalk_bench_dir", os.path.join(TOP, "results", "bench"), "env")
    app.add_directive("symwalk-bench", BenchReport)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
