#!/usr/bin/env python3
"""make lab TUI=1 in an 80x24 terminal, driven through tmux.

The walk's window (lx-walk-tui) must open when the lab's steps are done,
fit the terminal with room for the source (fs/namei.c at a push, not the
header of its static branch), and be redrawn at each stop: after lab-trigger stops gdb
at the first push, and after the nexts that carry the walk across the next
push, where the new frame is marked as changed. Each screen the test saw
is kept in build/run/tui-*.txt. Output: KTAP.
"""
import os
import re
import sys

# No __pycache__ in tests/gdb, where each folder is a helper test the
# initramfs packs.
sys.dont_write_bytecode = True
from lab_tmux_test import LAB, NEVER, check, taplib  # noqa: E402
from symwalk.layout import SITE_RUN  # noqa: E402
from symwalk.tmux_driver import Lab  # noqa: E402

ROWS, COLUMNS = 24, 80
TITLE = "symwalk: the walk"
FIRST = re.compile(r"^\s*.?\*\[0\] /lab/04-chain/l3  remnant", re.M)
WIDTH = re.compile(r"characters gdb thinks are in a line is {}\.".format(COLUMNS))
SECOND = re.compile(r"^\s*.?\*\[0\] /lab/04-chain/l[12]  remnant", re.M)


def keep(lab, name):
    """The gdb pane's screen, kept under build/run for the docs and for a
    failure's reader."""
    screen = lab.screen(1)
    path = os.path.join(SITE_RUN, "tui-{}.txt".format(name))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(screen)
    return screen


def prompting(screen, before):
    """Whether gdb waits for a command on this screen, the screen of
    before it was given one having changed: the command is done."""
    lines = screen.rstrip().splitlines()
    return screen != before and bool(lines) and lines[-1].strip() == "(gdb)"


def main():
    lab = Lab(LAB, make_args=["TUI=1"], rows=ROWS, columns=COLUMNS)
    try:
        opened = lab.started() and lab.wait(lambda: TITLE in lab.screen(1), 120)
        screen = keep(lab, "after-steps")
        if not check("make lab TUI=1: the walk's window opens after the lab's steps",
                     opened, lab):
            return
        check("the window says the walk has ended (gdb is in restore_nameidata())",
                  "ended: depth 0" in screen, lab)
        # Joined, a line the TUI drew wider than the pane is as long as
        # gdb meant it, not cut at the pane's edge.
        too_wide = [line for line in lab.screen(1, joined=True).splitlines()
                    if len(line) > COLUMNS]
        check("every line fits the 80-column terminal", not too_wide, lab,
                  "too wide: {!r}".format(too_wide[:1]))
        lab.type(1, "show width")
        check("gdb knows the terminal is 80 columns wide (show width)",
                  lab.wait(lambda: WIDTH.search(lab.screen(1)), 20), lab)
        lab.type(1, "continue")
        shell = lab.wait(lambda: "guest shell" in lab.pane(0), 60)
        check("continue: the trigger finishes and the guest shell starts", shell, lab)
        lab.type(0, "lab-trigger")
        pushed = lab.wait(lambda: FIRST.search(lab.screen(1)), 60)
        screen = keep(lab, "first-push")
        check("lab-trigger: the window shows l3 pushed, marked as changed", pushed, lab)
        lines = screen.splitlines()
        source = lines[1:next((i for i, line in enumerate(lines) if line.startswith("└")),
                              1)]
        check("at that stop the source window shows fs/namei.c, not the static branch's "
              "header, with the stop's line marked (>) among at least 4 lines",
              lines and "fs/namei.c" in lines[0] and len(source) >= 4 and
              any(re.match(r"^│\s*>\s*\d+ ", line) for line in source), lab)
        crossed = False
        for _ in range(40):
            before = lab.screen(1)
            lab.type(1, "next")
            # done when gdb prompts again, on a screen the next changed
            lab.wait(lambda: prompting(lab.screen(1), before), 10)
            crossed = SECOND.search(lab.screen(1))
            if crossed:
                break
        screen = keep(lab, "after-next")
        check("next across the next push: the window shows the new frame (l2, or l1 past it), marked as changed",
                  crossed, lab)
        check("the window shows no frame of l3 any more (it was popped)",
                  crossed and "/lab/04-chain/l3  remnant" not in screen, lab)
        check("no traceback, no internal stop", not NEVER.search(lab.pane(1)), lab)
        lab.type(1, "quit")
        check("quit in gdb ends the lab", lab.wait(lambda: not lab.alive(), 20), lab)
    finally:
        lab.close()


if __name__ == "__main__":
    main()
    taplib.done()
