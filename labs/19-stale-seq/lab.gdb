lx-walk-break symwalk-lab
# 1. link pushed, its body about to be walked, still in RCU-walk: every
#    sample holds.
continue
lx-nameidata
# 2. What a rename of w (the directory the walk stands in) does to its
#    dentry's d_seq: write_seqcount_begin() and _end() add 2. gdb has
#    stopped both CPUs, so no rename can run now: gdb writes it instead.
set var $lx_nameidata()->path.dentry->d_seq.seqcount.sequence = $lx_nameidata()->path.dentry->d_seq.seqcount.sequence + 2
lx-nameidata
# 3. The walk goes on without a breakpoint.
delete
continue
