# Absolute links: abs -> /lab/07-absolute/dir, and root -> /.
# The lab's own tmpfs, mounted noatime, over /lab/07-absolute: no walk here
# leaves RCU-walk to update a link's atime (lab 05-atime is about that).
mount -t tmpfs -o noatime,mode=0755 lab-07 /lab/07-absolute
cd /lab/07-absolute
mkdir dir
echo "reached through an absolute link" > dir/file
ln -s /lab/07-absolute/dir abs
ln -s / root
