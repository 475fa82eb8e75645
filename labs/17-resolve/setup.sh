# Links that openat2()'s RESOLVE_* flags and a nosymfollow mount refuse:
#   link -> dir                 an ordinary link
#   abs -> /dir/file            absolute; /dir does not exist in the guest
#   jail/dir/file, jail/abs -> /dir/file
#   nsf/                        a tmpfs mounted nosymfollow, with
#   nsf/link -> dir             a link that no walk may follow
# The lab's own tmpfs, mounted noatime, over /lab/17-resolve: no walk here
# leaves RCU-walk to update a link's atime (lab 05-atime is about that).
mount -t tmpfs -o noatime,mode=0755 lab-17 /lab/17-resolve
cd /lab/17-resolve
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
