# Trailing links: t1 -> d/t2, where d -> dir and dir/t2 -> file.
# The lab's own tmpfs, mounted noatime, over /lab/03-trailing: no walk here
# leaves RCU-walk to update a link's atime (lab 05-atime is about that).
mount -t tmpfs -o noatime,mode=0755 lab-03 /lab/03-trailing
cd /lab/03-trailing
mkdir dir
echo "the end of the trailing links" > dir/file
ln -s dir d
ln -s file dir/t2
ln -s d/t2 t1
