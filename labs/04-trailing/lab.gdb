lx-walk-break symwalk-lab
# 1. stat("t1"): the last component is a link; lookup_last() pushed it.
continue
bt 6
lx-symlink-stack
# 2. Walking its body "d/t2": "d" is pushed above it, and the rest of the
#    body, "t2", is kept one frame lower.
continue
lx-symlink-stack
p $lx_nameidata()->stack[0].name
# 3. The rest: "d" popped, then "t1" popped before "t2" is pushed.
lx-walk-trace
# 4. open("t1"): the same loop, in path_openat() and open_last_lookups().
continue
bt 6
lx-walk-trace
