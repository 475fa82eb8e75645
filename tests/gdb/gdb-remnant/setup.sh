# n1 -> n2/. -> n3/. -> /lab/gdb-remnant/dir: a lookup of n1/file holds 3
# links open; the third push spills the 2 embedded frames to a heap array,
# and the third body, absolute, jumps to the root.
mkdir dir
echo data > dir/file
ln -s n2/. n1
ln -s n3/. n2
ln -s /lab/gdb-remnant/dir n3
