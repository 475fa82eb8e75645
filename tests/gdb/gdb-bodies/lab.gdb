lx-walk-break symwalk-lab
continue
lx-symlink-stack
continue
lx-symlink-stack
