# Stops before a link's frame is pushed: the frame on top is the link
# before, its remnant stored; and after, inside pick_link(), when it is
# not stored yet.
# 1. The third link, n3, about to be pushed: the stack spills first
#    (nd_alloc_stack(), from reserve_stack()). Frame [1] is n2's, done.
break nd_alloc_stack if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-symlink-stack
echo -- the stop in nd_alloc_stack() ends here\n
delete
# 2. n3 pushed, its body absolute: pick_link() jumps to the root. Frame
#    [2] is n3's, its remnant stored once pick_link() returns.
break nd_jump_root if $_streq($lx_current().comm, "symwalk-lab")
continue
lx-symlink-stack
