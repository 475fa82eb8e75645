#!/usr/bin/env python3
"""scripts/symwalk/sites.py, the event sites the site's steppers name,
against the patched tree and the runs make check judged (KTAP):
  - every namei_trace() call of fs/namei.c is a site, its arguments bound
    to its helper's parameters;
  - each pop reason whose comment in the events' header names the function
    that pops ("put_link(): done with the link") is printed there and
    nowhere else;
  - every trace line of the judged runs' consoles is printed by at least
    one site, and by several only where their constants are alike;
  - on the built site, each stepper state's site links to a line of the
    listing of fs/namei.c that calls the state's event;
  - the sites are read from the source: with two pop reasons swapped in a
    copy of fs/namei.c, each reason is found at the other's function."""
import glob
import html
import os
import re

import taplib
from symwalk import events, layout, sites
from symwalk_walks import EVENT_LINE, Event

# A stepper state's trace line, then the links of the site that printed it.
STEPPER_STATE = re.compile(r'<pre class="stepper-event">(\w+):.*?</pre>\s*'
                           r'<div class="stepper-site[^"]*">(.*?)</div>', re.S)
LINE_LINK = re.compile(r'href="[^"#]*fs-namei-c\.html#L(\d+)"')
EVENT_SITES = re.compile(r"\b{}_trace\(\w+\s*,".format(events.SYSTEM))


def main():
    with open(os.path.join(layout.TREE, sites.NAMEI_C)) as f:
        text = f.read()
    vocabulary = events.read(layout.TREE)
    found = sites.read(text)
    calls = [line for line in text.split("\n")
             if EVENT_SITES.search(line) and not line.lstrip().startswith("#")]
    taplib.check("each of the {} namei_trace() calls of fs/namei.c is a site".format(len(calls)),
                 len(found) == len(calls) and calls,
                 "{} sites read of {} calls".format(len(found), len(calls)))
    # The header's own words, apart from the code: "put_link(): ...".
    named, wrong = 0, []
    for symbol in vocabulary.events["namei_link_pop"].key("reason").symbols:
        m = re.match(r"(\w+)\(\)", symbol.meaning)
        if not m:
            continue
        named += 1
        at = sites.site_of(found, vocabulary, "namei_link_pop", {"reason": symbol.printed})
        if [site.function for site in at] != [m.group(1)]:
            wrong.append("reason={}: the header says {}(), the sites are {}".format(
                symbol.printed, m.group(1), at))
    taplib.check("each of the {} pop reasons the header pins to a function is printed "
                 "there only".format(named), named and not wrong, "\n".join(wrong))

    lines, unprinted, ambiguous, one = 0, [], [], 0
    for console in sorted(glob.glob(os.path.join(layout.SITE_RUN, "*.console"))):
        with open(console, errors="replace") as f:
            for line in f:
                m = EVENT_LINE.search(line)
                if not m:
                    continue
                event = Event(line, m)
                lines += 1
                at = sites.site_of(found, vocabulary, event.name, event.args)
                one += len(at) == 1
                if not at:
                    unprinted.append("{}: {}".format(os.path.basename(console), event.short()))
                # Several sites only where nothing printed tells them apart:
                # each passes the same constants (or none) for every key.
                elif len({tuple(str(sites.printed_constants(vocabulary, s, p))
                                for p in s.arguments) for s in at}) > 1:
                    ambiguous.append("{}: {}".format(event.short(), at))
    taplib.check("each of the {} trace lines of the judged runs is printed by a site of "
                 "fs/namei.c ({} by exactly one)".format(lines, one), lines and not unprinted,
                 "\n".join(unprinted[:10]))
    taplib.check("a line given several sites is one no printed constant tells apart",
                 not ambiguous, "\n".join(ambiguous[:10]))

    states, unsited = 0, []
    source = text.split("\n")
    for page in sorted(glob.glob(os.path.join(layout.DOCS_HTML, "**", "*.html"), recursive=True)):
        with open(page) as f:
            for m in STEPPER_STATE.finditer(f.read()):
                states += 1
                event = m.group(1)[len(events.SYSTEM) + 1:]
                lines = [int(n) for n in LINE_LINK.findall(m.group(2))]
                if not lines or any("{}_trace({},".format(events.SYSTEM, event)
                                    not in source[n - 1].replace(" ", "") for n in lines):
                    unsited.append("{}: {}: {}".format(os.path.relpath(page, layout.DOCS_HTML),
                                                       event, html.unescape(re.sub(
                                                           "<[^>]+>", "", m.group(2))).strip()))
    taplib.check("each of the {} stepper states links to a line of fs/namei.c that calls "
                 "its event".format(states), states and not unsited, "\n".join(unsited[:10]))

    swapped = text.replace("NAMEI_POP_WALKED", "@").replace(
        "NAMEI_POP_TERMINATE", "NAMEI_POP_WALKED").replace("@", "NAMEI_POP_TERMINATE")
    planted = sites.read(swapped)
    got = {reason: [s.function for s in sites.site_of(planted, vocabulary, "namei_link_pop",
                                                       {"reason": reason})]
           for reason in ("walked", "terminate")}
    taplib.check("with NAMEI_POP_WALKED and NAMEI_POP_TERMINATE swapped in fs/namei.c, "
                 "walked is terminate_walk()'s and terminate put_link()'s",
                 got == {"walked": ["terminate_walk"], "terminate": ["put_link"]}, got)
    taplib.done()


if __name__ == "__main__":
    main()
