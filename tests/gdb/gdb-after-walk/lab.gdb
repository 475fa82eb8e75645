# What a student types at the prompt every lab leaves them at: the walk
# traced to its end, gdb stopped in restore_nameidata(), inlined in its
# caller. Each command must answer with one sentence, at once.
lx-walk-break symwalk-lab
continue
lx-nameidata nd
lx-walk-trace
lx-nameidata now
lx-symlink-stack now
lx-nameidata old
lx-walk-trace
lx-nameidata
lx-nameidata current
lx-nameidata nd
lx-walk-break symwalk-lab -d
lx-walk-break symwalk-lab -d 99
lx-walk-break symwalk-lab -d 0
lx-walk-break symwalk-lab
lx-lookup-flags -1
p $lx_err(-10)
p $lx_err((char *)-40)
p $lx_err(0)
p $lx_err(0xfffffffffffffff6)
p $lx_err(40)
lx-walk-break no-such-process
lx-walk-break -c ls -p /x
lx-walk-break /no/such/path
