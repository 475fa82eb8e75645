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

#include "trace_raw.h"
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

#define TRACE_MAX_EVENTS	16	/* kinds of namei events */

/* A namei event's record format, each key it prints a field of trace_event. */
struct trace_record_format {
	struct raw_format raw;
	unsigned char keys[RAW_MAX_ARGS];	/* of each printed key */
};

/* How a process reads the instance's events. */
enum trace_reading {
	TRACE_LINES,		/* trace_pipe's lines: kernel_trace_next() */
	TRACE_RECORDS,		/* trace_pipe_raw's records: kernel_trace_end() */
};

/* A tracefs instance with every namei event on, and where it is read. */
struct kernel_trace {
	int instances_fd;	/* tracefs's instances/ */
	char instance[64];	/* our directory in it */
	int instance_fd;	/* open, for its trace file after a chroot */
	int marker_fd;
	int pipe_fd;		/* trace_pipe (TRACE_LINES), or the trace file
				 * while kernel_trace_end() compares */
	int tracing_on_fd;	/* off between calls: the model's own lookups */
	unsigned long serial;	/* of the last system call traced */
	char buf[1 << 16];	/* read from pipe_fd */
	size_t len, consumed;	/* bytes in buf; of those, lines returned */
	/* TRACE_RECORDS */
	struct raw_buffer raw;
	struct raw_format mark;	/* trace_marker's: ftrace's print event */
	const struct raw_field *mark_text;
	struct trace_record_format formats[TRACE_MAX_EVENTS];
	unsigned int format_count;
	/*
	 * Of the next calls, how many kernel_trace_end() also reads as the
	 * trace file's lines, to hold the records' events to what the lines
	 * say; and what it found.
	 */
	unsigned long calls_to_compare;
	struct trace_lookup lines;
	struct trace_lines_compared {
		unsigned long calls, events, differ;
		char first[1024];	/* the first difference */
	} compared;
};

/* What the balance checks saw, over all the calls checked. */
struct trace_counts {
	unsigned long calls, attempts, events;
};

/*
 * Fork @child, which runs with a fresh directory made under @parent (for
 * tree_enter_scratch()) and a trace instance under @tracefs, read as
 * @reading says (NULL if the kernel has no namei events), and wait for it;
 * then remove both, however the child ended (made here, where tracefs is:
 * the child may chroot). Return the child's exit status or, having printed
 * what failed as TAP's "Bail out!", 1 (KSFT_FAIL).
 */
int kernel_trace_fork(const char *parent, const char *tracefs, enum trace_reading reading,
		      void (*child)(const char *dir, struct kernel_trace *trace, void *arg),
		      void *arg);

/*
 * Around one system call of this process: the events it fired, from a
 * mark written before it to one written after. The instance records
 * nothing between kernel_trace_end() and the next kernel_trace_begin(), so
 * that the lookups the model and the fuzzer make themselves are neither
 * recorded nor read back. Return 0 or a negative errno: -EPROTO if the
 * trace lost events or either mark (its buffer overran), -EBADMSG if it
 * holds records that are not as their formats say, for instance.
 */
int kernel_trace_begin(struct kernel_trace *trace);
int kernel_trace_end(struct kernel_trace *trace, struct trace_lookup *lookup);
void trace_lookup_free(struct trace_lookup *lookup);

/*
 * The next event of any process: its pid, with *@event its name ("namei_
 * link_push", "tracing_mark_write") and *@args the text after it, valid
 * until the next call. 0 if there was none for @timeout_ms, a negative
 * errno on failure (-EPROTO if events were lost, -EIO at a file's end).
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
