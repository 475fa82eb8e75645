# 1. Where the walk must leave RCU-walk with its links: for u1, at the
#    dcache miss, with LOOKUP_CACHED still set.
break legitimize_links if $_streq($lx_current().comm, "symwalk-lab") ? $lx_nameidata()->depth > 0 : 0
continue
lx-nameidata
# 2. The second attempt, in REF-walk: path_init() refuses it.
delete
break path_init if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-lookup-flags flags
delete
