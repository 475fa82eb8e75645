# Each bad state must give one sentence, never a Python traceback. The
# commands run under python try/except so that the batch goes on.
python
def attempt(label, command):
    try:
        gdb.execute(command)
        gdb.write("{}: no error\n".format(label))
    except gdb.error as e:
        gdb.write("{}: {}\n".format(label, e))

attempt("no walk", "lx-nameidata")
attempt("no walk, stack", "lx-symlink-stack")
attempt("no walk, function", "print $lx_nameidata()")
attempt("no walk, trace", "lx-walk-trace")
attempt("unreadable", "lx-nameidata 0x10")
attempt("not a pointer", "lx-nameidata init_task")
end
lx-walk-break symwalk-lab
continue
python
# Copies of the walk's nameidata in the unused stack below the stopped
# task's stack pointer, altered to be what the helpers must refuse.
copy = "((struct nameidata *)(((long)$sp - 4096) & ~63))"
gdb.execute("set var *{0} = *$lx_nameidata()".format(copy))
gdb.execute("set var {0}->depth = 41".format(copy))
attempt("depth beyond MAXSYMLINKS", "lx-nameidata " + copy)
gdb.execute("set var *{0} = *$lx_nameidata()".format(copy))
gdb.execute("set var {0}->flags = 0xdead0000".format(copy))
attempt("not a nameidata", "lx-symlink-stack " + copy)
# A walk nested in another: the copy's saved points at the real walk.
gdb.execute("set var *{0} = *$lx_nameidata()".format(copy))
gdb.execute("set var {0}->saved = $lx_nameidata()".format(copy))
attempt("nested", "lx-nameidata " + copy)
end
continue &
python attempt("running", "lx-nameidata")
interrupt
