# 1. At the dcache miss, in RCU-walk, two frames on the stack: the walk is
#    about to leave RCU-walk.
break try_to_unlazy if $_streq($lx_current().comm, "symwalk-lab") ? $lx_nameidata()->depth == 2 : 0
continue
lx-nameidata
# 2. What a mount or umount anywhere does meanwhile: write_seqlock() and
#    write_sequnlock() of mount_lock add 2 to its count. gdb has stopped
#    the guest, so no mount can run now: gdb writes it instead.
set var mount_lock.seqcount.seqcount.sequence = mount_lock.seqcount.seqcount.sequence + 2
lx-nameidata
# 3. legitimize_links() fails at frame 0; the walk goes on.
delete
