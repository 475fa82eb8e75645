# SPDX-License-Identifier: GPL-2.0
"""symwalk-coverage: what of the walk make check runs, from make coverage.

.. symwalk-coverage::

renders the last make coverage's figures (coverage.json in the folder of
config value symwalk_coverage_dir, build/coverage by default): a row a
function of the walk, its lines and branches reached and the parts and labs
that reached them; then tests/coverage/unreached, each line nothing reached
with its reason. Without a report, the figures say which command makes one;
the list is the repository's and is always shown.

lab_lines(env, name) gives a lab's page the same data for its own run: the
source of each function of which the lab's trigger ran a line that not
every lab runs, each line marked. It boots nothing and measures nothing.
"""
import functools
import json
import os

from docutils.parsers.rst import Directive

from symwalk import coverage_lists, git
from symwalk.labs import lab_names
from symwalk.layout import COVERAGE_REPORT, TREE
from symwalk_rst import code, esc, heading, literal, parse

NOT_RUN = ("No ``make coverage`` has run in this checkout: it boots the guest parts "
           "of ``make check`` on a kernel whose ``fs/namei.o`` counts the lines it runs "
           "(it builds that kernel itself, in ``build/kbuild-coverage``) and writes "
           "``build/coverage/coverage.json``; the next ``make docs`` shows it here.")
# A line's mark in a listing: run by the lab, by another run only, listed
# as reached by nothing (with its reason), or no code.
MARKS = {"lab": "\u25b6", "other": "\u00b7", "never": "\u2717", "none": " "}


def report(env):
    """The last make coverage's data, or None."""
    path = os.path.join(env.config.symwalk_coverage_dir, "coverage.json")
    if not os.path.exists(path):
        return None
    env.note_dependency(path)
    return loaded(path, os.stat(path).st_mtime_ns)


@functools.lru_cache(maxsize=1)
def loaded(path, mtime):
    """The report at path as it was at mtime: read once for all the pages
    that show it (it is over a megabyte)."""
    with open(path) as f:
        return json.load(f)


@functools.lru_cache(maxsize=None)
def tree_head(tree):
    return git.head(tree)


def staleness(data):
    """reST lines that say so when the report is of another tree than the
    one the site shows."""
    tree = os.environ.get("SYMWALK_TREE", TREE)
    head = tree_head(tree)
    if head and data.get("tree_head") == head:
        return []
    return [".. warning::", "",
            "   This report is of the series at commit ``{}``, the patched tree is now at "
            "``{}``: the lines below may no longer be the tree's. Run ``make "
            "coverage`` again.".format(data.get("tree_head", "?")[:12], head[:12] or "?"),
            ""]


def listing(function, data, ran):
    """The text of a function, each line numbered and marked."""
    out = []
    for n, text in enumerate(data["text"], data["first"]):
        line = data["lines"].get(str(n))
        mark = "none" if line is None else "lab" if n in ran else \
            "other" if line["count"] else "never"
        out.append("{:>5} {} {}".format(n, MARKS[mark], text))
    return "\n".join(out)


LEGEND = ("In the listings, {} marks a line this lab's trigger ran, {} one only other "
          "runs of ``make check`` reached, {} one nothing reached (its reason is on "
          ":doc:`/coverage`); the numbers are ``fs/namei.c``'s in the patched "
          "tree.".format(literal(MARKS["lab"]), literal(MARKS["other"]),
                         literal(MARKS["never"])))


def lab_lines(env, name, section):
    """reST lines for a lab's page: the walk's lines its trigger ran."""
    lines = heading("The walk's lines it ran", section)
    data = report(env)
    if data is None:
        return lines + [NOT_RUN, ""]
    ran = set(data["runs"].get("lab/" + name, []))
    if not ran:
        return lines + ["The last ``make coverage`` has no counters of this lab: it ran "
                        "before the lab existed, or the lab did not run to its end.", ""]
    lines += staleness(data)
    only_some = ran - set(data["every_lab"])
    functions = [(f, d) for f, d in data["functions"].items()
                 if any(int(n) in only_some for n in d["lines"])]
    lines += ["``make coverage`` counted the lines of ``fs/namei.c`` this lab's trigger "
              "ran (the counters reset before it, read after it). Below, each function "
              "of the walk in which it ran a line that not every lab runs (every lab's "
              "trigger starts a shell and the ``lookup`` tool): {}.".format(
                  ", ".join("``{}()``".format(f) for f, _ in functions) or "none"), ""]
    lines += [LEGEND, ""]
    for function, d in functions:
        lines += ["``{}()``:".format(function), ""] + code(listing(function, d, ran))
    return lines


class Coverage(Directive):
    has_content = False

    def run(self):
        env = self.state.document.settings.env
        data = report(env)
        lines = heading("By function", "-")
        if data is None:
            lines += [NOT_RUN, ""]
        else:
            lines += staleness(data) + self.table(data)
        lines += heading("What nothing reaches, and why", "-")
        env.note_dependency(coverage_lists.UNREACHED)
        listed = coverage_lists.read_unreached(coverage_lists.UNREACHED)
        lines += ["``tests/coverage/unreached``, reviewed: ``make coverage`` fails on a "
                  "line of these functions that nothing reached and that is not listed "
                  "here, and on a listed line that something reached, unless its reason "
                  "begins with \"(race)\" (``make check`` races for it, and may win).", ""]
        for function in dict.fromkeys(f for f, _ in listed):
            lines += ["``{}()``".format(function), ""]
            for (f, key), reason in listed.items():
                if f == function:
                    lines += ["   {}".format(literal(key)), "      {}".format(esc(reason)),
                              ""]
        return parse(self, lines, "tests/coverage/unreached")

    def table(self, data):
        functions = data["functions"]
        labs = set(lab_names())
        lines_total = sum(len(f["lines"]) for f in functions.values())
        reached = sum(1 for f in functions.values() for line in f["lines"].values()
                      if line["count"])
        branches = sum(len(line["branches"]) for f in functions.values()
                       for line in f["lines"].values())
        taken = sum(1 for f in functions.values() for line in f["lines"].values()
                    for c in line["branches"] if c)
        out = ["The last ``make coverage`` reached {} of the {} lines of these {} "
               "functions and took {} of their {} branches. A part reached a function if "
               "it ran any of its lines; a lab is named if it ran a line of it that not "
               "every lab runs.".format(reached, lines_total, len(functions), taken,
                                        branches), "",
               ".. list-table::", "   :header-rows: 1", "",
               "   * - function", "     - lines", "     - branches", "     - parts",
               "     - labs"]
        for name, f in functions.items():
            n_lines = len(f["lines"])
            n_reached = sum(1 for line in f["lines"].values() if line["count"])
            n_branches = sum(len(line["branches"]) for line in f["lines"].values())
            n_taken = sum(1 for line in f["lines"].values() for c in line["branches"] if c)
            out += ["   * - ``{}()``".format(name),
                    "     - {} of {}".format(n_reached, n_lines),
                    "     - {} of {}".format(n_taken, n_branches),
                    "     - {}".format(", ".join(f["parts"]) or "\u2014"),
                    "     - {}".format(", ".join(
                        ":doc:`{0} </labs/{0}>`".format(lab) if lab in labs else lab
                        for lab in f["labs"]) or "\u2014")]
        return out + [""]


def setup(app):
    app.add_config_value("symwalk_coverage_dir", COVERAGE_REPORT,
                         "env")
    app.add_directive("symwalk-coverage", Coverage)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
