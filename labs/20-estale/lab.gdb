# 1. The first attempt, in RCU-walk, is about to finish (complete_walk()).
break complete_walk if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-nameidata
# No filesystem of the guest returns -ESTALE: make complete_walk() return
# it, as it does when ->d_weak_revalidate() finds the server forgot the
# file. gdb pops the frame and sets the return value.
return (int) -116
# 2. The next attempt: filename_lookup() starts over with LOOKUP_REVAL.
continue
lx-nameidata
