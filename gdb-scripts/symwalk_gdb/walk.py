#
# symwalk: reading a path walk (struct nameidata, struct saved) from the guest
#
# Reads are bulk: a struct is fetched in one memory read and decoded in gdb,
# so that a 40-frame stack costs a few dozen reads over the gdbstub, not
# hundreds.
#

import gdb
from linux import cpus, utils

from symwalk_gdb import constants

nameidata_type = utils.CachedType("struct nameidata")
saved_type = utils.CachedType("struct saved")
dentry_type = utils.CachedType("struct dentry")
mount_type = utils.CachedType("struct mount")
filename_type = utils.CachedType("struct filename")

PATH_MAX = 4096


def guest_stopped(in_stop=False):
    """Raise a one-sentence error unless gdb holds a stopped guest. in_stop:
    called from a breakpoint's stop() or condition, where gdb counts the
    guest as still running."""
    thread = gdb.selected_thread()
    if gdb.selected_inferior().pid == 0 or thread is None:
        raise gdb.GdbError("gdb is not attached to the guest: start it with "
                           "'make lab' or 'make run' + 'make gdb'.")
    if not in_stop and thread.is_running():
        raise gdb.GdbError("the guest is running: interrupt it (Ctrl-C) or wait "
                           "for a breakpoint first.")


def current_task(in_stop=False):
    """The task the guest's CPU is running (struct task_struct); in_stop as
    for guest_stopped()."""
    guest_stopped(in_stop)
    try:
        task = cpus.get_current_task(-1)
        task["pid"].fetch_lazy()
        return task
    except (gdb.error, gdb.MemoryError):
        raise gdb.GdbError("the current task cannot be read: the kernel has not "
                           "booted far enough yet (continue to a later point).")


def task_name(task):
    return "{} (pid {})".format(task["comm"].string(), int(task["pid"]))


def current_nameidata(task=None, in_stop=False):
    """The struct nameidata * of the walk the current task is in."""
    task = task or current_task(in_stop)
    nd = task["nameidata"]
    if int(nd) == 0:
        raise gdb.GdbError(
            "no path lookup is in progress in {}: stop inside the walk first, "
            "e.g. with lx-walk-break.".format(task_name(task)))
    return nd


def end_addresses():
    """The addresses of restore_nameidata(), where a lookup gives its
    nameidata back: one for each copy inlined into a caller."""
    try:
        _, sals = gdb.decode_line("restore_nameidata")
    except gdb.error:
        return set()
    return {sal.pc for sal in sals or ()}


def walk_ended():
    """Whether the guest stopped where a lookup gives its nameidata back
    (restore_nameidata()): current->nameidata still points at the walk,
    but it is over. Inlined, restore_nameidata() may have no frame of its
    own there: its addresses tell."""
    try:
        frame = gdb.newest_frame()
        return frame.name() == "restore_nameidata" or frame.pc() in end_addresses()
    except gdb.error:
        return False


# Hints for the expressions students try first, by what gdb said.
EVAL_HINTS = [
    ('No symbol "current"', "the kernel's current is a macro, which gdb cannot "
     "evaluate: $lx_current() is the current task, and lx-nameidata without an "
     "argument shows its walk"),
    ("No symbol", "without an argument, lx-nameidata and lx-symlink-stack show "
     "current->nameidata; in expressions it is $lx_nameidata()"),
]


def task_of_arg(words, command):
    """The task that '-p PID' or '-c CPU' names."""
    option, value = words
    try:
        number = int(value, 0)
    except ValueError:
        raise gdb.GdbError("{}: {} takes a number, not '{}'.".format(command, option, value))
    if option == "-c":
        online = list(cpus.each_online_cpu())
        if number not in online:
            raise gdb.GdbError("{}: the guest has no CPU {}; its CPUs: {}.".format(
                command, number, ", ".join(str(c) for c in online)))
        return cpus.get_current_task(number)
    from linux import tasks
    task = tasks.get_task_by_pid(number)
    if task is None:
        raise gdb.GdbError("{}: the guest has no process {} ('lx-ps' lists "
                           "them).".format(command, number))
    return task.dereference()


def namei_frame():
    """(frame, level) of the innermost frame whose code is fs/namei.c's:
    at an event's site, gdb's frame 0 is the static branch, inlined from
    a header."""
    frame, level = gdb.newest_frame(), 0
    sal = frame.find_sal()
    while frame.older() is not None and frame.type() == gdb.INLINE_FRAME and \
            not (sal.symtab and sal.symtab.filename.endswith("fs/namei.c")):
        frame, level = frame.older(), level + 1
        sal = frame.find_sal()
    return frame, level


def evaluate(expression):
    """expression's value in the selected frame or, if gdb stopped in a
    header's code inlined into fs/namei.c (an event's static branch), in
    the function of fs/namei.c around it."""
    try:
        return gdb.parse_and_eval(expression)
    except gdb.error:
        selected = gdb.selected_frame()
        frame, level = namei_frame()
        if not level or selected != gdb.newest_frame():
            raise
    frame.select()
    try:
        return gdb.parse_and_eval(expression)
    finally:
        selected.select()


def walk_from_arg(arg, command):
    """The Walk that arg names: EXPR (a struct nameidata pointer), '-p PID'
    or '-c CPU' (that task's walk, or the walk of the task running on that
    CPU), or, empty, the current task's; and who owns it, in words."""
    words = arg.split()
    if not words:
        task = current_task()
        return Walk(current_nameidata(task)), "of " + task_name(task)
    guest_stopped()
    if words[0] in ("-p", "-c"):
        if len(words) != 2:
            raise gdb.GdbError("{}: {} takes one number: {} {} N.".format(
                command, words[0], command, words[0]))
        task = task_of_arg(words, command)
        owner = "of " + task_name(task)
        if words[0] == "-c":
            owner += ", on CPU {}".format(int(words[1], 0))
        return Walk(current_nameidata(task)), owner
    try:
        pointer = evaluate(arg)
    except gdb.error as e:
        hint = next((h for said, h in EVAL_HINTS if said in str(e)), None)
        raise gdb.GdbError("{}: cannot evaluate '{}': {}{}.".format(
            command, arg, str(e).rstrip("."), "; " + hint if hint else ""))
    if pointer.is_optimized_out:
        raise gdb.GdbError(
            "{}: '{}' is optimized out here: the compiler keeps it nowhere gdb "
            "can read at this point. Without an argument, {} shows "
            "current->nameidata, which $lx_nameidata() gives to expressions.".format(
                command, arg, command))
    kind = pointer.type.strip_typedefs()
    if kind.code == gdb.TYPE_CODE_STRUCT and kind.tag == "nameidata" and pointer.address:
        # a struct nameidata itself, such as filename_lookup()'s nd
        pointer = pointer.address
    elif kind.code not in (gdb.TYPE_CODE_PTR, gdb.TYPE_CODE_INT):
        raise gdb.GdbError("{}: '{}' is a {}, not a pointer to a struct "
                           "nameidata.".format(command, arg, pointer.type))
    return Walk(pointer), "at {:#x}".format(int(pointer))


def read_memory(address, size):
    """size bytes of the guest's memory at address."""
    return bytes(gdb.selected_inferior().read_memory(address, size))


def fetch_bytes(pointer, target_type=None):
    """Read *pointer in one go: (a gdb value that needs no more reads, its
    bytes)."""
    target_type = target_type or pointer.type.target()
    data = bytes(gdb.selected_inferior().read_memory(int(pointer), target_type.sizeof))
    return gdb.Value(data, target_type), data


def fetch(pointer, target_type=None):
    """Read *pointer in one go; return a gdb value that needs no more reads."""
    return fetch_bytes(pointer, target_type)[0]


# Bytes per read of a string: most names are short, and a read must not
# cross into a page that may not be mapped.
STRING_CHUNK = 128


def read_string(address, length=None, limit=PATH_MAX):
    """A C string (or length bytes) of the guest, read in small chunks that
    never cross a page boundary."""
    address = int(address)
    if address == 0:
        return None
    want = limit if length is None else int(length)
    inferior = gdb.selected_inferior()
    data = b""
    while len(data) < want:
        chunk = min(want - len(data), STRING_CHUNK,
                    4096 - (address + len(data)) % 4096)
        data += inferior.read_memory(address + len(data), chunk).tobytes()
        if length is None and b"\0" in data:
            break
    if length is None:
        data = data.split(b"\0", 1)[0]
    return data.decode("utf-8", "backslashreplace")


def field_offset(struct_type, field):
    """Offset in bytes of a field of a struct type."""
    return struct_type[field].bitpos // 8


class Names:
    """Dentry names and paths, cached for the life of one command."""

    def __init__(self):
        self.cache = {}

    def _fetch(self, address, struct_type):
        """(value, bytes) of the struct at address."""
        key = (int(address), struct_type.name)
        if key not in self.cache:
            self.cache[key] = fetch_bytes(gdb.Value(int(address)).cast(struct_type.pointer()))
        return self.cache[key]

    def dentry(self, address):
        return self._fetch(address, dentry_type.get_type())[0]

    def name(self, address):
        """The dentry's own name."""
        d, data = self._fetch(address, dentry_type.get_type())
        qstr = d["d_name"]
        length = int(qstr["len"])
        offset = field_offset(dentry_type.get_type(), "d_iname")
        if int(qstr["name"]) == int(address) + offset:
            return data[offset:offset + length].decode("utf-8", "backslashreplace")
        return read_string(qstr["name"], length)

    def path(self, path):
        """The full path of a struct path, across mounts, as d_path() says
        it; without a mount, up to the root of the dentry's filesystem."""
        dentry = int(path["dentry"])
        if dentry == 0:
            return "(none)"
        struct_mount = mount_type.get_type()
        mount = None
        if int(path["mnt"]):
            mount_address = int(path["mnt"]) - field_offset(struct_mount, "mnt")
            mount = self._fetch(mount_address, struct_mount)[0]
        parts = []
        for _ in range(PATH_MAX // 2):
            if mount is not None and dentry == int(mount["mnt"]["mnt_root"]):
                parent = int(mount["mnt_parent"])
                if parent == mount_address:
                    break
                dentry = int(mount["mnt_mountpoint"])
                mount_address = parent
                mount = self._fetch(parent, struct_mount)[0]
                continue
            parent = int(self.dentry(dentry)["d_parent"])
            if parent == dentry:
                break
            parts.append(self.name(dentry))
            dentry = parent
        return "/" + "/".join(reversed(parts)) + self._deleted(path["dentry"])

    def _deleted(self, dentry):
        """" (deleted)" for an unlinked dentry, as d_path() says it."""
        d = self.dentry(dentry)
        if int(d["d_parent"]) != int(dentry) and int(d["d_hash"]["pprev"]) == 0:
            return " (deleted)"
        return ""


def sequence_now(seqcount):
    """The current value of a seqcount_t, seqcount_spinlock_t or seqlock_t."""
    value = seqcount
    for _ in range(4):
        fields = [f.name for f in value.type.strip_typedefs().fields()]
        if "sequence" in fields:
            return int(value["sequence"])
        value = value["seqcount"]
    raise gdb.GdbError("cannot read the sequence of a {}".format(seqcount.type))


class Frame:
    """One frame of the symlink stack (struct saved)."""

    def __init__(self, index, saved, remnant):
        self.index = index
        self.link = saved["link"]
        self.done_fn = int(saved["done"]["fn"])
        self.done_arg = int(saved["done"]["arg"])
        self.seq = int(saved["seq"])
        # The rest of the name to walk once this link is done: an address
        # (None when this frame keeps none, see Walk.remnant_slot()).
        self.remnant = remnant


def stopped_at():
    """Where the guest is stopped (or stopping, in a breakpoint's stop()):
    its thread and general registers, or None when it is gone. Two stops
    with the same are one place."""
    thread = gdb.selected_thread()
    if thread is None:
        return None
    try:
        frame = gdb.newest_frame()
    except gdb.error:
        return None  # running: no frame to read
    registers = []
    for register in frame.architecture().registers("general"):
        try:
            registers.append(int(frame.read_register(register.name)))
        except (gdb.error, ValueError):
            pass  # a register this target does not send
    return thread.num, tuple(registers)


class RepeatedHits:
    """gdb, on QEMU's gdbstub, now and then reports one breakpoint hit twice
    in a row, the guest unchanged between the two. A repeat is a hit of the
    same thread of the same process at the same place with the same
    registers, in a walk in the same state: a step of the walk changes its
    state (a push counts a link, a retry changes the flags), and another
    lookup, even of the same path, enters the kernel with other registers."""

    def __init__(self):
        self.last = None

    def repeated(self, walk):
        """Whether this hit repeats the last one recorded; records it if not."""
        hit = (stopped_at(), int(current_task(in_stop=True)["pid"]), walk.address,
               walk.depth, walk.total_link_count, walk.flags, walk.state)
        if hit == self.last:
            return True
        self.last = hit
        return False


class Walk:
    """A struct nameidata of a walk in progress, read from the guest."""

    def __init__(self, pointer):
        c = constants.get()
        self.address = int(pointer)
        try:
            self.nd = fetch(gdb.Value(self.address).cast(
                nameidata_type.get_type().pointer()))
        except gdb.MemoryError:
            raise gdb.GdbError("{:#x} cannot be read: it is not the address of a "
                               "struct nameidata.".format(self.address))
        nd = self.nd
        self.depth = int(nd["depth"])
        self.total_link_count = int(nd["total_link_count"])
        self.flags = int(nd["flags"])
        self.state = int(nd["state"])
        internal = self.address + field_offset(nameidata_type.get_type(), "internal")
        self.embedded = int(nd["stack"]) == internal
        problem = None
        if not 0 <= self.depth <= c.MAXSYMLINKS:
            problem = "its depth is {}, beyond MAXSYMLINKS ({})".format(
                self.depth, c.MAXSYMLINKS)
        elif not self.depth <= self.total_link_count <= c.MAXSYMLINKS + 1:
            problem = "it counts {} links followed for a stack {} deep".format(
                self.total_link_count, self.depth)
        elif self.flags & ~sum(c.LOOKUP_FLAGS.values()):
            problem = "its flags {:#x} are not LOOKUP_* flags".format(self.flags)
        elif not self.embedded and int(nd["stack"]) < 0xffff800000000000:
            problem = "its stack pointer {:#x} is not a kernel address".format(
                int(nd["stack"]))
        if problem:
            raise gdb.GdbError("{:#x} is not a struct nameidata of a walk in "
                               "progress: {}.".format(self.address, problem))
        self.rcu = bool(self.flags & c.LOOKUP_FLAGS["LOOKUP_RCU"])
        self.frames = self._read_frames()

    def _read_frames(self):
        if self.depth == 0:
            return []
        array = saved_type.get_type().array(self.depth - 1)
        stack = fetch(self.nd["stack"].cast(array.pointer()), array)
        slots = [int(stack[i]["name"]) for i in range(self.depth)]
        base = self.remnant_base(slots[0])
        frames = []
        for i in range(self.depth):
            slot = i - base
            frames.append(Frame(i, stack[i], slots[slot] if slot >= 0 else None))
        return frames

    def name(self):
        """The name being looked up (struct filename), or None."""
        name = int(self.nd["name"])
        if name == 0:
            return None
        return read_string(fetch(gdb.Value(name).cast(
            filename_type.get_type().pointer()))["name"])

    def remnant_base(self, slot0):
        """Where link_path_walk() keeps the frames' remnants.

        It stores them in stack[].name indexed by its own depth, which
        starts at 0 on each call. Walking the original name, that is the
        frame's own index. Walking the body of a trailing link (pushed by
        lookup_last() or open_last_lookups(), which stores no remnant),
        frame i's remnant is in stack[i - 1].name. The remnant of frame 0
        pushed from the original name points into that name: anything
        else says frame 0 is a trailing link."""
        name = int(self.nd["name"])
        if name == 0:
            return 0
        start = int(fetch(gdb.Value(name).cast(filename_type.get_type().pointer()))["name"])
        length = len((self.name() or "").encode())
        return 0 if start <= slot0 <= start + length else 1

    def outer(self):
        """The struct nameidata * of the walk this one is nested in, or 0."""
        return int(self.nd["saved"])
