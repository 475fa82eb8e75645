# The dcache has no dentry for the name: lookup_slow() allocates one,
# in-lookup, with d_alloc_parallel(), and asks the filesystem.
break d_alloc_parallel if $_streq($lx_current().comm, "symwalk-lab")
continue
bt 4
lx-nameidata
print name->name
# What d_alloc_parallel() returns (lx-finish: finish, no other breakpoint
# in the way): a new dentry for the name, negative
# until the filesystem's ->lookup() says otherwise.
lx-finish
print $->d_name.name
print $$->d_inode
