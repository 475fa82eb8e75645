# The lookups are relative: path_init() does not jump to the root, so
# nd_jump_root() is reached only through an absolute link.
break nd_jump_root if $_streq($lx_current().comm, "symwalk-lab")
# 1. abs/file: "abs" has been pushed; its body starts with "/". The walk
#    stands in the link's directory and has no root yet: root.mnt is NULL
#    (root.dentry means nothing while root.mnt is unset).
continue
bt 3
p $lx_nameidata()->depth
lx-nameidata
p $lx_nameidata()->root.mnt
# 2. After the jump, once link_path_walk() has stored the remnant "file".
lx-walk-break symwalk-lab
continue
lx-nameidata
# 3. root/lab/...: the body "/" and nothing after it: a pure jump. The
#    frame was pushed before the body was read; it is popped at once.
continue
lx-walk-trace
# 4. root, as the last component.
continue
lx-walk-trace
