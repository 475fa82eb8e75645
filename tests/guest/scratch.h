/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest tests' scratch filesystem: a tmpfs of the test's own, mounted
 * on a new directory /tmp/<name>.XXXXXX and made the working directory,
 * holding
 *
 *   <mnt>/
 *   |-- file
 *   `-- dir/
 *       `-- file
 *
 * Unmounting it takes away everything the test made there, so no tree is
 * walked and removed (as the series' selftests do with nftw()), and the
 * mount flags pick the atime rule the walk meets.
 */
#ifndef SYMWALK_SCRATCH_H
#define SYMWALK_SCRATCH_H

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

static void scratch_file(struct __test_metadata *_metadata, const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY, 0644);

	ASSERT_LE(0, fd) TH_LOG("create %s: %m", path);
	ASSERT_EQ(0, close(fd));
}

/* mnt: PATH_MAX bytes, where the mount point's name is left. */
static void scratch_mount(struct __test_metadata *_metadata, char *mnt,
			  const char *name, unsigned long flags)
{
	snprintf(mnt, PATH_MAX, "/tmp/%s.XXXXXX", name);
	ASSERT_NE(NULL, mkdtemp(mnt)) TH_LOG("mkdtemp: %m");
	ASSERT_EQ(0, mount("tmpfs", mnt, "tmpfs", flags, "mode=0755"))
		TH_LOG("mount tmpfs on %s: %m", mnt);
	ASSERT_EQ(0, chdir(mnt));
	scratch_file(_metadata, "file");
	ASSERT_EQ(0, mkdir("dir", 0755)) TH_LOG("mkdir dir: %m");
	scratch_file(_metadata, "dir/file");
}

/*
 * A chain of n links, <prefix>n -> <prefix>n-1 -> ... -> <prefix>1 -> target,
 * in the working directory: <prefix>n resolves through n links.
 */
static inline void scratch_chain(struct __test_metadata *_metadata, const char *prefix,
			  int n, const char *target)
{
	char link[64], body[PATH_MAX];

	for (int i = 1; i <= n; i++) {
		snprintf(link, sizeof(link), "%s%d", prefix, i);
		if (i == 1)
			snprintf(body, sizeof(body), "%s", target);
		else
			snprintf(body, sizeof(body), "%s%d", prefix, i - 1);
		ASSERT_EQ(0, symlink(body, link)) TH_LOG("symlink %s %s: %m", body, link);
	}
}

static void scratch_unmount(struct __test_metadata *_metadata, const char *mnt)
{
	EXPECT_EQ(0, chdir("/"));
	EXPECT_EQ(0, umount(mnt)) TH_LOG("umount %s: %m", mnt);
	EXPECT_EQ(0, rmdir(mnt)) TH_LOG("rmdir %s: %m", mnt);
}

#endif
