# A walk nested in another. nestfs, the guest's test filesystem
# (guest/modules/nestfs.c), looks up a path of its own whenever one of its
# links is followed; its directory "stale" fails every attempt but a
# LOOKUP_REVAL one with -ESTALE. On a noatime tmpfs:
#   t/dir/file
#   t/nest/                     nestfs (noatime too)
#   t/nest/L -> ../dir          following it first looks up t/b2
#   t/nest/stale/
#   t/a3 -> a2 -> a1 -> nest    three links to L
#   t/b2 -> b1 -> nest/stale    the nested lookup's two links
mkdir t
mount -t tmpfs -o noatime,mode=0755 lab-21 t
mkdir t/dir t/nest
echo "behind a nested walk" > t/dir/file
mount -t nestfs -o noatime nestfs t/nest
ln -s ../dir t/nest/L
ln -s nest t/a1
ln -s a1 t/a2
ln -s a2 t/a3
ln -s nest/stale t/b1
ln -s b1 t/b2
echo "$PWD/t/b2" > /sys/module/nestfs/parameters/nested_lookup
