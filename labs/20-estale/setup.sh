# A link and the file behind it, on a noatime tmpfs (so that no atime
# update takes the walk out of RCU-walk; lab 05-atime):
#   t/dir/file
#   t/link -> dir
mkdir t
mount -t tmpfs -o noatime,mode=0755 lab-20 t
mkdir t/dir
echo "still here" > t/dir/file
ln -s dir t/link
