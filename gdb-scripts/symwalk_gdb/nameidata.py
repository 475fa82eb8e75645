#
# symwalk: lx-nameidata, the walk in progress
#

import gdb

from symwalk_gdb import walk


def frame_summary(nd, index, frame):
    """One line of the symlink stack."""
    done = frame["done"]
    fn = int(done["fn"])
    if fn:
        callback = str(done["fn"]).split("<")[-1].rstrip(">") or hex(fn)
        cookie = "{}({:#x})".format(callback, int(done["arg"]))
    else:
        cookie = "none"
    return "  [{}] link {}  remnant \"{}\"  done {}  seq {}".format(
        index, walk.dentry_path(frame["link"]["dentry"]),
        walk.read_string(frame["name"]), cookie, int(frame["seq"]))


class LxNameidata(gdb.Command):
    """Show the path walk the current task is in (current->nameidata).

lx-nameidata [EXPR]: print the walk in progress: the name looked up, where
the walk stands (path), the component it works on (last), its depth in the
symlink stack, the links it has followed so far (total_link_count, at most
40) and each frame of the stack, bottom first: the link, the rest of the
name to walk after it (remnant), its delayed_call (the "done" callback that
releases the link body) and the d_seq sample it was taken with.
EXPR is a struct nameidata pointer; without it, current->nameidata."""

    def __init__(self):
        super(LxNameidata, self).__init__("lx-nameidata", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        if arg.strip():
            try:
                nd = walk.as_nameidata(gdb.parse_and_eval(arg))
            except gdb.error as e:
                raise gdb.GdbError("lx-nameidata: cannot evaluate '{}': {}".format(arg, e))
            owner = "at {:#x}".format(int(nd))
        else:
            task = walk.current_task()
            nd = walk.current_nameidata(task)
            owner = "of {} (pid {})".format(task["comm"].string(), int(task["pid"]))
        try:
            self.show(nd, owner)
        except gdb.MemoryError:
            raise gdb.GdbError("lx-nameidata: the nameidata {} cannot be read: "
                               "is it a struct nameidata?".format(owner))

    def show(self, nd, owner):
        frames = walk.stack_frames(nd)
        rcu = "RCU-walk" if int(nd["flags"]) & 0x40 else "REF-walk"
        embedded = int(nd["stack"]) == int(nd["internal"].address)
        last = nd["last"]
        lines = [
            "nameidata {}, {}".format(owner, rcu),
            "  name: {}".format(walk.read_string(nd["name"]["name"])
                                if int(nd["name"]) else "(none)"),
            "  path: {}".format(walk.dentry_path(nd["path"]["dentry"])),
            "  last: \"{}\" (last_type {})".format(
                walk.read_string(last["name"], last["len"]) if int(last["name"]) else "",
                int(nd["last_type"])),
            "  root: {}".format(walk.dentry_path(nd["root"]["dentry"])),
            "  flags: {:#x}  state: {:#x}".format(int(nd["flags"]), int(nd["state"])),
            "  depth: {}".format(len(frames)),
            "  total_link_count: {} of {}".format(int(nd["total_link_count"]),
                                                  walk.MAXSYMLINKS),
            "  stack: {}".format("embedded (2 frames)" if embedded
                                 else "heap array ({} frames)".format(walk.MAXSYMLINKS)),
        ]
        lines += [frame_summary(nd, i, f) for i, f in enumerate(frames)]
        gdb.write("\n".join(lines) + "\n")


LxNameidata()
