mkdir dir
ln -s dir link
