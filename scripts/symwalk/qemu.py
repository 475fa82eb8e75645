"""The guest under QEMU (TCG): its command line, a boot to completion, a
scenario's run. Every QEMU run is bounded: a guest that does not finish in
time is killed and the tail of its console shown."""
import hashlib
import os
import shutil
import socket
import subprocess

from symwalk import markers

CONSOLE_TAIL = 50

# Guest time as executed instructions (one per nanosecond), identical from
# boot to boot: no time passes while the guest idles, and its clock starts
# at a fixed date. The instrument of every figure measured in the guest.
ICOUNT = ["-icount", "shift=0,sleep=off", "-rtc", "base=2025-01-01T00:00:00,clock=vm"]


# With two vCPUs, a TSC the kernel trusts at boot makes it patch the static
# branch in sched_clock_cpu() late in boot ("sched_clock: Marking stable"),
# while the other vCPU runs that function at every tick. Under QEMU's
# multi-threaded TCG the other vCPU can still execute the patch's int3 once
# the patch is done: "Oops: int3" in sched_clock_cpu(), seen once in make
# check. An unstable TSC leaves that branch as it is from the start.
# The same race hit __schedule() after a guest test turned its trace
# events off: enabling the first event of any instance makes tracing record
# command names, which hooks sched_switch, and disabling the last one
# unhooks it, patching __schedule() each time while the other vCPU runs it.
# An event enabled from boot that never fires after it (initcall_finish)
# keeps that hook in place, so the tests' events no longer patch it.
SMP_APPEND = "tsc=unstable trace_event=initcall:initcall_finish"
# Every boot: TCG's CPU has no TSC-deadline timer, so the kernel calibrates
# the local APIC timer against the PIT, a busy wait of about a third of a
# second of the guest's 0.7 s to init (of some 40 boots a make check).
# Without it the PIT's tick is broadcast to every vCPU.
BOOT_APPEND = "console=ttyS0 nokaslr panic=-1 quiet noapictimer"


class GuestError(Exception):
    """A failure to report in one sentence (and maybe a console tail)."""


def free_port():
    """A TCP port on localhost that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tail(path, lines=CONSOLE_TAIL):
    """The last lines of a log file, for a failure report."""
    try:
        with open(path, errors="replace") as f:
            text = f.read().splitlines()
    except OSError:
        return "(no console output at {})".format(path)
    return "\n".join(text[-lines:])


def with_kernel_modules(initramfs, kbuild):
    """The initramfs to boot kbuild's kernel with: the shared one, and the
    guest's modules built for that kernel (scripts/kernel.sh) appended as
    a second archive, which the kernel unpacks after the first."""
    modules = os.path.join(kbuild, "symwalk-modules.cpio")
    if not os.path.exists(modules):
        return initramfs
    # One per initramfs: another one booted with the same kernel must not
    # find this one's programs.
    both = os.path.join(kbuild, "symwalk-initramfs-{}.cpio".format(
        hashlib.sha1(os.path.abspath(initramfs).encode()).hexdigest()[:12]))
    if not all(os.path.exists(both) and os.path.getmtime(both) >= os.path.getmtime(part)
               for part in (initramfs, modules)):
        # Whole or not at all: several guests may start at once.
        partial = "{}.{}".format(both, os.getpid())
        with open(partial, "wb") as out:
            for part in (initramfs, modules):
                with open(part, "rb") as f:
                    shutil.copyfileobj(f, out)
        os.replace(partial, both)
    return both


class Guest:
    """One QEMU run of the kernel and initramfs."""

    def __init__(self, kbuild, initramfs, append="", qemu_args=(), cpus=1):
        """append: more kernel command line for every boot; qemu_args:
        more QEMU options (ICOUNT, say); cpus: the guest's vCPUs, each a
        thread of QEMU's multi-threaded TCG."""
        self.append = append
        self.cpus = cpus
        self.qemu_args = list(qemu_args)
        self.kbuild = kbuild
        self.bzimage = os.path.join(kbuild, "arch/x86/boot/bzImage")
        self.vmlinux = os.path.join(kbuild, "vmlinux")
        for path, target in ((self.bzimage, "kernel"), (initramfs, "initramfs")):
            if not os.path.exists(path):
                raise GuestError("{} is missing: run 'make {}'".format(path, target))
        self.initramfs = with_kernel_modules(initramfs, kbuild)

    def qemu_cmd(self, append, gdb_port=None, paused=False, console=None):
        """The QEMU command line. console=None puts the serial console
        (and QEMU's monitor, Ctrl-a c) on this terminal."""
        # A socket per vCPU: the MP table lists one CPU per socket, and
        # without ACPI the kernel knows only the CPUs it lists.
        cmd = ["qemu-system-x86_64", "-accel", "tcg",
               "-smp", "{0},sockets={0}".format(self.cpus),
               "-m", "256M", "-no-reboot",
               # No network card and no VGA: the firmware would run their
               # option ROMs at every boot, 80 ms of it under TCG.
               "-net", "none", "-vga", "none",
               "-kernel", self.bzimage, "-initrd", self.initramfs,
               "-append", " ".join(filter(None, [BOOT_APPEND,
                                                  SMP_APPEND if self.cpus > 1 else "",
                                                  self.append, append]))]
        if console is None:
            cmd += ["-nographic"]
        else:
            cmd += ["-display", "none", "-monitor", "none",
                    "-serial", "file:" + console]
        if gdb_port:
            cmd += ["-gdb", "tcp:127.0.0.1:{}".format(gdb_port)]
        if paused:
            cmd += ["-S"]
        return cmd + self.qemu_args

    def boot(self, append, console, timeout):
        """Boot to completion (the guest powers itself off); return the
        console text. Raises GuestError on a timeout or a panic."""
        os.makedirs(os.path.dirname(console), exist_ok=True)
        qemu = subprocess.Popen(self.qemu_cmd(append, console=console),
                                stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            out, _ = qemu.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            qemu.kill()
            qemu.communicate()
            raise GuestError("the guest did not finish within {} s; the last "
                             "lines of its console:\n{}".format(timeout, tail(console)))
        with open(console, errors="replace") as f:
            text = f.read()
        if qemu.returncode != 0:
            raise GuestError("QEMU failed ({}): {}".format(
                qemu.returncode, out.decode(errors="replace").strip()))
        if "Kernel panic" in text:
            raise GuestError("the guest kernel panicked; the last lines of its "
                             "console:\n{}".format(tail(console)))
        return text


def run_scenario(vm, name, run_dir, timeout=120, stem=None):
    """Boot the guest to run guest/scenarios/NAME.sh; return its output
    (the console between its begin and end lines). The console is kept in
    run_dir, named after stem (by default the scenario's name)."""
    console = os.path.join(run_dir, "scenario-{}.console".format(stem or name))
    text = vm.boot("symwalk.mode=scenario symwalk.scenario=" + name, console, timeout)
    found = markers.section(text, "scenario", name)
    if not found or not found.ended:
        raise GuestError("scenario {} did not finish; the last lines of the "
                         "console:\n{}".format(name, tail(console)))
    if found.rc != 0:
        raise GuestError("scenario {} failed (rc={}):\n{}".format(
            name, found.rc, found.text.strip()[-3000:]))
    return found.text


def port_in_use(port):
    """Whether something listens on localhost:port already."""
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0
