#!/usr/bin/env python3
"""The stack pictures of the docs (scripts/docs/walkdata.py): a frame is
drawn at its own index, a popped frame where it was (on top), and every
picture says what its colours mean. TAP."""
import html
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts", "docs"))
import walkdata  # noqa: E402

# Two nested links, then the top one popped.
TRACE = """\
@@ walk nest n1/e
 lookup-1 [000] ..... 1.0: namei_lookup_start: name="n1/e" dfd=-100 flags=FOLLOW|RCU mode=rcu
 lookup-1 [000] ..... 1.0: namei_link_push: depth=1 links=1 link="n1" body="n2/e" remnant="e" mode=rcu seq=2
 lookup-1 [000] ..... 1.0: namei_link_push: depth=2 links=2 link="n2" body="dir" remnant="e" mode=rcu seq=2
 lookup-1 [000] ..... 1.0: namei_link_pop: depth=1 link="n2" done=0x0 mode=rcu
 lookup-1 [000] ..... 1.0: namei_lookup_end: name="n1/e" mode=rcu links=2 error=0
@@ end
"""
n = 0
failed = False


def check(name, ok, detail=""):
    global n, failed
    n += 1
    print("{}ok {} {}".format("" if ok else "not ", n, name))
    if not ok:
        failed = True
        print("# " + detail.replace("\n", "\n# "))


def rows(label):
    """(index, text) of each frame row of a table() label, top first."""
    found = []
    for row in re.findall(r"<tr>(.*?)</tr>", label):
        cells = [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        if cells and cells[0].isdigit():
            found.append((int(cells[0]), " ".join(cells[1:])))
    return found


events = walkdata.parse(TRACE)["nest"].events
states = walkdata.stack_states(events)
pop = next(s for s in states if s.event.name == "namei_link_pop")
drawn = rows(walkdata.table(pop))
check("a popped frame is drawn at its own index, on top of the frames left",
      drawn[:2] == [(1, "n2 popped by put_link()"), (0, 'n1 "n2/e" "e"')], repr(drawn))
push = [s for s in states if s.event.name == "namei_link_push"][-1]
drawn = rows(walkdata.table(push))
check("frames are drawn top first, each at its index",
      [i for i, _ in drawn] == [1, 0] and drawn[0][1].startswith("n2"), repr(drawn))
legend = walkdata.legend()
check("the legend names every colour a table uses",
      all(colour in legend for colour in (walkdata.EMBEDDED, walkdata.HEAP, walkdata.PUSHED,
                                          walkdata.POPPED, walkdata.FREE)), legend)
check("a picture of one moment carries the legend",
      walkdata.legend() in walkdata.dot_state(pop))
print("1..{}".format(n))
sys.exit(1 if failed else 0)
