# SPDX-License-Identifier: GPL-2.0
"""A stepper of a walk: the states of the symlink stack that a strip draws
(symwalk_walks.strip()), one picture per state with the trace line of the
event that led to it and the place in fs/namei.c that printed it, where
lx-walk-trace's breakpoint prints that step in gdb as the walk passes. The markup is hidden;
Documentation/_static/symwalk.js shows it, one state at a time, with
previous/next buttons and the arrow keys. Without JavaScript the page keeps
only the strip."""
import functools
import html

import symwalk_walks as walks
from symwalk import events, sites


@functools.lru_cache(maxsize=None)
def tree_sites(tree):
    """The event sites of the tree's fs/namei.c and its events' vocabulary,
    read once for all the steppers."""
    return sites.read_tree(tree), events.read(tree)


def fired_at(event, tree):
    """reST: the function(s) and line(s) of fs/namei.c whose event site
    could have printed the event's trace line (symwalk_xref links them to
    their kernel-doc and to the line in the site's listing)."""
    found, vocabulary = tree_sites(tree)
    candidates = sites.site_of(found, vocabulary, event.name, event.args)
    if not candidates:
        raise ValueError("no site of {} in {} prints {}".format(
            event.name, sites.NAMEI_C, event.short()))
    return " or ".join("``{}()`` at ``{}:{}``".format(
        site.function or "?", sites.NAMEI_C, site.line) for site in candidates)


def stepper_lines(states, what, tree):
    """The lines of a stepper through states (those of a strip; its boxes
    of elided steps are no state of the walk and are left out); tree, the
    patched tree whose fs/namei.c printed the events."""
    shown = [s for s in states if not getattr(s, "elided", False)]
    lines = [".. raw:: html", "",
             '   <div class="symwalk-stepper" hidden data-what="{}">'.format(
                 html.escape(what, quote=True)), ""]
    for state in shown:
        lines += [".. raw:: html", "", '   <div class="stepper-state">', "",
                  ".. graphviz::", "   :alt: the symlink stack after: " + state.caption, ""]
        lines += ["   " + line for line in walks.dot_state(state).splitlines()] + [""]
        lines += [".. raw:: html", "",
                  '   <pre class="stepper-event">{}</pre>'.format(
                      html.escape(state.event.short())), "",
                  ".. container:: stepper-site", "",
                  "   Printed in {}: in gdb, ``lx-walk-trace`` prints this step as the "
                  "walk passes there.".format(fired_at(state.event, tree)), "",
                  ".. raw:: html", "", "   </div>", ""]
    return lines + [".. raw:: html", "", "   </div>", ""]
