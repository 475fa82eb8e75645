# A directory reached through a chain of three links: l3 -> l2 -> l1 -> dir.
mkdir dir
echo "the end of the chain" > dir/file
ln -s dir l1
ln -s l1 l2
ln -s l2 l3
