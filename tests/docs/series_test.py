#!/usr/bin/env python3
"""The series pages of the site build_test.sh built, against patches/ as it
is: the index links to a page per patch; each patch's page has its "What to
check" list, its diff (a diff block for every file the patch touches),
links to the patches before and after it, and its results of the last make
series-check (build/series-check) or the one line that says which command
makes them; the placeholder sign-off is said once, on the index; and no
page of the site has a mailto: link. KTAP.

usage: series_test.py [HTML_DIR]   (build/docs/html, which make docs builds)
"""
import glob
import html
import os
import re
import sys

from symwalk.layout import DOCS_HTML, SERIES_CHECK, TOP
from taplib import check, done

PLACEHOLDER = "a placeholder identity"


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def section(page, title):
    """The HTML of the section whose heading is title, up to the next
    heading of its level or above."""
    m = re.search(r"<h([1-6])>{}<a class=\"headerlink\"".format(re.escape(title)), page)
    if not m:
        return ""
    end = re.compile(r"<h[1-{}]>".format(m.group(1))).search(page, m.end())
    return page[m.start():end.start() if end else len(page)]


def text(html_part):
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", html_part)).split())


def patch_results(ktap, name):
    """How many results make series-check printed for the patch file name."""
    return len(re.findall(r"^(?:not )?ok \d+ {} ".format(re.escape(name)), ktap, re.M))


def main():
    html_dir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else DOCS_HTML)
    stems = [os.path.basename(p)[:-len(".patch")]
             for p in sorted(glob.glob(os.path.join(TOP, "patches", "*.patch")))
             if not os.path.basename(p).startswith("0000-")]
    index = read(os.path.join(html_dir, "series", "index.html"))
    check("the series index is built", index, "no series/index.html in " + html_dir)
    ktap = read(os.path.join(SERIES_CHECK, "results.ktap"))

    for i, stem in enumerate(stems):
        page = read(os.path.join(html_dir, "series", "patch", stem + ".html"))
        if not check("{}: a page of its own, linked from the index".format(stem),
                     page and 'href="patch/{}.html"'.format(stem) in index,
                     "series/patch/{}.html is missing or the index does not link to it"
                     .format(stem)):
            continue
        items = re.findall(r"<li>", section(page, "What to check"))
        check("{}: its \"What to check\" list ({} items)".format(stem, len(items)), items,
              "no list under a \"What to check\" heading")
        with open(os.path.join(TOP, "patches", stem + ".patch"), errors="replace") as f:
            files = re.findall(r"^diff --git a/\S+ b/(\S+)", f.read(), re.M)
        diff = section(page, "The diff")
        # Each file: its heading, then its diff block.
        shown = [path for path in files if re.search(
            r"<h\d>{} \(\+\d+ -\d+\)(?:(?!<h\d>).)*?highlight-diff".format(re.escape(path)), diff, re.S)]
        check("{}: its diff, a block for each of its {} files".format(stem, len(files)),
              files and shown == files,
              "files without a diff block: {}".format(sorted(set(files) - set(shown))))
        neighbours = ([stems[i - 1]] if i else []) + stems[i + 1:i + 2]
        missing = [n for n in neighbours if 'href="{}.html"'.format(n) not in page]
        check("{}: links to the patches before and after it".format(stem), not missing,
              "no link to " + ", ".join(missing))
        results = section(page, "make series-check")
        if ktap:
            expected = patch_results(ktap, stem + ".patch")
            shown = len(re.findall(r"<li><p>(?:passed:|<strong>failed</strong>:)", results))
            check("{}: its {} results of make series-check".format(stem, expected),
                  expected and shown == expected, "{} shown".format(shown))
        else:
            check("{}: without results of make series-check, says which command makes them"
                  .format(stem), "make series-check makes them" in text(results),
                  "its make series-check section: " + text(results)[:200])
        check("{}: does not repeat the placeholder sign-off note".format(stem),
              PLACEHOLDER not in page)

    check("the index says once that the sign-offs are a placeholder identity",
          index.count(PLACEHOLDER) == 1, "said {} times".format(index.count(PLACEHOLDER)))
    mailto = sorted(os.path.relpath(os.path.join(root, name), html_dir)
                    for root, _, names in os.walk(html_dir) for name in names
                    if name.endswith(".html") and "mailto:" in read(os.path.join(root, name)))
    check("no page of the site has a mailto: link", not mailto, "in " + ", ".join(mailto))
    done()


if __name__ == "__main__":
    main()
