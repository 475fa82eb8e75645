# 1. open(O_CREAT | O_EXCL): the walk reaches do_open() without following.
break do_open if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-nameidata
delete
# 2. open(O_CREAT): the trailing link is pushed, in pick_link() (at its
#    namei_link_push site), from open_last_lookups().
python
from symwalk_gdb import breakpoints, sites
push = [breakpoints.WalkBreakpoint(site.location, breakpoints.WalkFilter(comm="symwalk-lab"))
        for site in sites.event_sites("namei_link_push")]
end
continue
bt 6
lx-nameidata
delete
# 3. The link's body is about to be walked: the intent flags are off again.
lx-walk-break symwalk-lab
continue
lx-nameidata
delete
# 4. The target has been created; the link is still on the stack.
break do_open if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-nameidata
lx-walk-trace
