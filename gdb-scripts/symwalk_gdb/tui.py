#
# symwalk: lx-walk-tui, the walk in a window of gdb's TUI, redrawn at every
# stop and after every next or step
#

import gdb

from symwalk_gdb import constants, stack, walk
from symwalk_gdb.command import one_sentence, own_source_frame

LAYOUT = "symwalk"
# Reverse video for a frame that changed since the last drawing; the "*"
# in front says the same where the terminal shows no attributes.
CHANGED = "\x1b[7m"
PLAIN = "\x1b[0m"


def walk_lines():
    """(lines, frames): the window's text for the walk of the CPU that
    stopped, and its frames as {index: text} to tell what changed."""
    try:
        task = walk.current_task()
    except gdb.GdbError as e:
        return [str(e)], {}
    nd = task["nameidata"]
    if int(nd) == 0:
        return ["{} is in no path lookup: lx-walk-break stops in one.".format(
            walk.task_name(task))], {}
    w = walk.Walk(nd)
    names = walk.Names()
    last = w.nd["last"]
    last_name = walk.read_string(last["name"], last["len"]) if int(last["name"]) else ""
    ended = ", ended" if walk.walk_ended() else ""
    lines = [
        "{}, {}{}: depth {}, {} of {} links, {} stack".format(
            walk.task_name(task), "RCU-walk" if w.rcu else "REF-walk", ended, w.depth,
            w.total_link_count, constants.get().MAXSYMLINKS,
            "embedded" if w.embedded else "heap"),
        "\"{}\" at {}, last \"{}\" ({})".format(
            w.name() or "", names.path(w.nd["path"]), last_name,
            constants.last_type(w.nd["last_type"])),
    ]
    top_state = stack.top_frame_state(w)
    frames = {}
    for f in reversed(w.frames):
        frames[f.index] = "[{}] {}  remnant {}".format(
            f.index, names.path(f.link), stack.remnant_text(w, f, top_state))
    if not frames:
        lines.append("stack: (empty)")
    return lines, frames


class WalkWindow:
    """The walk's summary and its symlink stack, top frame first."""

    def __init__(self, tui_window):
        self.tui = tui_window
        self.tui.title = "symwalk: the walk"
        self.lines = []
        self.frames = {}
        # The frames as the stop before this one left them: a frame that
        # differs changed with the last step, and stays marked until the next.
        self.before = {}
        self.changed = set()
        WINDOWS.append(self)
        self.refresh()

    def close(self):
        WINDOWS.remove(self)

    def stopped(self):
        self.before = self.frames
        self.refresh()

    def refresh(self):
        try:
            lines, frames = walk_lines()
        except (gdb.GdbError, gdb.error, gdb.MemoryError) as e:
            lines, frames = ["the walk cannot be read now: {}.".format(
                str(e).rstrip("."))], {}
        self.changed = {i for i, text in frames.items() if self.before.get(i) != text}
        self.lines, self.frames = lines, frames
        self.render()

    def render(self):
        if not self.tui.is_valid():
            return
        rows = [line[:self.tui.width] for line in self.lines]
        for index, text in self.frames.items():
            if index in self.changed:
                rows.append(CHANGED + ("*" + text)[:self.tui.width] + PLAIN)
            else:
                rows.append((" " + text)[:self.tui.width])
        self.tui.erase()
        self.tui.write("\n".join(rows[:self.tui.height]))


WINDOWS = []


def guest_paused():
    thread = gdb.selected_thread()
    return thread is not None and not thread.is_running()


def select_source_frame():
    """At a stop in a header's inlined helper (the static branch of a namei
    event site, in jump_label.h), select the first frame of its caller's
    own source (link_path_walk() in fs/namei.c), which the source window
    then shows. Stepping is unchanged: next and step go from the innermost
    frame whichever is selected."""
    try:
        newest = gdb.newest_frame()
        frame = own_source_frame(newest)
        if frame != newest:
            frame.select()
    except gdb.error:
        pass


def on_stop(_):
    """A step, a next, a breakpoint: what changed is measured from here."""
    if guest_paused() and WINDOWS:
        select_source_frame()
        for window in WINDOWS:
            window.stopped()


def on_prompt():
    """Redraw, for what a command at the prompt changed (frame, up)."""
    if guest_paused():
        for window in WINDOWS:
            window.refresh()


class LxWalkTui(gdb.Command):
    """Show the walk in a window of gdb's TUI, redrawn at every stop.

lx-walk-tui: switch gdb to the "symwalk" layout: the source above, the
walk below it (the task and its mode, depth, links followed, the name,
path and last component, then the symlink stack, top frame first, each with its
remnant), and the command line; an 80x24 terminal shows it whole, 5
lines of source and 5 of the walk in make lab's gdb pane of 19 rows. At a
stop in a header's inlined helper (a namei event's static branch), the
source window shows its caller, link_path_walk() or pick_link(), whose
frame it selects. The window is redrawn whenever gdb stops
or prompts, so that after next or step it shows the walk as it is now;
a frame that changed since the last drawing is marked with "*" (and in
reverse video). 'tui disable' (or Ctrl-x a) goes back to the plain
command line. make lab TUI=1 opens a lab with this layout."""

    def __init__(self):
        super(LxWalkTui, self).__init__("lx-walk-tui", gdb.COMMAND_STATUS)

    @one_sentence("lx-walk-tui")
    def invoke(self, arg, from_tty):
        if arg.strip():
            raise gdb.GdbError("lx-walk-tui takes no argument.")
        if not hasattr(gdb, "register_window_type"):
            raise gdb.GdbError("this gdb has no Python TUI windows (gdb 10 or later "
                               "built with TUI has them).")
        gdb.execute("layout " + LAYOUT)


if hasattr(gdb, "register_window_type"):
    gdb.register_window_type(LAYOUT, WalkWindow)
    try:
        gdb.execute("tui new-layout {} src 2 {} 2 status 0 cmd 1".format(LAYOUT, LAYOUT),
                    to_string=True)
    except gdb.error:
        pass  # a gdb built without the TUI: lx-walk-tui says so when asked
    gdb.events.stop.connect(on_stop)
    gdb.events.before_prompt.connect(on_prompt)
LxWalkTui()
