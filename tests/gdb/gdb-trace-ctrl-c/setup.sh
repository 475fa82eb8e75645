# n1 -> n2/. -> ... -> n40 -> d: a lookup of n1/f pushes 40 links, 120
# steps for lx-walk-trace, long enough to be cut short in the middle.
# (nested: the exercises' fixture of nested links.)
. /symwalk/scenarios/exercise-lib.sh
nested . 40
