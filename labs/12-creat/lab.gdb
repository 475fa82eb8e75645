# 1. open(O_CREAT | O_EXCL): the walk reaches do_open() without following.
break do_open if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-nameidata
delete
# 2. open(O_CREAT): the trailing link is pushed.
lx-walk-break symwalk-lab
continue
bt 4
lx-nameidata
delete
# 3. The target has been created; the link is still on the stack.
break do_open if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-nameidata
lx-walk-trace
