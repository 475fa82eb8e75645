# A directory reached through a chain of three links: l3 -> l2 -> l1 -> dir.
mkdir dir
echo "the end of the chain" > dir/file
ln -s dir l1
ln -s l1 l2
ln -s l2 l3
# Let the clock (4 ms a tick) pass the links' creation time: the first walk
# through a link must then update its atime, and leaves RCU-walk to do it
# (/lab is on the rootfs, mounted without relatime; lab 05-atime).
usleep 20000
