# Stop where each attempt of a nested walk starts: at path_init()'s
# namei_lookup_start trace call, after the count is set, in a walk whose
# nd->saved points to the walk it is nested in. (The condition is "a ? b :
# 0", not "a && b": gdb types the right side of && without calling the
# functions in it, and $lx_nameidata() has no type until it is called.)
python
from symwalk_gdb import sites
for site in sites.event_sites("namei_lookup_start"):
    gdb.execute('break {} if $_streq($lx_current().comm, "symwalk-lab") ? $lx_nameidata()->saved != 0 : 0'.format(site.location))
end
# 1. The nested walk's first attempt, in RCU-walk.
continue
lx-nameidata
# 2. Its second attempt, with LOOKUP_REVAL, after -ESTALE at stale.
continue
printf "level 1 attempt: total_link_count %d; the outer walk's: %d\n", $lx_nameidata()->total_link_count, $lx_nameidata()->saved->total_link_count
# 3. The nested walk hands its count back to the outer one.
delete
break restore_nameidata if $_streq($lx_current().comm, "symwalk-lab") ? $lx_nameidata()->saved != 0 : 0
continue
printf "nested: %d links; outer, before the hand-back: %d\n", $lx_nameidata()->total_link_count, $lx_nameidata()->saved->total_link_count
delete
