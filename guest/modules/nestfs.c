// SPDX-License-Identifier: GPL-2.0
/*
 * nestfs: a test filesystem of symwalk's guest, never meant for upstream.
 * It makes the two things a tinyconfig guest cannot otherwise make happen
 * on demand:
 *
 *  - A walk nested in another. Following a symlink of nestfs first looks
 *    up the path in /sys/module/nestfs/parameters/nested_lookup (if it is
 *    not empty) with kern_path(), from inside the outer walk's
 *    ->get_link(): set_nameidata() finds the outer walk in
 *    current->nameidata. With nested_root set too, the nested lookup is
 *    vfs_path_lookup()'s, from that directory as its root
 *    (ND_ROOT_PRESET), as an NFS referral's mount_subtree() makes it. An
 *    error of that lookup is the link's; otherwise the link's body is its
 *    own, as for any symlink. A lookup nested in one of nestfs's own
 *    nested lookups follows its links without nesting again, so that a
 *    nested path through nestfs cannot recurse without end.
 *
 *  - A lookup retried with LOOKUP_REVAL. The directory "stale", made at
 *    mount time in the root of every nestfs, fails ->d_revalidate() with
 *    -ESTALE unless LOOKUP_REVAL is set, as a network filesystem does
 *    when its server says a file handle went stale: the attempt that
 *    meets it ends with -ESTALE, and the lookup is tried again in
 *    LOOKUP_REVAL, where it succeeds. Its ->d_weak_revalidate() (a walk
 *    that ends on it after "." or "..") says the same with 0.
 *
 * and the rest of what a filesystem may ask of the walk: the directories
 * "managed" and "managed-ref" have their transit managed (->d_manage(),
 * as autofs's are): the first lets the walk through in RCU-walk and
 * REF-walk, the second only in REF-walk (-ECHILD in RCU-walk, as autofs
 * while its daemon mounts); ->d_hash() refuses names with a ':' (-EINVAL),
 * as vfat refuses some.
 *
 * Otherwise nestfs holds directories and symlinks in memory, as ramfs
 * does, but keeps negative dentries, as a filesystem on a disk does (tmpfs
 * drops them); it makes no regular files. Its links are never followed in
 * RCU-walk (->get_link() may sleep).
 */
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#define NESTFS_MAGIC 0x6e657374

static char *nested_lookup;
module_param(nested_lookup, charp, 0644);
MODULE_PARM_DESC(nested_lookup,
		 "the path that following a nestfs link looks up first, in a walk nested in the one that follows it");
static char *nested_root;
module_param(nested_root, charp, 0644);
MODULE_PARM_DESC(nested_root, "if set, the root of the nested lookup (vfs_path_lookup())");

/* The tasks in a nested lookup of nestfs's: none of them nests again. */
static LIST_HEAD(nesting_tasks);
static DEFINE_SPINLOCK(nesting_lock);

struct nesting {
	struct list_head list;
	struct task_struct *task;
};

static bool nesting_now(void)
{
	struct nesting *n;
	bool found = false;

	spin_lock(&nesting_lock);
	list_for_each_entry(n, &nesting_tasks, list)
		found |= n->task == current;
	spin_unlock(&nesting_lock);
	return found;
}

/* d_fsdata of the directories made at mount time */
static char stale_marker, managed_marker, managed_ref_marker;

static bool stale_now(const struct dentry *dentry, unsigned int flags)
{
	return READ_ONCE(dentry->d_fsdata) == &stale_marker && !(flags & LOOKUP_REVAL);
}

static int nestfs_d_revalidate(struct dentry *dentry, unsigned int flags)
{
	return stale_now(dentry, flags) ? -ESTALE : 1;
}

static int nestfs_d_weak_revalidate(struct dentry *dentry, unsigned int flags)
{
	return stale_now(dentry, flags) ? 0 : 1;
}

static int nestfs_d_manage(const struct path *path, bool rcu_walk)
{
	if (rcu_walk && READ_ONCE(path->dentry->d_fsdata) == &managed_ref_marker)
		return -ECHILD;
	return 0;
}

static int nestfs_d_hash(const struct dentry *dentry, struct qstr *name)
{
	return memchr(name->name, ':', name->len) ? -EINVAL : 0;
}

static const struct dentry_operations nestfs_dentry_ops = {
	.d_revalidate = nestfs_d_revalidate,
	.d_weak_revalidate = nestfs_d_weak_revalidate,
	.d_manage = nestfs_d_manage,
	.d_hash = nestfs_d_hash,
};

/* A parameter's value, without echo's newline; NULL if out of memory. */
static char *param_copy(char **param)
{
	char *copy;

	kernel_param_lock(THIS_MODULE);
	copy = kstrdup(*param ?: "", GFP_KERNEL);
	kernel_param_unlock(THIS_MODULE);
	if (copy)
		copy[strcspn(copy, "\n")] = '\0';
	return copy;
}

/* Look name up, from root if it is not empty: 0 or the lookup's error. */
static int nestfs_lookup_from(const char *root, const char *name)
{
	struct path from, path;
	int error;

	if (!*root)
		error = kern_path(name, LOOKUP_FOLLOW, &path);
	else {
		error = kern_path(root, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &from);
		if (error)
			return error;
		error = vfs_path_lookup(from.dentry, from.mnt, name, LOOKUP_FOLLOW, &path);
		path_put(&from);
	}
	if (!error)
		path_put(&path);
	return error;
}

/* The nested lookup of the path nested_lookup names: 0 or its error. */
static int nestfs_nested_lookup(void)
{
	struct nesting self = { .task = current };
	char *name = param_copy(&nested_lookup), *root = param_copy(&nested_root);
	int error = -ENOMEM;

	if (!name || !root)
		goto out;
	error = 0;
	if (!*name || nesting_now())
		goto out;
	spin_lock(&nesting_lock);
	list_add(&self.list, &nesting_tasks);
	spin_unlock(&nesting_lock);

	error = nestfs_lookup_from(root, name);

	spin_lock(&nesting_lock);
	list_del(&self.list);
	spin_unlock(&nesting_lock);
out:
	kfree(name);
	kfree(root);
	return error;
}

static const char *nestfs_get_link(struct dentry *dentry, struct inode *inode,
				   struct delayed_call *done)
{
	int error;

	if (!dentry)		/* RCU-walk: a lookup may sleep */
		return ERR_PTR(-ECHILD);
	error = nestfs_nested_lookup();
	if (error)
		return ERR_PTR(error);
	return inode->i_private;	/* freed with the inode */
}

static const struct inode_operations nestfs_symlink_iops = {
	.get_link = nestfs_get_link,
};

static const struct inode_operations nestfs_dir_iops;

static struct inode *nestfs_new_inode(struct super_block *sb, const struct inode *dir,
				      umode_t mode)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = get_next_ino();
	inode_init_owner(&nop_mnt_idmap, inode, dir, mode);
	simple_inode_init_ts(inode);
	if (S_ISDIR(mode)) {
		inode->i_op = &nestfs_dir_iops;
		inode->i_fop = &simple_dir_operations;
		inc_nlink(inode);	/* "." */
	} else {
		inode->i_op = &nestfs_symlink_iops;
	}
	return inode;
}

/* Put a new inode in place of the negative dentry, pinned as ramfs does. */
static void nestfs_instantiate(struct inode *dir, struct dentry *dentry, struct inode *inode)
{
	d_instantiate(dentry, inode);
	dget(dentry);
	inode_set_mtime_to_ts(dir, inode_set_ctime_current(dir));
}

static int nestfs_mkdir(struct mnt_idmap *idmap, struct inode *dir,
			struct dentry *dentry, umode_t mode)
{
	struct inode *inode = nestfs_new_inode(dir->i_sb, dir, S_IFDIR | mode);

	if (!inode)
		return -ENOSPC;
	nestfs_instantiate(dir, dentry, inode);
	inc_nlink(dir);
	return 0;
}

static int nestfs_symlink(struct mnt_idmap *idmap, struct inode *dir,
			  struct dentry *dentry, const char *body)
{
	struct inode *inode = nestfs_new_inode(dir->i_sb, dir, S_IFLNK | 0777);

	if (!inode)
		return -ENOSPC;
	inode->i_private = kstrdup(body, GFP_KERNEL);
	if (!inode->i_private) {
		iput(inode);
		return -ENOMEM;
	}
	inode->i_size = strlen(body);
	nestfs_instantiate(dir, dentry, inode);
	return 0;
}

static const struct inode_operations nestfs_dir_iops = {
	.lookup = simple_lookup,
	.mkdir = nestfs_mkdir,
	.symlink = nestfs_symlink,
	.unlink = simple_unlink,
	.rmdir = simple_rmdir,
};

static void nestfs_evict_inode(struct inode *inode)
{
	clear_inode(inode);
	if (S_ISLNK(inode->i_mode))
		kfree(inode->i_private);
}

static const struct super_operations nestfs_super_ops = {
	.statfs = simple_statfs,
	.drop_inode = generic_delete_inode,
	.evict_inode = nestfs_evict_inode,
};

/* A directory of the root made at mount time, its d_fsdata set to marker. */
static int nestfs_made_dir(struct dentry *root, const char *name, void *marker,
			   unsigned int d_flags)
{
	struct dentry *dentry = d_alloc_name(root, name);
	int error;

	if (!dentry)
		return -ENOMEM;
	dentry->d_fsdata = marker;
	spin_lock(&dentry->d_lock);
	dentry->d_flags |= d_flags;
	spin_unlock(&dentry->d_lock);
	error = nestfs_mkdir(&nop_mnt_idmap, d_inode(root), dentry, 0755);
	if (!error)
		d_rehash(dentry);
	dput(dentry);		/* the pin of nestfs_instantiate() stays */
	return error;
}

static int nestfs_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct inode *root;

	sb->s_magic = NESTFS_MAGIC;
	sb->s_op = &nestfs_super_ops;
	sb->s_d_op = &nestfs_dentry_ops;
	sb->s_time_gran = 1;
	root = nestfs_new_inode(sb, NULL, S_IFDIR | 0755);
	if (!root)
		return -ENOMEM;
	sb->s_root = d_make_root(root);
	if (!sb->s_root)
		return -ENOMEM;

	return nestfs_made_dir(sb->s_root, "stale", &stale_marker, 0) ?:
		nestfs_made_dir(sb->s_root, "managed", &managed_marker, DCACHE_MANAGE_TRANSIT) ?:
		nestfs_made_dir(sb->s_root, "managed-ref", &managed_ref_marker,
				DCACHE_MANAGE_TRANSIT);
}

static int nestfs_get_tree(struct fs_context *fc)
{
	return get_tree_nodev(fc, nestfs_fill_super);
}

static const struct fs_context_operations nestfs_context_ops = {
	.get_tree = nestfs_get_tree,
};

static int nestfs_init_fs_context(struct fs_context *fc)
{
	fc->ops = &nestfs_context_ops;
	return 0;
}

static struct file_system_type nestfs_type = {
	.owner = THIS_MODULE,
	.name = "nestfs",
	.init_fs_context = nestfs_init_fs_context,
	.kill_sb = kill_litter_super,
};

static int __init nestfs_init(void)
{
	return register_filesystem(&nestfs_type);
}

static void __exit nestfs_exit(void)
{
	unregister_filesystem(&nestfs_type);
}

module_init(nestfs_init);
module_exit(nestfs_exit);
MODULE_DESCRIPTION("symwalk's test filesystem: nested walks and LOOKUP_REVAL on demand");
MODULE_LICENSE("GPL");
