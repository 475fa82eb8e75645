// SPDX-License-Identifier: GPL-2.0
/*
 * The namei trace events, in the order the walk emits them.
 *
 * Each test mounts a scratch tmpfs of its own (scratch.h; noatime, so that
 * following a link does not force the walk out of RCU-walk, unless the test
 * asks for strictatime), builds links in it, enables the namei events, makes
 * one lookup and checks the events its own process left in the trace (the
 * lines of its pid: set_event_pid's per-CPU filter lost events now and
 * then on an SMP kernel):
 *
 *   <mnt>/
 *   |-- dir/
 *   |   `-- file
 *   |-- l1 -> l2/file      nested: three links open at once
 *   |-- l2 -> l3/.
 *   |-- l3 -> dir
 *   |-- cN -> cN-1 ... c1 -> dir/file
 *   |-- abs -> <mnt>/dir/file
 *   `-- long -> ././././.../dir/file   (a body too long to be inline)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "events.h"
#include "scratch.h"

FIXTURE(trace) {
	char mnt[PATH_MAX];
};

FIXTURE_SETUP(trace)
{
	scratch_mount(_metadata, self->mnt, "trace_test", MS_NOATIME);
}

FIXTURE_TEARDOWN(trace)
{
	EXPECT_EQ(0, write_file(TRACEFS "/events/namei/enable", "0", 0));
	scratch_unmount(_metadata, self->mnt);
}

TEST_F(trace, nested_walk_pushes_three_and_spills_at_the_third)
{
	ASSERT_EQ(0, symlink("l2/file", "l1"));
	ASSERT_EQ(0, symlink("l3/.", "l2"));
	ASSERT_EQ(0, symlink("dir", "l3"));

	start_tracing(_metadata);
	EXPECT_EQ(0, stat_errno("l1"));
	stop_tracing(_metadata);

	const char *const events[] = {
		"namei_lookup_start: level=0 attempt=rcu name=\"l1\"",
		/* l1 is the last component: a trailing link, no remnant */
		"namei_link_push: level=0 depth=1 links=1 link=\"l1\" trailing=1 mode=rcu",
		"namei_link_body: level=0 depth=1 body=\"l2/file\" remnant=\"\"",
		"namei_link_push: level=0 depth=2 links=2 link=\"l2\" trailing=0 mode=rcu",
		"namei_link_body: level=0 depth=2 body=\"l3/.\" remnant=\"file\"",
		/* the third frame does not fit in the two embedded ones */
		"namei_stack_spill: level=0 mode=rcu allocated=1",
		"namei_link_push: level=0 depth=3 links=3 link=\"l3\" trailing=0 mode=rcu",
		"namei_link_body: level=0 depth=3 body=\"dir\" remnant=\".\"",
		"namei_link_pop: level=0 depth=2 links=3 link=\"l3\" reason=walked",
		"namei_link_pop: level=0 depth=1 links=3 link=\"l2\" reason=walked",
		"namei_link_pop: level=0 depth=0 links=3 link=\"l1\" reason=walked",
		/* complete_walk() leaves RCU-walk once the walk is done */
		"namei_unlazy: level=0 depth=0 reason=complete legitimized=1",
		"namei_lookup_end: level=0 attempt=rcu name=\"l1\" links=3 error=0",
		NULL
	};
	expect_events(_metadata, read_trace(_metadata), events);
}

TEST_F(trace, chain_of_41_is_eloop_at_the_41st)
{
	scratch_chain(_metadata, "c", 41, "dir/file");

	/*
	 * That the 41st link is ELOOP is the series' selftest's
	 * (symlink_budget_test.c: forty_trailing_links_resolve); here, the
	 * events that tell it.
	 */
	start_tracing(_metadata);
	stat_errno("c41");
	stop_tracing(_metadata);

	const char *const events[] = {
		"namei_link_push: level=0 depth=1 links=1 link=\"c41\" trailing=1",
		"namei_link_body: level=0 depth=1 body=\"c40\" remnant=\"\"",
		/* each trailing link is popped before the next is pushed */
		"namei_link_pop: level=0 depth=0 links=1 link=\"c41\" reason=walked",
		"namei_link_push: level=0 depth=1 links=2 link=\"c40\" trailing=1",
		"namei_link_push: level=0 depth=1 links=40 link=\"c2\" trailing=1",
		"namei_link_pop: level=0 depth=0 links=40 link=\"c2\" reason=walked",
		/* the 41st is refused before it is pushed: the count says 41 */
		"namei_eloop: level=0 depth=0 links=41 link=\"c1\" reason=budget",
		"namei_lookup_end: level=0 attempt=rcu name=\"c41\" links=41 error=-40",
		NULL
	};
	const char *trace = read_trace(_metadata);

	expect_events(_metadata, trace, events);
	expect_no_event(_metadata, trace, "namei_stack_spill");
}

TEST_F(trace, magic_link_jumps_with_nd_jump_link)
{
	char magic[64], pure_jump[128];
	int fd = open("dir/file", O_RDONLY);

	ASSERT_LE(0, fd);
	snprintf(magic, sizeof(magic), "/proc/self/fd/%d", fd);
	snprintf(pure_jump, sizeof(pure_jump),
		 "namei_link_push: level=0 depth=1 links=2 link=\"%d\" trailing=1 mode=ref",
		 fd);

	start_tracing(_metadata);
	EXPECT_EQ(0, stat_errno(magic));
	stop_tracing(_metadata);
	close(fd);

	const char *const events[] = {
		"namei_lookup_start: level=0 attempt=rcu name=\"/proc/self/fd/",
		"namei_link_push: level=0 depth=1 links=1 link=\"self\" trailing=0",
		"namei_link_body: level=0 depth=1 body=\"",
		/* the pid directory is not in the dcache: lookup_fast() leaves RCU-walk */
		"namei_unlazy: level=0 depth=1 reason=dcache_miss legitimized=1",
		/* /proc/self: an allocated body, freed by kfree_link */
		"namei_link_pop: level=0 depth=0 links=1 link=\"self\" reason=walked done=kfree_link mode=ref",
		/* fd/N: ->get_link() jumps, a pure jump that leaves no body */
		pure_jump,
		"namei_jump_link: level=0 depth=1 target=\"file\" mode=ref error=0",
		"namei_link_pop: level=0 depth=0 links=2",
		"namei_lookup_end: level=0 attempt=rcu name=\"/proc/self/fd/",
		NULL
	};
	expect_events(_metadata, read_trace(_metadata), events);
}

TEST_F(trace, absolute_link_jumps_to_the_root)
{
	char body[PATH_MAX + 16];

	snprintf(body, sizeof(body), "%s/dir/file", self->mnt);
	ASSERT_EQ(0, symlink(body, "abs"));

	start_tracing(_metadata);
	EXPECT_EQ(0, stat_errno("abs"));
	stop_tracing(_metadata);

	const char *const events[] = {
		"namei_link_push: level=0 depth=1 links=1 link=\"abs\" trailing=1 mode=rcu",
		"namei_jump_root: level=0 depth=1 target=\"/\" mode=rcu error=0",
		/* the body from after its leading slashes */
		"namei_link_body: level=0 depth=1 body=\"tmp/trace_test.",
		"namei_lookup_end: level=0 attempt=rcu name=\"abs\" links=1 error=0",
		NULL
	};
	expect_events(_metadata, read_trace(_metadata), events);
}

TEST_F(trace, long_body_is_walked_in_rcu_from_the_page_cache)
{
	char body[256] = "";

	/* Longer than tmpfs keeps inline (128 bytes): the body is a folio. */
	while (strlen(body) < 200)
		strcat(body, "./");
	strcat(body, "dir/file");
	ASSERT_EQ(0, symlink(body, "long"));
	EXPECT_EQ(0, stat_errno("long")); /* bring the folio in */

	start_tracing(_metadata);
	EXPECT_EQ(0, stat_errno("long"));
	stop_tracing(_metadata);

	const char *const events[] = {
		"namei_link_push: level=0 depth=1 links=1 link=\"long\" trailing=1 mode=rcu",
		"namei_link_body: level=0 depth=1 body=\"././",
		"namei_link_pop: level=0 depth=0 links=1 link=\"long\" reason=walked done=shmem_put_link mode=rcu",
		"namei_unlazy: level=0 depth=0 reason=complete legitimized=1",
		"namei_lookup_end: level=0 attempt=rcu name=\"long\" links=1 error=0",
		NULL
	};
	const char *trace = read_trace(_metadata);

	expect_events(_metadata, trace, events);
	/* The only switch to REF-walk is the one at the end. */
	EXPECT_EQ(strstr(trace, "namei_unlazy"),
		  strstr(trace, "namei_unlazy: level=0 depth=0 reason=complete legitimized=1"));
}

TEST_F(trace, eloop_says_why)
{
	char magic[64], nosymfollow[PATH_MAX + 16];
	int fd = open("dir/file", O_RDONLY);

	ASSERT_LE(0, fd);
	snprintf(magic, sizeof(magic), "/proc/self/fd/%d", fd);
	ASSERT_EQ(0, symlink("dir", "link"));
	snprintf(nosymfollow, sizeof(nosymfollow), "%s/dir", self->mnt);
	ASSERT_EQ(0, mount("tmpfs", nosymfollow, "tmpfs", MS_NOSYMFOLLOW, ""));
	ASSERT_EQ(0, symlink("..", "dir/up"));

	start_tracing(_metadata);
	EXPECT_EQ(ELOOP, openat2_errno("link/file", RESOLVE_NO_SYMLINKS));
	EXPECT_EQ(ELOOP, openat2_errno(magic, RESOLVE_NO_MAGICLINKS));
	EXPECT_EQ(ELOOP, stat_errno("dir/up/dir"));
	stop_tracing(_metadata);
	close(fd);
	EXPECT_EQ(0, umount(nosymfollow));

	const char *const events[] = {
		/* the link refused is on the stack: popped when the attempt ends */
		"namei_link_push: level=0 depth=1 links=1 link=\"link\"",
		"namei_eloop: level=0 depth=1 links=1 link=\"link\" reason=no_symlinks",
		"namei_link_pop: level=0 depth=0 links=1 link=\"link\" reason=terminate",
		"namei_lookup_end: level=0 attempt=rcu name=\"link/file\" links=1 error=-40",
		"namei_eloop: level=0 depth=1 links=2 link=\"" /* the fd number */,
		"namei_eloop: level=0 depth=1 links=1 link=\"up\" reason=nosymfollow",
		NULL
	};
	const char *trace = read_trace(_metadata);

	expect_events(_metadata, trace, events);
	EXPECT_NE(NULL, strstr(trace, "reason=no_magiclinks"))
		TH_LOG("no ELOOP for the magic link in:\n%s", trace);
}

/* With strictatime, following a link updates its atime: not in RCU-walk. */
TEST(strictatime_link_leaves_rcu_walk)
{
	char mnt[PATH_MAX];

	scratch_mount(_metadata, mnt, "trace_test", MS_STRICTATIME);
	ASSERT_EQ(0, symlink("dir", "link"));

	start_tracing(_metadata);
	EXPECT_EQ(0, stat_errno("link/file"));
	stop_tracing(_metadata);

	const char *const events[] = {
		"namei_lookup_start: level=0 attempt=rcu name=\"link/file\"",
		/* pushed in RCU-walk, then the atime to update takes it out */
		"namei_link_push: level=0 depth=1 links=1 link=\"link\" trailing=0 mode=rcu",
		"namei_unlazy: level=0 depth=1 reason=atime legitimized=1",
		"namei_link_body: level=0 depth=1 body=\"dir\" remnant=\"file\"",
		"namei_lookup_end: level=0 attempt=rcu name=\"link/file\" links=1 error=0",
		NULL
	};
	expect_events(_metadata, read_trace(_metadata), events);
	scratch_unmount(_metadata, mnt);
}

/*
 * A trailing slash makes lookup_last() follow a trailing link even for
 * lstat(), and ask for a directory: LOOKUP_FOLLOW | LOOKUP_DIRECTORY.
 */
TEST_F(trace, trailing_slash_follows_the_last_link)
{
	struct stat st, dir;
	int fd;

	ASSERT_EQ(0, symlink("dir", "ldir"));
	ASSERT_EQ(0, symlink("file", "lfile"));
	ASSERT_EQ(0, stat("dir", &dir));
	ASSERT_EQ(0, lstat("ldir", &st));
	EXPECT_TRUE(S_ISLNK(st.st_mode));

	start_tracing(_metadata);
	ASSERT_EQ(0, lstat("ldir/", &st));
	stop_tracing(_metadata);
	EXPECT_TRUE(S_ISDIR(st.st_mode));
	EXPECT_EQ(dir.st_ino, st.st_ino);
	EXPECT_EQ(-1, lstat("lfile/", &st));
	EXPECT_EQ(ENOTDIR, errno);
	/* open() too: lookup_fast_for_open() */
	fd = open("ldir/", O_RDONLY);
	EXPECT_LE(0, fd) TH_LOG("open ldir/: %m");
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(-1, open("lfile/", O_RDONLY));
	EXPECT_EQ(ENOTDIR, errno);

	const char *const events[] = {
		"namei_lookup_start: level=0 attempt=rcu name=\"ldir/\"",
		"namei_link_push: level=0 depth=1 links=1 link=\"ldir\" trailing=1 mode=rcu",
		"namei_lookup_end: level=0 attempt=rcu name=\"ldir/\" links=1 error=0",
		NULL
	};
	expect_events(_metadata, read_trace(_metadata), events);
}

/*
 * debugfs's "tracing" is an automount point: crossing it mounts tracefs
 * there, and follow_automount() charges the mount to the link budget. 39
 * links and the automount are 40; 40 links and the automount are refused,
 * and once tracefs is mounted there, 40 links are no longer charged for it.
 */
TEST_F(trace, automount_is_charged_to_the_link_budget)
{
	ASSERT_EQ(0, mkdir("dbg", 0755));
	ASSERT_EQ(0, mount("debugfs", "dbg", "debugfs", 0, "")) TH_LOG("mount debugfs: %m");
	scratch_chain(_metadata, "c", 40, "dbg/tracing");
	/* the point itself, as a last component of stat(): not mounted on */
	EXPECT_EQ(0, stat_errno("dbg/tracing"));

	start_tracing(_metadata);
	EXPECT_EQ(ELOOP, stat_errno("c40/trace"));
	stop_tracing(_metadata);
	const char *const events[] = {
		"namei_lookup_start: level=0 attempt=rcu name=\"c40/trace\"",
		"namei_unlazy: level=0 depth=0 reason=mounts legitimized=1",
		"namei_eloop: level=0 depth=0 links=41 ",
		"namei_lookup_end: level=0 attempt=rcu name=\"c40/trace\" links=41 error=-40",
		NULL
	};
	const char *trace = read_trace(_metadata);

	expect_events(_metadata, trace, events);
	EXPECT_NE(NULL, strstr(trace, "reason=automount")) TH_LOG("no automount ELOOP in:\n%s",
								   trace);
	EXPECT_EQ(0, stat_errno("c39/trace"));
	EXPECT_EQ(0, stat_errno("c40/trace"));
	EXPECT_EQ(0, umount("dbg/tracing"));
	EXPECT_EQ(0, umount("dbg"));
}

TEST_HARNESS_MAIN
