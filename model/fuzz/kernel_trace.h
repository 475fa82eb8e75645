/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own trace of what walk_resolve() is asked: the namei events
 * (include/trace/events/namei.h) that one system call fires, read from a
 * tracefs instance of the caller's own, and checked for balance.
 */
#ifndef SYMWALK_KERNEL_TRACE_H
#define SYMWALK_KERNEL_TRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "walk.h"

/* One namei event, its fields as the trace prints them. */
struct trace_event {
	char type[24];			/* "link_push": the name after "namei_" */
	unsigned int fields;		/* which of the fields below it has */
	int level, depth, links, error, trailing, legitimized, allocated;
	char attempt[8];		/* lookup_start, lookup_end: rcu, ref, reval */
	char mode[8];			/* rcu or ref */
	char reason[16];
	char name[WALK_EVENT_NAME_MAX + 1];	/* the lookup's name */
	char link[WALK_EVENT_NAME_MAX + 1];	/* a link, or a jump's target */
	char body[WALK_EVENT_NAME_MAX + 1];
	char remnant[WALK_EVENT_NAME_MAX + 1];
};

/* The events of one system call, in the order they fired. */
struct trace_lookup {
	struct trace_event *events;
	unsigned int count, size;
};

/* A tracefs instance with every namei event on, and where it is read. */
struct kernel_trace {
	int instances_fd;	/* tracefs's instances/ */
	char instance[64];	/* our directory in it */
	int marker_fd, pipe_fd;
	int tracing_on_fd;	/* off between calls: the model's own lookups */
	unsigned long serial;	/* of the last system call traced */
	char buf[1 << 16];	/* read from trace_pipe */
	size_t len, consumed;	/* bytes in buf; of those, lines returned */
};

/* What the balance checks saw, over all the calls checked. */
struct trace_counts {
	unsigned long calls, attempts, events;
};

/*
 * Fork @child, which runs with a fresh directory made under @parent (for
 * tree_enter_scratch()) and a trace instance under @tracefs (NULL if the
 * kernel has no namei events), and wait for it; then remove both, however
 * the child ended (made here, where tracefs is: the child may chroot).
 * Return the child's exit status or, having printed what failed as TAP's
 * "Bail out!", 1 (KSFT_FAIL).
 */
int kernel_trace_fork(const char *parent, const char *tracefs,
		      void (*child)(const char *dir, struct kernel_trace *trace, void *arg),
		      void *arg);

/*
 * Make the instance under @tracefs (e.g. /sys/kernel/tracing) and turn the
 * namei events on in it. Return 0, -ENOENT if the kernel has no namei
 * events, or another negative errno.
 */
int kernel_trace_open(struct kernel_trace *trace, const char *tracefs);
/* Remove the instance; the files opened in it must be closed first. */
int kernel_trace_remove(struct kernel_trace *trace);
void kernel_trace_close_files(struct kernel_trace *trace);

/*
 * Around one system call of this process: the events it fired, from a
 * mark written before it to one written after. The instance records
 * nothing between kernel_trace_end() and the next kernel_trace_begin(), so
 * that the lookups the model and the fuzzer make themselves are neither
 * recorded nor read back. Return 0 or a negative errno; -EPROTO if the
 * trace lost the first mark (its buffer overran).
 */
int kernel_trace_begin(struct kernel_trace *trace);
int kernel_trace_end(struct kernel_trace *trace, struct trace_lookup *lookup);
void trace_lookup_free(struct trace_lookup *lookup);

/*
 * The next event of any process: its pid, with *@event its name ("namei_
 * link_push", "tracing_mark_write") and *@args the text after it, valid
 * until the next call. 0 if there was none for @timeout_ms, a negative
 * errno on failure (-EPROTO if events were lost).
 */
int kernel_trace_next(struct kernel_trace *trace, int timeout_ms, char **event,
		      char **args);
/* Fill @event from "TYPE: ARGS", TYPE the name after "namei_". */
int trace_event_parse(char *text, struct trace_event *event);

/*
 * Do the events of @lookup balance, for a system call that returned
 * @result (0 or a negative errno)? Each attempt's start and end pair, at
 * one nesting level; every frame pushed is popped, the same link, with the
 * depth and link count of each event what the events before it make them;
 * attempts follow one another as the lookup retries; the last one ends
 * with @result. Return true, or false with what is wrong in @why.
 */
bool trace_balanced(const struct trace_lookup *lookup, int result,
		    struct trace_counts *counts, char *why, size_t size);

/*
 * The events of the last attempt of the lookup (nesting level 0) that the
 * model predicts, as it records them.
 */
void trace_last_attempt(const struct trace_lookup *lookup, struct walk_events *out);

/* An event as the trace printed it, with the fields it has. */
void trace_event_format(const struct trace_event *event, char *buf, size_t size);

#endif
