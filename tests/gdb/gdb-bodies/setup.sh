# A body too long for tmpfs to keep inline (128 bytes): it is a page-cache
# folio, released by shmem_put_link.
mkdir dir
echo data > dir/file
body=
while [ ${#body} -lt 200 ]; do body="$body./"; done
ln -s "${body}dir" long
