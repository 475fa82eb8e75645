"""gdb against the guest: the session file gdb-scripts/session.py reads,
and a gdb -batch session on a guest booted paused, bounded in time."""
import json
import os
import subprocess
import time

from symwalk import layout, markers, qemu

# gdb as every session starts it; SYMWALK_SESSION in its environment names
# the session's file (write_session()).
GDB = ["gdb", "-nx", "-x", os.path.join(layout.GDB_SCRIPTS, "session.py")]


def write_session(vm, path, port, lab=None, steps=None, batch=False, tui=False,
                  batch_labs=None):
    """Write the file gdb-scripts/session.py reads: vm's kernel to load
    and whether to attach to a running guest (lab None) or to boot a lab's
    guest, paused before its boot, and run the lab's steps
    (gdb-scripts/symwalk_gdb/lab.py); a before-boot.gdb beside the steps
    runs before the boot. batch_labs, [[name, steps]]: several labs in one
    guest, one after the other, instead, each begun in gdb's log by the
    line markers.gdb_batch_mark() makes. Return the environment gdb
    needs."""
    before = os.path.join(os.path.dirname(steps or ""), "before-boot.gdb")
    session = {"vmlinux": vm.vmlinux, "kbuild": vm.kbuild,
               "index_cache": layout.GDB_INDEX_CACHE, "port": port, "lab": lab,
               "steps": steps, "batch": batch, "tui": tui, "batch_labs": batch_labs,
               "batch_mark": markers.gdb_batch_mark() if batch_labs else None,
               "before_boot": before if steps and os.path.exists(before) else None}
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(session, f, indent=1)
    return dict(os.environ, SYMWALK_SESSION=path)


def gdb_session(vm, run_dir, append, steps, stem, timeout, batch_labs=None, progress=None):
    """Boot the guest paused (kernel command line + append), run steps (or
    batch_labs, write_session()) in gdb -batch against it, at most timeout
    seconds (with progress, a regex: timeout seconds without a new match
    of it in gdb's output). Return (finished in time, the gdb log, the
    console log), both named after stem in run_dir."""
    os.makedirs(run_dir, exist_ok=True)
    port = qemu.free_port()
    console = os.path.join(run_dir, stem + ".console")
    gdb_log = os.path.join(run_dir, stem + ".gdb.log")
    env = write_session(vm, os.path.join(run_dir, stem + ".session.json"), port,
                        lab=None if batch_labs else stem, steps=steps, batch=True,
                        batch_labs=batch_labs)
    guest = subprocess.Popen(vm.qemu_cmd(append, gdb_port=port, paused=True, console=console),
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    try:
        with open(gdb_log, "w") as log:
            gdb = subprocess.Popen(GDB + ["-batch"], stdin=subprocess.DEVNULL, stdout=log,
                                   stderr=subprocess.STDOUT, cwd=layout.TOP, env=env)
            finished = wait_making_progress(gdb, gdb_log, timeout, progress)
    finally:
        guest.kill()
        guest.wait()
    return finished, gdb_log, console


def wait_making_progress(process, log, timeout, progress=None):
    """Wait for process to end; kill it after timeout seconds (with
    progress, a regex: timeout seconds without a new match of it in the
    file log). Return whether it ended by itself."""
    matches, since = 0, time.monotonic()
    while True:
        try:
            process.wait(timeout=1 if progress else timeout)
            return True
        except subprocess.TimeoutExpired:
            pass
        if progress:
            with open(log, errors="replace") as f:
                now = len(progress.findall(f.read()))
            if now != matches:
                matches, since = now, time.monotonic()
        if time.monotonic() - since >= timeout:
            process.kill()
            process.wait()
            return False

