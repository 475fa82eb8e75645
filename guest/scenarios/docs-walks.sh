# The documentation's walk data: the namei events of walks chosen to show
# the symlink stack at its key moments (the labs' walks are traced by
# lab-triggers.sh), then the format of every namei event.
# Each walk prints its events between "symwalk: begin walk NAME PATH" and
# "symwalk: end walk NAME" (scripts/symwalk/markers.py).
t=/sys/kernel/tracing

traced() {
	name=$1
	path=$2
	shift 2
	echo > $t/trace
	echo 1 > $t/events/namei/enable
	"$@" || true
	echo 0 > $t/events/namei/enable
	echo "symwalk: begin walk $name $path"
	grep ' namei_' $t/trace || true
	echo "symwalk: end walk $name"
}

# nest: three links met before the last component of each name:
# n1 -> n2/e, n2 -> n3/e, n3 -> dir. Two frames fill nd->internal, the
# third push moves the stack to the heap.
mkdir -p dir/e/e
echo data > dir/e/e/f
ln -s dir n3
ln -s n3/e n2
ln -s n2/e n1
traced nest n1/f lookup stat n1/f

# chain: each link's body is a single name, itself a link: the frame of
# c3 is popped before c2 is pushed.
ln -s dir c1
ln -s c1 c2
ln -s c2 c3
traced chain c3/e lookup stat c3/e

# jump: an absolute link, nd_jump_root() before its body is walked.
ln -s /lab/scenario/dir/e abs
traced jump abs/e/f lookup stat abs/e/f

# magic: /proc/self/cwd, a link with no body that nd_jump_link() resolves.
traced magic /proc/self/cwd lookup stat /proc/self/cwd

# unlazy: /proc/version again, now in the dcache: proc's d_revalidate()
# cannot answer in RCU-walk and the walk leaves it with try_to_unlazy_next().
lookup stat /proc/version >/dev/null
traced unlazy /proc/version lookup stat /proc/version

# loop: a link to itself spends the budget of 40 links: ELOOP.
ln -s loop loop
traced loop loop lookup stat loop

# The events' own description, for the event reference: each event's
# format file as tracefs prints it, between "symwalk: begin format EVENT"
# and "symwalk: end format EVENT".
for format in $t/events/namei/*/format; do
	event=${format%/format}
	echo "symwalk: begin format ${event##*/}"
	cat "$format"
	echo "symwalk: end format ${event##*/}"
done
