# 1. "link" is pushed, with ".." as the rest of the name.
lx-walk-break symwalk-lab
continue
lx-symlink-stack
delete
# 2. ".." is the last component; the link has been popped.
break handle_dots if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-nameidata
lx-finish
lx-nameidata
