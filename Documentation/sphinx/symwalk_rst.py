# SPDX-License-Identifier: GPL-2.0
"""reStructuredText lines for symwalk's directives, and their parsing in
the directive's place (sections included), as the kernel's kernel-doc
directive parses what scripts/kernel-doc prints."""
import re

from docutils import nodes
from docutils.statemachine import ViewList
from sphinx.util.nodes import nested_parse_with_titles


def heading(text, char):
    return [text, char * max(len(text), 4), ""]


def code(text, language="text", quoted=False, names=False):
    """A code block of text; quoted=True marks text quoted from a patch,
    which tests/docs/functions_test.py leaves out; names=True, prose whose
    names link to their kernel-doc or source (symwalk_xref)."""
    body = ["   " + line if line.strip() else "" for line in
            text.rstrip("\n").expandtabs(8).split("\n")]
    classes = ["quoted"] * quoted + ["symwalk-names"] * names
    return ([".. code-block:: " + language] +
            (["   :class: " + " ".join(classes)] if classes else []) +
            [""] + (body if any(body) else ["   (empty)"]) + [""])


def esc(text):
    """Text as reST shows it literally in a paragraph."""
    return re.sub(r"([\\*`_|\[\]<>])", r"\\\1", text)


def literal(text):
    text = text.replace("``", "`\u200b`")
    return "``{}``".format(text) if text.strip() else "``\u00a0``"


def parse(directive, lines, source):
    """The nodes of lines, sections included, in the directive's place;
    source names where they come from in error messages."""
    view = ViewList()
    for n, line in enumerate(lines):
        view.append(line, source, n)
    section = nodes.section()
    nested_parse_with_titles(directive.state, view, section)
    return section.children
