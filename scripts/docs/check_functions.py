#!/usr/bin/python3
"""Check that every function the site names exists in the patched tree.

usage: check_functions.py HTML_DIR TREE

A function is named as in prose: ``name()``, with empty parentheses. The
check reads the text of every page of the built site (the blocks that quote
a patch, its message and its diff, are left out: they quote what the patch
changes, including the names it removes), leaves out gdb convenience
functions ($name()), methods (.name()), operations (->name()) and the
Python functions a page defines itself (def name(), in a lab's gdb
script), and looks each name up in TREE's C sources and headers as a call,
definition, declaration or macro (name followed by '('), or as a system
call (SYSCALL_DEFINEn(name, ...)). Prints the missing names with the
pages that name them and exits 1 if there is any.
"""
import html
import os
import re
import subprocess
import sys

NAMED = re.compile(r"(?<![\w$.>:/])([A-Za-z_]\w*)\(\)")
DEFINED = re.compile(r"\bdef\s+([A-Za-z_]\w*)\s*\(")
DELETED = re.compile(r'<span class="gd">.*?</span>', re.S)
# Blocks that quote a patch (its message, its diff): what they name is what
# the patch talks about, not what the site names.
QUOTED = re.compile(r'<div class="[^"]*\bquoted\b[^"]*">.*?</pre>', re.S)
BLOCK_TAGS = re.compile(r"</?(?:p|div|td|th|tr|li|dt|dd|pre|br|h[1-6]|table|ul|ol|dl|"
                        r"blockquote|section|figure|figcaption)\b[^>]*>")
TAGS = re.compile(r"<[^>]+>")
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


def existing(tree, names):
    """The names among `names` that TREE's C files call, define or declare."""
    found = set()
    todo = sorted(names)
    # One git grep per batch of names: a single pass over the tree each.
    for start in range(0, len(todo), 200):
        batch = todo[start:start + 200]
        alternatives = "|".join(re.escape(n) for n in batch)
        pattern = r"\b(?:{})\s*\(".format(alternatives)
        syscall = r"SYSCALL_DEFINE[0-6]\((?:{}),".format(alternatives)
        proc = subprocess.run(
            ["git", "-C", tree, "grep", "-h", "-o", "-P", "-e", pattern, "-e", syscall,
             "--", "*.c", "*.h"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if proc.returncode not in (0, 1):
            raise SystemExit("check_functions: git grep failed in {}: {}".format(
                tree, proc.stderr.decode(errors="replace").strip()))
        for line in proc.stdout.decode(errors="replace").splitlines():
            m = re.match(r"SYSCALL_DEFINE[0-6]\((\w+),", line)
            found.add(m.group(1) if m else re.match(r"(\w+)", line).group(1))
    return found


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().split("\n")[2], file=sys.stderr)
        return 2
    html_dir, tree = sys.argv[1], sys.argv[2]
    names = named_functions(html_dir)
    if not names:
        print("check_functions: no page of {} names a function: is the site built?".format(
            html_dir))
        return 1
    missing = sorted(set(names) - existing(tree, names))
    if missing:
        print("check_functions: {} of the {} functions the site names are not in {}:".format(
            len(missing), len(names), tree))
        for name in missing:
            print("  {}()  on {}".format(name, ", ".join(sorted(names[name]))))
        return 1
    print("check_functions: the {} functions the site names are all in {}".format(
        len(names), tree))
    return 0


if __name__ == "__main__":
    sys.exit(main())
