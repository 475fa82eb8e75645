# Stop where reserve_stack() refuses a link: at its namei_eloop trace call,
# found in the source by its text, as the helpers find theirs.
python
from symwalk_gdb import source
for location, event, call in source.trace_calls("namei_eloop"):
    if "NAMEI_ELOOP_BUDGET" in call:
        gdb.execute('break {} if $_streq($lx_current().comm, "symwalk-lab")'.format(location))
end
# 1. The chain c41: the link refused is c1, and the stack is empty.
continue
bt 3
lx-nameidata
# 2. The nested walk m1/file: 40 frames are in use when n40 is refused.
continue
printf "depth %d, total_link_count %d, heap array: %d\n", $lx_nameidata()->depth, $lx_nameidata()->total_link_count, $lx_nameidata()->stack != $lx_nameidata()->internal
p $lx_nameidata()->stack[0].link.dentry->d_name.name
p $lx_nameidata()->stack[0].name
p $lx_nameidata()->stack[39].link.dentry->d_name.name
p $lx_nameidata()->stack[39].name
