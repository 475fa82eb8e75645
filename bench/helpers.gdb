# The helpers' cost over the gdbstub, at depth 0, 2, 3 and 40 of the walk of
# tests/gdb/gdb-depth (n1 -> n2/. -> ... -> n40 -> dir): lx-nameidata and
# lx-symlink-stack, each run 20 times at each depth.
python
import statistics
import time

from symwalk_gdb import breakpoints, sites


def measure(depth):
    for command in ("lx-nameidata", "lx-symlink-stack"):
        times = []
        for _ in range(20):
            start = time.perf_counter()
            gdb.execute(command, to_string=True)
            times.append((time.perf_counter() - start) * 1000)
        gdb.write("bench: helper={} depth={} runs={} median={:.1f} min={:.1f} max={:.1f}\n".format(
            command, depth, len(times), statistics.median(times), min(times), max(times)))


# Depth 0: the namei_lookup_start site, before any push.
start = [breakpoints.WalkBreakpoint(site.location, breakpoints.WalkFilter(comm="symwalk-lab"))
         for site in sites.event_sites("namei_lookup_start")]
gdb.execute("continue")
for b in start:
    b.delete()
measure(int(gdb.parse_and_eval("$lx_nameidata()->depth")))
for depth in (2, 3, 40):
    pushes = [breakpoints.WalkBreakpoint(location, breakpoints.WalkFilter(
        comm="symwalk-lab", depth=depth, pushed=True))
        for location in breakpoints.push_locations()]
    gdb.execute("continue")
    for b in pushes:
        b.delete()
    measure(int(gdb.parse_and_eval("$lx_nameidata()->depth")))
end
