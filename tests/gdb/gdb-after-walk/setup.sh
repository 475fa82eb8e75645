# A chain of two links to a file.
mkdir dir
touch dir/file
ln -s dir l1
ln -s l1 l2
