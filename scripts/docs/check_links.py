#!/usr/bin/python3
"""Check that every internal link of the built site resolves.

usage: check_links.py HTML_DIR

Every href and src of every page that is not an external address (http:,
https:, mailto:, data:, ...) must name a file inside HTML_DIR, and its
#fragment, if any, an id (or a name) in that file. Prints each broken
link with its page and exits 1 if there is any.
"""
import html
import os
import re
import sys
import urllib.parse

LINK = re.compile(r'\b(href|src)\s*=\s*"([^"]*)"')
ANCHOR = re.compile(r'\b(?:id|name)\s*=\s*"([^"]*)"')
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def anchors(path, cache={}):
    if path not in cache:
        with open(path, errors="replace") as f:
            cache[path] = {html.unescape(a) for a in ANCHOR.findall(f.read())}
    return cache[path]


def check(html_dir):
    html_dir = os.path.abspath(html_dir)
    broken = []
    pages = links = 0
    for root, _, files in os.walk(html_dir):
        for name in sorted(files):
            if not name.endswith(".html"):
                continue
            page = os.path.join(root, name)
            pages += 1
            with open(page, errors="replace") as f:
                text = f.read()
            for attr, raw in LINK.findall(text):
                url = html.unescape(raw).strip()
                if not url or EXTERNAL.match(url) or url.startswith("//"):
                    continue
                links += 1
                path, _, fragment = url.partition("#")
                path = urllib.parse.unquote(path.split("?", 1)[0])
                target = os.path.normpath(os.path.join(root, path)) if path else page
                where = os.path.relpath(page, html_dir)
                if not (target == html_dir or target.startswith(html_dir + os.sep)):
                    broken.append((where, url, "points outside the site"))
                elif not os.path.exists(target):
                    broken.append((where, url, "no such file"))
                elif os.path.isdir(target):
                    if not os.path.exists(os.path.join(target, "index.html")):
                        broken.append((where, url, "a folder without index.html"))
                elif fragment and target.endswith(".html"):
                    if urllib.parse.unquote(fragment) not in anchors(target):
                        broken.append((where, url, "no anchor #{} in {}".format(
                            fragment, os.path.relpath(target, html_dir))))
    return pages, links, broken


def main():
    if len(sys.argv) != 2:
        print("usage: check_links.py HTML_DIR", file=sys.stderr)
        return 2
    pages, links, broken = check(sys.argv[1])
    if pages == 0:
        print("check_links: no page in {}: is the site built?".format(sys.argv[1]))
        return 1
    if broken:
        print("check_links: {} of the {} internal links of {} pages do not resolve:".format(
            len(broken), links, pages))
        for where, url, why in broken:
            print("  {}: {} ({})".format(where, url, why))
        return 1
    print("check_links: the {} internal links of {} pages resolve".format(links, pages))
    return 0


if __name__ == "__main__":
    sys.exit(main())
