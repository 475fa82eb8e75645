#
# symwalk: lx-symlink-stack, the links the walk is in
#

import gdb

from symwalk_gdb import constants, walk
from symwalk_gdb.command import one_sentence, plural

# The delayed_call that releases a link body, and what its argument is.
DONE_ARGS = {
    "shmem_put_link": "folio",
    "page_put_link": "folio",
    "kfree_link": "body",
}


def symbol(address):
    """The function at address, by name."""
    try:
        block = gdb.block_for_pc(address)
        if block and block.function:
            return block.function.name
    except (RuntimeError, gdb.error):
        pass
    return "{:#x}".format(address)


def describe_done(frame):
    """The frame's delayed_call: the callback by name and its argument."""
    if not frame.done_fn:
        return "none (nothing to release: a body in the inode's i_link, or none at all)"
    fn = symbol(frame.done_fn)
    kind = DONE_ARGS.get(fn, "arg")
    arg = "{} {:#x}".format(kind, frame.done_arg)
    if kind == "body":
        try:
            arg += " \"{}\"".format(walk.read_string(frame.done_arg, limit=256))
        except gdb.MemoryError:
            pass
    return "{}({})".format(fn, arg)


def describe_seq(w, frame, names):
    if not w.rcu:
        return "{} (REF-walk now: the link is held by reference, seq is not checked)".format(
            frame.seq)
    now = walk.sequence_now(names.dentry(frame.link["dentry"])["d_seq"])
    if now == frame.seq:
        return "{} (the link's d_seq still matches)".format(frame.seq)
    return "{} (the link's d_seq is now {}: legitimizing it will fail)".format(frame.seq, now)


def remnant_text(w, frame, top_state):
    if frame.index == w.depth - 1 and top_state == "pending":
        return "(not stored yet: link_path_walk() stores it when pick_link() returns)"
    if frame.index == w.depth - 1 and top_state == "none":
        return "(none: a trailing link or a pure jump, which keep no remnant)"
    if frame.remnant is None:
        return "(none: a trailing link, finished when its body is)"
    text = walk.read_string(frame.remnant)
    return "\"{}\"".format(text)


def pushed(pick_link_frame, w):
    """Whether pick_link() (that frame of it) has pushed its link's frame
    (nd->depth++): the frame on top is then that link's. Until then, the
    frame on top is the link before, whose remnant is stored."""
    try:
        link = pick_link_frame.read_var("link")
        if link.is_optimized_out:
            return True
        link = link.dereference()
        if not w.frames:
            return False
        top = w.frames[-1].link
        return int(top["dentry"]) == int(link["dentry"]) and int(top["mnt"]) == int(link["mnt"])
    except (gdb.error, ValueError):
        return True


def top_frame_state(w):
    """Where the stop is, for the remnant of the frame on top: "pending"
    once pick_link() has pushed the frame and until link_path_walk() stores
    the remnant, unless the link is a trailing one, which keeps none
    ("none"); None elsewhere, and before the push (reserve_stack(),
    nd_alloc_stack(), pick_link() until nd->depth++), where the frame on
    top is the link before, its remnant stored."""
    c = constants.get()
    try:
        frame = gdb.selected_frame()
        while frame is not None:
            name = frame.name()
            if name in ("reserve_stack", "nd_alloc_stack"):
                return None
            if name == "pick_link":
                if not pushed(frame, w):
                    return None
                try:
                    flags = frame.read_var("flags")
                    if not flags.is_optimized_out and int(flags) & c.WALK_TRAILING:
                        return "none"
                except (gdb.error, ValueError):
                    pass
                return "pending"
            if name in ("nd_jump_root", "nd_jump_link"):
                return "pending"
            if name == "link_path_walk":
                return None
            frame = frame.older()
    except gdb.error:
        pass
    return None


def frame_lines(w, names):
    """One block per frame, bottom (0) to top."""
    lines = []
    top_state = top_frame_state(w)
    for f in w.frames:
        link = names.path(f.link)
        lines.append("  [{}] link {}".format(f.index, link))
        lines.append("      remnant: {}".format(remnant_text(w, f, top_state)))
        lines.append("      done: {}".format(describe_done(f)))
        lines.append("      seq: {}".format(describe_seq(w, f, names)))
    return lines


class LxSymlinkStack(gdb.Command):
    """Show the symlink stack of the current walk, bottom frame first.

lx-symlink-stack [EXPR | -p PID | -c CPU]: one block per link the walk
is in (struct saved): its index; the link, by its full path; the
remnant, what is left of the name to walk once the link's body is done;
the delayed_call that releases the link body when the frame is popped
(the "cookie" of the 2015 design): none for a body kept in the inode
(i_link), shmem_put_link and its folio for a tmpfs body in the page
cache, kfree_link and its buffer for a body built on the fly such as
/proc/self; and the d_seq sample of the link dentry, which RCU-walk
checks when it leaves for REF-walk (it means nothing for a frame pushed
in REF-walk). A trailing link (the last component of the name or of
another link's body) keeps no remnant: link_path_walk() stores the
remnants of the links it meets one slot lower while it walks a trailing
link's body.
EXPR is a struct nameidata pointer; -p PID names the walk of a task, -c
CPU the walk of the task that CPU runs (gdb stops every CPU of the guest
at once); without an argument, current->nameidata of the CPU that
stopped."""

    def __init__(self):
        super(LxSymlinkStack, self).__init__("lx-symlink-stack", gdb.COMMAND_DATA)

    @one_sentence("lx-symlink-stack")
    def invoke(self, arg, from_tty):
        w, owner = walk.walk_from_arg(arg, "lx-symlink-stack")
        lines = ["symlink stack of the walk {}: depth {}, {} followed, {}".format(
            owner, w.depth, plural(w.total_link_count, "link"),
            "embedded frames" if w.embedded else "heap array")]
        if not w.frames:
            lines.append("  (empty: the walk is in no link)")
        lines += frame_lines(w, walk.Names())
        gdb.write("\n".join(lines) + "\n")


LxSymlinkStack()
