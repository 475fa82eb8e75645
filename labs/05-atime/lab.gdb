# Stop where pick_link() updates a link's atime for the lab's process.
break touch_atime if $_streq($lx_current().comm, "symwalk-lab")
# 1. The first walk through relatime/link: RCU-walk has already been left.
continue
bt 3
p $lx_nameidata()->name->name
lx-lookup-flags $lx_nameidata()->flags
# 2. The first walk through strictatime/link (none through noatime/link).
continue
p $lx_nameidata()->name->name
# 3. The second walk through strictatime/link (not through relatime/link).
continue
p $lx_nameidata()->name->name
