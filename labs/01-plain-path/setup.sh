# A path without links: /lab/01-plain-path/a/b/file.
mkdir -p a/b
echo "at the end of a plain path" > a/b/file
