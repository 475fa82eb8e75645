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
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/openat2.h>

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

/* ".." at the root of a mount climbs to its mountpoint's parent. */
TEST_F(walk, dotdot_climbs_out_of_a_mount)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "../%s/file", strrchr(self->mnt, '/') + 1);
	same_inode(_metadata, path, "file");
}

/*
 * A walk that starts outside the process's root (an fd opened before a
 * chroot()) may climb to the root of the namespace's first mount, which
 * has no mountpoint to climb to: ".." stays there, in RCU-walk and in
 * REF-walk alike (tracefs's ->permission() takes the walk out of
 * RCU-walk at /sys/kernel/tracing).
 */
TEST_F(walk, dotdot_at_the_namespace_root_stays_there)
{
	struct stat root, up, down_up;
	int fd = open("/", O_PATH), status;
	pid_t child;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fstat(fd, &root));
	/* chroot() in a child: the teardown needs this root */
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (chroot(".") || fstatat(fd, "..", &up, 0) ||
		    fstatat(fd, "sys/kernel/tracing/../../../..", &down_up, 0))
			_exit(2);
		_exit(up.st_ino == root.st_ino && down_up.st_ino == root.st_ino ? 0 : 1);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("\"..\" at the namespace's root did not stay there (status %d: 2, a "
		       "failed call; 1, another directory)", status);
	close(fd);
}

/*
 * A directory renamed out of a bind mount's subtree: ".." from it would
 * leave the mount, and path_connected() says so: RCU-walk leaves that to
 * REF-walk (-ECHILD), which answers ENOENT.
 */
TEST_F(walk, dotdot_out_of_a_bind_mount_is_enoent)
{
	int fd;

	ASSERT_EQ(0, mkdir("dir/sub", 0755));
	ASSERT_EQ(0, mkdir("dir/sub/inner", 0755));
	ASSERT_EQ(0, mkdir("bind", 0755));
	ASSERT_EQ(0, mount("dir/sub", "bind", NULL, MS_BIND, NULL)) TH_LOG("bind: %m");
	fd = open("bind/inner", O_PATH);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, rename("dir/sub/inner", "moved"));
	EXPECT_EQ(-1, openat(fd, "..", O_PATH));
	EXPECT_EQ(ENOENT, errno);
	/* the parent of a name, too: filename_parentat()'s REF-walk attempt */
	EXPECT_EQ(-1, mkdirat(fd, "../made", 0755));
	EXPECT_EQ(ENOENT, errno);
	close(fd);
	EXPECT_EQ(0, umount("bind"));
}

/* A name looked up from an fd of a file, not of a directory. */
TEST_F(walk, start_at_a_file_is_enotdir)
{
	int fd = open("file", O_RDONLY);
	struct stat st;

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, fstatat(fd, "x", &st, 0));
	EXPECT_EQ(ENOTDIR, errno);
	close(fd);
}

/*
 * linkat(AT_EMPTY_PATH) may link an open file only for the credentials
 * that opened it, or with CAP_DAC_READ_SEARCH: another user's link is
 * answered ENOENT by path_init().
 */
TEST_F(walk, linkat_empty_path_with_other_creds_is_enoent)
{
	int fd = open("file", O_RDONLY), status;
	pid_t child;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, chmod(".", 0777));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (setresgid(1000, 1000, 1000) || setresuid(1000, 1000, 1000))
			_exit(2);
		_exit(linkat(fd, "", AT_FDCWD, "other", AT_EMPTY_PATH) == -1 &&
		      errno == ENOENT ? 0 : 1);
	}
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("the other user's linkat() was not ENOENT (status %d)", status);
	EXPECT_EQ(0, linkat(fd, "", AT_FDCWD, "mine", AT_EMPTY_PATH)) TH_LOG("linkat: %m");
	close(fd);
}

/* A magic link may not take a scoped lookup (RESOLVE_IN_ROOT) elsewhere. */
TEST_F(walk, magic_link_in_a_scoped_lookup_is_exdev)
{
	struct open_how how = { .flags = O_RDONLY, .resolve = RESOLVE_IN_ROOT };
	char magic[64];
	int root = open("/", O_PATH), fd = open("file", O_RDONLY);

	ASSERT_LE(0, root);
	ASSERT_LE(0, fd);
	snprintf(magic, sizeof(magic), "proc/self/fd/%d", fd);
	EXPECT_EQ(-1, syscall(SYS_openat2, root, magic, &how, sizeof(how)));
	EXPECT_EQ(EXDEV, errno);
	close(fd);
	close(root);
}

/* A name longer than PATH_MAX never reaches the walk. */
TEST_F(walk, name_too_long_is_refused_before_the_walk)
{
	static char name[PATH_MAX + 2];

	memset(name, 'a', PATH_MAX + 1);
	EXPECT_EQ(-1, mkdir(name, 0755));
	EXPECT_EQ(ENAMETOOLONG, errno);
}

/*
 * setns() into a mount namespace looks up its root with LOOKUP_DOWN:
 * from the namespace's root mount down through what is mounted on it.
 */
TEST_F(walk, setns_looks_down_the_new_root)
{
	char ns[64];
	int pipefd[2], nsfd;
	struct stat st;
	pid_t child;
	char c;

	ASSERT_EQ(0, pipe(pipefd));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
		    write(pipefd[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	snprintf(ns, sizeof(ns), "/proc/%d/ns/mnt", child);
	nsfd = open(ns, O_RDONLY);
	ASSERT_LE(0, nsfd) TH_LOG("open %s: %m", ns);
	EXPECT_EQ(0, setns(nsfd, CLONE_NEWNS)) TH_LOG("setns: %m");
	EXPECT_EQ(0, stat("/proc/self", &st));
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	close(nsfd);
}

TEST_HARNESS_MAIN
