lx-walk-break symwalk-lab
# 1. stat("mnt/a"): the first push.
continue
lx-nameidata
# 2. Every step until ELOOP.
lx-walk-trace
delete
# 3. stat("mnt/x"): the same budget, spent on a stack that grows; stop
#    where reserve_stack() refuses the 41st link (at its namei_eloop trace
#    call, found in the kernel's jump table, as the helpers find theirs).
python
from symwalk_gdb import sites
for site in sites.event_sites("namei_eloop"):
    if "NAMEI_ELOOP_BUDGET" in site.text:
        gdb.execute('break {} if $_streq($lx_current().comm, "symwalk-lab")'.format(site.location))
end
continue
printf "depth %d, total_link_count %d, heap array: %d\n", $lx_nameidata()->depth, $lx_nameidata()->total_link_count, $lx_nameidata()->stack != $lx_nameidata()->internal
p $lx_nameidata()->stack[0].link.dentry->d_name.name
p $lx_nameidata()->stack[39].link.dentry->d_name.name
