# 1. The first component: walk_component() is about to look up "lab" in "/".
break walk_component if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-nameidata
delete
# 2. link_path_walk() is done: the last component is left to lookup_last().
break lookup_last if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-nameidata
delete
# 3. The walk has reached the file; complete_walk() will leave RCU-walk.
break complete_walk if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-nameidata
# 4. Back in __path_lookupat() (path_lookupat() without its trace event):
#    REF-walk, and the root forgotten.
lx-finish
lx-lookup-flags $lx_nameidata()->flags
p $lx_nameidata()->seq
p $lx_nameidata()->root.mnt
