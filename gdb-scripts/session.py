#
# symwalk: a gdb session as make gdb, make lab, make check and the docs
# start it:
#   SYMWALK_SESSION=FILE gdb -nx -x gdb-scripts/session.py
#
# FILE (JSON, written by scripts/symwalk/gdbsession.py's write_session()) says
# which kernel to load and what to do: attach to a running guest ("lab":
# null), boot a paused one to a lab and run its steps, or run the steps of
# several labs in turn ("batch_labs", make check's) (symwalk_gdb/lab.py).
#

import json
import os
import sys

import gdb

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    path = os.environ.get("SYMWALK_SESSION")
    if not path:
        gdb.write("symwalk: run gdb as 'make gdb' or 'make lab' do: "
                  "SYMWALK_SESSION names the session's file.\n", gdb.STDERR)
        return
    with open(path) as f:
        session = json.load(f)
    for setting in ("pagination off", "confirm off",
                    "auto-load python-scripts off",
                    # Address 0 is the start of the per-CPU area in an SMP
                    # kernel: without this, gdb shows NULL as
                    # "0x0 <fixed_percpu_data>".
                    "print symbol off",
                    # Indexing vmlinux's DWARF takes gdb ~3 s a session,
                    # with the guest stopped: once per kernel is enough.
                    "index-cache directory " + session["index_cache"],
                    "index-cache enabled on"):
        gdb.execute("set " + setting)
    gdb.execute("file " + session["vmlinux"])
    # A script sourced from this one sees this one's __file__: the
    # kernel's loader would look for its modules beside gdb-scripts/.
    sys.path.insert(0, os.path.join(session["kbuild"], "scripts", "gdb"))
    gdb.execute("source " + os.path.join(session["kbuild"], "vmlinux-gdb.py"))
    gdb.execute("source " + os.path.join(HERE, "symwalk.py"))
    from symwalk_gdb import lab
    if session.get("batch_labs"):
        lab.start_batch(session["port"], session["batch_labs"], session["batch_mark"])
    elif session["lab"] is None:
        lab.attach_only(session["port"])
    else:
        lab.start(session["port"], session["lab"], steps=session["steps"],
                  before_boot=session["before_boot"], batch=session["batch"],
                  tui=session["tui"])


main()
