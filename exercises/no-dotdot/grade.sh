# The grader of exercise no-dotdot: openat2()'s RESOLVE_NO_DOTDOT (0x40)
# refuses "..", in the name and in the bodies of links, with EXDEV.
. /symwalk/scenarios/exercise-lib.sh
mkdir -p a/b
echo file > f
ln -s ../f a/up
check "a/b/../../f with RESOLVE_NO_DOTDOT: EXDEV" \
	lookup_says ": EXDEV" -R 0x40 openat2 a/b/../../f
check "a link whose body climbs (a/up -> ../f): EXDEV" \
	lookup_says ": EXDEV" -R 0x40 openat2 a/up
check "a/b with RESOLVE_NO_DOTDOT: no .., allowed" lookup_says ": ok " -R 0x40 openat2 a/b
check "./f with RESOLVE_NO_DOTDOT: . is allowed" lookup_says ": ok " -R 0x40 openat2 ./f
check "a/b/../../f without the flag: allowed" lookup_says ": ok " openat2 a/b/../../f
# What the predictions are graded against: RESOLVE_NO_DOTDOT with
# RESOLVE_CACHED, which allows no REF-walk.
observe cached lookup -R 0x60 openat2 a/b/../../f
graded
