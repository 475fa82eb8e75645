"""The walk data of the documentation: the namei trace events of make
check's runs, cut into walks, and the symlink stack they imply at each step,
drawn as graphviz dot code (sphinx.ext.graphviz renders it; symwalk_stack.py
and symwalk_labs.py place the pictures). No Sphinx here: tests/docs/
pictures_test.py checks the drawing on its own.

guest/scenarios/docs-walks.sh frames each walk's namei_* lines of the
trace buffer by "symwalk: begin walk NAME PATH" and its end,
guest/scenarios/lab-triggers.sh each lab's trigger by "symwalk: begin
lab-walk NAME TRIGGER" and its end (scripts/symwalk/markers.py reads them).
"""
import copy
import html
import re
import textwrap

from symwalk import markers

EVENT_LINE = re.compile(
    r"^\s*(?P<comm>.+?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?P<flags>\S+)\s+"
    r"(?P<ts>[\d.]+):\s+(?P<event>namei_\w+):\s+(?P<args>.*?)\s*$")
FIELD = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)')
LOOKUP = re.compile(r"\blookup(?:\s+-n\s+\S+)?\s+(?:stat|lstat|open|creat)\s+(\S+)")


class Event:
    """One line of the trace: its event name and its key=value fields."""

    def __init__(self, line, match):
        self.line = line.rstrip()
        self.comm = match.group("comm").strip()
        self.pid = int(match.group("pid"))
        self.name = match.group("event")
        self.args = {}
        for key, value in FIELD.findall(match.group("args")):
            if value.startswith('"'):
                value = value[1:-1]
            self.args[key] = value

    def __getitem__(self, key):
        return self.args[key]

    def int(self, key):
        return int(self.args[key])

    def short(self):
        """The event's name and fields, without the task, CPU, flags and
        time columns."""
        return "{}: {}".format(self.name, self.line.split(self.name + ": ", 1)[1])

    def text(self):
        """The line as the trace buffer shows it, without the leading
        padding of the task column."""
        return self.line.strip()


class Record:
    """The events of one walk or lab trigger the scenario traced."""

    def __init__(self, kind, name, what):
        self.kind, self.name, self.what = kind, name, what
        self.events = []
        self.output = []

    def path(self):
        """The name the walk looks up (for a lab: from its trigger)."""
        if self.kind == "walk":
            return self.what
        m = LOOKUP.search(self.what)
        return m.group(1) if m else None

    def lookups(self):
        """Every lookup attempt of the record: the events from a
        namei_lookup_start to the namei_lookup_end of the same task and
        level (a walk nested in another has a level of its own)."""
        walks = []
        open_walks = {}
        for event in self.events:
            key = (event.pid, event.args.get("level"))
            if event.name == "namei_lookup_start":
                open_walks[key] = [event]
                walks.append(open_walks[key])
            elif key in open_walks:
                open_walks[key].append(event)
                if event.name == "namei_lookup_end":
                    del open_walks[key]
        return walks

    def lookup(self):
        """The events of the lookup of path(), from its last namei_lookup_start
        to its namei_lookup_end (an RCU-walk attempt that failed and was
        retried in REF-walk keeps only the retry). Without a known path: the
        lookup with the most links."""
        walks = self.lookups()
        path = self.path()
        chosen = [w for w in walks if w[0]["name"] == path] if path else []
        if not chosen:
            chosen = sorted(walks, key=lambda w: sum(
                e.name == "namei_link_push" for e in w))[-1:]
        return chosen[-1] if chosen else []

    def lookups_named(self, script, limit=4):
        """The lookups of the names a script (a lab's trigger) mentions,
        each once (its last attempt), in order, those that push a link on
        the symlink stack; at most limit. A name is any word of the script
        (a trigger may call lookup through a shell function); a lookup no
        word names (busybox's re-exec through /proc/self/exe) is left out.
        Quotes and the shell's operators around a word are not part of it:
        the last name of "for n in a b; do" is b."""
        wanted = []
        for line in script.splitlines():
            for word in line.split("#", 1)[0].split():
                word = word.strip("'\";&|()<>")
                if word and not word.startswith("-"):
                    # Shell variables match any component, %d a number.
                    parts = re.split(r"\$\{?\w+\}?", word)
                    wanted.append("[^/]*".join(
                        re.escape(p).replace("%d", r"\d+") for p in parts))
        found = {}
        for walk in self.lookups():
            name = walk[0]["name"]
            if any(re.fullmatch(w, name) for w in wanted) and any(
                    e.name == "namei_link_push" for e in walk):
                found.pop(name, None)
                found[name] = walk
        return list(found.values())[:limit]


# The events that change the symlink stack or where the walk stands: each
# is a state of the stack (stack_states()).
STACK_EVENTS = ("namei_link_push", "namei_link_body", "namei_link_pop",
                "namei_stack_spill", "namei_jump_root", "namei_jump_link", "namei_eloop")


def parse(text):
    """Records of the scenarios' output, by name ("lab:NAME" for labs)."""
    records = {}
    for marker, kind, key in (("walk", "walk", "{}"), ("lab-walk", "lab", "lab:{}")):
        for part in markers.sections(text, marker):
            record = records[key.format(part.name)] = Record(kind, part.name,
                                                             part.what.strip())
            for line in part.text.splitlines():
                m = EVENT_LINE.match(line)
                if m:
                    record.events.append(Event(line, m))
                else:
                    record.output.append(line)
    return records


class Frame:
    """One struct saved of the stack: the link, pushed by pick_link() before
    its body is known; the body and the remnant come with namei_link_body."""

    def __init__(self, link, trailing):
        self.link, self.trailing = link, trailing
        self.body = self.remnant = None


# Who releases a frame, by the reason of its namei_link_pop.
POPPED_BY = {"walked": "put_link()", "terminate": "terminate_walk()",
             "unlazy": "legitimize_links()", "cached": "legitimize_links()"}

# What an ELOOP means, by its reason (the budget's note gives the count).
ELOOP_NOTES = {
    "no_symlinks": "LOOKUP_NO_SYMLINKS: no link may be followed",
    "nosymfollow": "the link is on a nosymfollow mount",
    "no_magiclinks": "LOOKUP_NO_MAGICLINKS: no magic link may be followed",
    "automount": "the budget of 40 spent on automount points",
    "nofollow": "open(O_NOFOLLOW): the last component is a link",
}


class State:
    """The symlink stack after one event, as struct nameidata holds it."""

    def __init__(self, frames, heap, mode, links, event, caption, changed=None,
                 popped=None, note=None):
        self.frames = frames
        self.heap = heap
        self.mode = mode
        self.links = links
        self.event = event
        self.caption = caption
        self.changed = changed      # index of the frame just pushed or entered
        self.popped = popped        # the frame just popped
        self.note = note

    def popped_by(self):
        """The function that released the popped frame."""
        reason = self.event.args.get("reason", "")
        return POPPED_BY.get(reason, "a {} pop".format(reason))

    def slots(self):
        """(index, frame, the remnant stored in the slot): link_path_walk()
        keeps the remnants by its own depth, which starts over at 0 for the
        body of a trailing link: under a trailing link at the bottom, each
        remnant sits one slot below its link."""
        offset = 1 if self.frames and self.frames[0].trailing else 0
        rows = []
        for i, frame in enumerate(self.frames):
            owner = i + offset
            name = self.frames[owner].remnant if owner < len(self.frames) else None
            rows.append((i, frame, name))
        return rows


def links_at_spill(events, at, links):
    """nd->total_link_count at the namei_stack_spill events[at], which has
    no links field: reserve_stack() counts the link it makes room for
    before it calls nd_alloc_stack(), so the count is the one the push of
    that link reports, next in the attempt; with no such push (the spill
    failed), one more than links, the count before that reserve_stack()."""
    for e in events[at + 1:]:
        if e.name == "namei_link_push":
            return e.int("links")
        if e.name in ("namei_lookup_end", "namei_lookup_start"):
            break
    return links + 1


def stack_states(events):
    """The states of the stack along one lookup attempt: one per event of
    STACK_EVENTS, and the start and the end. Every depth is the height of
    the stack after its event; namei_unlazy is no state of its own: the walk
    is in REF-walk after it, whether it legitimized the walk or not."""
    frames, heap, mode, links = [], False, "rcu", 0
    states = []

    def add(event, caption, count=None, **kw):
        states.append(State(list(frames), heap, mode, links if count is None else count,
                            event, caption, **kw))

    for i, e in enumerate(events):
        if "mode" in e.args:
            mode = e["mode"]
        if "links" in e.args:
            links = e.int("links")
        if e.name == "namei_lookup_start":
            frames, heap = [], False
            mode = "rcu" if e["attempt"] == "rcu" else "ref"
            add(e, '{} attempt at "{}" starts'.format(e["attempt"], e["name"]))
        elif e.name == "namei_link_push":
            depth = e.int("depth")
            frames = frames[:depth - 1] + [Frame(e["link"], e["trailing"] == "1")]
            add(e, "push {}".format(e["link"]), changed=depth - 1)
        elif e.name == "namei_link_body":
            depth = e.int("depth")
            if 0 < depth <= len(frames):
                top = frames[depth - 1] = copy.copy(frames[depth - 1])
                top.body, top.remnant = e["body"], e["remnant"]
                add(e, "walk the body of {}".format(top.link), changed=depth - 1)
        elif e.name == "namei_link_pop":
            depth = e.int("depth")
            popped = frames[depth] if depth < len(frames) else None
            frames = frames[:depth]
            add(e, "pop {} ({})".format(e["link"], e["reason"]), popped=popped)
        elif e.name == "namei_stack_spill":
            heap = heap or e["allocated"] == "1"
            add(e, "spill to the heap" if heap else "spill failed",
                count=links_at_spill(events, i, links),
                note="nd_alloc_stack(): the 2 embedded frames are copied to a "
                     "kmalloc'ed array of 40")
        elif e.name == "namei_jump_root":
            add(e, "jump to the root", note='nd_jump_root(): the walk goes on '
                'from "{}"'.format(e["target"]))
        elif e.name == "namei_jump_link":
            add(e, "magic jump", note='nd_jump_link(): the walk goes on from '
                '"{}"'.format(e["target"]))
        elif e.name == "namei_eloop":
            add(e, "ELOOP ({})".format(e["reason"]), note=ELOOP_NOTES.get(
                e["reason"], "link {} is over the budget of 40".format(links)))
        elif e.name == "namei_unlazy":
            mode = "ref"
        elif e.name == "namei_lookup_end":
            add(e, "attempt ends, error {}".format(e["error"]))
    return states


# -- graphviz ---------------------------------------------------------------

EMBEDDED = "#dbe9f6"
HEAP = "#fbe3c8"
PUSHED = "#c6e9c0"
POPPED = "#f4c7c3"
FREE = "#f4f4f4"
FONT = "DejaVu Sans"
MONO = "DejaVu Sans Mono"
# A picture's text, in points: drawn at its natural size, its smallest text
# is no smaller than the site's body text (17 px, 12.75 pt).
TEXT_PT = 13
TITLE_PT = 14
# A caption's lines, in characters: the box under it is narrower than the
# page's column; a longer line would widen the picture past it.
CAPTION_CHARS = 70


def esc(text):
    return html.escape(text, quote=True)


def shorten(text, width=22):
    return text if len(text) <= width else text[:width - 1] + "\u2026"


def quoted(text):
    """A body or a remnant in a cell: quoted, shortened; a dash while the
    walk has not entered the body."""
    return shorten('"{}"'.format(text)) if text is not None else "\u2014"


MAX_ROWS = 8


def table(state, title=True):
    """An HTML-like graphviz label: the stack of one state, top first."""
    storage = "heap array (40 frames)" if state.heap else "nd->internal (2 frames)"
    colour = HEAP if state.heap else EMBEDDED
    rows = []
    if title:
        rows.append('<tr><td colspan="4" bgcolor="white"><b>{}</b></td></tr>'.format(
            esc(state.caption)))
    rows.append('<tr><td colspan="4" bgcolor="{}">nd-&gt;stack = '
                '{}<br/>{}-walk, {} of 40 links</td></tr>'.format(
                    colour, esc(storage), state.mode.upper(), state.links))
    rows.append('<tr><td>#</td><td>link</td><td>body</td><td>name (remnant)</td></tr>')
    slots = state.slots()
    capacity = 40 if state.heap else 2
    # The frame just popped is drawn where it was: on top.
    popped_at = len(slots) if state.popped is not None else None
    shown = max(len(slots) + (state.popped is not None),
                2 if not state.heap else len(slots) + 1)
    # A high stack keeps its top and bottom frames; one row stands for the
    # frames between them.
    folded = range(2, len(slots) - 4) if len(slots) > MAX_ROWS else range(0)
    for index in reversed(range(shown)):
        if index in folded:
            if index == folded[-1]:
                rows.append('<tr><td colspan="4" bgcolor="{}">'
                            '\u2026 frames {} to {} \u2026</td></tr>'.format(
                                colour, folded[0], folded[-1]))
        elif index < len(slots):
            _, frame, name = slots[index]
            bg = PUSHED if index == state.changed else colour
            rows.append(
                '<tr><td bgcolor="{bg}">{i}</td><td bgcolor="{bg}"><font face="{m}">{l}</font></td>'
                '<td bgcolor="{bg}"><font face="{m}">{b}</font></td>'
                '<td bgcolor="{bg}"><font face="{m}">{n}</font></td></tr>'.format(
                    bg=bg, i=index, m=MONO, l=esc(shorten(frame.link)),
                    b=esc(quoted(frame.body)),
                    n=esc(quoted(name))))
        elif index == popped_at:
            rows.append('<tr><td bgcolor="{p}">{i}</td><td bgcolor="{p}"><font face="{m}">'
                        '{l}</font></td><td colspan="2" bgcolor="{p}">popped by {f}'
                        '</td></tr>'.format(p=POPPED, i=index, m=MONO,
                                            l=esc(shorten(state.popped.link)),
                                            f=esc(state.popped_by())))
        elif index < capacity:
            label = "free" if not state.heap else "free ({} more)".format(capacity - index)
            rows.append('<tr><td bgcolor="{f}">{i}</td><td colspan="3" bgcolor="{f}">'
                        '<font color="#888888">{t}</font></td></tr>'.format(
                            f=FREE, i=index, t=label))
    if state.note:
        rows.append('<tr><td colspan="4" bgcolor="white">{}</td></tr>'.format(
            esc(state.note)))
    return ('<<table border="0" cellborder="1" cellspacing="0" cellpadding="4">'
            + "".join(rows) + "</table>>")


LEGEND = [(EMBEDDED, "frame in nd->internal (2 embedded)"),
          (HEAP, "frame in the heap array (40)"),
          (PUSHED, "frame just pushed, or whose body the walk enters"),
          (POPPED, "frame just popped"),
          (FREE, "free slot")]


def legend():
    """An HTML-like graphviz label: what the colours of table() mean."""
    rows = "".join('<tr><td bgcolor="{}" width="14"> </td><td align="left">'
                   '{}</td></tr>'.format(c, esc(t))
                   for c, t in LEGEND)
    return ('<<table border="0" cellborder="0" cellspacing="2" cellpadding="2">'
            + rows + "</table>>")


def dot_state(state):
    """One moment of the stack, alone."""
    return "\n".join([
        'digraph moment {',
        '  graph [fontname="{}", margin=0];'.format(FONT),
        '  node [shape=plaintext, fontname="{}", fontsize={}];'.format(FONT, TEXT_PT),
        "  s [label={}];".format(table(state)),
        "  legend [label={}];".format(legend()),
        # Under the box: beside it, a wide box would take the picture past
        # the page's column.
        "  s -> legend [style=invis];",
        "}"]) + "\n"


def failure_index(events):
    """The index of the event after which terminate_walk() pops the frames
    that a failed attempt left on the stack (an ELOOP, say), or None if it
    pops none."""
    i = len(events)
    while i and events[i - 1].name == "namei_lookup_end":
        i -= 1
    end = i
    while i and events[i - 1].name == "namei_link_pop" and \
            events[i - 1].args.get("reason") == "terminate":
        i -= 1
    return i - 1 if 0 < i < end else None


def key_states(states):
    """The states worth a picture: those of STACK_EVENTS."""
    return [s for s in states if s.event.name in STACK_EVENTS]


def elided(items, head, tail, gap, anchor=None):
    """A long list's first and last items, and those around anchor; each
    run of two or more items left out becomes gap(how many)."""
    n = len(items)
    if n <= head + tail + 1:
        return list(items)
    keep = set(range(head)) | set(range(n - tail, n))
    if anchor is not None:
        keep |= {anchor - 1, anchor, anchor + 1}
    out, i = [], 0
    while i < n:
        j = i
        while j < n and j not in keep:
            j += 1
        if j - i > 1:
            out.append(gap(j - i))
        elif j > i:
            out.append(items[i])
        if j < n:
            out.append(items[j])
        i = j + 1
    return out


def elide(states, head=6, tail=5):
    """A long walk's states: the first and the last ones and those around
    the failure that terminate_walk() cleans up after, with boxes that say
    how many were left out."""
    def gap(count):
        state = State([], False, "", 0, None, "\u2026 {} more steps \u2026".format(
            count))
        state.elided = True
        return state
    return elided(states, head, tail, gap,
                  failure_index([s.event for s in states]))


def strip(states, caption):
    """A dot graph of states in walk order, one under the other (two side
    by side, their text the body's size, would be wider than the page's
    column), the legend last."""
    lines = ['digraph walk {',
             '  graph [fontname="{}", fontsize={}, label="{}", labelloc=b, '
             'nodesep=0.25, ranksep=0.3];'.format(FONT, TITLE_PT, "\\n".join(
                 esc(line) for line in textwrap.wrap(caption, CAPTION_CHARS))),
             '  node [shape=plaintext, fontname="{}", fontsize={}];'.format(FONT, TEXT_PT),
             '  edge [color="#777777", arrowsize=0.6];']
    for i, state in enumerate(states):
        if getattr(state, "elided", False):
            lines.append('  s{} [shape=box, style="rounded,dashed", label="{}"];'.format(
                i, esc(state.caption)))
        else:
            lines.append("  s{} [label={}];".format(i, table(state)))
    lines.append("  legend [label={}];".format(legend()))
    lines += ["  s{} -> s{};".format(i - 1, i) for i in range(1, len(states))]
    if states:
        lines.append("  s{} -> legend [style=invis];".format(len(states) - 1))
    lines.append("}")
    return "\n".join(lines) + "\n"


def lookup_text(events, head=14, tail=8):
    """A walk's events, from the event name on (the task, CPU, flags and
    time columns are left out); a long walk keeps its first and last lines,
    and those around its failure."""
    lines = elided([e.short() for e in events], head, tail,
                   "[... {} more events ...]".format, failure_index(events))
    return "\n".join(lines) + "\n"
