#
# symwalk: the sites of the namei events, from the kernel's jump table
#
# Each site of a namei event is a static branch: a NOP at an address that
# the kernel's own __jump_table lists with the event's static key. A
# breakpoint there stops exactly where the event would fire, whatever the
# compiler inlined or moved (a breakpoint by source line does not, in code
# built with -O2); the source line of the address says which site it is.
#

import functools
import os
import re
import struct

import gdb

from symwalk import events
from symwalk import sites as symwalk_sites
from symwalk_gdb import source
from symwalk_gdb.walk import read_memory

class Site:
    """One site of an event: its address, its source text, the functions
    its code sits in, innermost first (inlined ones too), and the argument
    it passes for each parameter of the event's helper, as source text (at
    the site's NOP, none is computed yet)."""

    def __init__(self, address, event, text, functions, arguments):
        self.address = address
        self.event = event
        self.text = text
        self.functions = functions
        self.arguments = arguments

    @property
    def location(self):
        return "*{:#x}".format(self.address)


def jump_entries():
    """(code address, target address, key address) of each entry of the
    kernel's jump table. struct jump_entry holds addresses, or offsets from itself where
    the architecture says so (HAVE_ARCH_JUMP_LABEL_RELATIVE): the type of
    its code field, from the DWARF, tells which."""
    entry_type = gdb.lookup_type("struct jump_entry")
    relative = entry_type["code"].type.sizeof == 4
    start = int(gdb.parse_and_eval("(unsigned long)&__start___jump_table"))
    stop = int(gdb.parse_and_eval("(unsigned long)&__stop___jump_table"))
    size = entry_type.sizeof
    data = read_memory(start, stop - start)
    fields = {name: entry_type[name].bitpos // 8 for name in ("code", "target", "key")}
    mask = 0xffffffffffffffff
    for offset in range(0, len(data) - size + 1, size):
        entry = start + offset
        value = {}
        for name, at in fields.items():
            if relative:
                form = "<q" if name == "key" else "<i"
                value[name] = entry + at + struct.unpack_from(form, data, offset + at)[0]
            else:
                value[name] = struct.unpack_from("<Q", data, offset + at)[0]
        yield value["code"] & mask, value["target"] & mask, (value["key"] & ~3) & mask


def site_line(target, event):
    """The fs/namei.c line of a site: that of the call of its helper in the
    unlikely block the static branch leads to (the NOP's own line is the
    jump label's, in a header)."""
    helper = "<namei_trace_{}>".format(event[len("namei_"):])
    arch = gdb.selected_inferior().architecture()
    for insn in arch.disassemble(target, count=32):
        if helper in insn["asm"]:
            sal = gdb.find_pc_line(insn["addr"])
            if sal.symtab and sal.symtab.filename.endswith("fs/namei.c"):
                return sal.line
            return 0        # a line of a header inlined there
    return None


def functions_at(address):
    """The functions whose code address is in, innermost first."""
    names = []
    try:
        block = gdb.block_for_pc(address)
    except RuntimeError:
        return names
    while block is not None:
        if block.function is not None:
            names.append(block.function.name)
        block = block.superblock
    return names


@functools.lru_cache(maxsize=1)
def defined_helpers():
    """{event: ([parameter], ...)} of the helpers fs/namei.c defines."""
    return symwalk_sites.helper_parameters("\n".join(source.namei_source()[1]))


def helper_parameters(event):
    """The names of the parameters of the event's helper, namei_trace_EVENT(),
    from its definition in fs/namei.c, checked against the number its type
    has in the kernel gdb has loaded (the DWARF of a helper compiled with
    some parameters folded away does not name them all)."""
    helper = "namei_trace_" + event[len("namei_"):]
    symbol = gdb.lookup_static_symbol(helper) or gdb.lookup_global_symbol(helper)
    defined = defined_helpers()
    if symbol is None or event not in defined:
        raise gdb.GdbError("{}() is not in the kernel's symbols or fs/namei.c: is the series' "
                           "tracepoint patch applied?".format(helper))
    names = defined[event][0]
    if len(names) != len(symbol.type.fields()):
        raise gdb.GdbError("{}() has {} parameters in fs/namei.c and {} in the kernel gdb has "
                           "loaded: is it the kernel built from that tree?".format(
                               helper, len(names), len(symbol.type.fields())))
    return names


def site_arguments(event, text):
    """{parameter: argument's source text} of a site's call,
    namei_trace(EVENT, args...)."""
    inside = text[text.index("(") + 1:text.rindex(")")]
    args = events.split_args(inside)[1:]
    parameters = helper_parameters(event)
    if len(args) != len(parameters):
        raise gdb.GdbError("the site \"{}\" passes {} arguments to {}() of {}: fs/namei.c and "
                           "the kernel gdb has loaded differ?".format(
                               text, len(args), event, len(parameters)))
    return dict(zip(parameters, args))


def only_call_in(functions, event, calls):
    """The line of the one call of event in the innermost function of
    fs/namei.c around a site, or 0."""
    for name in functions:
        symbol = gdb.lookup_static_symbol(name) or gdb.lookup_global_symbol(name)
        if symbol is None or not symbol.symtab.filename.endswith("fs/namei.c"):
            continue
        after = sorted(n for n, (e, _) in calls.items() if e == event and n > symbol.line)
        return after[0] if after else 0
    return 0


def read_sites():
    """[Site] of every namei event, sorted by address."""
    calls = {}
    for location, event, text in source.trace_calls(r"namei_\w+"):
        calls[int(location.rsplit(":", 1)[1])] = (event, text)
    keys = {}
    for event in {event for event, _ in calls.values()}:
        keys[int(gdb.parse_and_eval("(unsigned long)&__tracepoint_{}.key".format(event)))] = event
    if not keys:
        return []
    try:
        entries = list(jump_entries())
    except (gdb.error, gdb.MemoryError) as e:
        raise gdb.GdbError("the kernel's jump table cannot be read ({}): is the guest "
                           "booted?".format(e))
    sites = []
    for code, target, key in entries:
        event = keys.get(key)
        if event is None:
            continue
        line = site_line(target, event)
        if line is None:
            continue        # trace_namei_*() itself, inside a helper
        functions = functions_at(code)
        if not line:
            line = only_call_in(functions, event, calls)
        # The site's call: on that line, or the nearest one above it.
        near = [n for n, (e, _) in calls.items() if e == event and n <= line]
        text = calls[max(near)][1] if near else ""
        sites.append(Site(code, event, text, functions, site_arguments(event, text) if text else {}))
    return sorted(sites, key=lambda s: s.address)


# The sites of the kernel gdb holds, read once: (its file, mtime) -> sites.
_sites = {}


def event_sites(event_pattern):
    """[Site] of each namei event whose name (namei_...) matches the
    pattern, sorted by address. Empty for a kernel without them."""
    vmlinux = gdb.current_progspace().filename or ""
    key = (vmlinux, os.path.getmtime(vmlinux) if os.path.exists(vmlinux) else None)
    if key not in _sites:
        _sites.clear()
        _sites[key] = read_sites()
    return [site for site in _sites[key] if re.fullmatch(event_pattern, site.event)]


def site_at(pc):
    """The site of a namei event at pc, or None."""
    return next((site for site in event_sites(r"namei_\w+") if site.address == pc), None)
