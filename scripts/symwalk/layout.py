"""Where things are: the checkout's folders, the builds' defaults, and the
folder of each kind of run, named after who owns it.

A run folder has one owner. make check's (SITE_RUN) holds the runs the
site shows, and only make check writes it; every other command passes its
own folder down to what it runs, so that no run of a student, a soak, a
grader or a debug kernel can change what the site shows.
"""
import os

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LABS = os.path.join(TOP, "labs")
# The gdb helpers' own tests: laid out as labs, run as labs, not listed.
HELPER_TESTS = os.path.join(TOP, "tests", "gdb")
# make bench's measurements in gdb, laid out as labs too.
BENCH_LABS = os.path.join(TOP, "bench")
EXERCISES = os.path.join(TOP, "exercises")
GDB_SCRIPTS = os.path.join(TOP, "gdb-scripts")

BUILD = os.path.join(TOP, "build")
TREE = os.path.join(BUILD, "linux")                 # make tree: the patched kernel tree
KBUILD = os.path.join(BUILD, "kbuild")
DOCS_HTML = os.path.join(BUILD, "docs", "html")     # make docs: the site
COVERAGE_REPORT = os.path.join(BUILD, "coverage")   # make coverage: its report
INITRAMFS = os.path.join(BUILD, "initramfs.cpio")
GDB_INDEX_CACHE = os.path.join(BUILD, "gdb-index-cache")
SERIES_CHECK = os.path.join(BUILD, "series-check")  # make series-check: its results

# make check: the runs its expectations judged, which make docs shows.
SITE_RUN = os.path.join(BUILD, "run")
# A student's: make lab, make lab BATCH=1, make grade LAB=, make gdb.
STUDENT_RUN = os.path.join(BUILD, "student-run")
DEBUG_RUN = os.path.join(BUILD, "run-debug")            # make debug-check
COVERAGE_RUN = os.path.join(BUILD, "run-coverage")      # make coverage
SOAK = os.path.join(BUILD, "soak")                      # make labs-soak's reports
SOAK_RUN = os.path.join(SOAK, "run")                    # and its runs
EXERCISE_RUN = os.path.join(BUILD, "exercise", "run")   # the exercises' graders
BENCH_RUN = os.path.join(BUILD, "bench", "run")         # make bench
