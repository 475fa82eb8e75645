# Stop each time the lab's process (comm symwalk-lab) has pushed a link.
lx-walk-break symwalk-lab
# The first push: l3, with "file" still to walk after it.
continue
lx-nameidata
# l3's body "l2" is its last component: l3 is popped before l2 is pushed,
# so the stack stays one frame deep while the link count grows.
continue
continue
lx-nameidata
