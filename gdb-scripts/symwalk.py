#
# symwalk: gdb helpers that show the kernel's symlink walk (fs/namei.c).
#
# Load after the kernel's own helpers (build/kbuild/vmlinux-gdb.py):
#   (gdb) source gdb-scripts/symwalk.py
#
# Every helper of symwalk hangs off this file: it imports one module per
# concern from symwalk_gdb/, each registering its commands at import.
#

import os
import sys

import gdb

# symwalk_gdb/, and scripts/ for the namei events' vocabulary (symwalk.events):
# first, for "symwalk" is the package there, not this file.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(os.path.dirname(HERE), "scripts"), HERE]

try:
    import linux.cpus  # noqa: F401 (the kernel's helpers, from vmlinux-gdb.py)
except ImportError:
    gdb.write("symwalk: load the kernel's helpers first "
              "(source build/kbuild/vmlinux-gdb.py); "
              "symwalk's commands need them.\n")
else:
    import symwalk_gdb.nameidata  # noqa: F401
    import symwalk_gdb.stack  # noqa: F401
    import symwalk_gdb.flags  # noqa: F401
    import symwalk_gdb.breakpoints  # noqa: F401
    import symwalk_gdb.trace  # noqa: F401
    import symwalk_gdb.results  # noqa: F401
    import symwalk_gdb.tui  # noqa: F401
