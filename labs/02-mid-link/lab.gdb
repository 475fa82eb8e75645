# 1. The push: "link" is on the stack, its body is about to be walked and
#    "c/file" waits in the frame.
lx-walk-break symwalk-lab
continue
lx-symlink-stack
p $lx_nameidata()->name->name
p $lx_nameidata()->stack[0].name
p $lx_nameidata()->stack[0].name - $lx_nameidata()->name->name
delete
# 2. The pop: walk_component() has looked up "deeper", the last component
#    of the body, and pops the link before stepping into it.
break put_link if $_streq($lx_current().comm, "symwalk-lab")
continue
bt 3
p $lx_nameidata()->path.dentry->d_name.name
p $lx_nameidata()->last.name
p $lx_nameidata()->depth
p $lx_nameidata()->stack[0].name
# 3. The rest of the walk.
lx-walk-trace
