# SPDX-License-Identifier: GPL-2.0
"""A stepper of a walk: the states of the symlink stack that a strip draws
(symwalk_walks.strip()), one picture per state with the trace line of the
event that led to it, as reStructuredText lines. The markup is hidden;
Documentation/_static/symwalk.js shows it, one state at a time, with
previous/next buttons and the arrow keys. Without JavaScript the page keeps
only the strip."""
import html

import symwalk_walks as walks


def stepper_lines(states, what):
    """The lines of a stepper through states (those of a strip; its boxes
    of elided steps are no state of the walk and are left out)."""
    shown = [s for s in states if not getattr(s, "elided", False)]
    lines = [".. raw:: html", "",
             '   <div class="symwalk-stepper" hidden data-what="{}">'.format(
                 html.escape(what, quote=True)), ""]
    for state in shown:
        lines += [".. raw:: html", "", '   <div class="stepper-state">', "",
                  ".. graphviz::", "   :alt: the symlink stack after: " + state.caption, ""]
        lines += ["   " + line for line in walks.dot_state(state).splitlines()] + [""]
        lines += [".. raw:: html", "",
                  '   <pre class="stepper-event">{}</pre></div>'.format(
                      html.escape(state.event.short())), ""]
    return lines + [".. raw:: html", "", "   </div>", ""]
