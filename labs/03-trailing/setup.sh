# Trailing links: t1 -> d/t2, where d -> dir and dir/t2 -> file.
mkdir dir
echo "the end of the trailing links" > dir/file
ln -s dir d
ln -s file dir/t2
ln -s d/t2 t1
# Let the clock (4 ms a tick) pass the links' creation time: the first walk
# through a link must then update its atime, and leaves RCU-walk to do it
# (/lab is on the rootfs, mounted without relatime; lab 05-atime).
usleep 20000
