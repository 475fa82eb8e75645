# The docs' helper examples (scripts/symwalk/docs_capture.py), as a lab's steps.
source gdb-scripts/record_examples.py
