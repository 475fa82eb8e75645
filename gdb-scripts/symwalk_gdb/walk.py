#
# symwalk: reading the walk in progress (struct nameidata, struct saved)
#

import gdb
from linux import cpus, utils

nameidata_type = utils.CachedType("struct nameidata")

# fs/namei.c: the stack lives in nd->internal until it outgrows it, then in
# a kmalloc'ed array of MAXSYMLINKS frames.
MAXSYMLINKS = 40


def current_task():
    """Return the task the guest's CPU is running (struct task_struct)."""
    if gdb.selected_inferior().pid == 0:
        raise gdb.GdbError("gdb is not attached to the guest: "
                           "start it with 'make lab' or 'make run' + 'make gdb'.")
    try:
        task = cpus.get_current_task(-1)
        task["pid"].fetch_lazy()
        return task
    except (gdb.error, gdb.MemoryError):
        raise gdb.GdbError("the current task cannot be read: the kernel has not "
                           "booted far enough yet (continue to a later point).")


def current_nameidata(task=None):
    """Return the struct nameidata * of the walk the current task is in."""
    task = task or current_task()
    nd = task["nameidata"]
    if int(nd) == 0:
        raise gdb.GdbError(
            "no path lookup is in progress in {} (pid {}): "
            "stop inside the walk first, e.g. with lx-walk-break.".format(
                task["comm"].string(), int(task["pid"])))
    return nd


def as_nameidata(value):
    """Turn a gdb value (a pointer or an address) into struct nameidata *."""
    return value.cast(nameidata_type.get_type().pointer())


def read_string(ptr, length=None, limit=4096):
    """Read a C string (or length bytes) from the guest in page-sized bulk
    reads, or say why it cannot be read."""
    addr = int(ptr)
    if addr == 0:
        return "(null)"
    want = limit if length is None else int(length)
    inferior = gdb.selected_inferior()
    data = b""
    try:
        while len(data) < want:
            chunk = min(want - len(data), 4096 - (addr + len(data)) % 4096)
            data += inferior.read_memory(addr + len(data), chunk).tobytes()
            if length is None and b"\0" in data:
                break
    except gdb.MemoryError:
        return "(unreadable at {:#x})".format(addr)
    if length is None:
        data = data.split(b"\0", 1)[0]
    return data.decode("utf-8", "backslashreplace")


def dentry_path(dentry):
    """Full path of a dentry up to the root of its mount."""
    from linux import vfs
    if int(dentry) == 0:
        return "(no dentry)"
    try:
        return vfs.dentry_name(dentry) or "/"
    except (gdb.error, gdb.MemoryError):
        return "(unreadable dentry at {:#x})".format(int(dentry))


def stack_frames(nd):
    """The frames of the symlink stack, bottom (0) to top (depth - 1)."""
    depth = int(nd["depth"])
    if depth < 0 or depth > MAXSYMLINKS:
        raise gdb.GdbError("this nameidata says depth {}, beyond MAXSYMLINKS "
                           "({}): it is not a walk in progress.".format(
                               depth, MAXSYMLINKS))
    return [nd["stack"][i] for i in range(depth)]
