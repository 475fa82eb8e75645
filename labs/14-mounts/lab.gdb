# 1. RCU-walk meets the mount on t/m with LOOKUP_NO_XDEV: handle_mounts()
#    leaves RCU-walk for the dentry it stands on (try_to_unlazy_next()).
break try_to_unlazy_next if $_streq($lx_current().comm, "symwalk-lab")
continue
bt 3
lx-nameidata
delete
# 2. In REF-walk, traverse_mounts() finds the mount and refuses to cross it.
break traverse_mounts if $_streq($lx_current().comm, "symwalk-lab")
continue
bt 3
lx-nameidata
