# Loops, on a noatime tmpfs:
#   a -> b, b -> a          each link is the whole body of the other
#   x -> y/z, y -> x/z      each link is followed in the middle of the other
mkdir mnt
mount -t tmpfs -o noatime,mode=0755 lab-10 mnt
ln -s b mnt/a
ln -s a mnt/b
ln -s y/z mnt/x
ln -s x/z mnt/y
