# The grader of exercise nesting-limit: at most 8 links open at once in one
# walk, whatever the budget of 40 says.
. /symwalk/scenarios/exercise-lib.sh
nested eight 8
nested nine 9
mkdir chain
echo chained > chain/f
ln -s f chain/c1
i=1
while [ $i -lt 20 ]; do
	ln -s c$i chain/c$((i + 1))
	i=$((i + 1))
done
check "8 links open at once: allowed" lookup_says ": ok " stat eight/n1/f
check "9 links open at once: ELOOP" lookup_says ": ELOOP" stat nine/n1/f
check "the 9th is refused with a namei_eloop event at depth 8, counted first (links=9)" \
	trace_says "namei_eloop: level=0 depth=8 links=9 link=\"n9\"" stat nine/n1/f
check "a chain of 20 links, one open at a time: allowed" lookup_says ": ok " stat chain/c20
# What the predictions are graded against.
observe nine lookup -t stat nine/n1/f
graded
