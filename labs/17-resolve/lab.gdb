# The LOOKUP_* values of this kernel as $LOOKUP_... convenience variables.
python
from symwalk_gdb import constants
for name, bit in constants.get().LOOKUP_FLAGS.items():
    gdb.set_convenience_variable(name, bit)
end
# The conditions are ternaries: gdb works out the type of the right side of
# && without calling $lx_current(), and fails.
# 1. RESOLVE_NO_SYMLINKS: pick_link() refuses the first link.
break pick_link if $_streq($lx_current().comm, "symwalk-lab") ? ($lx_current().nameidata->flags & $LOOKUP_NO_SYMLINKS) : 0
continue
bt 2
lx-nameidata
delete
# 2. RESOLVE_NO_MAGICLINKS: /proc/self is an ordinary link, fd/3 is not.
break nd_jump_link if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-lookup-flags $lx_nameidata()->flags
lx-finish
delete
# 3. RESOLVE_BENEATH and RESOLVE_IN_ROOT meet the absolute link "abs".
break nd_jump_root if $_streq($lx_current().comm, "symwalk-lab") ? ($lx_current().nameidata->flags & ($LOOKUP_BENEATH | $LOOKUP_IN_ROOT)) : 0
continue
lx-lookup-flags $lx_nameidata()->flags
lx-finish
# 4. The same breakpoint, at the RESOLVE_IN_ROOT lookup.
continue
lx-nameidata
lx-finish
lx-nameidata
# 5. The same lookup at its end: complete_walk() leaves RCU-walk, and a
#    scoped walk keeps its root, grabbed.
delete
break complete_walk if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-finish
lx-nameidata
