#!/usr/bin/python3
"""Every function the site names exists in the patched tree. TAP.

usage: functions_test.py [HTML_DIR TREE]   (build/docs/html, build/linux)

A function is named as in prose: ``name()``, with empty parentheses. The
check reads the text of every page of the built site (the blocks that quote
a patch, its message and its diff, are left out: they quote what the patch
changes, including the names it removes), leaves out gdb convenience
functions ($name()), methods (.name()), operations (->name()) and the
Python functions a page defines itself (def name(), in a lab's gdb
script), and looks each name up in TREE's C sources and headers as a call,
definition, declaration or macro (name followed by '('), or as a system
call (SYSCALL_DEFINEn(name, ...)). A test per page; a failed one lists
the names missing from TREE.
"""
import html
import os
import re
import sys

from symwalk import git
from symwalk.layout import DOCS_HTML, TREE
from taplib import check, done

NAMED = re.compile(r"(?<![\w$.>:/])([A-Za-z_]\w*)\(\)")
DEFINED = re.compile(r"\bdef\s+([A-Za-z_]\w*)\s*\(")
DELETED = re.compile(r'<span class="gd">.*?</span>', re.S)
# Blocks that quote a patch (its message, its diff): what they name is what
# the patch talks about, not what the site names.
QUOTED = re.compile(r'<div class="[^"]*\bquoted\b[^"]*">.*?</pre>', re.S)
BLOCK_TAGS = re.compile(r"</?(?:p|div|td|th|tr|li|dt|dd|pre|br|h[1-6]|table|ul|ol|dl|"
                        r"blockquote|section|figure|figcaption)\b[^>]*>")
TAGS = re.compile(r"<[^>]+>")
WALK_FOLDERS = ("fs/*.[ch]", "include/*.h", "kernel/*.[ch]", "mm/*.[ch]", "security/*.[ch]")
SKIP_DIRS = {"_static", "_sources", "_images", "_downloads"}
SKIP_PAGES = {"genindex.html", "search.html", "py-modindex.html"}


def page_texts(html_dir):
    for root, dirs, files in os.walk(html_dir):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        for name in sorted(files):
            if not name.endswith(".html") or name in SKIP_PAGES:
                continue
            path = os.path.join(root, name)
            with open(path, errors="replace") as f:
                text = f.read()
            text = QUOTED.sub("", DELETED.sub("", text))
            text = BLOCK_TAGS.sub("\n", text)
            text = re.sub(r"<(script|style)\b.*?</\1>", "", text, flags=re.S)
            yield os.path.relpath(path, html_dir), html.unescape(TAGS.sub("", text))


def named_functions(html_dir):
    names = {}
    for page, text in page_texts(html_dir):
        own = set(DEFINED.findall(text))
        for m in NAMED.finditer(text):
            if m.group(1) not in own:
                names.setdefault(m.group(1), set()).add(page)
    return names


def existing(tree, names, where=("*.c", "*.h")):
    """The names among `names` that TREE's C files (those `where` matches)
    call, define or declare."""
    found = set()
    todo = sorted(names)
    # One git grep per batch of names: a single pass over the tree each.
    for start in range(0, len(todo), 200):
        batch = todo[start:start + 200]
        alternatives = "|".join(re.escape(n) for n in batch)
        pattern = r"\b(?:{})\s*\(".format(alternatives)
        syscall = r"SYSCALL_DEFINE[0-6]\((?:{}),".format(alternatives)
        try:
            lines = git.grep(tree, "-h", "-o", "-P", "-e", pattern, "-e", syscall, "--", *where)
        except git.GitError as e:
            raise SystemExit("functions_test: {}".format(e))
        for line in lines:
            m = re.match(r"SYSCALL_DEFINE[0-6]\((\w+),", line)
            found.add(m.group(1) if m else re.match(r"(\w+)", line).group(1))
    return found


def main():
    html_dir, tree = sys.argv[1:3] if len(sys.argv) == 3 else (DOCS_HTML, TREE)
    names = named_functions(html_dir)
    if not check("the site names functions", bool(names),
                 "no page of {} names a function: run make docs".format(html_dir)):
        done()
    # The walk's own folders first: a tenth of the tree holds nearly every
    # name; the rest is looked for in all of it.
    found = existing(tree, names, WALK_FOLDERS)
    found |= existing(tree, set(names) - found)
    pages = {}
    for name, where in names.items():
        for page in where:
            pages.setdefault(page, []).append(name)
    for page in sorted(pages):
        missing = sorted(set(pages[page]) - found)
        check("{}: the {} functions it names are in the patched tree".format(
            page, len(pages[page])), not missing,
            "not in {}: {}".format(tree, ", ".join(n + "()" for n in missing)))
    done()


if __name__ == "__main__":
    main()
