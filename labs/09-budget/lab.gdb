# Stop where reserve_stack() refuses a link: at its namei_eloop trace call,
# found in the kernel's jump table, as the helpers find theirs.
python
from symwalk_gdb import sites
for site in sites.event_sites("namei_eloop"):
    if "NAMEI_ELOOP_BUDGET" in site.text:
        gdb.execute('break {} if $_streq($lx_current().comm, "symwalk-lab")'.format(site.location))
end
# 1. The chain c41: the link refused is c1, and the stack is empty.
continue
bt 5
lx-nameidata
# 2. The nested walk m1/file: 40 frames are in use when n40 is refused.
continue
printf "depth %d, total_link_count %d, heap array: %d\n", $lx_nameidata()->depth, $lx_nameidata()->total_link_count, $lx_nameidata()->stack != $lx_nameidata()->internal
p $lx_nameidata()->stack[0].link.dentry->d_name.name
p $lx_nameidata()->stack[0].name
p $lx_nameidata()->stack[39].link.dentry->d_name.name
p $lx_nameidata()->stack[39].name
