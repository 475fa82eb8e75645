# 1. The third link: both embedded frames are in use, so reserve_stack()
#    calls nd_alloc_stack(), in RCU-walk.
break nd_alloc_stack if $_streq($lx_current().comm, "symwalk-lab")
continue
bt 3
printf "depth %d, total_link_count %d, embedded: %d\n", $lx_nameidata()->depth, $lx_nameidata()->total_link_count, $lx_nameidata()->stack == $lx_nameidata()->internal
lx-lookup-flags $lx_nameidata()->flags
delete
# 2. After the push: three frames, on the heap.
lx-walk-break symwalk-lab
continue
lx-nameidata
lx-walk-trace
