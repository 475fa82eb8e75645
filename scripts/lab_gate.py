#
# symwalk: keep a lab's breakpoints out of the way of the rest of the guest
#
# Sourced by the gdb script of a lab (scripts/guest.py), around the lab's
# steps. Every stop costs the guest ~70 ms under TCG, even one whose
# condition then fails: QEMU retranslates all code each time gdb steps over
# a breakpoint. A lab's breakpoints stop only its process, and lookup, the
# lab program, sets the guest's hostname to its name for the time of its
# lookups (guest/tools/lookup.c): the gate keeps every breakpoint the steps
# create disabled outside that time. The breakpoints' own conditions still
# decide; the gate only spares the stops they would refuse.
#

import gdb


class LabGate(gdb.Breakpoint):
    """Enables the breakpoints created after it only while the guest's
    hostname is comm."""

    def __init__(self, comm):
        super(LabGate, self).__init__("*__x64_sys_sethostname", internal=True)
        self.comm = comm
        self.open = False
        self.gated = []
        gdb.events.breakpoint_created.connect(self.created)

    def created(self, breakpoint):
        self.gated.append(breakpoint)
        breakpoint.enabled = self.open

    def new_hostname(self):
        # At the entry of __x64_sys_sethostname(const struct pt_regs *regs).
        regs = gdb.parse_and_eval("(struct pt_regs *)$rdi").dereference()
        length = min(int(regs["si"]), 64)
        memory = gdb.selected_inferior().read_memory(int(regs["di"]), length)
        return bytes(memory).decode(errors="replace")

    def stop(self):
        try:
            self.open = self.new_hostname() == self.comm
        except (gdb.error, gdb.MemoryError):
            self.open = True
        self.gated = [b for b in self.gated if b.is_valid()]
        for breakpoint in self.gated:
            breakpoint.enabled = self.open
        return False

    def disarm(self):
        """Leave the breakpoints that remain enabled, as if never gated."""
        gdb.events.breakpoint_created.disconnect(self.created)
        for breakpoint in self.gated:
            if breakpoint.is_valid():
                breakpoint.enabled = True
        self.delete()
