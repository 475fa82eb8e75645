# Stop where the walk begins (the namei_lookup_start call) and decode its
# flags: the trace event decodes the same value with the kernel's own table.
python
from symwalk_gdb import breakpoints, source
for location, _, _ in source.trace_calls("namei_lookup_start"):
    breakpoints.WalkBreakpoint(location, breakpoints.WalkFilter(comm="symwalk-lab"))
end
continue
lx-lookup-flags $lx_nameidata()->flags
lx-nameidata
