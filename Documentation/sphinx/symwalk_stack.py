# SPDX-License-Identifier: GPL-2.0
"""symwalk-moment and symwalk-trace: the symlink stack of a real walk.

.. symwalk-moment:: NAME
   :alt: text

draws one key moment of the stack (MOMENTS: the embedded frames, the spill,
a trailing pop, a jump, a magic link, ELOOP, or every step of the nested
walk), a box per event, from the walks that guest/scenarios/docs-walks.sh
traced in make check's run; sphinx.ext.graphviz renders the graph. A
stepper (symwalk_stepper) follows, through the same states one at a time.

.. symwalk-trace:: WALK

shows the namei events of that walk, a long one cut around its failure.
"""
from docutils import nodes
from docutils.parsers.rst import Directive, directives
from sphinx.ext.graphviz import graphviz

import symwalk_run
import symwalk_walks as walks
from symwalk_rst import parse
from symwalk_stepper import stepper_lines

SCENARIO = "guest/scenarios/docs-walks.sh"


class NotInRun(Exception):
    pass


def walk_events(env, walk):
    records = symwalk_run.records(env)
    if walk not in records:
        raise NotInRun("the walk data has no walk '{}': see {}".format(walk, SCENARIO))
    return records[walk].lookup()


def walk_states(env, walk):
    return walks.stack_states(walk_events(env, walk))


def titled(env, walk, caption):
    """caption, and where the walk left RCU-walk, from its first
    namei_unlazy: after the push or pop before it (the boxes after that say
    REF-walk), and why (the scenario's links are fresh on the strictatime
    initramfs, so that pick_link() leaves RCU-walk to update a link's atime
    right after its push: the stack page explains it)."""
    events = walk_events(env, walk)
    for i, e in enumerate(events):
        if e.name == "namei_unlazy":
            moved = [m for m in events[:i] if m.name in ("namei_link_push", "namei_link_pop")]
            where = "after the {} of {}".format(moved[-1].name[len("namei_link_"):],
                                                moved[-1]["link"]) if moved else "from its start"
            return "{}; REF-walk {} (namei_unlazy reason={})".format(caption, where, e["reason"])
    return caption


def find(states, test, what, before=None):
    """The index of the first state that passes test; with before, of the
    last one before that index."""
    indices = range(len(states)) if before is None else range(before - 1, -1, -1)
    for i in indices:
        if test(i, states[i]):
            return i
    raise NotInRun("the walk data shows no {}: see {}".format(what, SCENARIO))


def push(state, depth=None):
    return state.event.name == "namei_link_push" and (
        depth is None or state.event.int("depth") == depth)


def body(state):
    return state.event.name == "namei_link_body"


def named(name):
    return lambda i, s: s.event.name == name


def from_last_push(states, i, what, after=1):
    """The states from the push before state i to state i + after."""
    start = find(states, lambda j, s: push(s), "push before the " + what, before=i)
    return states[start:i + after]


def embedded(env):
    nest = walk_states(env, "nest")
    first = find(nest, lambda i, s: push(s, 1), "first push")
    second = find(nest, lambda i, s: push(s, 2) and not s.heap, "second push")
    second_body = find(nest, lambda i, s: i > second and body(s), "body of the second link")
    return nest[first:second_body + 1], titled(
        env, "nest", "n1/f: two pushes fill the 2 embedded frames")


def spill(env):
    nest = walk_states(env, "nest")
    at = find(nest, named("namei_stack_spill"), "spill")
    third = find(nest, lambda i, s: i > at and push(s), "push after the spill")
    third_body = find(nest, lambda i, s: i > third and body(s), "body of the third link")
    return nest[at - 1:third_body + 1], titled(
        env, "nest", "n1/f: the third push moves the stack to the heap")


def trailing_pop(env):
    chain = walk_states(env, "chain")
    pop = find(chain, lambda i, s: s.event.name == "namei_link_pop" and i + 2 < len(chain)
               and push(chain[i + 1]) and body(chain[i + 2]), "pop before a push")
    return chain[pop - 1:pop + 3], titled(env, "chain", "c3/e: c3 is popped before c2 is pushed")


def jump(env):
    states = walk_states(env, "jump")
    at = find(states, lambda i, s: s.event.name == "namei_jump_root" and s.event.int("depth"),
              "jump to the root from a link")
    return (from_last_push(states, at, "jump to the root", after=2),
            titled(env, "jump", "abs/e/f: the absolute link jumps to the root"))


def magic(env):
    states = walk_states(env, "magic")
    at = find(states, named("namei_jump_link"), "magic jump")
    return (from_last_push(states, at, "magic jump", after=2),
            titled(env, "magic", "/proc/self/cwd: a magic link jumps"))


def eloop(env):
    states = walk_states(env, "loop")
    at = find(states, named("namei_eloop"), "ELOOP")
    return from_last_push(states, at, "ELOOP"), titled(env, "loop", "loop: the 41st link is ELOOP")


def every_step(env):
    return walks.key_states(walk_states(env, "nest")), titled(env, "nest", "n1/f, every step")


MOMENTS = {"embedded": embedded, "spill": spill, "trailing-pop": trailing_pop,
           "jump": jump, "magic": magic, "eloop": eloop, "nest": every_step}


def stack_figure(env, states, caption, alt):
    """A figure of the graphviz node that draws states, a box to a row: at
    their natural size, their text the body's size, one fits the page's
    column."""
    picture = graphviz()
    picture["code"] = walks.strip(states, caption)
    picture["options"] = {"docname": env.docname}
    picture["alt"] = alt
    return nodes.figure("", picture)


class Moment(Directive):
    required_arguments = 1
    option_spec = {"alt": directives.unchanged}

    def run(self):
        env = self.state.document.settings.env
        name = self.arguments[0]
        if name not in MOMENTS:
            raise self.error("no moment '{}': one of {}".format(name, ", ".join(MOMENTS)))
        try:
            states, caption = MOMENTS[name](env)
        except NotInRun as e:
            raise self.error(str(e))
        return [stack_figure(env, states, caption, self.options.get("alt", caption))] + \
            parse(self, stepper_lines(states, caption, env.config.kerneldoc_srctree),
                  "symwalk-moment " + name)


class Trace(Directive):
    required_arguments = 1

    def run(self):
        env = self.state.document.settings.env
        records = symwalk_run.records(env)
        if self.arguments[0] not in records:
            raise self.error("the walk data has no walk '{}': see {}".format(
                self.arguments[0], SCENARIO))
        text = walks.lookup_text(records[self.arguments[0]].lookup())
        block = nodes.literal_block(text, text)
        block["language"] = "text"
        return [block]


def setup(app):
    app.setup_extension("sphinx.ext.graphviz")
    app.setup_extension("symwalk_run")
    app.add_directive("symwalk-moment", Moment)
    app.add_directive("symwalk-trace", Trace)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
