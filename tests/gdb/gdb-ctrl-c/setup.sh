# One file, looked up by a trigger that first sleeps: the test's Ctrl-C
# comes while gdb waits in a continue for that lookup.
echo data > file
