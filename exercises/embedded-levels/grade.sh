# The grader of exercise embedded-levels: the namei_stack_spill events of
# stat() through one link and through two nested links, held to the rule
# of reserve_stack(), and the lookup's result.
. /symwalk/scenarios/exercise-lib.sh
nested two 2
nested one 1
check "one link open: the spills the rule allows, no other" \
	sh -c '! lookup -t stat one/n1/f | grep namei_stack_spill'
check "two links open at once: the spills the rule allows, where it puts them" \
	sh -c 'lookup -t stat two/n1/f | grep -A1 namei_stack_spill |
		grep -q "namei_link_push: .* depth=2 .*link=\"n2\""'
check "stat() through the two still finds the file" lookup_says ": ok " stat two/n1/f
# What the predictions are graded against: the same links on a tmpfs
# mounted noatime, where no atime update makes the walk leave RCU-walk (the
# guest's / updates a link's atime whenever the clock has moved).
mkdir quiet
mount -t tmpfs -o noatime,mode=0755 quiet quiet
nested quiet/one 1
nested quiet/two 2
observe one lookup -t stat quiet/one/n1/f
observe two lookup -t stat quiet/two/n1/f
graded
