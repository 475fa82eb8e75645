# A path without links: /lab/02-plain-path/a/b/file.
mkdir -p a/b
echo "at the end of a plain path" > a/b/file
