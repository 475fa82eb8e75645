# A dangling link: dangling -> target, and no target yet.
ln -s target dangling
# Let the clock (4 ms a tick) pass the links' creation time: the first walk
# through a link must then update its atime, and leaves RCU-walk to do it
# (/lab is on the rootfs, mounted without relatime; lab 05-atime).
usleep 20000
