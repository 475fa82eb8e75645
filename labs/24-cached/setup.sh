# A walk that must be answered from the dcache (RESOLVE_CACHED), and one
# whose answer is not there. On a noatime tmpfs:
#   t/dir/file
#   t/u1 -> u2/x             two frames on the stack when u2's body
#   t/u2 -> dir/missing/.    misses the dcache: tmpfs keeps no negative
#                            dentry, so "missing" is never there
mkdir t
mount -t tmpfs -o noatime,mode=0755 lab-24 t
mkdir t/dir
echo "in the dcache" > t/dir/file
ln -s u2/x t/u1
ln -s dir/missing/. t/u2
