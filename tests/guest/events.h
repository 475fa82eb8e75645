/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest tests' view of the namei trace events: turn them on around a
 * lookup, then check the lines this process left in the trace, in order
 * (the lines of its pid: set_event_pid's per-CPU filter lost events now
 * and then on an SMP kernel).
 */
#ifndef SYMWALK_EVENTS_H
#define SYMWALK_EVENTS_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "kselftest_harness.h"

#define TRACEFS "/sys/kernel/tracing"
#define TRACE_MAX (256 * 1024)

static inline int write_file(const char *path, const char *text, int flags)
{
	int fd = open(path, O_WRONLY | flags);
	ssize_t len = strlen(text);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, len) == len;
	return close(fd) == 0 && ok ? 0 : -1;
}

/* The lines of the trace buffer this process left, in a static buffer. */
static inline char *read_trace(struct __test_metadata *_metadata)
{
	static char text[TRACE_MAX];
	char line[1024], task[32];
	size_t used = 0;
	FILE *trace;

	trace = fopen(TRACEFS "/trace", "r");
	EXPECT_NE(NULL, trace) TH_LOG("open trace: %m");
	if (!trace)
		return "";
	snprintf(task, sizeof(task), "-%d ", getpid());
	text[0] = '\0';
	while (fgets(line, sizeof(line), trace)) {
		size_t len = strlen(line);

		if (line[0] == '#' || !strstr(line, task) || used + len >= sizeof(text))
			continue;
		memcpy(text + used, line, len + 1);
		used += len;
	}
	fclose(trace);
	return text;
}

/*
 * Check that the trace has each of the events, in this order: each entry
 * is "event: fields", matched as a substring of one trace line, later than
 * the line that matched the entry before it.
 */
static inline void expect_events(struct __test_metadata *_metadata, const char *trace,
			  const char *const *events)
{
	const char *from = trace;

	for (; *events; events++) {
		const char *hit = strstr(from, *events);

		EXPECT_NE(NULL, hit) TH_LOG("no \"%s\" after this point of the trace:\n%s",
					    *events, from);
		if (!hit)
			return;
		from = strchr(hit, '\n') ?: hit + strlen(hit);
	}
}

/* Check that the trace has no line with this text. */
static inline void expect_no_event(struct __test_metadata *_metadata, const char *trace,
			    const char *event)
{
	EXPECT_EQ(NULL, strstr(trace, event)) TH_LOG("unexpected \"%s\" in:\n%s",
						     event, trace);
}

/* The namei events on from now on, on an empty buffer. */
static inline void start_tracing(struct __test_metadata *_metadata)
{
	ASSERT_EQ(0, write_file(TRACEFS "/trace", "", O_TRUNC)) TH_LOG("clear trace: %m");
	ASSERT_EQ(0, write_file(TRACEFS "/events/namei/enable", "1", 0))
		TH_LOG("enable the namei events: %m");
}

static inline void stop_tracing(struct __test_metadata *_metadata)
{
	ASSERT_EQ(0, write_file(TRACEFS "/events/namei/enable", "0", 0));
}

static inline int stat_errno(const char *path)
{
	struct stat st;

	return stat(path, &st) ? errno : 0;
}

static inline int openat2_errno(const char *path, __u64 resolve)
{
	struct open_how how = { .flags = O_RDONLY, .resolve = resolve };
	int fd = syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

#endif
