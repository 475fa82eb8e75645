lx-walk-break symwalk-lab
# 1. link pushed, its body about to be walked, still in RCU-walk: every
#    sample holds.
continue
lx-nameidata
# 2. What d_move() does to a directory's d_seq when the directory is
#    renamed: write_seqcount_begin() and _end() add 2. The walk stands on
#    the root of the tmpfs mounted on w, which no rename can move, so gdb
#    makes the change up; and while gdb holds the guest (all its vCPUs:
#    one, unless SMP= asks for more), no rename could run anyway.
set var $lx_nameidata()->path.dentry->d_seq.seqcount.sequence = $lx_nameidata()->path.dentry->d_seq.seqcount.sequence + 2
lx-nameidata
# 3. The walk goes on: lookup_fast() finds "dir" in the dcache, then checks
#    the count of w, where it stands, against the stale sample.
delete
break lookup_fast if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-finish
# 4. The lookup goes on, its retry included; gdb stops where it hands its
#    walk back, after its last attempt.
delete
break restore_nameidata if $_streq($lx_current().comm, "symwalk-lab")
continue
