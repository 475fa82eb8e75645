# Depth 0: the walk has begun, no link yet (the namei_lookup_start site).
python
from symwalk_gdb import breakpoints, sites
start = [breakpoints.WalkBreakpoint(site.location, breakpoints.WalkFilter(comm="symwalk-lab"))
         for site in sites.event_sites("namei_lookup_start")]
end
continue
lx-nameidata
python
for b in start:
    b.delete()
end
# The event fires before path_init() stores the flags in the nameidata:
# once it returns (two frames up, past the static branch's inlined frames),
# the walk is in RCU-walk, still at depth 0.
up 2
lx-finish
lx-nameidata
lx-walk-break symwalk-lab
continue
lx-symlink-stack
continue
lx-symlink-stack
continue
lx-symlink-stack
# Pushes 4 to 39 go by.
delete
lx-walk-break symwalk-lab -d 40
continue
lx-nameidata
