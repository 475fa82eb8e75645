# The same link on three tmpfs mounts that differ only in their atime
# option: relatime/link, strictatime/link and noatime/link, each -> dir.
for opt in relatime strictatime noatime; do
	mkdir $opt
	mount -t tmpfs -o $opt,mode=0755 lab-05-$opt $opt
	mkdir $opt/dir
	echo "under $opt" > $opt/dir/file
	ln -s dir $opt/link
done
# Let the clock move past the links' creation time (it ticks every 4 ms).
usleep 20000
