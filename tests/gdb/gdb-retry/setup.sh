# w/c30 -> c29 -> ... -> c1 -> dir: a lookup of w/c30/file follows 30
# links. w is a tmpfs of its own, noatime: no atime update of a fresh link
# makes the walk leave RCU-walk before it has followed them all.
mkdir w
mount -t tmpfs -o noatime,mode=0755 lab-gdb-retry w
cd w
mkdir dir
echo data > dir/file
ln -s dir c1
i=2
while [ $i -le 30 ]; do
	ln -s "c$((i - 1))" "c$i"
	i=$((i + 1))
done
