# Depth 0: the walk has begun, no link yet (the namei_lookup_start site).
python
from symwalk_gdb import breakpoints, source
start = [breakpoints.WalkBreakpoint(loc, breakpoints.WalkFilter(comm="symwalk-lab"))
         for loc, _, _ in source.trace_calls("namei_lookup_start")]
end
continue
lx-nameidata
python
for b in start:
    b.delete()
end
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
