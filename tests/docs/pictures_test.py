#!/usr/bin/env python3
"""The stack pictures of the docs (Documentation/sphinx/symwalk_walks.py): a frame is
drawn at its own index, a popped frame where it was (on top), and every
picture says what its colours mean. KTAP."""
import html
import re

from taplib import check, done
import symwalk_walks as walks

# Two nested links, the top one popped once walked; then, the walk failing,
# terminate_walk() pops the frame left.
TRACE = """\
symwalk: begin walk nest n1/e
 lookup-1 [000] ..... 1.0: namei_lookup_start: level=0 attempt=rcu name="n1/e" dfd=-100 flags=FOLLOW|RCU links=0 error=0
 lookup-1 [000] ..... 1.0: namei_link_push: level=0 depth=1 links=1 link="n1" trailing=0 mode=rcu seq=2
 lookup-1 [000] ..... 1.0: namei_link_body: level=0 depth=1 body="n2/e" remnant="e"
 lookup-1 [000] ..... 1.0: namei_link_push: level=0 depth=2 links=2 link="n2" trailing=0 mode=rcu seq=2
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
legend = walks.legend()
check("the legend names every colour a table uses",
      all(colour in legend for colour in (walks.EMBEDDED, walks.HEAP, walks.PUSHED,
                                          walks.POPPED, walks.FREE)), legend)
check("a picture of one moment carries the legend",
      walks.legend() in walks.dot_state(pops[0]))
done()
