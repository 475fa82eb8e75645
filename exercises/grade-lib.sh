# Shared by the exercises' graders, which run in the guest as scenarios
# (exercises/NAME/grade.sh, packed as /symwalk/scenarios/exercise-NAME.sh).
# They print TAP: scripts/symwalk/exercise.py reads it.

count=0
failed=0

# check DESCRIPTION COMMAND...: "ok N - DESCRIPTION" if COMMAND exits 0,
# else what it printed, as comments, then "not ok N - DESCRIPTION" (KTAP:
# a result's diagnostics come before it).
check() {
	description=$1
	shift
	count=$((count + 1))
	if output=$("$@" 2>&1); then
		echo "ok $count - $description"
	else
		echo "$output" | sed 's/^/# /'
		echo "not ok $count - $description"
		failed=$((failed + 1))
	fi
}

# lookup_says PATTERN LOOKUP-ARGUMENTS...: the first line lookup prints (its
# result) matches PATTERN; the line is printed either way.
lookup_says() {
	pattern=$1
	shift
	result=$(lookup "$@" 2>&1 | head -n 1)
	echo "$result"
	echo "$result" | grep -q -- "$pattern"
}

# trace_says PATTERN LOOKUP-ARGUMENTS...: a line of what lookup -t prints
# matches PATTERN (grep -E); the output is printed either way.
trace_says() {
	pattern=$1
	shift
	output=$(lookup -t "$@" 2>&1)
	echo "$output"
	echo "$output" | grep -qE -- "$pattern"
}

# nested DIR DEPTH: links DIR/n1 -> n2/., ..., DIR/nDEPTH -> d, and DIR/d/f,
# so that DIR/n1/f has DEPTH links open at once.
nested() {
	mkdir -p "$1/d"
	echo nested > "$1/d/f"
	i=1
	while [ "$i" -lt "$2" ]; do
		ln -s "n$((i + 1))/." "$1/n$i"
		i=$((i + 1))
	done
	ln -s d "$1/n$2"
}

# observe LABEL COMMAND...: what COMMAND prints, each line as a TAP comment
# "# LABEL: line". The exercise's predictions (exercises/NAME/questions)
# are graded against these lines, so they are printed only once every
# check has passed: a failing kernel's output must not show the answers.
observe() {
	[ "$failed" = 0 ] || return 0
	label=$1
	shift
	"$@" 2>&1 | sed "s/^/# $label: /"
}

graded() {
	echo "1..$count"
}
