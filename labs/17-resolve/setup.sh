# Links that openat2()'s RESOLVE_* flags and a nosymfollow mount refuse:
#   link -> dir                 an ordinary link
#   abs -> /dir/file            absolute; /dir does not exist in the guest
#   jail/dir/file, jail/abs -> /dir/file
#   nsf/                        a tmpfs mounted nosymfollow, with
#   nsf/link -> dir             a link that no walk may follow
mkdir dir jail jail/dir nsf
echo "outside the jail" > dir/file
echo "inside the jail" > jail/dir/file
ln -s dir link
ln -s /dir/file abs
ln -s /dir/file jail/abs
mount -t tmpfs -o nosymfollow,mode=0755 lab-17 nsf
mkdir nsf/dir
echo "behind a nosymfollow link" > nsf/dir/file
ln -s dir nsf/link
# Let the clock (4 ms a tick) pass the links' creation time: the first walk
# through a link must then update its atime, and leaves RCU-walk to do it
# (/lab is on the rootfs, mounted without relatime; lab 05-atime).
usleep 20000
