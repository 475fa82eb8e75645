# The cost of a breakpoint stop that goes on (its condition fails): a batch
# of lookups timed without and with a breakpoint hit once per lookup.
python
import time

from symwalk_gdb import lab


class Hostname(gdb.Breakpoint):
    """Records the time of each sethostname() and the name given."""

    def __init__(self):
        super(Hostname, self).__init__(lab.sethostname_entry()[0], internal=True)
        self.silent = True
        self.marks = []

    def stop(self):
        self.marks.append((lab.new_hostname(), time.perf_counter()))
        # A batch begins: the breakpoint that costs is on for bench-stopped.
        costly.enabled = self.marks[-1][0] == "bench-stopped"
        return False


class Costly(gdb.Breakpoint):
    """A stop whose condition fails, counted."""

    def __init__(self):
        super(Costly, self).__init__("path_lookupat", internal=True)
        self.hits = 0

    def stop(self):
        self.hits += 1
        return False


costly = Costly()
costly.enabled = False
hostname = Hostname()
gdb.execute("continue")
end
python
batches = {"bench-plain": [], "bench-stopped": []}
for (name, start), (_, end) in zip(hostname.marks, hostname.marks[1:]):
    if name in batches:
        batches[name].append((end - start) * 1000)
for name, times in batches.items():
    gdb.write("bench: batch={} lookups=200 ms={}\n".format(
        name, ",".join("{:.1f}".format(t) for t in times)))
gdb.write("bench: breakpoint hits={}\n".format(costly.hits))
end
