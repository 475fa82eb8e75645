# A directory on a noatime tmpfs (so that no atime update takes the walks
# out of RCU-walk; lab 05-atime), a link into it, and a name it lacks:
#   t/dir/file
#   t/link -> dir/missing       dangling
mkdir t
mount -t tmpfs -o noatime,mode=0755 lab-16 t
mkdir t/dir
echo "here" > t/dir/file
ln -s dir/missing t/link
