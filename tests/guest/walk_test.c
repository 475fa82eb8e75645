// SPDX-License-Identifier: GPL-2.0
/*
 * The symlink walk's documented behaviour, checked on the running kernel.
 *
 * Each test runs in a fresh directory on tmpfs, where it builds what it
 * needs from these shapes:
 *
 *   <dir>/
 *   |-- file                      a regular file
 *   |-- dir/                      a directory
 *   |   `-- file
 *   |-- c1 -> file                chain(): cN -> cN-1 -> ... -> c1 -> target
 *   |-- cN -> cN-1
 *   |-- loop-a -> loop-b          a loop
 *   |-- loop-b -> loop-a
 *   |-- dangling -> new-file      a link whose target does not exist yet
 *   |-- to-root -> /
 *   `-- abs -> /<dir>/file        an absolute link
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "kselftest_harness.h"

#define MAXSYMLINKS 40

/* Make "<prefix>1" -> target and "<prefix>i" -> "<prefix>(i-1)" up to n. */
static void chain(struct __test_metadata *_metadata, const char *prefix,
		  int n, const char *target)
{
	char link[64], body[64];

	for (int i = 1; i <= n; i++) {
		snprintf(link, sizeof(link), "%s%d", prefix, i);
		if (i == 1)
			snprintf(body, sizeof(body), "%s", target);
		else
			snprintf(body, sizeof(body), "%s%d", prefix, i - 1);
		ASSERT_EQ(0, symlink(body, link)) TH_LOG("symlink %s: %m", link);
	}
}

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
	char dir[PATH_MAX];
};

FIXTURE_SETUP(walk)
{
	int fd;

	snprintf(self->dir, sizeof(self->dir), "/tmp/walk_test.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir)) TH_LOG("mkdtemp: %m");
	ASSERT_EQ(0, chdir(self->dir)) TH_LOG("chdir: %m");
	fd = open("file", O_CREAT | O_WRONLY, 0644);
	ASSERT_LE(0, fd) TH_LOG("create file: %m");
	ASSERT_EQ(0, close(fd));
	ASSERT_EQ(0, mkdir("dir", 0755)) TH_LOG("mkdir dir: %m");
	fd = open("dir/file", O_CREAT | O_WRONLY, 0644);
	ASSERT_LE(0, fd) TH_LOG("create dir/file: %m");
	ASSERT_EQ(0, close(fd));
}

static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	return remove(path);
}

FIXTURE_TEARDOWN(walk)
{
	EXPECT_EQ(0, nftw(self->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS))
		TH_LOG("removing %s: %m", self->dir);
}

TEST_F(walk, chain_of_3_resolves)
{
	chain(_metadata, "c", 3, "file");
	same_inode(_metadata, "c3", "file");
}

TEST_F(walk, chain_of_40_resolves_41_is_eloop)
{
	chain(_metadata, "c", MAXSYMLINKS + 1, "file");
	same_inode(_metadata, "c40", "file");
	EXPECT_EQ(ELOOP, stat_errno("c41"));
}

/*
 * "d20/f20": 20 links to reach the directory, then 20 inside it. Each link
 * is finished before the next is pushed, so the stack never holds more than
 * two of them, yet the walk runs out of its budget at the 41st.
 */
TEST_F(walk, budget_counts_links_not_depth)
{
	chain(_metadata, "d", 21, "dir");
	ASSERT_EQ(0, chdir("dir"));
	chain(_metadata, "f", 20, "file");
	ASSERT_EQ(0, chdir(".."));
	same_inode(_metadata, "d20/f20", "dir/file");
	EXPECT_EQ(ELOOP, stat_errno("d21/f20"));
}

/* "n1" -> "n2/." -> ... : each link is still open while the next is walked. */
TEST_F(walk, nesting_is_bounded_by_the_same_budget)
{
	char link[32], body[32];

	for (int i = 1; i <= MAXSYMLINKS + 1; i++) {
		snprintf(link, sizeof(link), "n%d", i);
		if (i == MAXSYMLINKS + 1)
			snprintf(body, sizeof(body), "dir");
		else
			snprintf(body, sizeof(body), "n%d/.", i + 1);
		ASSERT_EQ(0, symlink(body, link));
	}
	/* n2 opens 40 links, n1 one more. */
	same_inode(_metadata, "n2", "dir");
	EXPECT_EQ(ELOOP, stat_errno("n1"));
}

TEST_F(walk, loop_is_eloop)
{
	ASSERT_EQ(0, symlink("loop-b", "loop-a"));
	ASSERT_EQ(0, symlink("loop-a", "loop-b"));
	EXPECT_EQ(ELOOP, stat_errno("loop-a"));
	EXPECT_EQ(ELOOP, stat_errno("loop-a/x"));
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

	snprintf(body, sizeof(body), "%s/file", self->dir);
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

TEST_F(walk, openat2_resolve_no_symlinks_is_eloop)
{
	struct open_how how = {
		.flags = O_RDONLY,
		.resolve = RESOLVE_NO_SYMLINKS,
	};
	int fd;

	ASSERT_EQ(0, symlink("dir", "dirlink"));
	fd = syscall(SYS_openat2, AT_FDCWD, "dirlink/file", &how, sizeof(how));
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(ELOOP, errno);
	fd = syscall(SYS_openat2, AT_FDCWD, "dir/file", &how, sizeof(how));
	EXPECT_LE(0, fd) TH_LOG("openat2 dir/file: %m");
	if (fd >= 0)
		close(fd);
}

TEST_HARNESS_MAIN
