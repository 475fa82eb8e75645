# Stop each time the lab's process (comm symwalk-lab) has pushed a link.
lx-walk-break symwalk-lab
# The first push: l3, with "file" still to walk after it.
continue
lx-nameidata
# Follow the rest of the walk: l3 is popped before l2 is pushed, and l2
# before l1, so the stack stays one frame deep while the count grows.
lx-walk-trace
