# 1. open("/proc/self/fd/3"): ->get_link() of the fd link calls
#    nd_jump_link(). The walk is in REF-walk, standing in /proc/PID/fd.
break nd_jump_link if $_streq($lx_current().comm, "symwalk-lab")
continue
bt 6
p $lx_nameidata()->last.name
p $lx_nameidata()->depth
p $lx_dentry_name($lx_nameidata()->path.dentry)
lx-lookup-flags $lx_nameidata()->flags
# 2. The jump, and the frame pushed and popped with nothing to walk.
lx-walk-trace
delete
# 3. The second open (-r 2), stopped in complete_walk(): the
#    walk stands on the unlinked file, with ND_JUMPED set.
break complete_walk if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-nameidata
p $lx_nameidata()->path.dentry->d_inode->i_nlink
