# Absolute links: abs -> /lab/07-absolute/dir, and root -> /.
mkdir dir
echo "reached through an absolute link" > dir/file
ln -s /lab/07-absolute/dir abs
ln -s / root
# Let the clock (4 ms a tick) pass the links' creation time: the first walk
# through a link must then update its atime, and leaves RCU-walk to do it
# (/lab is on the rootfs, mounted without relatime; lab 05-atime).
usleep 20000
