# The grader of exercise embedded-levels: with one frame embedded in
# struct nameidata, the second link open at once spills the stack.
. /symwalk/scenarios/exercise-lib.sh
nested two 2
nested one 1
check "one link open: the embedded frame is enough, no spill" \
	sh -c '! lookup -t stat one/n1/f | grep namei_stack_spill'
check "two links open at once: the stack spills before the second push" \
	sh -c 'lookup -t stat two/n1/f | grep -A1 namei_stack_spill |
		grep -q "namei_link_push: .* depth=2 .*link=\"n2\""'
check "stat() through the two still finds the file" lookup_says ": ok " stat two/n1/f
graded
