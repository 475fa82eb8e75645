# Each lab's lookups as a student makes them again from the guest shell:
# lab-trigger NAME, run from /, twice, without gdb. Each run prints
# "symwalk: begin trigger NAME/RUN" and "symwalk: end trigger NAME/RUN"
# around its output (scripts/symwalk/markers.py), which scripts/symwalk/check.py
# holds to the lab's console expectations. The first run's events are kept
# for the lab's page: "symwalk: begin lab-walk NAME TRIGGER" (the trigger's
# first line), the run, the namei events it left in the trace, "symwalk: end
# lab-walk NAME" (Documentation/sphinx/symwalk_walks.py). Every trigger traces its own lookups (lookup
# -t): enabling the events here as well would trace lookup's own
# preparations and change what run 1 prints.
t=/sys/kernel/tracing
for dir in /symwalk/labs/*/; do
	name=${dir%/}
	name=${name##*/}
	[ -f "/symwalk/labs/$name/setup.sh" ] || continue
	case $name in gdb-*) continue ;; esac
	lab-setup "$name" || continue
	for run in 1 2; do
		if [ $run = 1 ]; then
			echo "symwalk: begin lab-walk $name $(head -n 1 $dir/trigger)"
			echo > $t/trace
		fi
		echo "symwalk: begin trigger $name/$run"
		(cd / && lab-trigger "$name") || true
		echo "symwalk: end trigger $name/$run"
		if [ $run = 1 ]; then
			grep ' namei_' $t/trace || true
			echo "symwalk: end lab-walk $name"
		fi
	done
done
# lab-trigger as a student misuses it: a prefix, an ambiguous one, a name of
# no lab, a lab whose fixture this guest did not build (the gdb helpers'
# tests are never set up here).
echo "symwalk: begin trigger misuse"
for arg in 04 0 no-such-lab gdb-depth; do
	echo "lab-trigger $arg:"
	(cd / && lab-trigger "$arg" 2>&1 | tail -1)
done
echo "symwalk: end trigger misuse"
