# The docs' helper examples (scripts/docs_data.py), as a lab's steps.
source gdb-scripts/record_examples.py
