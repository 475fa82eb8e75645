lx-walk-break symwalk-lab
# Also stop where pick_link() pushes a link (its namei_link_push site): the
# backtrace there says who pushed it.
python
from symwalk_gdb import breakpoints, sites
def push_breaks():
    return [breakpoints.WalkBreakpoint(site.location, breakpoints.WalkFilter(comm="symwalk-lab"))
            for site in sites.event_sites("namei_link_push")]
def delete_breaks(breaks):
    for b in breaks:
        b.delete()
push = push_breaks()
end
# 1. stat("t1"): the last component is a link; lookup_last() pushes it.
continue
bt 8
python delete_breaks(push)
# 2. Back in path_lookupat()'s loop: link_path_walk() is given t1's body,
#    "d/t2"; the frame of t1 has no remnant.
continue
bt 5
lx-symlink-stack
# 3. Walking its body "d/t2": "d" is pushed above it, and the rest of the
#    body, "t2", is kept one frame lower.
continue
lx-symlink-stack
p $lx_nameidata()->stack[0].name
# 4. The rest: "d" popped, then "t1" popped before "t2" is pushed.
lx-walk-trace
# 5. open("t1"): the same loop, in path_openat() and open_last_lookups().
python push = push_breaks()
continue
bt 7
python delete_breaks(push)
lx-walk-trace
