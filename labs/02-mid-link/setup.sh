# One link in the middle of the path: link -> real/deeper.
# The lab's own tmpfs, mounted noatime, over /lab/02-mid-link: no walk here
# leaves RCU-walk to update a link's atime (lab 05-atime is about that).
mount -t tmpfs -o noatime,mode=0755 lab-02 /lab/02-mid-link
cd /lab/02-mid-link
mkdir -p real/deeper/c
echo "reached through one link" > real/deeper/c/file
ln -s real/deeper link
