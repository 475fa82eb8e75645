# The docs' helper examples (scripts/docs/capture.py), as a lab's steps.
source gdb-scripts/record_examples.py
