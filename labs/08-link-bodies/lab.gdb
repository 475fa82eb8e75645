lx-walk-break symwalk-lab
# 1. short: the body is the inode's i_link.
continue
lx-symlink-stack
# 2. long: the body is in the page cache.
continue
lx-nameidata
# 3. proc/self: the body is built by ->get_link().
continue
lx-symlink-stack
delete
# 4. The second lookup of proc/self/cwd gets as far as ->get_link() in
#    RCU-walk, with a NULL dentry.
break proc_pid_get_link if $_streq($lx_current().comm, "symwalk-lab") ? dentry == 0 : 0
continue
bt 3
lx-lookup-flags $lx_nameidata()->flags
p $lx_nameidata()->depth
lx-finish
lx-walk-trace
