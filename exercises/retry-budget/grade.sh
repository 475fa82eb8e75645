# vcpus: 2
# The grader of exercise retry-budget: the series' budget selftests, the
# race of a retried lookup against its link budget on two vCPUs among them.
. /symwalk/scenarios/exercise-lib.sh
check "symlink_budget_test: the budget of 40 links, chained and nested" \
	/symwalk/tests/ksft-namei-symlink_budget_test
check "retry_budget_test: a lookup retried after a rename is charged once for its links" \
	/symwalk/tests/ksft-namei-retry_budget_test
graded
