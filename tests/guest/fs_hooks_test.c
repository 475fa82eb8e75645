// SPDX-License-Identifier: GPL-2.0
/*
 * What a filesystem may ask of the walk, through its dentry operations,
 * and mounts stacked on one directory: each met by a lookup whose answer
 * and events say the walk did what the filesystem asked.
 *
 *   <mnt>/                 a scratch tmpfs (scratch.h)
 *   |-- dir/file
 *   |-- stack/             two tmpfs mounted on it, one on the other
 *   `-- nest/              nestfs (nestfs.h, guest/modules/nestfs.c)
 *       |-- stale/         ->d_revalidate() -ESTALE, ->d_weak_revalidate()
 *       |                  0, but in LOOKUP_REVAL
 *       |-- managed/       ->d_manage() lets the walk through
 *       |-- managed-ref/   ->d_manage() only in REF-walk
 *       `-- L -> ...       a link: following it leaves RCU-walk
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "events.h"
#include "nestfs.h"
#include "scratch.h"

FIXTURE(hooks) {
	char mnt[PATH_MAX];
};

FIXTURE_SETUP(hooks)
{
	scratch_mount(_metadata, self->mnt, "fs_hooks_test", MS_NOATIME);
	nestfs_mount(_metadata);
}

FIXTURE_TEARDOWN(hooks)
{
	EXPECT_EQ(0, write_file(TRACEFS "/events/namei/enable", "0", 0));
	nestfs_unmount(_metadata);
	scratch_unmount(_metadata, self->mnt);
}

/*
 * A walk that ends after "." or ".." (ND_JUMPED) did not look its last
 * dentry up by name: complete_walk() asks ->d_weak_revalidate() instead,
 * and its 0 is -ESTALE, retried with LOOKUP_REVAL. "." from an fd of stale
 * (its own open was retried so) meets no ->d_revalidate() on the way.
 */
TEST_F(hooks, weak_revalidate_after_dot)
{
	struct stat st;
	int fd = open("nest/stale", O_PATH);

	ASSERT_LE(0, fd) TH_LOG("open nest/stale: %m");
	start_tracing(_metadata);
	EXPECT_EQ(0, fstatat(fd, ".", &st, 0)) TH_LOG("stat stale/.: %m");
	stop_tracing(_metadata);
	close(fd);

	const char *const events[] = {
		"namei_unlazy: level=0 depth=0 reason=complete legitimized=1",
		"namei_lookup_end: level=0 attempt=rcu name=\".\" links=0 error=-116",
		"namei_lookup_start: level=0 attempt=reval name=\".\"",
		"namei_lookup_end: level=0 attempt=reval name=\".\" links=0 error=0",
		NULL
	};
	expect_events(_metadata, read_trace(_metadata), events);
}

/* ->d_hash() sees each name looked up in the directory, and may refuse it. */
TEST_F(hooks, d_hash_refuses_a_name)
{
	EXPECT_EQ(EINVAL, stat_errno("nest/a:b"));
	EXPECT_EQ(-1, mkdir("nest/a:b", 0755));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, mkdir("nest/ab", 0755)) TH_LOG("mkdir nest/ab: %m");
}

/*
 * A managed dentry (DCACHE_MANAGE_TRANSIT): the walk asks ->d_manage()
 * before it crosses, in RCU-walk (__follow_mount_rcu()) and in REF-walk
 * (traverse_mounts()). managed-ref says -ECHILD in RCU-walk: the walk
 * leaves it there (reason=mounts) and asks again.
 */
TEST_F(hooks, d_manage_is_asked_before_the_crossing)
{
	ASSERT_EQ(0, symlink("managed", "nest/L"));

	start_tracing(_metadata);
	EXPECT_EQ(0, stat_errno("nest/managed/."));
	stop_tracing(_metadata);
	expect_no_event(_metadata, read_trace(_metadata), "reason=mounts");

	start_tracing(_metadata);
	EXPECT_EQ(0, stat_errno("nest/managed-ref/."));
	/* nestfs's link leaves RCU-walk: the crossing is REF-walk's */
	EXPECT_EQ(0, stat_errno("nest/L/."));
	stop_tracing(_metadata);
	const char *const events[] = {
		"namei_lookup_start: level=0 attempt=rcu name=\"nest/managed-ref/.\"",
		"namei_unlazy: level=0 depth=0 reason=mounts legitimized=1",
		"namei_lookup_end: level=0 attempt=rcu name=\"nest/managed-ref/.\" links=0 error=0",
		"namei_link_push: level=0 depth=1 links=1 link=\"L\" trailing=0 mode=rcu",
		"namei_unlazy: level=0 depth=1 reason=get_link legitimized=1",
		"namei_lookup_end: level=0 attempt=rcu name=\"nest/L/.\" links=1 error=0",
		NULL
	};
	expect_events(_metadata, read_trace(_metadata), events);
}

/*
 * Two mounts on one directory: REF-walk's traverse_mounts() crosses both,
 * to the one on top.
 */
TEST_F(hooks, stacked_mounts_are_crossed_to_the_top)
{
	struct stat top, st;

	ASSERT_EQ(0, mkdir("stack", 0755));
	ASSERT_EQ(0, mount("tmpfs", "stack", "tmpfs", 0, "")) TH_LOG("mount: %m");
	ASSERT_EQ(0, mount("tmpfs", "stack", "tmpfs", 0, "")) TH_LOG("mount: %m");
	scratch_file(_metadata, "stack/top");
	ASSERT_EQ(0, stat("stack/top", &top));
	ASSERT_EQ(0, symlink("../stack", "nest/L"));

	/* RCU-walk crosses them in __follow_mount_rcu(); after L, REF-walk */
	ASSERT_EQ(0, stat("nest/L/top", &st)) TH_LOG("stat nest/L/top: %m");
	EXPECT_EQ(top.st_dev, st.st_dev);
	EXPECT_EQ(top.st_ino, st.st_ino);
	EXPECT_EQ(0, umount("stack"));
	EXPECT_EQ(0, umount("stack"));
}

/*
 * nestfs keeps the negative dentry of a name it was asked for and does not
 * have, as a filesystem on a disk does: the next lookup of that name is
 * answered from the dcache, without leaving RCU-walk (tmpfs drops them:
 * each of its misses goes to ->lookup()). An O_CREAT open that finds the
 * negative dentry in REF-walk drops it and creates, here refused: nestfs
 * makes no files.
 */
TEST_F(hooks, negative_dentries_stay)
{
	ASSERT_EQ(0, symlink(".", "nest/L"));
	start_tracing(_metadata);
	EXPECT_EQ(ENOENT, stat_errno("nest/missing"));
	EXPECT_EQ(ENOENT, stat_errno("nest/missing"));
	stop_tracing(_metadata);
	const char *const events[] = {
		"namei_lookup_start: level=0 attempt=rcu name=\"nest/missing\"",
		"namei_unlazy: level=0 depth=0 reason=dcache_miss legitimized=1",
		"namei_lookup_end: level=0 attempt=rcu name=\"nest/missing\" links=0 error=-2",
		"namei_lookup_start: level=0 attempt=rcu name=\"nest/missing\"",
		"namei_lookup_end: level=0 attempt=rcu name=\"nest/missing\" links=0 error=-2",
		NULL
	};
	const char *trace = read_trace(_metadata);

	const char *miss = strstr(trace, "reason=dcache_miss");

	expect_events(_metadata, trace, events);
	/* one miss only: the second lookup left no namei_unlazy */
	if (miss)
		EXPECT_EQ(NULL, strstr(miss + 1, "reason=dcache_miss"));

	EXPECT_EQ(-1, open("nest/L/missing", O_CREAT | O_WRONLY, 0644));
	EXPECT_EQ(EACCES, errno);
}

TEST_HARNESS_MAIN
