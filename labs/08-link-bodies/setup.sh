# Link bodies kept three ways, on a noatime tmpfs (so that the atime never
# takes the walk out of RCU-walk):
#   short -> dir                   fits in the inode: i_link
#   long  -> ./././ ... ./dir      143 bytes, too long to be inline: a folio
#   proc/self, proc/self/cwd  built by ->get_link(); see the end
mkdir mnt
mount -t tmpfs -o noatime,mode=0755 lab-08 mnt
mkdir mnt/dir
echo "the end of every body" > mnt/dir/file
ln -s dir mnt/short
long=
for i in $(seq 70); do long=$long./; done
ln -s ${long}dir mnt/long
# A proc of the lab's own, noatime too: proc/self and proc/self/cwd.
mkdir proc
mount -t proc -o noatime lab-08 proc
