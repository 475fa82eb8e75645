#!/usr/bin/python3
"""The site's names are links, and its kernel-doc links to the source. KTAP.

usage: xref_test.py [HTML_DIR TREE]   (build/docs/html, build/linux)

- source/fs-namei-c.html holds TREE's fs/namei.c, line n (tags removed)
  in the element of id Ln;
- each kernel-doc entry of the path-lookup and namei-api pages (all of
  fs/namei.c's; an id c.NAME) links, before the next entry, to a line of
  that listing that holds NAME;
- on each other page (the listings left out), a test each: every literal
  that names an entry of the site's kernel-doc (``name()``, ``struct
  name``, ``NAME``), and every name() or struct name of the text and of
  the helpers' help texts that does, is a link to that entry; every link
  from a literal into a listing lands on a line that holds the name; and
  every "lab NN-name" of the text is a link to that lab's page, which
  exists. A name in a link to elsewhere (the navigation, a table of
  contents) is that link's. A failed test lists what is wrong.
"""
import html
import os
import re
import sys
import urllib.parse
from html.parser import HTMLParser

from symwalk.layout import DOCS_HTML, TREE
from taplib import check, done

LISTING = "source/fs-namei-c.html"
KERNEL_DOC_PAGES = ("filesystems/path-lookup.html", "filesystems/namei-api.html")
ENTRY = re.compile(r'<dt class="sig sig-object c" id="c\.(\w+)"')
LINE = re.compile(r'^<span id="L(\d+)">(.*)</span>$')
TAGS = re.compile(r"<[^>]+>")
NAME = re.compile(r"^(?:(\w+)\(\)|struct (\w+)|([A-Z][A-Z0-9_]*))$")
NAME_IN_TEXT = re.compile(r"\b(?:([A-Za-z_]\w*)\(\)|struct ([A-Za-z_]\w*))")
LAB = re.compile(r"\b[Ll]ab\s+(\d\d-[a-z0-9]+(?:-[a-z0-9]+)*)")
# Elements whose text is not the page's.
HEAD = ("title", "script", "style")
# The code blocks whose names are links: the helpers' help texts.
NAMED_BLOCK = "symwalk-names"


class Page(HTMLParser):
    """The literals of a page (outside code blocks) and its runs of text
    (in code blocks of class NAMED_BLOCK too), each with the href of the
    link it is in, if any."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.href, self.pre, self.code, self.named = None, 0, None, False
        self.head = 0
        self.literals, self.texts, self.source_links = [], [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in HEAD:
            self.head += 1
        elif tag == "a":
            self.href = attrs.get("href", "")
            if "symwalk-source-link" in (attrs.get("class") or ""):
                self.source_links.append(self.href)
        elif tag == "pre":
            self.pre += 1
            self.named = NAMED_BLOCK in (attrs.get("class") or "").split()
        elif tag == "code" and not self.pre:
            self.code = ""

    def handle_endtag(self, tag):
        if tag in HEAD:
            self.head -= 1
        elif tag == "a":
            self.href = None
        elif tag == "pre":
            self.pre -= 1
            self.named = False
        elif tag == "code" and self.code is not None:
            self.literals.append((self.code, self.href))
            self.code = None

    def handle_data(self, data):
        if self.head:
            return
        if self.code is not None:
            self.code += data
        elif not self.pre or self.named:
            self.texts.append((data, self.href))


def parsed(path):
    page = Page()
    with open(path, errors="replace") as f:
        page.feed(f.read())
    return page


def listing_lines(path):
    """{n: text} of the listing's lines."""
    lines = {}
    with open(path, errors="replace") as f:
        for raw in f.read().split("\n"):
            m = LINE.match(raw.replace('<div class="highlight symwalk-source"><pre>', ""))
            if m:
                lines[int(m.group(1))] = html.unescape(TAGS.sub("", m.group(2)))
    return lines


def target(html_dir, page, href):
    """(the page, relative to html_dir, and the fragment) that href names."""
    path, _, fragment = href.partition("#")
    full = os.path.normpath(os.path.join(os.path.dirname(os.path.join(html_dir, page)),
                                         urllib.parse.unquote(path))) if path else \
        os.path.join(html_dir, page)
    return os.path.relpath(full, html_dir), fragment


def holds(lines, fragment, name):
    """Whether the listing's line that fragment (Ln) names holds name."""
    m = re.match(r"^L(\d+)$", fragment)
    return bool(m) and re.search(r"\b{}\b".format(re.escape(name)),
                                 lines.get(int(m.group(1)), "")) is not None


def check_listing(html_dir, tree):
    lines = listing_lines(os.path.join(html_dir, LISTING))
    with open(os.path.join(tree, "fs", "namei.c"), errors="replace") as f:
        source = f.read().rstrip("\n").split("\n")
    shown = [lines.get(n, None) for n in range(1, len(source) + 1)]
    differ = [n for n, (a, b) in enumerate(zip(shown, source), 1) if a != b]
    check("{} holds fs/namei.c's {} lines, each with its anchor".format(LISTING, len(source)),
          not differ and len(lines) == len(source),
          "{} lines shown, {} in the file; first lines that differ: {}".format(
              len(lines), len(source), ", ".join(map(str, differ[:5]))))
    return lines


def check_kernel_doc(html_dir, lines):
    """{NAME: page} of the site's kernel-doc entries."""
    entries = {}
    for root, _, files in os.walk(html_dir):
        for name in files:
            if name.endswith(".html"):
                page = os.path.relpath(os.path.join(root, name), html_dir)
                with open(os.path.join(root, name), errors="replace") as f:
                    for entry in ENTRY.findall(f.read()):
                        entries.setdefault(entry, page)
    for page in KERNEL_DOC_PAGES:
        with open(os.path.join(html_dir, page), errors="replace") as f:
            text = f.read()
        names = ENTRY.findall(text)
        # An entry's source link comes before the next entry.
        parts = ENTRY.split(text)[1:]
        bad = []
        for name, body in zip(parts[0::2], parts[1::2]):
            links = parsed_links(body)
            where = [target(html_dir, page, href) for href in links]
            if not any(p == LISTING and holds(lines, frag, name) for p, frag in where):
                bad.append("{}: {}".format(name, ", ".join(links) or "no source link"))
        check("{}: each of its {} kernel-doc entries links to its definition in {}".format(
            page, len(names), LISTING), names and not bad, "\n".join(bad))
    return entries


def parsed_links(fragment_html):
    page = Page()
    page.feed(fragment_html)
    return page.source_links


def check_page(html_dir, page, entries, listings):
    parsed_page = parsed(os.path.join(html_dir, page))
    bad, named = [], 0
    for text, href in parsed_page.literals:
        m = NAME.match(text.strip())
        if not m:
            continue
        name = next(g for g in m.groups() if g)
        where = target(html_dir, page, href) if href is not None else None
        if where and not where[1].startswith("c.") and where[0] not in listings:
            continue
        if name in entries:
            named += 1
            if where != (entries[name], "c." + name):
                bad.append("``{}`` is not a link to its kernel-doc ({}#c.{}): {}".format(
                    text, entries[name], name, href or "no link"))
        elif where and where[0] in listings:
            named += 1
            if not holds(listings[where[0]], where[1], name):
                bad.append("``{}`` links to {}, a line without it".format(text, href))
    mentions = 0
    for text, href in parsed_page.texts:
        for m in NAME_IN_TEXT.finditer(text):
            name = m.group(1) or m.group(2)
            where = target(html_dir, page, href) if href is not None else None
            if name in entries and (where is None or where[1].startswith("c.")):
                named += 1
                if where != (entries[name], "c." + name):
                    bad.append("{} is not a link to its kernel-doc ({}#c.{}): {}".format(
                        m.group(0), entries[name], name, href or "no link"))
        for m in LAB.finditer(text):
            mentions += 1
            lab = "labs/{}.html".format(m.group(1))
            where = target(html_dir, page, href)[0] if href is not None else None
            if where != lab or not os.path.exists(os.path.join(html_dir, lab)):
                bad.append("{!r} is not a link to {}, an existing page: {}".format(
                    m.group(0), lab, href or "no link"))
    check("{}: its {} names of kernel-doc or source and {} lab mentions are links "
          "there".format(page, named, mentions), not bad, "\n".join(bad))


def main():
    html_dir, tree = sys.argv[1:3] if len(sys.argv) == 3 else (DOCS_HTML, TREE)
    if not check("the site has the listing of fs/namei.c",
                 os.path.exists(os.path.join(html_dir, LISTING)),
                 "{} is missing: run make docs".format(os.path.join(html_dir, LISTING))):
        done()
    lines = check_listing(html_dir, tree)
    entries = check_kernel_doc(html_dir, lines)
    listings = {os.path.join("source", name): listing_lines(os.path.join(
        html_dir, "source", name)) for name in os.listdir(os.path.join(html_dir, "source"))
        if name != "index.html"}
    pages = sorted(os.path.relpath(os.path.join(root, name), html_dir)
                   for root, _, files in os.walk(html_dir) for name in files
                   if name.endswith(".html") and not root.startswith(
                       os.path.join(html_dir, "source")))
    for page in pages:
        if page not in ("genindex.html", "search.html"):
            check_page(html_dir, page, entries, listings)
    done()


if __name__ == "__main__":
    main()
