// SPDX-License-Identifier: GPL-2.0
/*
 * The symlink walk's documented behaviour, checked on the running kernel.
 *
 * Each test runs on a scratch tmpfs of its own (scratch.h), where it builds
 * what it needs from these shapes:
 *
 *   <mnt>/
 *   |-- file                      a regular file
 *   |-- dir/                      a directory
 *   |   `-- file
 *   |-- c3 -> c2 -> c1 -> file    a chain
 *   |-- dangling -> new-file      a link whose target does not exist yet
 *   |-- to-root -> /
 *   `-- abs -> /<mnt>/file        an absolute link
 *
 * The budget of 40 links, trailing or nested, and loops ending in ELOOP are
 * the series' selftest's (tools/testing/selftests/namei/
 * symlink_budget_test.c), and RESOLVE_NO_SYMLINKS is openat2's
 * (tools/testing/selftests/openat2/resolve_test.c): both run in make check.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scratch.h"

static void same_inode(struct __test_metadata *_metadata, const char *a,
		       const char *b)
{
	struct stat sa, sb;

	ASSERT_EQ(0, stat(a, &sa)) TH_LOG("stat %s: %m", a);
	ASSERT_EQ(0, stat(b, &sb)) TH_LOG("stat %s: %m", b);
	EXPECT_EQ(sa.st_dev, sb.st_dev);
	EXPECT_EQ(sa.st_ino, sb.st_ino);
}

static int stat_errno(const char *path)
{
	struct stat st;

	return stat(path, &st) ? errno : 0;
}

FIXTURE(walk) {
	char mnt[PATH_MAX];
};

FIXTURE_SETUP(walk)
{
	scratch_mount(_metadata, self->mnt, "walk_test", 0);
}

FIXTURE_TEARDOWN(walk)
{
	scratch_unmount(_metadata, self->mnt);
}

TEST_F(walk, chain_of_3_resolves)
{
	ASSERT_EQ(0, symlink("file", "c1"));
	ASSERT_EQ(0, symlink("c1", "c2"));
	ASSERT_EQ(0, symlink("c2", "c3"));
	same_inode(_metadata, "c3", "file");
}

TEST_F(walk, link_to_slash_lands_at_root)
{
	ASSERT_EQ(0, symlink("/", "to-root"));
	same_inode(_metadata, "to-root", "/");
	same_inode(_metadata, "to-root/proc", "/proc");
	same_inode(_metadata, "to-root/..", "/");
}

TEST_F(walk, absolute_link_restarts_at_root)
{
	char body[PATH_MAX + 8];

	snprintf(body, sizeof(body), "%s/file", self->mnt);
	ASSERT_EQ(0, symlink(body, "dir/abs"));
	same_inode(_metadata, "dir/abs", "file");
}

TEST_F(walk, creat_through_dangling_link_creates_target)
{
	struct stat st;
	int fd;

	ASSERT_EQ(0, symlink("new-file", "dangling"));
	EXPECT_EQ(ENOENT, stat_errno("new-file"));
	fd = open("dangling", O_CREAT | O_WRONLY, 0644);
	ASSERT_LE(0, fd) TH_LOG("open O_CREAT: %m");
	ASSERT_EQ(0, close(fd));
	ASSERT_EQ(0, lstat("new-file", &st));
	EXPECT_TRUE(S_ISREG(st.st_mode));
	ASSERT_EQ(0, lstat("dangling", &st));
	EXPECT_TRUE(S_ISLNK(st.st_mode));
}

TEST_F(walk, creat_excl_on_dangling_link_is_eexist)
{
	ASSERT_EQ(0, symlink("new-file", "dangling"));
	EXPECT_EQ(-1, open("dangling", O_CREAT | O_EXCL | O_WRONLY, 0644));
	EXPECT_EQ(EEXIST, errno);
	EXPECT_EQ(ENOENT, stat_errno("new-file"));
}

TEST_F(walk, mkdir_on_dangling_link_is_eexist)
{
	ASSERT_EQ(0, symlink("new-dir", "dangling"));
	EXPECT_EQ(-1, mkdir("dangling", 0755));
	EXPECT_EQ(EEXIST, errno);
	EXPECT_EQ(ENOENT, stat_errno("new-dir"));
}

TEST_F(walk, nofollow_on_final_link_is_eloop)
{
	int fd;

	ASSERT_EQ(0, symlink("file", "link"));
	EXPECT_EQ(-1, open("link", O_RDONLY | O_NOFOLLOW));
	EXPECT_EQ(ELOOP, errno);
	/* Only the final component is not followed. */
	ASSERT_EQ(0, symlink("dir", "dirlink"));
	fd = open("dirlink/file", O_RDONLY | O_NOFOLLOW);
	EXPECT_LE(0, fd) TH_LOG("open dirlink/file: %m");
	if (fd >= 0)
		close(fd);
}

TEST_F(walk, proc_fd_reopens_unlinked_file)
{
	char magic[64], buf[8] = "";
	int fd, again;

	fd = open("doomed", O_CREAT | O_RDWR, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(5, write(fd, "hello", 5));
	ASSERT_EQ(0, unlink("doomed"));
	snprintf(magic, sizeof(magic), "/proc/self/fd/%d", fd);
	again = open(magic, O_RDONLY);
	ASSERT_LE(0, again) TH_LOG("open %s: %m", magic);
	EXPECT_EQ(5, read(again, buf, sizeof(buf)));
	EXPECT_EQ(0, memcmp(buf, "hello", 5));
	close(again);
	close(fd);
}

TEST_F(walk, trailing_slash_after_link_to_file_is_enotdir)
{
	ASSERT_EQ(0, symlink("file", "link"));
	EXPECT_EQ(ENOTDIR, stat_errno("link/"));
	ASSERT_EQ(0, symlink("dir", "dirlink"));
	EXPECT_EQ(0, stat_errno("dirlink/"));
}

TEST_HARNESS_MAIN
