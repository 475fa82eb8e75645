# A link to stop at.
mkdir dir
ln -s dir link
