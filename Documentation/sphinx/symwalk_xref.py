# SPDX-License-Identifier: GPL-2.0
"""Names in the text as links: the kernel's automarkup links the function()
and struct name of plain text that have kernel-doc; this links the names
the labs, the exercises and the helper reference write, literals
included, and their mentions of other labs.

- A name the walk's C code defines, the whole of a literal (``name()``,
  ``struct name`` or ``NAME``, a flag, a macro, an enum constant) or in
  plain text (name(), struct name, NAME of 4 letters or more), links to its
  kernel-doc on the site; without one, to its definition's line in a
  listing of the patched tree (symwalk_source), fs/namei.c first.
- A literal ``path:N`` of a listed file links to its line N.
- "lab NN-name" links to that lab's page.

Both run after the references are resolved (a post-transform), on every
page but the listings, and leave alone what is already a link, other
literals (``nd->depth``, ``LOOKUP_FOLLOW|LOOKUP_RCU``) and code blocks,
but for those of class symwalk-names (the helpers' help texts), whose
names link too.
"""
import re

from docutils import nodes
from sphinx import addnodes
from sphinx.errors import NoUri
from sphinx.transforms.post_transforms import SphinxPostTransform

import symwalk_source

FUNCTION = re.compile(r"^([A-Za-z_]\w*)\(\)$")
STRUCT = re.compile(r"^struct ([A-Za-z_]\w*)$")
SOURCE_LINE = re.compile(r"^([\w./-]+):(\d+)$")
CONSTANT = re.compile(r"^([A-Z][A-Z0-9_]*_[A-Z0-9_]+|[A-Z]{3,}[A-Z0-9]*)$")
# In plain text: a lab's mention, or a name.
IN_TEXT = re.compile(r"\b(?P<lab>[Ll]ab\s+(?P<labname>\d\d-[a-z0-9]+(?:-[a-z0-9]+)*))|"
                     r"\b(?P<name>(?P<func>[A-Za-z_]\w*)\(\)|struct (?P<struct>[A-Za-z_]\w*)|"
                     r"(?P<macro>[A-Z][A-Z0-9_]{3,}))(?![\w(])")
# A code block whose names link, in plain text's way.
NAMED_BLOCK = "symwalk-names"
# The names the C domain did not find, in this process: most capitals in
# the text are no name of the site's kernel-doc, and a lookup parses each.
NO_KERNEL_DOC = set()
# Where a name or a mention is not made a link.
KEEP = (nodes.Referential, nodes.FixedTextElement, nodes.raw, nodes.comment,
        addnodes.desc_signature)


def kept(node):
    parent = node.parent
    while parent is not None:
        if isinstance(parent, KEEP):
            return not (isinstance(parent, nodes.literal_block) and
                        NAMED_BLOCK in parent["classes"])
        parent = parent.parent
    return False


def named(text):
    """(the name, the C domain's kind) a literal names, or None."""
    for pattern, kind in ((FUNCTION, "func"), (STRUCT, "struct"), (CONSTANT, "macro")):
        m = pattern.match(text)
        if m:
            return m.group(1), kind
    return None


class NameLinks(SphinxPostTransform):
    default_priority = 30
    formats = ("html",)

    def run(self):
        env = self.env
        if env.docname in symwalk_source.listings(env).values():
            return
        self.c_domain = env.get_domain("c")
        for literal in list(self.document.findall(nodes.literal)):
            if not kept(literal):
                found = named(literal.astext())
                ref = self.line_reference(literal) or found and self.reference(literal, *found)
                if ref is not None:
                    literal.replace_self(ref)
        for text in list(self.document.findall(nodes.Text)):
            if IN_TEXT.search(text) and not kept(text) and \
                    not isinstance(text.parent, nodes.literal):
                parent = text.parent
                parent.replace(text, self.text_links(text))
                if isinstance(parent, nodes.literal_block):
                    # Rendered as a parsed literal, links kept, not highlighted.
                    parent.rawsource = ""

    def reference(self, literal, name, kind):
        """A link around the literal (or text) to name's kernel-doc or its
        line in a listing, or None."""
        ref = None
        if name not in NO_KERNEL_DOC:
            pending = addnodes.pending_xref("", refdomain="c", reftype=kind, reftarget=name)
            try:
                ref = self.c_domain.resolve_xref(self.env, self.env.docname, self.app.builder,
                                                 kind, name, pending, literal.deepcopy())
            except NoUri:
                pass
        if ref is not None:
            return ref
        NO_KERNEL_DOC.add(name)
        found = symwalk_source.definition(self.env, name)
        if found is None:
            return None
        path, docname, where = found
        uri = self.app.builder.get_relative_uri(self.env.docname, docname)
        ref = nodes.reference("", "", internal=True, refuri="{}#L{}".format(uri, where.first),
                              reftitle="{}, {}".format(path, where.lines()))
        ref += literal.deepcopy()
        return ref

    def line_reference(self, literal):
        """A link around a literal path:N of a listed file to its line N,
        or None."""
        m = SOURCE_LINE.match(literal.astext())
        docname = m and symwalk_source.listings(self.env).get(m.group(1))
        if not docname:
            return None
        uri = self.app.builder.get_relative_uri(self.env.docname, docname)
        ref = nodes.reference("", "", internal=True, refuri="{}#L{}".format(uri, m.group(2)))
        ref += literal.deepcopy()
        return ref

    def text_links(self, text):
        """The text, each mention of an existing lab a link to it, each
        name with kernel-doc or a definition in a listing a link there."""
        out, done = [], 0
        for m in IN_TEXT.finditer(text):
            if m.group("lab"):
                docname = "labs/" + m.group("labname")
                if docname not in self.env.all_docs:
                    continue
                uri = self.app.builder.get_relative_uri(self.env.docname, docname)
                ref = nodes.reference(m.group(0), m.group(0), internal=True, refuri=uri)
            else:
                kind = next(k for k in ("func", "struct", "macro") if m.group(k))
                ref = self.reference(nodes.Text(m.group("name")), m.group(kind), kind)
                if ref is None:
                    continue
            out.append(nodes.Text(text[done:m.start()]))
            out.append(ref)
            done = m.end()
        out.append(nodes.Text(text[done:]))
        return out


def setup(app):
    app.setup_extension("symwalk_source")
    app.add_post_transform(NameLinks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
