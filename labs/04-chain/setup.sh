# A directory reached through a chain of three links: l3 -> l2 -> l1 -> dir.
# The lab's own tmpfs, mounted noatime, over /lab/04-chain: no walk here
# leaves RCU-walk to update a link's atime (lab 05-atime is about that).
mount -t tmpfs -o noatime,mode=0755 lab-04 /lab/04-chain
cd /lab/04-chain
mkdir dir
echo "the end of the chain" > dir/file
ln -s dir l1
ln -s l1 l2
ln -s l2 l3
