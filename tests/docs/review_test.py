#!/usr/bin/env python3
"""The series walkthrough's "What to check" (Documentation/review.yaml, as
build_test.sh rendered it on each patch's page): every patch has checks of its own, beyond the
rules of the files it touches and those of every patch, and patch 1, the
series' one behaviour change, is never told that the walk's behaviour is
unchanged. KTAP."""
import glob
import html
import os
import re

import yaml
from taplib import check, done

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGES = os.path.join(TOP, "build", "docs", "html", "series", "patch")
UNCHANGED = re.compile(r"behaviou?r is unchanged on every path")


def plain(text):
    """An item as a reader sees it: no markup, one space between words."""
    text = html.unescape(re.sub(r"<[^>]+>", "", text)).replace("``", "")
    return " ".join(text.split())


def checklist(page):
    """The items of a patch page's "What to check"."""
    found = re.search(r">What to check<.*?<ul[^>]*>(.*?)</ul>", page, re.S)
    return [plain(item) for item in re.findall(r"<li>(.*?)</li>", found.group(1), re.S)] \
        if found else []


with open(os.path.join(TOP, "Documentation", "review.yaml")) as f:
    config = yaml.safe_load(f) or {}
shared = {plain(item) for items in (config.get("files") or {}).values() for item in items}
shared |= {plain(item) for item in config.get("every patch") or []}
numbers = sorted(os.path.basename(p)[:4] for p in glob.glob(os.path.join(TOP, "patches", "0*.patch"))
                 if not os.path.basename(p).startswith("0000-"))
lists = {}
for page in glob.glob(os.path.join(PAGES, "0*.html")):
    with open(page) as f:
        lists[os.path.basename(page)[:4]] = checklist(f.read())
check("the series walkthrough is built: a page per patch", lists,
      "no patch page in " + PAGES)

for number in numbers:
    items = lists.get(number, [])
    own = [item for item in items if item not in shared]
    check("patch {}: its \"What to check\" has checks of its own ({} of {})".format(
        number, len(own), len(items)), own, "only the shared rules: " + repr(items))
first = lists.get("0001", [])
said = [item for item in first if UNCHANGED.search(item)]
check("patch 0001, the behaviour change: no check says the walk's behaviour is unchanged",
      first and not said, repr(said) if said else "no checklist for patch 0001")
done()
