#!/usr/bin/env python3
"""The helper reference (build/docs/html/helpers.html, as build_test.sh
built it): each helper's example is a successful run, and what the helpers
refuse is shown apart, in "What the helpers refuse", a command and its one
line each. An example fails this test if it shows a Python error or
traceback, gdb's "Cannot ...", or a message the refusals section shows.
KTAP."""
import html
import os
import re

from symwalk import gdb_helpers
from symwalk.docs_data import ERROR_OUTPUT
from taplib import check, done

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAGE = os.path.join(TOP, "build", "docs", "html", "helpers.html")


def blocks(section):
    """The text of each code block of a part of the page."""
    return [html.unescape(re.sub(r"<[^>]+>", "", pre))
            for pre in re.findall(r"<pre>(.*?)</pre>", section, re.S)]


def sections(page):
    """{anchor after "helper-": its part of the page, up to the next one}."""
    parts = re.split(r'<span id="helper-([\w-]+)"></span>', page)
    return dict(zip(parts[1::2], parts[2::2]))


try:
    with open(PAGE) as f:
        parts = sections(f.read())
except OSError as e:
    parts = {}
    check("the helper reference is built", False, str(e))

refused = [text.strip() for text in blocks(parts.get("refusals", ""))]
check("\"What the helpers refuse\" shows each refusal's one-line message ({})".format(
      len(refused)), refused and all(len(text.splitlines()) == 1 for text in refused),
      repr(refused))
for helper in gdb_helpers.find_helpers(os.path.join(TOP, "gdb-scripts")):
    section = parts.get(helper.name.replace("_", "-"), "")
    example = section.split(">Example<", 1)[1] if ">Example<" in section else ""
    shown = "\n".join(blocks(example))
    errors = [m.group(0) for m in ERROR_OUTPUT.finditer(shown)]
    errors += [text for text in refused if text in shown]
    check("{}: its example is a successful run".format(helper.title), shown and not errors,
          "an error or a refusal in it: {!r}".format(errors) if shown else "no example")
done()
