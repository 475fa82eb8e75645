"""The runs of make check the site shows, by name, in make check's run
folder (layout.SITE_RUN; make docs reads them where SYMWALK_RUN says):

  lab-triggers.txt    every lab's trigger, its first run traced
                      (guest/scenarios/lab-triggers.sh, judged by check.py)
  docs-walks.txt      the namei events of guest/scenarios/docs-walks.sh, and
                      the format of each event as tracefs printed it
  docs-gdb.json       the helper examples: a gdb session on
                      guest/scenarios/docs-gdb.sh (Documentation/helper-examples.yaml)
  lab-NAME.gdb.log    each lab's part of make check's batch of labs
                      (labs-batch.gdb.log), the one its expectations judged
  lab-NAME.console    the guest's console in that part: the trigger's
                      output and the namei events it printed

make check leaves them (docs_capture.py, check.py); make docs reads them
and boots nothing.
"""
import os
import re

from symwalk.layout import TOP

WALKS = "docs-walks.txt"
LAB_WALKS = "lab-triggers.txt"
GDB_SESSION = "docs-gdb.json"
EXAMPLES = os.path.join(TOP, "Documentation", "helper-examples.yaml")

# What gdb prints for a helper's bug: never on the site.
TRACEBACK = re.compile(r"Error occurred in Python|Python Exception|Traceback \(most recent")
# What a failed command prints: never in a helper's example (the reference
# shows refusals apart). lx-finish at an inlined function steps out of it
# without the value it is for.
ERROR_OUTPUT = re.compile(TRACEBACK.pattern + r"|\bCannot\b|is inlined into its caller")


def lab_log(name):
    """The lab's part of make check's batch, what its page shows of gdb."""
    return "lab-{}.gdb.log".format(name)


def lab_console(name):
    """The lab's part of the batch's console, what its page shows of the
    guest."""
    return "lab-{}.console".format(name)


def lab_page_runs(name):
    """The runs a lab's page is made of: the traced walks (its trigger's
    among them), its gdb log and its console."""
    return [WALKS, LAB_WALKS, lab_log(name), lab_console(name)]
