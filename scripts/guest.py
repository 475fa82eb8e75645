#!/usr/bin/env python3
"""Boot the symwalk guest under QEMU (TCG) and drive gdb against it.

usage: guest.py [--kbuild DIR] [--initramfs FILE] COMMAND ...

  run [--gdb-port N]              the guest's shell on this terminal
  gdb [--gdb-port N]              gdb with the helpers, attached to `run`
  lab [--gdb-port N] [--batch] [NAME]
                                  boot paused, attach gdb, run the lab's steps
  labs                            list the labs

A student's runs (gdb's session files, a batch lab's logs) are kept in
build/student-run: never with make check's, which the site shows.
"""
import argparse
import os
import sys

from symwalk import layout
from symwalk.batch import run_lab_batch
from symwalk.gdbsession import GDB, write_session
from symwalk.labs import LabError, lab_names, lab_title, resolve_lab
from symwalk.qemu import Guest, GuestError, port_in_use
from symwalk.tmux import run_lab_interactive

RUN = layout.STUDENT_RUN


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kbuild", default=layout.KBUILD)
    parser.add_argument("--initramfs", default=layout.INITRAMFS)
    parser.add_argument("--cpus", type=int, default=1, choices=range(1, 9), metavar="N",
                        help="the guest's vCPUs, 1 to 8")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("run", "gdb", "lab"):
        p = sub.add_parser(name)
        p.add_argument("--gdb-port", type=int, default=1234)
    sub.choices["lab"].add_argument("--batch", action="store_true")
    sub.choices["lab"].add_argument("--tui", action="store_true",
                                    help="gdb's TUI, with the walk's window (lx-walk-tui)")
    sub.choices["lab"].add_argument("--helper-test", action="store_true",
                                    help="NAME is one of the gdb helpers' tests (tests/gdb)")
    sub.choices["lab"].add_argument("name", nargs="?")
    sub.add_parser("labs")
    args = parser.parse_args()

    try:
        if args.command == "labs":
            for name in lab_names():
                print("{:<16} {}".format(name, lab_title(name)))
            return 0
        if args.command == "gdb":
            if not os.path.exists(os.path.join(args.kbuild, "vmlinux")):
                raise GuestError("there is no kernel to debug yet: run make run")
            # gdb waits for the guest's gdbstub (gdb-scripts/symwalk_gdb/gdbstub.py).
            env = write_session(Guest(args.kbuild, args.initramfs),
                                os.path.join(RUN, "attach.session.json"), args.gdb_port)
            os.execvpe("gdb", GDB + ["-q"], env)
        guest = Guest(args.kbuild, args.initramfs, cpus=args.cpus)
        if args.command == "run":
            if port_in_use(args.gdb_port):
                raise GuestError("localhost:{} is taken (another 'make run' or a lab?): "
                                 "end it, or pick another port with GDB_PORT=".format(
                                     args.gdb_port))
            print("symwalk: booting the guest; gdbstub on localhost:{} ('make gdb' "
                  "in another terminal); Ctrl-a x quits QEMU".format(args.gdb_port))
            os.execvp("qemu-system-x86_64",
                      guest.qemu_cmd("", gdb_port=args.gdb_port))
        labs = layout.HELPER_TESTS if args.helper_test else layout.LABS
        name = resolve_lab(args.name, labs)
        if args.batch:
            if args.tui:
                raise GuestError("TUI=1 needs a terminal: a batch run has none")
            ok, report = run_lab_batch(guest, name, RUN, labs=labs)
            print(report)
            return 0 if ok else 1
        run_lab_interactive(guest, name, args.gdb_port, RUN, tui=args.tui)
    except (GuestError, LabError) as e:
        print("symwalk: {}".format(e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
