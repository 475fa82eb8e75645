// SPDX-License-Identifier: GPL-2.0
/*
 * The ways an RCU-walk ends other than by success: each forced here on
 * purpose, each checked by what the walk must answer and by its events.
 *
 *   <mnt>/                        a scratch tmpfs (scratch.h), noatime
 *   |-- dir/file
 *   |-- u1 -> u2/x                two frames on the stack when u2's body
 *   |-- u2 -> dir/missing/.       misses the dcache (tmpfs keeps no
 *   |                             negative dentry): the walk must leave
 *   |                             RCU-walk with both frames legitimized
 *   |-- l1 -> l2/file, l2 -> l3/., l3 -> dir
 *   |                             three frames: the stack spills
 *   `-- sticky/ (1777)            protected_symlinks: a link of another
 *       `-- link -> ../dir        owner in a sticky world-writable dir
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "events.h"
#include "nestfs.h"
#include "scratch.h"

#define FAILSLAB "/sys/kernel/debug/failslab/"

FIXTURE(leave) {
	char mnt[PATH_MAX];
};

FIXTURE_SETUP(leave)
{
	scratch_mount(_metadata, self->mnt, "leave_rcu_test", MS_NOATIME);
	ASSERT_EQ(0, symlink("u2/x", "u1"));
	ASSERT_EQ(0, symlink("dir/missing/.", "u2"));
}

FIXTURE_TEARDOWN(leave)
{
	EXPECT_EQ(0, write_file(TRACEFS "/events/namei/enable", "0", 0));
	scratch_unmount(_metadata, self->mnt);
}

/*
 * RESOLVE_CACHED: the lookup must be answered from the dcache in RCU-walk.
 * At the miss, legitimize_links() refuses and drops both frames; the
 * REF-walk attempt is refused by path_init(): -EAGAIN, for io_uring to
 * retry the open where it may block.
 */
TEST_F(leave, resolve_cached_refuses_to_leave_rcu_walk)
{
	EXPECT_EQ(0, openat2_errno("dir/file", RESOLVE_CACHED));

	start_tracing(_metadata);
	EXPECT_EQ(EAGAIN, openat2_errno("u1", RESOLVE_CACHED));
	stop_tracing(_metadata);
	EXPECT_EQ(ENOENT, openat2_errno("u1", 0));

	const char *const events[] = {
		"namei_link_push: level=0 depth=2 links=2 link=\"u2\" trailing=0 mode=rcu",
		"namei_link_pop: level=0 depth=1 links=2 link=\"u2\" reason=cached",
		"namei_link_pop: level=0 depth=0 links=2 link=\"u1\" reason=cached",
		"namei_lookup_end: level=0 attempt=rcu name=\"u1\" links=2 error=-10",
		"namei_lookup_start: level=0 attempt=ref name=\"u1\"",
		"namei_lookup_end: level=0 attempt=ref name=\"u1\" links=0 error=-11",
		NULL
	};
	expect_events(_metadata, read_trace(_metadata), events);
}

/* Whether the second CPU is there, and this process on the first. */
static bool on_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) == 0;
}

/*
 * A mount or umount anywhere, even in another mount namespace, writes
 * mount_lock: an RCU-walk that began before it cannot legitimize the
 * mounts it holds without references. A process in a mount namespace of
 * its own, on the second CPU, mounts and unmounts a tmpfs in a loop while
 * this one, on the first, looks u1 up: legitimize_links() then fails at
 * frame 0, the frame above it is dropped (reason=unlazy), the attempt ends
 * with -ECHILD and REF-walk answers. The answer must always be ENOENT.
 * Beside it, the same race for try_to_unlazy_next() (nestfs's stale
 * directory, met in a link's body) and for path_parentat() (unlink()):
 * their answers are checked, their failures to leave RCU-walk left to
 * chance (make coverage shows whether they came).
 */
TEST_F(leave, legitimize_links_fails_when_a_mount_changes)
{
	unsigned long *mounts;
	int lookups = 0, seen = 0;
	struct timespec start, now;
	pid_t churner;

	if (!on_cpu(1))
		SKIP(return, "no second CPU: nothing can change mount_lock under the walk");
	mounts = mmap(NULL, sizeof(*mounts), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, mounts);
	*mounts = 0;
	ASSERT_EQ(0, mkdir("churn", 0755));
	nestfs_mount(_metadata);
	ASSERT_EQ(0, symlink("nest/stale/.", "ustale"));
	/*
	 * On from before the race to after it: turning events on or off
	 * patches the walk's code, which under QEMU's multi-threaded TCG the
	 * other vCPU, walking for mount(), may meet half-patched (an int3
	 * oops in link_path_walk(), seen). Between batches the buffer is only
	 * cleared.
	 */
	start_tracing(_metadata);
	churner = fork();
	ASSERT_LE(0, churner);
	if (churner == 0) {
		if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
			_exit(1);
		for (;;) {
			if (mount("churn", "churn", "tmpfs", 0, "") || umount("churn"))
				_exit(2);
			__atomic_add_fetch(mounts, 1, __ATOMIC_RELAXED);
		}
	}
	/* No ASSERT until the churner is stopped: it would outlive the test. */
	EXPECT_TRUE(on_cpu(0));

	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		const char *trace, *failed;

		EXPECT_EQ(0, write_file(TRACEFS "/trace", "", O_TRUNC));
		for (int i = 0; i < 20; i++, lookups++) {
			EXPECT_EQ(ENOENT, stat_errno("u1"));
			EXPECT_EQ(0, stat_errno("ustale"));
			EXPECT_EQ(0, stat_errno("nest/stale"));
			EXPECT_EQ(-1, unlink("dir/gone"));
			EXPECT_EQ(ENOENT, errno);
		}
		trace = read_trace(_metadata);
		failed = strstr(trace, "reason=unlazy");
		if (failed) {
			/*
			 * Frame 0 failed: it keeps no reference, and no name
			 * (link=""); the frame above it is dropped.
			 */
			const char *const events[] = {
				"namei_link_pop: level=0 depth=1 links=2 link=\"u2\" reason=unlazy",
				"namei_link_pop: level=0 depth=0 links=2 link=\"\" reason=terminate",
				"namei_lookup_end: level=0 attempt=rcu name=\"u1\" links=2 error=-10",
				"namei_lookup_start: level=0 attempt=ref name=\"u1\"",
				"namei_lookup_end: level=0 attempt=ref name=\"u1\" links=2 error=-2",
				NULL
			};
			static char lookup[4096];
			const char *end = strstr(failed, "attempt=ref name=\"u1\" links=2 error=-2");

			while (failed > trace && failed[-1] != '\n')
				failed--;
			/* that lookup's lines only */
			snprintf(lookup, sizeof(lookup), "%.*s", end ? (int)(end - failed) + 64 : 0,
				 failed);
			expect_events(_metadata, lookup, events);
			seen = 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
	/* Seen in 20 to 100 lookups; a host loaded by other guests may need far more. */
	} while (!seen && now.tv_sec - start.tv_sec < 20);
	kill(churner, SIGKILL);
	waitpid(churner, NULL, 0);
	stop_tracing(_metadata);
	nestfs_unmount(_metadata);
	TH_LOG("%d lookups beside %lu mounts and umounts", lookups, *mounts);
	if (!seen && *mounts == 0)
		SKIP(return, "the mount churner made no progress");
	EXPECT_TRUE(seen) TH_LOG("no legitimize_links() failure in %d lookups", lookups);
}

/*
 * The third frame does not fit in the two embedded ones: in RCU-walk the
 * heap array is asked for with GFP_ATOMIC. failslab fails that one
 * allocation (this task's only, and only one that cannot sleep), and
 * reserve_stack() leaves RCU-walk to ask again with GFP_KERNEL. The task
 * is marked and unmarked through one open file: a close() in between
 * may allocate without sleeping (with KASAN, SLUB_RCU_DEBUG's delayed
 * free of a struct file) and take the one failure first.
 */
TEST_F(leave, failed_atomic_spill_is_retried_in_ref_walk)
{
	ASSERT_EQ(0, symlink("l2/file", "l1"));
	ASSERT_EQ(0, symlink("l3/.", "l2"));
	ASSERT_EQ(0, symlink("dir", "l3"));
	ASSERT_EQ(0, access(FAILSLAB "probability", W_OK))
		TH_LOG("failslab (CONFIG_FAILSLAB, debugfs on /sys/kernel/debug): %m");
	ASSERT_EQ(0, write_file(FAILSLAB "ignore-gfp-wait", "Y", 0));
	ASSERT_EQ(0, write_file(FAILSLAB "task-filter", "Y", 0));
	ASSERT_EQ(0, write_file(FAILSLAB "verbose", "0", 0));
	ASSERT_EQ(0, write_file(FAILSLAB "interval", "1", 0));
	ASSERT_EQ(0, write_file(FAILSLAB "times", "1", 0));
	ASSERT_EQ(0, write_file(FAILSLAB "probability", "100", 0));

	int make_it_fail = open("/proc/self/make-it-fail", O_WRONLY);

	ASSERT_LE(0, make_it_fail) TH_LOG("/proc/self/make-it-fail: %m");
	start_tracing(_metadata);
	ASSERT_EQ(1, pwrite(make_it_fail, "1", 1, 0));
	EXPECT_EQ(0, stat_errno("l1"));
	ASSERT_EQ(1, pwrite(make_it_fail, "0", 1, 0));
	stop_tracing(_metadata);
	close(make_it_fail);
	EXPECT_EQ(0, write_file(FAILSLAB "probability", "0", 0));

	const char *const events[] = {
		"namei_link_push: level=0 depth=2 links=2 link=\"l2\" trailing=0 mode=rcu",
		"namei_stack_spill: level=0 mode=rcu allocated=0",
		"namei_unlazy: level=0 depth=2 reason=stack legitimized=1",
		"namei_stack_spill: level=0 mode=ref allocated=1",
		"namei_link_push: level=0 depth=3 links=3 link=\"l3\" trailing=0 mode=ref",
		"namei_lookup_end: level=0 attempt=rcu name=\"l1\" links=3 error=0",
		NULL
	};
	expect_events(_metadata, read_trace(_metadata), events);
}

/*
 * protected_symlinks: a trailing link owned by another user, in a sticky
 * world-writable directory of a third, is refused. may_follow_link() may
 * not audit in RCU-walk: it answers -ECHILD there, and REF-walk -EACCES.
 */
TEST_F(leave, protected_link_is_refused_in_ref_walk)
{
	ASSERT_EQ(0, mkdir("sticky", 01777));
	ASSERT_EQ(0, chmod("sticky", 01777));
	ASSERT_EQ(0, symlink("../dir", "sticky/link"));
	ASSERT_EQ(0, lchown("sticky/link", 1000, 1000));
	ASSERT_EQ(0, write_file("/proc/sys/fs/protected_symlinks", "1", 0));

	start_tracing(_metadata);
	EXPECT_EQ(EACCES, stat_errno("sticky/link"));
	stop_tracing(_metadata);
	EXPECT_EQ(0, write_file("/proc/sys/fs/protected_symlinks", "0", 0));
	EXPECT_EQ(0, stat_errno("sticky/link"));

	const char *const events[] = {
		"namei_link_push: level=0 depth=1 links=1 link=\"link\" trailing=1 mode=rcu",
		"namei_lookup_end: level=0 attempt=rcu name=\"sticky/link\" links=1 error=-10",
		"namei_lookup_start: level=0 attempt=ref name=\"sticky/link\"",
		"namei_lookup_end: level=0 attempt=ref name=\"sticky/link\" links=1 error=-13",
		NULL
	};
	expect_events(_metadata, read_trace(_metadata), events);
}

/*
 * RESOLVE_BENEATH: ".." at the start of the walk would leave it.
 * follow_dotdot_rcu() leaves that to REF-walk (-ECHILD), where
 * follow_dotdot() answers -EXDEV.
 */
TEST_F(leave, dotdot_beneath_is_refused_in_ref_walk)
{
	start_tracing(_metadata);
	EXPECT_EQ(EXDEV, openat2_errno("..", RESOLVE_BENEATH));
	stop_tracing(_metadata);

	const char *const events[] = {
		"namei_lookup_end: level=0 attempt=rcu name=\"..\" links=0 error=-10",
		"namei_lookup_start: level=0 attempt=ref name=\"..\"",
		"namei_lookup_end: level=0 attempt=ref name=\"..\" links=0 error=-18",
		NULL
	};
	expect_events(_metadata, read_trace(_metadata), events);
}

TEST_HARNESS_MAIN
