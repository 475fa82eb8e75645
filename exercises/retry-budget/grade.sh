# vcpus: 2
# The grader of exercise retry-budget: the series' budget selftests (the
# race of a retried lookup against its link budget on two vCPUs among
# them), then, one check each, the guest's own deterministic tests of the
# same rules (tests/guest/budget_test.c: nestfs retries a lookup with
# LOOKUP_REVAL, and nests a walk in another, on demand).
. /symwalk/scenarios/exercise-lib.sh
check "symlink_budget_test: the budget of 40 links, chained and nested" \
	/symwalk/tests/ksft-namei-symlink_budget_test
check "retry_budget_test: a lookup retried after a rename is charged once for its links" \
	/symwalk/tests/ksft-namei-retry_budget_test
for test in retry_after_estale_is_charged_once nested_walk_is_level_1_and_starts_from_the_outer_count \
	nested_walks_share_one_budget nested_walk_retried_is_charged_once \
	outer_walk_goes_on_from_the_nested_count; do
	check "budget_test: $(echo $test | tr _ ' ')" /symwalk/tests/budget_test -t "$test"
done
# What the predictions are graded against: a chain of 30 links into
# nestfs's directory "stale", which fails every attempt but a LOOKUP_REVAL
# one with -ESTALE, after the 30 links are followed.
mkdir budget
mount -t tmpfs -o noatime,mode=0755 budget budget
mkdir budget/nest
mount -t nestfs -o noatime nestfs budget/nest
ln -s nest/stale budget/c1
i=1
while [ $i -lt 30 ]; do
	ln -s c$i budget/c$((i + 1))
	i=$((i + 1))
done
observe retry lookup -t stat budget/c30
graded
