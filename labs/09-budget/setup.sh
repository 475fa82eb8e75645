# The budget of 40 links, spent two ways, on a noatime tmpfs:
#   c41 -> c40 -> ... -> c2 -> c1 -> dir/file   a chain: each link is the
#                                               last component of the one before
#   m1 -> n1/., n1 -> n2/., ..., n39 -> n40/., n40 -> dir
#                                               nested: each link is followed
#                                               in the middle of the one before
mkdir mnt
mount -t tmpfs -o noatime,mode=0755 lab-09 mnt
cd mnt
mkdir dir
echo "at the end of 40 links" > dir/file
ln -s dir/file c1
for i in $(seq 2 41); do ln -s c$((i - 1)) c$i; done
ln -s dir n40
for i in $(seq 1 39); do ln -s n$((i + 1))/. n$i; done
ln -s n1/. m1
