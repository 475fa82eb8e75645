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
#include <sys/types.h>

#include "walk.h"

/* One namei event: its fields, the symbolic ones by the names they print. */
struct namei_event {
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

/*
 * One system call's events in the order they fired; or what a read found,
 * in that order on each CPU, but not between CPUs: a read takes one page
 * of each, and another CPU's next page may hold events from before.
 */
struct trace_lookup {
	struct namei_event *events;
	unsigned int count, size;
};

/* A tracefs instance with every namei event on (kernel_trace.c). */
struct kernel_trace;

/* What the balance checks saw, over all the calls checked. */
struct trace_counts {
	unsigned long calls, attempts, events;
};

/*
 * Fork @child, which runs with a fresh directory made under @parent (for
 * tree_enter_scratch()) and a trace instance of its own (NULL if the
 * kernel has no namei events), and wait for it; then remove both, however
 * the child ended (made and opened here: the child may chroot). Return the
 * child's exit status or, having printed what failed as TAP's "Bail out!",
 * 1 (KSFT_FAIL).
 */
int kernel_trace_fork(const char *parent,
		      void (*child)(const char *dir, struct kernel_trace *trace, void *arg),
		      void *arg);

/*
 * Around one system call of this process: the events it fired, from a
 * mark written before it to one written after. The instance records
 * nothing between kernel_trace_end() and the next kernel_trace_begin(), so
 * that the lookups the model and the fuzzer make themselves are neither
 * recorded nor read back. Return 0 or a negative errno: -EPROTO if the
 * trace lost events or either mark (its buffer overran), -EBADMSG if a
 * record holds what its format or namei.h's vocabulary does not allow.
 */
int kernel_trace_begin(struct kernel_trace *trace);
int kernel_trace_end(struct kernel_trace *trace, struct trace_lookup *lookup);
void trace_lookup_free(struct trace_lookup *lookup);

/*
 * The namei events of thread @tid in the next page of each CPU's buffer,
 * if any, read (and so consumed) into @lookup, emptied first: while the
 * events keep coming, a read that took all of them would never end.
 * *@lost counts the pages that say events were lost before them (the
 * buffer overran); *@full says whether a page read was one the writer had
 * filled (more may wait). Return the number of pages read, or a negative
 * errno.
 */
int kernel_trace_read(struct kernel_trace *trace, pid_t tid, struct trace_lookup *lookup,
		      unsigned long *lost, bool *full);

/* Stop recording, for kernel_trace_read() to read until the buffers are empty. */
int kernel_trace_stop(struct kernel_trace *trace);

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

/* An event as the trace prints it, with the fields it has. */
void trace_event_format(const struct namei_event *event, char *buf, size_t size);

#endif
