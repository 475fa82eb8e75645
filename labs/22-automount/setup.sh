# An automount point: debugfs's "tracing", where crossing mounts tracefs
# (older tools look for the trace files there). On a noatime tmpfs:
#   t/dbg/                        a mount of debugfs of the lab's own (one
#                                 superblock for all its mounts: what is
#                                 mounted on "tracing" is per mount)
#   t/dbg/tracing                 its automount point
#   t/c40 -> c39 -> ... -> c1 -> dbg/tracing     40 links
mkdir t
mount -t tmpfs -o noatime,mode=0755 lab-22 t
mkdir t/dbg
mount -t debugfs debugfs t/dbg
ln -s dbg/tracing t/c1
for i in $(seq 2 40); do ln -s c$((i - 1)) t/c$i; done
