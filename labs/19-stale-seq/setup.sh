# A tmpfs of its own on w, noatime, so that no atime update takes the walk
# out of RCU-walk (lab 05-atime): w/link -> dir, w/dir/file.
mkdir w
mount -t tmpfs -o noatime,mode=0755 lab-19 w
mkdir w/dir
echo data > w/dir/file
ln -s dir w/link
