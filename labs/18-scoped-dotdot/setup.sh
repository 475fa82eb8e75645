# jail/sub/ and jail/file: RESOLVE_IN_ROOT keeps ".." inside jail.
mkdir -p jail/sub
echo data > jail/file
