# A file to stat, again and again.
echo data > file
