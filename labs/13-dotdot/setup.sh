# link -> a/b/target: ".." after the link is a/b to the kernel.
mkdir -p a/b/target
ln -s a/b/target link
# Let the clock (4 ms a tick) pass the links' creation time: the first walk
# through a link must then update its atime, and leaves RCU-walk to do it
# (/lab is on the rootfs, mounted without relatime; lab 05-atime).
usleep 20000
