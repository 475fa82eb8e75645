#!/usr/bin/python3
"""Every internal link of the built site resolves. TAP.

usage: links_test.py [HTML_DIR]   (build/docs/html, which make docs builds)

Every href, src and object data of every page that is not an external
address (http:, https:, mailto:, data:, ...) must name a file inside
HTML_DIR, and its #fragment, if any, an id (or a name) in that file. A
test per page; a failed one lists its broken links.
"""
import html
import os
import re
import sys
import urllib.parse

from symwalk.layout import DOCS_HTML
from taplib import check, done

LINK = re.compile(r'\b(href|src|data)\s*=\s*"([^"]*)"')
ANCHOR = re.compile(r'\b(?:id|name)\s*=\s*"([^"]*)"')
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def anchors(path, cache={}):
    if path not in cache:
        with open(path, errors="replace") as f:
            cache[path] = {html.unescape(a) for a in ANCHOR.findall(f.read())}
    return cache[path]


def broken_links(html_dir, page):
    """(link, why) of each link of page that does not resolve, and how
    many internal links it has."""
    root = os.path.dirname(page)
    with open(page, errors="replace") as f:
        text = f.read()
    broken, links = [], 0
    for _, raw in LINK.findall(text):
        url = html.unescape(raw).strip()
        if not url or EXTERNAL.match(url) or url.startswith("//"):
            continue
        links += 1
        path, _, fragment = url.partition("#")
        path = urllib.parse.unquote(path.split("?", 1)[0])
        target = os.path.normpath(os.path.join(root, path)) if path else page
        if not (target == html_dir or target.startswith(html_dir + os.sep)):
            broken.append((url, "points outside the site"))
        elif not os.path.exists(target):
            broken.append((url, "no such file"))
        elif os.path.isdir(target):
            if not os.path.exists(os.path.join(target, "index.html")):
                broken.append((url, "a folder without index.html"))
        elif fragment and target.endswith(".html"):
            if urllib.parse.unquote(fragment) not in anchors(target):
                broken.append((url, "no anchor #{} in {}".format(
                    fragment, os.path.relpath(target, html_dir))))
    return broken, links


def main():
    html_dir = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else DOCS_HTML)
    pages = sorted(os.path.join(root, name) for root, _, files in os.walk(html_dir)
                   for name in files if name.endswith(".html"))
    if not check("the site has pages", bool(pages),
                 "no page in {}: run make docs".format(html_dir)):
        done()
    for page in pages:
        broken, links = broken_links(html_dir, page)
        check("{}: its {} internal links resolve".format(
            os.path.relpath(page, html_dir), links), not broken,
            "\n".join("{} ({})".format(url, why) for url, why in broken))
    done()


if __name__ == "__main__":
    main()
