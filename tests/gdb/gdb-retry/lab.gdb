# The lookup of w/c30/file stopped at its 30th link, still in RCU-walk.
python
from symwalk_gdb import breakpoints, sites, walk

class ThirtiethLink(breakpoints.WalkBreakpoint):
    def stop(self):
        return super().stop() and \
            int(walk.current_nameidata(walk.current_task(in_stop=True))["total_link_count"]) == 30

at_30 = [ThirtiethLink(site.location, breakpoints.WalkFilter(comm="symwalk-lab", pushed=True))
         for site in sites.event_sites("namei_link_push")]
end
continue
lx-nameidata
# As if a rename had changed the directory under the walk: its d_seq
# sample no longer matches, so the lookup of "dir" gives up with -ECHILD
# and the lookup runs again in REF-walk, which must be charged only for
# its own 30 links.
set var $lx_nameidata()->seq = $lx_nameidata()->seq + 2
python
for b in at_30:
    b.delete()
end
break restore_nameidata if $_streq($lx_current().comm, "symwalk-lab")
continue
