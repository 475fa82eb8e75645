# A sticky, world-writable directory, as /tmp is, on a noatime tmpfs (so
# that no atime update takes the walks out of RCU-walk; lab 05-atime):
#   t/dir/file
#   t/sticky/           mode 1777, owned by root
#   t/sticky/theirs -> ../dir   owned by uid 1000: neither the follower
#                               (root) nor the directory's owner
#   t/sticky/mine -> ../dir     owned by root, as the directory is
mkdir t
mount -t tmpfs -o noatime,mode=0755 lab-15 t
mkdir t/dir t/sticky
chmod 1777 t/sticky
echo "behind the links" > t/dir/file
ln -s ../dir t/sticky/theirs
chown -h 1000:1000 t/sticky/theirs
ln -s ../dir t/sticky/mine
