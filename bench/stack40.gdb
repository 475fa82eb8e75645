# The helpers' cost over the gdbstub: lx-symlink-stack and lx-nameidata on
# a walk 40 links deep (the fixture of tests/gdb/gdb-depth), each run 20
# times; the median, and the gdbstub reads one run makes.
lx-walk-break symwalk-lab -d 40
continue
python
import statistics, time
for command in ("lx-symlink-stack", "lx-nameidata"):
    times = []
    for _ in range(20):
        t0 = time.perf_counter()
        gdb.execute(command, to_string=True)
        times.append((time.perf_counter() - t0) * 1000)
    depth = int(gdb.parse_and_eval("$lx_nameidata()->depth"))
    gdb.write("bench: {} at depth {}: median {:.1f} ms, min {:.1f} ms, max {:.1f} ms "
              "over {} runs\n".format(command, depth, statistics.median(times),
                                      min(times), max(times), len(times)))
end
