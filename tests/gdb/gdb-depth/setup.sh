# n1 -> n2/. -> ... -> n40 -> dir: a lookup of n1/file holds 40 links open.
mkdir dir
echo data > dir/file
i=1
while [ $i -lt 40 ]; do
	ln -s "n$((i + 1))/." "n$i"
	i=$((i + 1))
done
ln -s dir n40
