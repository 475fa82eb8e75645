# A mount point on the way, and links across it, all on noatime tmpfs
# mounts (so that no atime update takes the walks out of RCU-walk; lab
# 05-atime):
#   t/                    a tmpfs
#   t/m/                  another tmpfs, mounted over the directory m
#   t/m/dir/file
#   t/link -> m/dir       a relative link whose body crosses the mount
#   t/abs -> /lab/14-mounts/t/m/dir   an absolute link
mkdir t
mount -t tmpfs -o noatime,mode=0755 lab-14 t
mkdir t/m
mount -t tmpfs -o noatime,mode=0755 lab-14-m t/m
mkdir t/m/dir
echo "on the other side" > t/m/dir/file
ln -s m/dir t/link
ln -s /lab/14-mounts/t/m/dir t/abs
