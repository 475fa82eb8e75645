# Two links on the stack when the walk must leave RCU-walk. On a noatime
# tmpfs:
#   t/dir/
#   t/u1 -> u2/x             two frames on the stack when u2's body
#   t/u2 -> dir/missing/.    misses the dcache (tmpfs keeps no negative
#                            dentry): try_to_unlazy() must legitimize both
mkdir t
mount -t tmpfs -o noatime,mode=0755 lab-23 t
mkdir t/dir
ln -s u2/x t/u1
ln -s dir/missing/. t/u2
