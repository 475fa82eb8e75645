# The grader of exercise push-inode: namei_link_push has a field ino, the
# inode number of the link pushed.
. /symwalk/scenarios/exercise-lib.sh
mkdir d
echo file > d/f
ln -s d link
format=/sys/kernel/tracing/events/namei/namei_link_push/format
check "the event's format has a field ino, of i_ino's type" \
	grep -E "field:unsigned long ino;" $format
ino=$(lookup lstat link | sed -n 's/.* ino=\([0-9]*\).*/\1/p')
check "the push of link says ino=$ino, the link's own inode (lstat)" \
	trace_says "namei_link_push: .*link=\"link\" .*ino=$ino( |$)" stat link/f
# What the predictions are graded against.
observe format cat $format
graded
