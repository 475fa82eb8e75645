# A dangling link: dangling -> target, and no target yet.
# The lab's own tmpfs, mounted noatime, over /lab/12-creat: no walk here
# leaves RCU-walk to update a link's atime (lab 05-atime is about that).
mount -t tmpfs -o noatime,mode=0755 lab-12 /lab/12-creat
cd /lab/12-creat
ln -s target dangling
