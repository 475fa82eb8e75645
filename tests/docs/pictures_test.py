#!/usr/bin/env python3
"""The stack pictures of the docs (Documentation/sphinx/symwalk_walks.py): a frame is
drawn at its own index, a popped frame where it was (on top), and every
picture says what its colours mean. KTAP."""
import html
import os
import re

from symwalk.layout import LABS, SITE_RUN
from taplib import check, done
import symwalk_walks as walks

# The start of a walk of n1/e in RCU-walk: n1 -> n2/e pushed, then n2.
TWO_PUSHED = """\
 lookup-1 [000] ..... 1.0: namei_lookup_start: level=0 attempt=rcu name="n1/e" dfd=-100 flags=FOLLOW|RCU links=0 error=0
 lookup-1 [000] ..... 1.0: namei_link_push: level=0 depth=1 links=1 link="n1" trailing=0 mode=rcu seq=2
 lookup-1 [000] ..... 1.0: namei_link_body: level=0 depth=1 body="n2/e" remnant="e"
 lookup-1 [000] ..... 1.0: namei_link_push: level=0 depth=2 links=2 link="n2" trailing=0 mode=rcu seq=2
"""

# Two nested links, the top one popped once walked; then, the walk failing,
# terminate_walk() pops the frame left.
TRACE = "symwalk: begin walk nest n1/e\n" + TWO_PUSHED + """\
 lookup-1 [000] ..... 1.0: namei_link_body: level=0 depth=2 body="dir" remnant="e"
 lookup-1 [000] ..... 1.0: namei_link_pop: level=0 depth=1 links=2 link="n2" reason=walked done=0x0 mode=rcu
 lookup-1 [000] ..... 1.0: namei_unlazy: level=0 depth=1 reason=dcache_miss legitimized=0
 lookup-1 [000] ..... 1.0: namei_link_pop: level=0 depth=0 links=2 link="n1" reason=terminate done=0x0 mode=ref
 lookup-1 [000] ..... 1.0: namei_lookup_end: level=0 attempt=rcu name="n1/e" links=2 error=-10
symwalk: end walk nest
"""


def rows(label):
    """(index, text) of each frame row of a table() label, top first."""
    found = []
    for row in re.findall(r"<tr>(.*?)</tr>", label):
        cells = [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        if cells and cells[0].isdigit():
            found.append((int(cells[0]), " ".join(cells[1:])))
    return found


events = walks.parse(TRACE)["nest"].events
states = walks.stack_states(events)
pops = [s for s in states if s.event.name == "namei_link_pop"]
drawn = rows(walks.table(pops[0]))
check("a popped frame is drawn at its own index, on top of the frames left",
      drawn[:2] == [(1, "n2 popped by put_link()"), (0, 'n1 "n2/e" "e"')], repr(drawn))
drawn = rows(walks.table(pops[1]))
check("a frame left at the end is popped by terminate_walk(), in REF-walk after namei_unlazy",
      drawn[-1] == (0, "n1 popped by terminate_walk()") and pops[1].mode == "ref", repr(drawn))
push = [s for s in states if s.event.name == "namei_link_push"][-1]
drawn = rows(walks.table(push))
check("frames are drawn top first, each at its index; a pushed frame has no body yet",
      drawn == [(1, "n2 \u2014 \u2014"), (0, 'n1 "n2/e" "e"')], repr(drawn))
body = [s for s in states if s.event.name == "namei_link_body"][-1]
drawn = rows(walks.table(body))
check("namei_link_body gives the top frame its body and remnant",
      drawn[0] == (1, 'n2 "dir" "e"') and body.changed == 1, repr(drawn))
check("the stack's states are its events' but the start, namei_unlazy and the end",
      [s.event.name for s in walks.key_states(states)] ==
      ["namei_link_push", "namei_link_body"] * 2 + ["namei_link_pop"] * 2,
      repr([s.event.name for s in states]))
check("the failure that terminate_walk() cleans up after is the event before its pops",
      walks.failure_index(events) == 6, repr(walks.failure_index(events)))
# A trigger's for loop: its last name keeps the shell's ";" before "do".
loop = walks.parse(TRACE.replace("begin walk nest n1/e", "begin lab-walk nest x")
                   .replace("end walk nest", "end lab-walk nest"))["lab:nest"]
named = [w[0]["name"] for w in loop.lookups_named("for n in x n1/e; do\n\tlookup stat $n\ndone")]
check("the last name of a trigger's \"for n in a b; do\" is looked up like the others",
      named == ["n1/e"], repr(named))

# A third link spills the stack: reserve_stack() counts it (3) before
# nd_alloc_stack() fires namei_stack_spill, which has no links field. Then
# a fourth link whose spill fails, with no push after it.
SPILL = "symwalk: begin walk spill n1/e\n" + TWO_PUSHED + """\
 lookup-1 [000] ..... 1.0: namei_link_body: level=0 depth=2 body="n3/e" remnant="e"
 lookup-1 [000] ..... 1.0: namei_stack_spill: level=0 mode=rcu allocated=1
 lookup-1 [000] ..... 1.0: namei_link_push: level=0 depth=3 links=3 link="n3" trailing=0 mode=rcu seq=2
 lookup-1 [000] ..... 1.0: namei_link_body: level=0 depth=3 body="dir" remnant="e"
 lookup-1 [000] ..... 1.0: namei_lookup_end: level=0 attempt=rcu name="n1/e" links=3 error=0
 lookup-1 [000] ..... 1.0: namei_lookup_start: level=0 attempt=ref name="n1/e" dfd=-100 flags=FOLLOW links=0 error=0
 lookup-1 [000] ..... 1.0: namei_link_push: level=0 depth=1 links=1 link="n1" trailing=0 mode=ref seq=0
 lookup-1 [000] ..... 1.0: namei_link_body: level=0 depth=1 body="n2/e" remnant="e"
 lookup-1 [000] ..... 1.0: namei_link_push: level=0 depth=2 links=2 link="n2" trailing=0 mode=ref seq=0
 lookup-1 [000] ..... 1.0: namei_stack_spill: level=0 mode=ref allocated=0
 lookup-1 [000] ..... 1.0: namei_lookup_end: level=0 attempt=ref name="n1/e" links=3 error=-12
symwalk: end walk spill
"""


def spill_count_shown(state):
    """The count a spill's box says: "N of 40 links"."""
    found = re.search(r"(\d+) of 40 links", walks.table(state))
    return int(found.group(1)) if found else None


def spills_and_pushes(events):
    """(the count a spill's box shows, the links of the push that followed it
    in its attempt, or None) for each namei_stack_spill of events."""
    states = walks.stack_states(events)
    pairs = []
    for state in states:
        if state.event.name != "namei_stack_spill":
            continue
        after = events[events.index(state.event) + 1:]
        ends = [i for i, e in enumerate(after) if e.name.startswith("namei_lookup_")] + [len(after)]
        push = next((e for e in after[:ends[0]] if e.name == "namei_link_push"), None)
        pairs.append((spill_count_shown(state), push.int("links") if push else None))
    return pairs


pairs = spills_and_pushes(walks.parse(SPILL)["spill"].events)
check("a spill's box counts the link it spills for, as the push after it does (3 of 40)",
      pairs[:1] == [(3, 3)], repr(pairs))
check("a failed spill, no push after it: the count before it and the link reserve_stack() counted",
      pairs[1:] == [(3, None)], repr(pairs))

# The judged run: every spill of the traced walks against the push after it,
# and lab 06's against the count gdb printed at nd_alloc_stack().
RUN = os.environ.get("SYMWALK_RUN") or SITE_RUN
try:
    with open(os.path.join(RUN, "docs-walks.txt"), errors="replace") as f:
        text = f.read()
    with open(os.path.join(RUN, "lab-triggers.txt"), errors="replace") as f:
        text += "\n" + f.read()
    with open(os.path.join(RUN, "lab-06-nesting.gdb.log"), errors="replace") as f:
        printed = re.search(r"total_link_count (\d+), embedded: 1", f.read())
    with open(os.path.join(LABS, "06-nesting", "trigger")) as f:
        trigger = f.read()
except OSError as e:
    check("the run's spills: make check's traced walks and lab 06's gdb log are there", False,
          str(e))
else:
    records = walks.parse(text)
    pairs = [pair for record in records.values() for events in record.lookups()
             for pair in spills_and_pushes(events)]
    wrong = [pair for pair in pairs if pair[1] is not None and pair[0] != pair[1]]
    check("each spill of the run's walks counts what the push after it does ({})".format(
          len(pairs)), pairs and not wrong, "(shown, pushed): " + repr(wrong))
    lab06 = [pair[0] for events in records["lab:06-nesting"].lookups_named(trigger)
             for pair in spills_and_pushes(events)]
    check("lab 06's spill box counts what gdb printed at nd_alloc_stack() (total_link_count {})"
          .format(printed and printed.group(1)),
          printed and lab06 and all(n == int(printed.group(1)) for n in lab06), repr(lab06))

legend = walks.legend()
check("the legend names every colour a table uses",
      all(colour in legend for colour in (walks.EMBEDDED, walks.HEAP, walks.PUSHED,
                                          walks.POPPED, walks.FREE)), legend)
check("a picture of one moment carries the legend",
      walks.legend() in walks.dot_state(pops[0]))
done()
