# may_follow_link() is inlined into pick_link(): gdb stops at each copy.
# The first stop is the trailing "theirs", in RCU-walk.
break may_follow_link if $_streq($lx_current().comm, "symwalk-lab")
continue
bt 2
lx-nameidata
print/o $lx_nameidata()->dir_mode
print $lx_nameidata()->dir_vfsuid.val
print $lx_nameidata()->stack[0].link.dentry->d_inode->i_uid.val
# The second: the same link, the lookup again in REF-walk.
continue
lx-nameidata
