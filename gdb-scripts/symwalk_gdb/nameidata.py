#
# symwalk: lx-nameidata and $lx_nameidata(), the walk in progress
#

import gdb

from symwalk_gdb import constants, sites, stack, walk
from symwalk_gdb.command import one_sentence

# What each sequence count of struct nameidata samples, and so guards.
SEQ_MEANINGS = [
    ("seq", "d_seq of path.dentry: the step that led here still holds"),
    ("next_seq", "d_seq of the dentry being stepped into"),
    ("root_seq", "d_seq of root.dentry"),
    ("m_seq", "mount_lock: no writer (a mount, an umount, a last mntput) since the walk began"),
    ("r_seq", "rename_lock: no rename since the walk began"),
]


def seq_consequence(field, w):
    """What a count that moved since its sample makes the walk do. RCU-walk
    checks the d_seq samples and mount_lock; a scoped walk (RESOLVE_BENEATH,
    RESOLVE_IN_ROOT) checks mount_lock and rename_lock after each "..", in
    either mode."""
    flags = constants.get().LOOKUP_FLAGS
    scoped = w.flags & (flags["LOOKUP_BENEATH"] | flags["LOOKUP_IN_ROOT"])
    dotdot = "\"..\" will fail with -EAGAIN" if scoped else None
    if field == "m_seq" and w.rcu:
        return "RCU-walk will fail its check" + (", and " + dotdot if dotdot else "")
    if field in ("m_seq", "r_seq"):
        return dotdot or "only a scoped walk's \"..\" checks it"
    return "RCU-walk will fail its check (-ECHILD)"


def seq_lines(w, names):
    """The sequence counts, what each guards, and whether it still holds."""
    nd = w.nd
    if int(nd["path"]["dentry"]) == 0:
        if walk.walk_ended():
            return ["    (none: the walk has ended; terminate_walk() dropped its path, "
                    "and restore_nameidata() gives the nameidata back)"]
        return ["    (none: the walk holds no path now; path_init() sets one up and "
                "samples them at the start of each attempt, terminate_walk() drops it "
                "at the end)"]
    now = {}
    try:
        if int(nd["path"]["dentry"]):
            now["seq"] = walk.sequence_now(names.dentry(nd["path"]["dentry"])["d_seq"])
        # root.dentry is unset stack until set_root(): root.mnt says
        if int(nd["root"]["mnt"]):
            now["root_seq"] = walk.sequence_now(names.dentry(nd["root"]["dentry"])["d_seq"])
        now["m_seq"] = walk.sequence_now(gdb.parse_and_eval("mount_lock"))
        now["r_seq"] = walk.sequence_now(gdb.parse_and_eval("rename_lock"))
    except (gdb.error, gdb.MemoryError):
        pass
    lines = []
    for field, meaning in SEQ_MEANINGS:
        value = int(nd[field])
        check = ""
        # In REF-walk the d_seq samples are cleared: nothing to compare.
        if field in now and (w.rcu or field in ("m_seq", "r_seq")):
            check = ", unchanged" if now[field] == value else \
                ", now {}: {}".format(now[field], seq_consequence(field, w))
            if now[field] % 2:
                # A writer sits between write_seqcount_begin() and _end():
                # readers spin in read_seqcount_begin() until it leaves.
                check += " (odd: a write is in progress, and every reader of it waits)"
        lines.append("    {:<9}{:<6} {}{}".format(field + ":", value, meaning, check))
    if not w.rcu:
        lines.append("    (REF-walk: the walk holds references; only a scoped walk's \"..\" "
                     "still checks mount_lock and rename_lock)")
    return lines


def show_nameidata(w, owner):
    c = constants.get()
    names = walk.Names()
    nd = w.nd
    last = nd["last"]
    last_name = walk.read_string(last["name"], last["len"]) if int(last["name"]) else ""
    lines = [
        "nameidata {}, {}".format(owner, "RCU-walk" if w.rcu else "REF-walk"),
        "  name: {}".format(w.name() or "(none)"),
        "  path: {}".format(names.path(nd["path"])),
        "  last: \"{}\" ({}){}".format(
            last_name, constants.last_type(nd["last_type"]),
            " (link_path_walk() has just begun a name or a trailing link's body: "
            "\"{}\" is the component before it, not yet replaced)".format(last_name)
            if last_name and constants.last_type(nd["last_type"]) == "LAST_ROOT" else ""),
        "  root: {}".format(names.path(nd["root"]) if int(nd["root"]["mnt"])
                            else "(not set: set_root() runs at the first absolute "
                                 "name or link, or \"..\")"),
        "  flags: {}".format(constants.lookup_flags(w.flags)),
        "  state: {}".format(constants.nd_state(w.state)),
        "  depth: {}".format(w.depth),
        "  total_link_count: {} of {}".format(w.total_link_count, c.MAXSYMLINKS),
        "  stack: {}".format(
            "embedded ({} frames)".format(c.EMBEDDED_LEVELS) if w.embedded
            else "heap array ({} frames)".format(c.MAXSYMLINKS)),
        "  seq counts:",
    ]
    lines += seq_lines(w, names)
    lines += stack.frame_lines(w, names)
    outer = w.outer()
    while outer:
        o = walk.Walk(outer)
        lines.append("  nested in: nameidata at {:#x} of \"{}\", depth {}".format(
            outer, o.name() or "", o.depth))
        outer = o.outer()
    gdb.write("\n".join(lines) + "\n")


class LxNameidata(gdb.Command):
    """Show the path walk the current task is in (current->nameidata).

lx-nameidata [EXPR | -p PID | -c CPU]: print the walk in progress: the
name looked up; where the walk stands (path) and the component it works
on (last, with its LAST_* type); the root it resolves "/" and absolute
links against; the LOOKUP_* flags and the ND_* state bits by name;
whether it is in RCU-walk (no references taken, every step checked
against sequence counts) or in REF-walk; the sequence counts and what
each guards; the depth of the symlink stack, the links followed so far
(total_link_count, at most MAXSYMLINKS: 40), whether the stack is still
the 2 frames embedded in the nameidata or the heap array of 40; each
frame (see lx-symlink-stack); and the outer walks it is nested in
(nd->saved).
EXPR is a struct nameidata pointer; -p PID names the walk of a task, -c
CPU the walk of the task that CPU runs (gdb stops every CPU of the guest
at once); without an argument, current->nameidata of the CPU that
stopped."""

    def __init__(self):
        super(LxNameidata, self).__init__("lx-nameidata", gdb.COMMAND_DATA)

    @one_sentence("lx-nameidata")
    def invoke(self, arg, from_tty):
        w, owner = walk.walk_from_arg(arg, "lx-nameidata")
        show_nameidata(w, owner)
        site = None if arg.strip() else sites.site_at(int(gdb.newest_frame().pc()))
        if site and site.event == "namei_lookup_start":
            gdb.write("(stopped where path_init() starts an attempt, before it sets "
                      "the flags and the path: those above are the last attempt's)\n")


LxNameidata()


class LxNameidataFunc(gdb.Function):
    """Return current->nameidata, the walk the current task is in.

$lx_nameidata(): the struct nameidata pointer of the current task's walk,
for expressions such as p $lx_nameidata()->last or
p $lx_nameidata()->stack[0]; an error when no lookup is in progress."""

    def __init__(self):
        super(LxNameidataFunc, self).__init__("lx_nameidata")

    @one_sentence("$lx_nameidata()")
    def invoke(self):
        # Also evaluated in breakpoint conditions, while gdb deems the guest
        # running.
        return walk.current_nameidata(in_stop=True)


LxNameidataFunc()
