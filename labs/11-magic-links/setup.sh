# Nothing to build: the trigger creates the file "secret", opens it,
# unlinks it and opens it again through /proc/self/fd/N.
true
