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
# mount_lock held by a writer (odd), as a student's slip of +1 leaves it;
# put back before the guest runs, or every reader would spin.
gdb.execute("set var mount_lock.seqcount.seqcount.sequence += 1")
gdb.execute("lx-nameidata")
gdb.execute("set var mount_lock.seqcount.seqcount.sequence -= 1")
end
# While gdb deems the guest running: inside a breakpoint's stop(), where
# gdb decides whether to stop. (No command may run there: a gdb.execute()
# inside stop() ends the continue that is under way. The commands' own
# first check is called instead.)
python
from symwalk_gdb import walk


class WhileRunning(gdb.Breakpoint):
    def stop(self):
        try:
            walk.walk_from_arg("", "lx-nameidata")
            gdb.write("running: no error\n")
        except gdb.GdbError as e:
            gdb.write("running: {}\n".format(e))
        return False


while_running = WhileRunning("restore_nameidata", internal=True)
end
continue
