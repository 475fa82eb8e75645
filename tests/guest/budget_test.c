// SPDX-License-Identifier: GPL-2.0
/*
 * Who pays for a link: one budget of 40 (MAXSYMLINKS) a lookup, shared by
 * the walks nested in it, and each attempt of a walk charged only for the
 * links it follows itself.
 *
 * The guest's test filesystem nestfs (guest/modules/nestfs.c) makes both
 * deterministic: following a nestfs link looks up the path in
 * nested_lookup first (a walk nested in the one following the link), and
 * its directory "stale" makes every attempt but a LOOKUP_REVAL one fail
 * with -ESTALE, so that the lookup is retried with LOOKUP_REVAL after its
 * first attempt has followed its links.
 *
 *   <mnt>/                     a scratch tmpfs (scratch.h)
 *   |-- dir/file
 *   |-- nest/                  nestfs
 *   |   |-- stale/             -ESTALE but in LOOKUP_REVAL
 *   |   `-- L -> ../<body>     a nestfs link; its body is the test's
 *   |-- aN -> ... -> a1 -> nest           the outer walk's way to L
 *   |-- bN -> ... -> b1 -> nest/stale     the nested walk's path
 *   `-- cN -> ... -> c1 -> dir            links after L
 *
 * The series' selftest symlink_budget_test checks the budget of a walk
 * that is not nested and never retried, retry_budget_test a retry after a
 * rename on another CPU, which only a race can make.
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

FIXTURE(budget) {
	char mnt[PATH_MAX];
};

FIXTURE_SETUP(budget)
{
	scratch_mount(_metadata, self->mnt, "budget_test", MS_NOATIME);
	nestfs_mount(_metadata);
}

FIXTURE_TEARDOWN(budget)
{
	nestfs_unmount(_metadata);
	scratch_unmount(_metadata, self->mnt);
}

/* nestfs's L -> body, whose following first looks up <mnt>/nested. */
static void nesting_link(struct __test_metadata *_metadata, const char *mnt,
			 const char *body, const char *nested)
{
	char path[PATH_MAX + 64];

	ASSERT_EQ(0, symlink(body, "nest/L")) TH_LOG("symlink in nestfs: %m");
	snprintf(path, sizeof(path), "%s/%s", mnt, nested);
	nestfs_set(_metadata, "nested_lookup", path);
}

/* The events of the attempt at <mnt>/name, as lookup_end prints it. */
static void nested_end(char *event, size_t size, const char *mnt, const char *attempt,
		       const char *name, int links, int error)
{
	snprintf(event, size, "namei_lookup_end: level=1 attempt=%s name=\"%s/%s\" "
		 "links=%d error=%d", attempt, mnt, name, links, error);
}

/*
 * a3/L/file: three links to L, L itself, whose nested lookup of b2 (which
 * resolves to nest/stale) follows two more; the nested walk's first attempt meets stale and gives
 * up with -ESTALE, the second (LOOKUP_REVAL) succeeds. Its events are of
 * level 1, and each of its attempts starts from the count of the outer walk
 * at L: 4, not 0 and not 6.
 */
TEST_F(budget, nested_walk_is_level_1_and_starts_from_the_outer_count)
{
	char rcu_end[PATH_MAX + 128], reval_end[PATH_MAX + 128];

	scratch_chain(_metadata, "a", 3, "nest");
	scratch_chain(_metadata, "b", 2, "nest/stale");
	nesting_link(_metadata, self->mnt, "../dir", "b2");
	nested_end(rcu_end, sizeof(rcu_end), self->mnt, "rcu", "b2", 6, -ESTALE);
	nested_end(reval_end, sizeof(reval_end), self->mnt, "reval", "b2", 6, 0);

	start_tracing(_metadata);
	EXPECT_EQ(0, stat_errno("a3/L/file"));
	stop_tracing(_metadata);

	const char *const events[] = {
		"namei_lookup_start: level=0 attempt=rcu name=\"a3/L/file\"",
		"namei_link_push: level=0 depth=1 links=4 link=\"L\" trailing=0",
		/* ->get_link() of nestfs cannot run in RCU-walk */
		"namei_unlazy: level=0 depth=1 reason=get_link legitimized=1",
		"namei_lookup_start: level=1 attempt=rcu",
		"namei_link_push: level=1 depth=1 links=5 link=\"b2\"",
		rcu_end,
		"namei_lookup_start: level=1 attempt=reval",
		"namei_link_push: level=1 depth=1 links=5 link=\"b2\"",
		reval_end,
		/* the nested walk's count is handed back to the outer one */
		"namei_link_body: level=0 depth=1 body=\"../dir\" remnant=\"file\"",
		"namei_lookup_end: level=0 attempt=rcu name=\"a3/L/file\" links=6 error=0",
		NULL
	};
	const char *trace = read_trace(_metadata);

	expect_events(_metadata, trace, events);
	expect_no_event(_metadata, trace, "level=2");
}

/*
 * 19 links to L, L, then a nested walk of 20 links: 40 in all, the
 * budget; with 21 in the nested walk, its last link is the 41st, refused
 * there. A nested walk that started from 0 would allow 40 of its own.
 */
TEST_F(budget, nested_walks_share_one_budget)
{
	scratch_chain(_metadata, "a", 19, "nest");
	scratch_chain(_metadata, "b", 21, "dir");
	nesting_link(_metadata, self->mnt, "../dir", "b20/file");
	EXPECT_EQ(0, stat_errno("a19/L/file"));

	EXPECT_EQ(0, unlink("nest/L"));
	nesting_link(_metadata, self->mnt, "../dir", "b21/file");
	start_tracing(_metadata);
	EXPECT_EQ(ELOOP, stat_errno("a19/L/file"));
	stop_tracing(_metadata);

	const char *const events[] = {
		"namei_link_push: level=0 depth=1 links=20 link=\"L\" trailing=0",
		"namei_lookup_start: level=1 attempt=rcu",
		"namei_link_push: level=1 depth=1 links=40 link=\"b2\"",
		"namei_eloop: level=1 depth=0 links=41 link=\"b1\" reason=budget",
		/* ->get_link() returns the nested walk's error: the outer ends with it */
		"namei_link_pop: level=0 depth=0 links=41 link=\"L\" reason=terminate",
		"namei_lookup_end: level=0 attempt=rcu name=\"a19/L/file\" links=41 error=-40",
		NULL
	};
	expect_events(_metadata, read_trace(_metadata), events);
}

/*
 * The nested walk is retried with LOOKUP_REVAL after 20 links: its second
 * attempt starts again from the outer walk's 20, and ends at 40. Charged
 * for the first attempt's links too, it would be refused at its first.
 */
TEST_F(budget, nested_walk_retried_is_charged_once)
{
	char reval_end[PATH_MAX + 128];

	scratch_chain(_metadata, "a", 19, "nest");
	scratch_chain(_metadata, "b", 20, "nest/stale");
	nesting_link(_metadata, self->mnt, "../dir", "b20");
	nested_end(reval_end, sizeof(reval_end), self->mnt, "reval", "b20", 40, 0);

	start_tracing(_metadata);
	EXPECT_EQ(0, stat_errno("a19/L/file"));
	stop_tracing(_metadata);

	const char *const events[] = {
		"namei_link_push: level=0 depth=1 links=20 link=\"L\" trailing=0",
		"namei_lookup_start: level=1 attempt=rcu",
		"namei_link_push: level=1 depth=1 links=40 link=\"b1\"",
		"namei_lookup_start: level=1 attempt=reval",
		"namei_link_push: level=1 depth=1 links=21 link=\"b20\"",
		reval_end,
		"namei_lookup_end: level=0 attempt=rcu name=\"a19/L/file\" links=40 error=0",
		NULL
	};
	expect_events(_metadata, read_trace(_metadata), events);
}

/*
 * The outer walk goes on from where the nested one left the count: 10
 * links to L, L, 10 in the nested walk, then L's body through 19 more is
 * 40; through 20 more, the last is the 41st.
 */
TEST_F(budget, outer_walk_goes_on_from_the_nested_count)
{
	scratch_chain(_metadata, "a", 10, "nest");
	scratch_chain(_metadata, "b", 10, "dir");
	scratch_chain(_metadata, "c", 20, "dir");
	nesting_link(_metadata, self->mnt, "../c19", "b10/file");
	EXPECT_EQ(0, stat_errno("a10/L/file"));

	EXPECT_EQ(0, unlink("nest/L"));
	nesting_link(_metadata, self->mnt, "../c20", "b10/file");
	start_tracing(_metadata);
	EXPECT_EQ(ELOOP, stat_errno("a10/L/file"));
	stop_tracing(_metadata);

	const char *const events[] = {
		"namei_lookup_end: level=1 attempt=rcu",
		"namei_link_body: level=0 depth=1 body=\"../c20\" remnant=\"file\"",
		"namei_eloop: level=0 depth=0 links=41 link=\"c1\" reason=budget",
		NULL
	};
	expect_events(_metadata, read_trace(_metadata), events);
}

/*
 * A walk that is not nested, retried with LOOKUP_REVAL after its first
 * attempt followed 30 links: the retry is charged 30, not 60, whichever
 * function drives the attempts.
 */
TEST_F(budget, retry_after_estale_is_charged_once)
{
	int fd;

	scratch_chain(_metadata, "s", 30, "nest/stale");

	start_tracing(_metadata);
	/* filename_lookup() */
	EXPECT_EQ(0, stat_errno("s30"));
	stop_tracing(_metadata);
	const char *const events[] = {
		"namei_lookup_end: level=0 attempt=rcu name=\"s30\" links=30 error=-116",
		"namei_lookup_start: level=0 attempt=reval name=\"s30\"",
		"namei_lookup_end: level=0 attempt=reval name=\"s30\" links=30 error=0",
		NULL
	};
	expect_events(_metadata, read_trace(_metadata), events);

	/* do_filp_open() */
	fd = open("s30", O_RDONLY | O_DIRECTORY);
	EXPECT_LE(0, fd) TH_LOG("open s30: %m");
	if (fd >= 0)
		close(fd);
	/* filename_parentat(), through the chain to the parent */
	EXPECT_EQ(0, mkdir("s30/made", 0755)) TH_LOG("mkdir s30/made: %m");
	EXPECT_EQ(0, rmdir("s30/made")) TH_LOG("rmdir s30/made: %m");
}

/*
 * With nested_root, the nested walk is vfs_path_lookup()'s from that
 * directory, as an NFS referral's mount_subtree() makes it: its root is
 * preset (ND_ROOT_PRESET), and an absolute link in it jumps there. From
 * the real root, the same name finds nothing.
 */
TEST_F(budget, nested_walk_from_a_preset_root)
{
	scratch_chain(_metadata, "a", 1, "nest");
	ASSERT_EQ(0, symlink("/dir", "abs"));
	ASSERT_EQ(0, symlink("../dir", "nest/L"));
	nestfs_set(_metadata, "nested_lookup", "abs/file");
	nestfs_set(_metadata, "nested_root", self->mnt);

	start_tracing(_metadata);
	EXPECT_EQ(0, stat_errno("a1/L/file"));
	stop_tracing(_metadata);
	const char *const events[] = {
		"namei_link_push: level=0 depth=1 links=2 link=\"L\" trailing=0",
		"namei_lookup_start: level=1 attempt=rcu name=\"abs/file\"",
		"namei_link_push: level=1 depth=1 links=3 link=\"abs\" trailing=0",
		"namei_jump_root: level=1 depth=1 target=\"/\"",
		"namei_lookup_end: level=1 attempt=rcu name=\"abs/file\" links=3 error=0",
		"namei_lookup_end: level=0 attempt=rcu name=\"a1/L/file\" links=3 error=0",
		NULL
	};
	expect_events(_metadata, read_trace(_metadata), events);

	/* a REF-walk attempt from the preset root: after -ESTALE */
	nestfs_set(_metadata, "nested_lookup", "nest/stale/.");
	EXPECT_EQ(0, stat_errno("a1/L/file"));

	nestfs_set(_metadata, "nested_lookup", "abs/file");
	nestfs_set(_metadata, "nested_root", "");
	EXPECT_EQ(ENOENT, stat_errno("a1/L/file"));
}

TEST_HARNESS_MAIN
