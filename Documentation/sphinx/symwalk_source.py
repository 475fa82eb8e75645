# SPDX-License-Identifier: GPL-2.0
"""symwalk-source: a file of the patched tree as a page, and its kernel-doc
entries' links to their lines there.

.. symwalk-source:: fs/namei.c

renders that file of the patched tree (config value kerneldoc_srctree) as
one highlighted <pre>, each line a <span id="L<n>">, numbered by CSS: a
link to page#L<n> lands on line n. Only keywords, comments, strings,
numbers, preprocessor lines and the names of definitions get a colour;
the rest stays plain text, which keeps a 7,000-line file's page light.

Each kernel-doc entry of a listed file (a C object of the kerneldoc
directive, wherever on the site) gets a first line that links to its
definition's lines in the listing. definition(env, name) gives the
listing's line of a function, struct, macro or enum constant that a listed
file defines, for symwalk_xref.
"""
import functools
import os
import re

import pygments
from docutils import nodes
from docutils.parsers.rst import Directive
from pygments.formatters import HtmlFormatter
from pygments.lexers import CLexer
from pygments.token import Comment, Keyword, Literal, Name, Text
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

# The token kinds the listing colours; every other one is shown as plain text.
COLOURED = (Comment, Keyword, Literal, Name.Function, Name.Builtin)

# A function's definition: a line at column 0 that names it before its
# first "(", and whose statement reaches a "{" before any ";".
FUNCTION = re.compile(r"^(?![#\s/*}])(?!typedef\b)[^(;=\n]*?\b([A-Za-z_]\w*)\(", re.M)
STRUCT = re.compile(r"^(\s*)struct (\w+) \{", re.M)
MACRO = re.compile(r"^#\s*define\s+(\w+)", re.M)
ENUM = re.compile(r"^enum\b[^{;]*\{(.*?)\}", re.M | re.S)
ENUM_CONSTANT = re.compile(r"\b([A-Z_][A-Z0-9_]*)\b\s*(?==|,|$)")
NOT_FUNCTIONS = re.compile(r"^(SYSCALL_DEFINE\d|EXPORT_SYMBOL\w*|__setup|late_initcall|"
                           r"fs_initcall|module_\w+)$")


class Definition:
    """Where a listed file defines a name: its first and last line."""

    def __init__(self, path, kind, first, last):
        self.path, self.kind, self.first, self.last = path, kind, first, last

    def lines(self):
        return "line {}".format(self.first) if self.first == self.last else \
            "lines {}-{}".format(self.first, self.last)


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


@functools.lru_cache(maxsize=None)
def definitions(file):
    """{name: Definition} of what the C file `file` defines; the first
    definition of a name wins (a #define under #ifdef may come twice)."""
    with open(file, errors="replace") as f:
        text = f.read()
    lines = text.split("\n")
    found = {}

    def add(name, kind, first, last):
        found.setdefault(name, Definition(file, kind, first, last))

    def closing(first, prefix):
        """The line of the "}" that ends, at the indentation `prefix`, the
        block opened on line first."""
        for n in range(first, len(lines)):
            if lines[n].startswith(prefix + "}"):
                return n + 1
        return first

    for m in FUNCTION.finditer(text):
        rest = text[m.end():]
        body, stop = rest.find("{"), rest.find(";")
        if body < 0 or 0 <= stop < body or NOT_FUNCTIONS.match(m.group(1)):
            continue
        first = line_of(text, m.start())
        add(m.group(1), "function", first, closing(first, ""))
    for m in STRUCT.finditer(text):
        first = line_of(text, m.start(2))
        add(m.group(2), "struct", first, closing(first, m.group(1)))
    for m in MACRO.finditer(text):
        first = line_of(text, m.start())
        last = first
        while last <= len(lines) and lines[last - 1].endswith("\\"):
            last += 1
        add(m.group(1), "macro", first, last)
    for m in ENUM.finditer(text):
        for c in ENUM_CONSTANT.finditer(m.group(1)):
            n = line_of(text, m.start(1) + c.start())
            add(c.group(1), "enumerator", n, n)
    return found


def highlighted_lines(text):
    """The HTML of each line of the C text, coloured as COLOURED says."""
    def tokens():
        for kind, value in CLexer(stripnl=False).get_tokens(text):
            yield (kind if any(kind in c for c in COLOURED) else Text), value
    html = pygments.format(tokens(), HtmlFormatter(nowrap=True))
    return html.rstrip("\n").split("\n")


def listing_html(text):
    lines = ['<span id="L{}">{}</span>'.format(n, line)
             for n, line in enumerate(highlighted_lines(text), 1)]
    return ('<div class="highlight symwalk-source"><pre>' + "\n".join(lines) +
            "\n</pre></div>")


class Source(Directive):
    required_arguments = 1

    def run(self):
        env = self.state.document.settings.env
        path = self.arguments[0]
        file = os.path.join(env.config.kerneldoc_srctree, path)
        if not os.path.exists(file):
            raise self.error("{} is missing from the patched tree: run make tree".format(path))
        env.note_dependency(file)
        listings(env)[path] = env.docname
        with open(file, errors="replace") as f:
            text = f.read()
        return [nodes.raw("", listing_html(text), format="html")]


def listings(env):
    """{path in the tree: docname of its listing}."""
    if not hasattr(env, "symwalk_listings"):
        env.symwalk_listings = {}
    return env.symwalk_listings


def purge(app, env, docname):
    for path, listed in list(listings(env).items()):
        if listed == docname:
            del listings(env)[path]


def merge(app, env, docnames, other):
    listings(env).update(listings(other))


def definition(env, name):
    """(path, docname of its listing, Definition) of the first listed file
    that defines name, fs/namei.c first; or None."""
    for path, docname in sorted(listings(env).items(), key=lambda p: p[0] != "fs/namei.c"):
        found = definitions(os.path.join(env.config.kerneldoc_srctree, path)).get(name)
        if found:
            return path, docname, found
    return None


def source_reference(builder, fromdocname, docname, path, found, classes):
    """A link to the lines of found in the listing of path."""
    uri = builder.get_relative_uri(fromdocname, docname) + "#L{}".format(found.first)
    ref = nodes.reference("", "", internal=True, refuri=uri, classes=classes)
    ref += nodes.literal(text=path)
    ref += nodes.Text(", " + found.lines())
    return ref


class KernelDocSourceLinks(SphinxPostTransform):
    """The first line of each kernel-doc entry of a listed file: its
    definition's lines in the listing."""
    default_priority = 20
    formats = ("html",)

    def run(self):
        env = self.env
        tree = env.config.kerneldoc_srctree
        for desc in self.document.findall(addnodes.desc):
            if desc.get("domain") != "c" or not len(desc) or \
                    not isinstance(desc[0], addnodes.desc_signature):
                continue
            sig = desc[0]
            path = next((p for p in listings(env)
                         if (sig.source or "").endswith(": " + os.path.join(tree, p))), None)
            ids = [i for i in sig.get("ids", []) if i.startswith("c.")]
            if path is None or not ids:
                continue
            name = ids[0][2:]
            found = definitions(os.path.join(tree, path)).get(name)
            content = next((c for c in desc.children if isinstance(c, addnodes.desc_content)),
                           None)
            if found is None or content is None:
                continue
            para = nodes.paragraph(classes=["symwalk-source-link"])
            para += nodes.Text("Defined in ")
            para += source_reference(self.app.builder, env.docname, listings(env)[path],
                                     path, found, ["symwalk-source-link"])
            para += nodes.Text(".")
            content.insert(0, para)


def setup(app):
    app.add_directive("symwalk-source", Source)
    app.add_post_transform(KernelDocSourceLinks)
    app.add_css_file("symwalk_source.css")
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
