#!/usr/bin/python3
"""Each lab's page, as make docs built it, in the order a student works:
Predict first, Run it, What you will see, The explanation, Questions; a
list of its sections at the top; no two headings alike; what the run
showed marked as its outcome before any picture or trace line of it; the
reference answers to the predictions only inside a fold; and "The walk,
traced" showing trace lines, pictured or not. And the exercises' page
has each exercise's graded answers, only inside a fold. KTAP, a test per
lab.

usage: lab_pages_test.py [HTML_DIR]   (build/docs/html)
"""
import collections
import os
import re
import sys
from html.parser import HTMLParser

from symwalk import exercises, grade, labs
from symwalk.layout import EXERCISES
from taplib import check, done

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SECTIONS = ["Predict first", "Run it", "What you will see", "The explanation", "Questions"]
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "param", "source", "track", "wbr"}
TRACE_LINE = re.compile(r"^namei_\w+: ", re.M)
# A part of the page, in the h2 and h3 sections it is in, folded or not.
Item = collections.namedtuple("Item", "kind value h2 h3 folded")


class Page(HTMLParser):
    """The body of a page (div.body) as a list of Items: its headings, the
    links of its list of sections, its pictures, the outcome's mark, and
    its text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.items, self.open = [], []
        self.in_body = self.in_details = self.in_contents = 0
        self.heading = self.section_id = None
        self.h2 = self.h3 = None

    def add(self, kind, value):
        self.items.append(Item(kind, value, self.h2, self.h3, self.in_details > 0))

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        marks = (tag == "div" and "body" in classes, tag == "details",
                 tag == "nav" and "contents" in classes)
        if tag not in VOID:
            self.open.append(marks)
        self.in_body += marks[0]
        self.in_details += marks[1]
        self.in_contents += marks[2]
        if not self.in_body:
            return
        if tag == "section":
            self.section_id = attrs.get("id")
        elif re.fullmatch(r"h[1-6]", tag):
            self.heading = [int(tag[1]), "", self.section_id]
        elif tag == "object" and "graphviz" in classes:
            self.add("picture", attrs.get("data"))
        elif tag == "div" and "symwalk-outcome" in classes:
            self.add("outcome", None)
        elif tag == "a" and self.in_contents:
            self.add("contents-link", attrs.get("href"))

    def handle_endtag(self, tag):
        if tag in VOID or not self.open:
            return
        if self.heading and re.fullmatch(r"h[1-6]", tag):
            level, text, anchor = self.heading
            text = text.replace("\u00b6", "").strip()
            if level == 2:
                self.h2, self.h3 = text, None
            elif level == 3:
                self.h3 = text
            self.add("heading", (level, text, anchor))
            self.heading = None
        body, details, contents = self.open.pop()
        self.in_body -= body
        self.in_details -= details
        self.in_contents -= contents

    def handle_data(self, data):
        if self.heading:
            self.heading[1] += data
        elif self.in_body:
            self.add("text", data)


def text_of(items, h2=None, h3=None, folded=None):
    """The text of the items in section h2 (and h3), folded or not."""
    return "".join(i.value for i in items if i.kind == "text" and
                   h2 in (None, i.h2) and h3 in (None, i.h3) and folded in (None, i.folded))


def faults(name, page_path):
    """What is wrong with a lab's page, a line each."""
    page = Page()
    with open(page_path, errors="replace") as f:
        page.feed(f.read())
    items, found = page.items, []
    headings = [i.value for i in items if i.kind == "heading"]
    h2s = [text for level, text, _ in headings if level == 2]
    if h2s != SECTIONS:
        found.append("its sections are {}, not {}".format(h2s, SECTIONS))
    texts = [text for _, text, _ in headings]
    twice = sorted({t for t in texts if texts.count(t) > 1})
    if twice:
        found.append("headings named alike: " + ", ".join(twice))
    listed = {i.value for i in items if i.kind == "contents-link"}
    first_h2 = next((n for n, i in enumerate(items)
                     if i.kind == "heading" and i.value[0] == 2), len(items))
    before = [i for i in items[:first_h2] if i.kind == "contents-link"]
    unlisted = [text for level, text, anchor in headings
                if level == 2 and "#" + str(anchor) not in listed]
    if not before or unlisted:
        found.append("no list of its sections at the top" if not before else
                     "its list of sections lacks " + ", ".join(unlisted))
    outcome = next((n for n, i in enumerate(items) if i.kind == "outcome"), None)
    shown = next((n for n, i in enumerate(items) if i.kind == "picture" or
                  i.kind == "text" and TRACE_LINE.search(i.value)), None)
    if outcome is None or items[outcome].h2 != "What you will see":
        found.append("What you will see is not marked as the run's outcome")
    elif shown is not None and shown < outcome:
        found.append("the run's outcome is shown before its mark")
    if not TRACE_LINE.search(text_of(items, "What you will see", "The walk, traced")):
        found.append('"The walk, traced" shows no trace line')
    for q in grade.read_questions(name):
        said = "{}: {}.".format(q.ident, q.answer)
        if said not in text_of(items, "The explanation", folded=True):
            found.append("the explanation's fold lacks the answer {!r}".format(said))
        if said in text_of(items, folded=False):
            found.append("the answer {!r} is outside a fold".format(said))
    return found


def main():
    html_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(TOP, "build", "docs", "html")
    names = [n for n in labs.lab_names()
             if os.path.exists(os.path.join(TOP, "labs", n, "lab.rst"))]
    check("there are labs with a narrative", names)
    for name in names:
        page = os.path.join(html_dir, "labs", name + ".html")
        wrong = faults(name, page) if os.path.exists(page) else [page + " is missing"]
        check("lab {}: its page in the order a student works, each heading once, the "
              "outcome marked, the answers folded".format(name), not wrong, "\n".join(wrong))
    page = Page()
    with open(os.path.join(html_dir, "exercises.html"), errors="replace") as f:
        page.feed(f.read())
    graded, wrong = 0, []
    for name in exercises.names():
        for q in grade.read_questions(name, labs=EXERCISES):
            graded += 1
            said = "{}: {}.".format(q.ident, q.answer)
            if said not in text_of(page.items, folded=True):
                wrong.append("{}: no fold holds the answer {!r}".format(name, said))
            if said in text_of(page.items, folded=False):
                wrong.append("{}: the answer {!r} is outside a fold".format(name, said))
    check("the exercises' page has the answers to their {} graded predictions, "
          "folded".format(graded), graded and not wrong, "\n".join(wrong))
    done()


if __name__ == "__main__":
    main()
