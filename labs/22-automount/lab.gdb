# 1. follow_automount() for the lab's process: at the point itself, as a
#    last component, then with 40 links followed.
break follow_automount if $_streq($lx_current().comm, "symwalk-lab")
continue
printf "lookup flags: "
lx-lookup-flags lookup_flags
# What it returns, as its caller __traverse_mounts() keeps it
finish
p ret
continue
printf "count: %d of %d\n", *count, 40
lx-nameidata
delete
