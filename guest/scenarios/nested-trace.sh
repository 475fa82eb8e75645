# The namei events of one nested walk: l1 -> l2/file, l2 -> l3/., l3 -> dir.
mkdir dir
echo data > dir/file
ln -s l2/file l1
ln -s l3/. l2
ln -s dir l3
t=/sys/kernel/tracing
echo > $t/trace
echo 1 > $t/events/namei/enable
lookup stat l1
echo 0 > $t/events/namei/enable
grep namei_ $t/trace
