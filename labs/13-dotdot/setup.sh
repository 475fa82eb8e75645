# link -> a/b/target: ".." after the link is a/b to the kernel.
# The lab's own tmpfs, mounted noatime, over /lab/13-dotdot: no walk here
# leaves RCU-walk to update a link's atime (lab 05-atime is about that).
mount -t tmpfs -o noatime,mode=0755 lab-13 /lab/13-dotdot
cd /lab/13-dotdot
mkdir -p a/b/target
ln -s a/b/target link
