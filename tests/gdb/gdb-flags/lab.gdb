# Stop where the walk begins (the namei_lookup_start call) and decode its
# flags: the trace event decodes the same value with the kernel's own table.
# The event fires before path_init() stores them in the nameidata, so
# decode path_init()'s argument (two frames up, past the static branch's
# inlined frames), then see them on the walk once path_init() returns.
python
from symwalk_gdb import breakpoints, sites
for site in sites.event_sites("namei_lookup_start"):
    breakpoints.WalkBreakpoint(site.location, breakpoints.WalkFilter(comm="symwalk-lab"))
end
continue
up 2
lx-lookup-flags flags
lx-finish
lx-nameidata
