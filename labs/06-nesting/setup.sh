# Three links open at once, on a noatime tmpfs so that the walk can stay
# in RCU-walk: n1 -> n2/., n2 -> n3/., n3 -> dir.
mkdir mnt
mount -t tmpfs -o noatime,mode=0755 lab-06 mnt
mkdir mnt/dir
echo "three links deep" > mnt/dir/file
ln -s n2/. mnt/n1
ln -s n3/. mnt/n2
ln -s dir mnt/n3
