// SPDX-License-Identifier: GPL-2.0
/*
 * The namei events of one system call, from a tracefs instance of the
 * caller's own, and the rules they must keep.
 *
 * The instance keeps its own ring buffer, with every namei event on and
 * the "counter" clock, which orders the events of all CPUs as they
 * happened even when the caller moves between CPUs. A mark written to its
 * trace_marker before the call and one after delimit the call's events;
 * events of other processes, which tracefs shows among them, are skipped
 * by their pid. A call's events are read as records (trace_raw.c) and
 * turned into what their lines would say; kernel_trace_next() reads lines.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel_trace.h"

#define EVENT_PREFIX	"namei_"
#define MARK_EVENT	"tracing_mark_write"
#define BUFFER_KB	"2048"	/* per CPU: far more than one call fires */
#define MAX_LEVELS	8	/* walks nested in one another */
#define NO_NAMEI_EVENTS	1	/* kernel_trace_open(): not an error */

enum {
	F_LEVEL = 1 << 0, F_DEPTH = 1 << 1, F_LINKS = 1 << 2, F_ERROR = 1 << 3,
	F_TRAILING = 1 << 4, F_LEGITIMIZED = 1 << 5, F_ALLOCATED = 1 << 6,
	F_ATTEMPT = 1 << 7, F_MODE = 1 << 8, F_REASON = 1 << 9, F_NAME = 1 << 10,
	F_LINK = 1 << 11, F_BODY = 1 << 12, F_REMNANT = 1 << 13,
	F_IGNORED = 1 << 14,	/* dfd, flags, seq, done: not checked */
};

/* What each event must print, and nothing else (but F_IGNORED fields). */
static const struct {
	const char *type;
	unsigned int fields;
} event_fields[] = {
	{ "lookup_start", F_LEVEL | F_ATTEMPT | F_NAME | F_LINKS | F_ERROR | F_IGNORED },
	{ "lookup_end", F_LEVEL | F_ATTEMPT | F_NAME | F_LINKS | F_ERROR },
	{ "link_push", F_LEVEL | F_DEPTH | F_LINKS | F_LINK | F_TRAILING | F_MODE | F_IGNORED },
	{ "link_body", F_LEVEL | F_DEPTH | F_BODY | F_REMNANT },
	{ "link_pop", F_LEVEL | F_DEPTH | F_LINKS | F_LINK | F_REASON | F_MODE | F_IGNORED },
	{ "stack_spill", F_LEVEL | F_MODE | F_ALLOCATED },
	{ "eloop", F_LEVEL | F_DEPTH | F_LINKS | F_LINK | F_REASON },
	{ "unlazy", F_LEVEL | F_DEPTH | F_REASON | F_LEGITIMIZED },
	{ "jump_root", F_LEVEL | F_DEPTH | F_LINK | F_MODE | F_ERROR },
	{ "jump_link", F_LEVEL | F_DEPTH | F_LINK | F_MODE | F_ERROR },
};

static int write_file(int dirfd, const char *path, const char *text)
{
	int fd = openat(dirfd, path, O_WRONLY | O_CLOEXEC), err = 0;
	ssize_t len = (ssize_t)strlen(text);

	if (fd < 0)
		return -errno;
	if (write(fd, text, len) != len)
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static int kernel_trace_open(struct kernel_trace *trace, const char *tracefs,
			     enum trace_reading reading);
static int kernel_trace_remove(struct kernel_trace *trace);

int kernel_trace_fork(const char *parent, const char *tracefs, enum trace_reading reading,
		      void (*child)(const char *dir, struct kernel_trace *trace, void *arg),
		      void *arg)
{
	struct kernel_trace trace;
	char dir[PATH_MAX], why[PATH_MAX + 64];
	int status, err;
	pid_t pid;

	snprintf(dir, sizeof(dir), "%s/%s.XXXXXX", parent, program_invocation_short_name);
	if (!mkdtemp(dir)) {
		snprintf(why, sizeof(why), "mkdtemp %s: %s", dir, strerror(errno));
		goto bail_out;
	}
	err = kernel_trace_open(&trace, tracefs, reading);
	if (err < 0) {
		snprintf(why, sizeof(why), "a trace instance in %s: %s", tracefs, strerror(-err));
		rmdir(dir);
		goto bail_out;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		child(dir, err ? NULL : &trace, arg);
		exit(1);
	}
	if (pid < 0)
		snprintf(why, sizeof(why), "fork: %s", strerror(errno));
	else if (waitpid(pid, &status, 0) != pid)
		snprintf(why, sizeof(why), "waitpid: %s", strerror(errno));
	else if (!err && (err = kernel_trace_remove(&trace)))
		snprintf(why, sizeof(why), "removing the trace instance: %s", strerror(-err));
	else if (rmdir(dir))
		snprintf(why, sizeof(why), "rmdir %s: %s", dir, strerror(errno));
	else if (WIFSIGNALED(status))
		snprintf(why, sizeof(why), "%s died of signal %d",
			 program_invocation_short_name, WTERMSIG(status));
	else
		return WEXITSTATUS(status);
bail_out:
	printf("Bail out! %s\n", why);
	return 1;
}

static int load_formats(struct kernel_trace *trace, const char *tracefs);

/* The instance made: set it up, and open what is read and written in it. */
static int set_up_instance(struct kernel_trace *trace, const char *tracefs,
			   enum trace_reading reading)
{
	int dirfd, err;

	dirfd = openat(trace->instances_fd, trace->instance, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -errno;
	trace->instance_fd = dirfd;
	err = write_file(dirfd, "buffer_size_kb", BUFFER_KB);
	if (!err)
		err = write_file(dirfd, "trace_clock", "counter");
	if (!err)
		err = write_file(dirfd, "events/namei/enable", "1");
	if (err)
		return err;
	trace->marker_fd = openat(dirfd, "trace_marker", O_WRONLY | O_CLOEXEC);
	trace->tracing_on_fd = openat(dirfd, "tracing_on", O_WRONLY | O_CLOEXEC);
	if (trace->marker_fd < 0 || trace->tracing_on_fd < 0)
		return -errno;
	if (reading == TRACE_LINES) {
		trace->pipe_fd = openat(dirfd, "trace_pipe", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		return trace->pipe_fd < 0 ? -errno : 0;
	}
	err = raw_buffer_open(&trace->raw, dirfd);
	return err ? err : load_formats(trace, tracefs);
}

/*
 * Make the instance under @tracefs (e.g. /sys/kernel/tracing) and turn the
 * namei events on in it. Return 0, NO_NAMEI_EVENTS if the kernel has none,
 * or a negative errno.
 */
static int kernel_trace_open(struct kernel_trace *trace, const char *tracefs,
			     enum trace_reading reading)
{
	char path[PATH_MAX];
	int err;

	*trace = (struct kernel_trace){ .marker_fd = -1, .pipe_fd = -1, .tracing_on_fd = -1,
					.instance_fd = -1 };
	snprintf(path, sizeof(path), "%s/events/namei", tracefs);
	if (access(path, F_OK))
		return errno == ENOENT ? NO_NAMEI_EVENTS : -errno;
	snprintf(path, sizeof(path), "%s/instances", tracefs);
	trace->instances_fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (trace->instances_fd < 0)
		return -errno;
	snprintf(trace->instance, sizeof(trace->instance), "%s-%d",
		 program_invocation_short_name, getpid());
	if (mkdirat(trace->instances_fd, trace->instance, 0755)) {
		err = -errno;
		close(trace->instances_fd);
		return err;
	}
	err = set_up_instance(trace, tracefs, reading);
	if (err)
		kernel_trace_remove(trace);
	return err;
}

static void kernel_trace_close_files(struct kernel_trace *trace)
{
	if (trace->marker_fd >= 0)
		close(trace->marker_fd);
	if (trace->pipe_fd >= 0)
		close(trace->pipe_fd);
	if (trace->tracing_on_fd >= 0)
		close(trace->tracing_on_fd);
	if (trace->instance_fd >= 0)
		close(trace->instance_fd);
	trace->marker_fd = trace->pipe_fd = trace->tracing_on_fd = trace->instance_fd = -1;
	raw_buffer_close(&trace->raw);
	trace_lookup_free(&trace->lines);
}

/* Close what is open in the instance, and remove it. */
static int kernel_trace_remove(struct kernel_trace *trace)
{
	int err = 0;

	kernel_trace_close_files(trace);
	if (unlinkat(trace->instances_fd, trace->instance, AT_REMOVEDIR))
		err = -errno;
	close(trace->instances_fd);
	trace->instances_fd = -1;
	return err;
}

static int mark(struct kernel_trace *trace, const char *what)
{
	char text[64];
	ssize_t len;

	len = snprintf(text, sizeof(text), "fuzz_walk %s %lu", what, trace->serial);
	if (write(trace->marker_fd, text, len) != len)
		return -errno;
	return 0;
}

/*
 * Between two calls, the model and the tree's builder make lookups of
 * their own: recorded, their events would be read back only to be skipped
 * (two fifths of the fuzzer's time under TCG, when it read them as text).
 */
static int set_tracing_on(struct kernel_trace *trace, bool on)
{
	if (pwrite(trace->tracing_on_fd, on ? "1" : "0", 1, 0) != 1)
		return -errno;
	return 0;
}

int kernel_trace_begin(struct kernel_trace *trace)
{
	int err = set_tracing_on(trace, true);

	trace->serial++;
	return err ? err : mark(trace, "begin");
}

/* Copy a field's value, cut to the size of @dst like the events cut it. */
static void copy_value(char *dst, size_t size, const char *value)
{
	size_t len = strnlen(value, size - 1);

	memcpy(dst, value, len);
	dst[len] = '\0';
}

/*
 * Every field an event may print: an int, a string of @size bytes at
 * @offset, or one not checked. Found by its first letter before strcmp():
 * race_walk parses every line as it races.
 */
enum key_kind { KEY_INT, KEY_STRING, KEY_IGNORED };

static const struct {
	const char *key;
	enum key_kind kind;
	unsigned int flag;
	size_t offset, size;
} event_keys[] = {
#define INT_FIELD(k, flag, member) \
	{ k, KEY_INT, flag, offsetof(struct trace_event, member), sizeof(int) }
#define STRING_FIELD(k, flag, member) \
	{ k, KEY_STRING, flag, offsetof(struct trace_event, member), \
	  sizeof(((struct trace_event *)0)->member) }
	INT_FIELD("level", F_LEVEL, level),
	INT_FIELD("depth", F_DEPTH, depth),
	INT_FIELD("links", F_LINKS, links),
	INT_FIELD("error", F_ERROR, error),
	INT_FIELD("trailing", F_TRAILING, trailing),
	INT_FIELD("legitimized", F_LEGITIMIZED, legitimized),
	INT_FIELD("allocated", F_ALLOCATED, allocated),
	STRING_FIELD("attempt", F_ATTEMPT, attempt),
	STRING_FIELD("mode", F_MODE, mode),
	STRING_FIELD("reason", F_REASON, reason),
	STRING_FIELD("name", F_NAME, name),
	STRING_FIELD("link", F_LINK, link),
	STRING_FIELD("target", F_LINK, link),
	STRING_FIELD("body", F_BODY, body),
	STRING_FIELD("remnant", F_REMNANT, remnant),
#undef INT_FIELD
#undef STRING_FIELD
	{ "dfd", KEY_IGNORED, F_IGNORED, 0, 0 },
	{ "flags", KEY_IGNORED, F_IGNORED, 0, 0 },
	{ "seq", KEY_IGNORED, F_IGNORED, 0, 0 },
	{ "done", KEY_IGNORED, F_IGNORED, 0, 0 },
};

static int set_field(struct trace_event *event, const char *key, const char *value)
{
	size_t i;

	for (i = 0; i < sizeof(event_keys) / sizeof(event_keys[0]); i++) {
		char *field = (char *)event + event_keys[i].offset;

		if (key[0] != event_keys[i].key[0] || strcmp(key, event_keys[i].key))
			continue;
		if (event_keys[i].kind == KEY_INT)
			*(int *)field = atoi(value);
		else if (event_keys[i].kind == KEY_STRING)
			copy_value(field, event_keys[i].size, value);
		event->fields |= event_keys[i].flag;
		return 0;
	}
	return -EPROTO;
}

/* A quoted value ends at a quote followed by a space or the line's end. */
int trace_event_parse(char *text, struct trace_event *event)
{
	char *p = strstr(text, ": "), *key, *value, *end;
	size_t i;

	if (!p)
		return -EPROTO;
	*p = '\0';
	memset(event, 0, sizeof(*event));
	copy_value(event->type, sizeof(event->type), text);
	for (p += 2; *p;) {
		while (*p == ' ')
			p++;
		key = p;
		p = strchr(p, '=');
		if (!p)
			return -EPROTO;
		*p++ = '\0';
		if (*p == '"') {
			value = ++p;
			for (end = strchr(p, '"'); end && end[1] && end[1] != ' ';
			     end = strchr(end + 1, '"'))
				;
			if (!end)
				return -EPROTO;
		} else {
			value = p;
			end = p + strcspn(p, " ");
		}
		p = *end ? end + 1 : end;
		*end = '\0';
		if (set_field(event, key, value))
			return -EPROTO;
	}
	for (i = 0; i < sizeof(event_fields) / sizeof(event_fields[0]); i++)
		if (!strcmp(event->type, event_fields[i].type))
			return event->fields == event_fields[i].fields ? 0 : -EPROTO;
	return -EPROTO;
}

static int add_event(struct trace_lookup *lookup, const struct trace_event *event)
{
	if (lookup->count == lookup->size) {
		unsigned int size = lookup->size ? 2 * lookup->size : 64;
		struct trace_event *events = reallocarray(lookup->events, size,
							  sizeof(*events));

		if (!events)
			return -ENOMEM;
		lookup->events = events;
		lookup->size = size;
	}
	lookup->events[lookup->count++] = *event;
	return 0;
}

/*
 * One line of trace_pipe or trace: "  task-PID  [CPU] FLAGS  TIME: EVENT: ARGS".
 * Set *@event to EVENT, *@args to ARGS; return the PID, or -1 if the line
 * is not an event.
 */
static int split_line(char *line, char **event, char **args)
{
	char *cpu = strstr(line, "] "), *p, *colon;
	int pid;

	if (!cpu)
		return -1;
	p = cpu;
	while (p > line && *p != '[')
		p--;
	while (p > line && p[-1] == ' ')
		p--;
	while (p > line && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (p == line || p[-1] != '-')
		return -1;
	pid = atoi(p);
	colon = strstr(cpu + 2, ": ");
	if (!colon)
		return -1;
	*event = colon + 2;
	p = strstr(*event, ": ");
	if (!p)
		return -1;
	*p = '\0';
	*args = p + 2;
	return pid;
}

int kernel_trace_next(struct kernel_trace *trace, int timeout_ms, char **event,
		      char **args)
{
	char *line, *newline;
	ssize_t got;
	int pid;

	for (;;) {
		while ((newline = memchr(trace->buf + trace->consumed, '\n',
					 trace->len - trace->consumed))) {
			line = trace->buf + trace->consumed;
			*newline = '\0';
			trace->consumed = newline + 1 - trace->buf;
			pid = split_line(line, event, args);
			if (pid > 0)
				return pid;
			/* "CPU:1 [LOST 3 EVENTS]" is not an event's line */
			if (strstr(line, "LOST") && strstr(line, "EVENTS"))
				return -EPROTO;
		}
		/*
		 * The lines returned so far are consumed: drop them only now,
		 * once per read, not once per line.
		 */
		trace->len -= trace->consumed;
		memmove(trace->buf, trace->buf + trace->consumed, trace->len);
		trace->consumed = 0;
		if (trace->len == sizeof(trace->buf))
			return -E2BIG;
		got = read(trace->pipe_fd, trace->buf + trace->len,
			   sizeof(trace->buf) - trace->len);
		if (got < 0 && errno == EAGAIN) {
			struct pollfd pfd = { .fd = trace->pipe_fd, .events = POLLIN };

			got = poll(&pfd, 1, timeout_ms);
			if (got == 0)
				return 0;
			if (got > 0)
				continue;
		}
		if (got <= 0)
			return got ? -errno : -EIO;
		trace->len += got;
	}
}

static int bad_key(const char *path, const char *key, const char *why)
{
	fprintf(stderr, "fuzz_walk: %s: %s: %s\n", path, key, why);
	return -EPROTO;
}

/*
 * Which field of struct trace_event each key that the event prints fills,
 * as trace_event_parse() would fill it from the event's line. The event
 * must print the keys event_fields lists for it, each of a form read here.
 */
static int map_keys(struct trace_record_format *format, const char *path)
{
	const char *type = format->raw.name + strlen(EVENT_PREFIX);
	unsigned int fields = 0, i;
	size_t k;

	for (i = 0; i < format->raw.arg_count; i++) {
		const struct raw_arg *arg = format->raw.args + i;

		for (k = 0; k < sizeof(event_keys) / sizeof(event_keys[0]); k++)
			if (!strcmp(arg->key, event_keys[k].key))
				break;
		if (k == sizeof(event_keys) / sizeof(event_keys[0]))
			return bad_key(path, arg->key, "a key fuzz_walk does not know");
		if (event_keys[k].kind == KEY_INT ? arg->kind != RAW_FIELD :
		    event_keys[k].kind == KEY_STRING &&
		    (arg->kind == RAW_FIELD || arg->kind == RAW_OTHER))
			return bad_key(path, arg->key, "a value of a form not read here");
		format->keys[i] = k;
		fields |= event_keys[k].flag;
	}
	for (k = 0; k < sizeof(event_fields) / sizeof(event_fields[0]); k++)
		if (!strcmp(type, event_fields[k].type))
			return fields == event_fields[k].fields ? 0 :
				bad_key(path, type, "not the keys it must print");
	return bad_key(path, type, "an event fuzz_walk does not know");
}

/* The formats of the namei events and of trace_marker's, to read records. */
static int load_formats(struct kernel_trace *trace, const char *tracefs)
{
	char path[PATH_MAX];
	struct dirent *entry;
	int err;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/events/ftrace/print/format", tracefs);
	err = raw_format_load(&trace->mark, path);
	if (err)
		return err;
	trace->mark_text = raw_format_field(&trace->mark, "buf");
	if (!trace->mark_text)
		return bad_key(path, "buf", "trace_marker's event has no text");
	snprintf(path, sizeof(path), "%s/events/namei", tracefs);
	dir = opendir(path);
	if (!dir)
		return -errno;
	while (!err && (entry = readdir(dir))) {
		struct trace_record_format *format = trace->formats + trace->format_count;

		if (strncmp(entry->d_name, EVENT_PREFIX, strlen(EVENT_PREFIX)))
			continue;
		if (trace->format_count++ == TRACE_MAX_EVENTS) {
			err = -E2BIG;
			break;
		}
		snprintf(path, sizeof(path), "%s/events/namei/%s/format", tracefs,
			 entry->d_name);
		err = raw_format_load(&format->raw, path);
		if (!err)
			err = map_keys(format, path);
	}
	closedir(dir);
	return err;
}

/* A namei event's record, as trace_event_parse() fills @event from its line. */
static void event_of_record(const struct trace_record_format *format,
			    const struct raw_record *record, struct trace_event *event)
{
	char text[WALK_EVENT_NAME_MAX + 1];
	unsigned int i;

	memset(event, 0, sizeof(*event));
	copy_value(event->type, sizeof(event->type), format->raw.name + strlen(EVENT_PREFIX));
	for (i = 0; i < format->raw.arg_count; i++) {
		const struct raw_arg *arg = format->raw.args + i;
		const typeof(event_keys[0]) *key = event_keys + format->keys[i];
		char *field = (char *)event + key->offset;

		event->fields |= key->flag;
		if (key->kind == KEY_INT)
			*(int *)field = raw_field_value(arg->field, record);
		else if (key->kind == KEY_STRING)
			copy_value(field, key->size, raw_arg_text(arg, record, text, sizeof(text)));
	}
}

/* Is @record the mark @text? trace_marker ends a mark with a newline. */
static bool is_mark(const struct kernel_trace *trace, const struct raw_record *record,
		    const char *text)
{
	const char *mark = (const char *)record->data + trace->mark_text->offset;
	size_t len = strlen(text);

	return record->size > trace->mark_text->offset + len && !memcmp(mark, text, len) &&
		(mark[len] == '\n' || mark[len] == '\0');
}

/*
 * This process's events between its marks @begin and @end, as the lines of
 * the instance's trace file say them (reading it consumes nothing), into
 * @lines: read by kernel_trace_next(), the file in the place of trace_pipe.
 * Return 0 or a negative errno.
 */
static int read_lines(struct kernel_trace *trace, const char *begin, const char *end,
		      struct trace_lookup *lines)
{
	struct trace_event parsed;
	pid_t self = getpid();
	bool begun = false;
	char *event, *args;
	int pid, err;

	trace->pipe_fd = openat(trace->instance_fd, "trace", O_RDONLY | O_CLOEXEC);
	if (trace->pipe_fd < 0)
		return -errno;
	trace->len = trace->consumed = 0;
	lines->count = 0;
	for (;;) {
		/* a file's end (-EIO) before the end mark: the mark was lost */
		pid = kernel_trace_next(trace, 0, &event, &args);
		err = pid == -EIO ? -EPROTO : pid;
		if (pid <= 0)
			break;
		if (pid != self)
			continue;
		if (!strcmp(event, MARK_EVENT)) {
			begun |= !strcmp(args, begin);
			if (!strcmp(args, end)) {
				err = begun ? 0 : -EPROTO;
				break;
			}
			continue;
		}
		if (!begun || strncmp(event, EVENT_PREFIX, strlen(EVENT_PREFIX)))
			continue;
		/* trace_event_parse() wants "TYPE: ARGS" */
		args[-2] = ':';
		if (trace_event_parse(event + strlen(EVENT_PREFIX), &parsed)) {
			fprintf(stderr, "fuzz_walk: an event not as expected: %s\n", event);
			err = -EPROTO;
			break;
		}
		err = add_event(lines, &parsed);
		if (err)
			break;
	}
	close(trace->pipe_fd);
	trace->pipe_fd = -1;
	return err;
}

/* Are a call's events, read as records, what its lines say? */
static void compare_lines(struct kernel_trace *trace, const struct trace_lookup *records,
			  const struct trace_lookup *lines)
{
	struct trace_lines_compared *compared = &trace->compared;
	char record[400], line[400];
	unsigned int i;

	compared->calls++;
	compared->events += records->count;
	for (i = 0; i < records->count || i < lines->count; i++) {
		if (i < records->count && i < lines->count &&
		    !memcmp(records->events + i, lines->events + i, sizeof(records->events[i])))
			continue;
		if (!compared->differ++) {
			snprintf(record, sizeof(record), "(none)");
			snprintf(line, sizeof(line), "(none)");
			if (i < records->count)
				trace_event_format(records->events + i, record, sizeof(record));
			if (i < lines->count)
				trace_event_format(lines->events + i, line, sizeof(line));
			snprintf(compared->first, sizeof(compared->first),
				 "call %lu, event %u: record %s, line %s", trace->serial, i,
				 record, line);
		}
		return;
	}
}

/*
 * Read all the instance holds (it records from just before the begin mark
 * to just after the end mark), adding this process's events between its
 * marks to @lookup; while calls_to_compare lasts, read its trace file's
 * lines too, and compare. Return 0, -EPROTO if the trace lost events or a
 * mark, -EBADMSG if a record is shorter than its format, or a negative
 * errno.
 */
static int read_call(struct kernel_trace *trace, struct trace_lookup *lookup)
{
	const struct raw_format *mark = &trace->mark;
	bool begun = false, comparing = trace->calls_to_compare > 0;
	char begin[64], end[64];
	struct trace_event event;
	pid_t self = getpid();
	unsigned int f;
	size_t i;
	int err;

	snprintf(begin, sizeof(begin), "fuzz_walk begin %lu", trace->serial);
	snprintf(end, sizeof(end), "fuzz_walk end %lu", trace->serial);
	if (comparing) {
		err = read_lines(trace, begin, end, &trace->lines);
		if (err)
			return err;
		trace->calls_to_compare--;
	}
	err = raw_buffer_drain(&trace->raw);
	if (err)
		return err;
	for (i = 0; i < trace->raw.count; i++) {
		const struct raw_record *record = trace->raw.records + i;
		unsigned int type = raw_field_value(mark->type, record);

		if (raw_field_value(mark->pid, record) != self)
			continue;
		if (type == mark->id) {
			begun |= is_mark(trace, record, begin);
			if (!is_mark(trace, record, end))
				continue;
			if (comparing)
				compare_lines(trace, lookup, &trace->lines);
			return begun ? 0 : -EPROTO;
		}
		for (f = 0; f < trace->format_count; f++)
			if (trace->formats[f].raw.id == type)
				break;
		if (!begun || f == trace->format_count)
			continue;
		if (record->size < trace->formats[f].raw.min_size)
			return -EBADMSG;
		event_of_record(trace->formats + f, record, &event);
		err = add_event(lookup, &event);
		if (err)
			return err;
	}
	return -EPROTO;		/* the end mark was lost */
}

int kernel_trace_end(struct kernel_trace *trace, struct trace_lookup *lookup)
{
	int err = mark(trace, "end");

	if (!err)
		err = set_tracing_on(trace, false);
	lookup->count = 0;
	return err ? err : read_call(trace, lookup);
}

void trace_lookup_free(struct trace_lookup *lookup)
{
	free(lookup->events);
	*lookup = (struct trace_lookup){ 0 };
}

void trace_event_format(const struct trace_event *event, char *buf, size_t size)
{
	size_t len = snprintf(buf, size, "namei_%s:", event->type);

#define ADD(flag, fmt, value)						\
	if ((event->fields & (flag)) && len < size)			\
		len += snprintf(buf + len, size - len, fmt, value)
	ADD(F_LEVEL, " level=%d", event->level);
	ADD(F_ATTEMPT, " attempt=%s", event->attempt);
	ADD(F_NAME, " name=\"%s\"", event->name);
	ADD(F_DEPTH, " depth=%d", event->depth);
	ADD(F_LINKS, " links=%d", event->links);
	ADD(F_LINK, " link=\"%s\"", event->link);
	ADD(F_BODY, " body=\"%s\"", event->body);
	ADD(F_REMNANT, " remnant=\"%s\"", event->remnant);
	ADD(F_TRAILING, " trailing=%d", event->trailing);
	ADD(F_REASON, " reason=%s", event->reason);
	ADD(F_LEGITIMIZED, " legitimized=%d", event->legitimized);
	ADD(F_ALLOCATED, " allocated=%d", event->allocated);
	ADD(F_MODE, " mode=%s", event->mode);
	ADD(F_ERROR, " error=%d", event->error);
#undef ADD
}

/* An attempt in progress, at one nesting level. */
struct attempt {
	const struct trace_event *start;
	int height, links;
	int counted;		/* links it was charged for: pushes and refusals */
	bool left_rcu;		/* an unlazy event said so */
	char frames[WALK_MAXSYMLINKS][WALK_EVENT_NAME_MAX + 1];
};

struct checker {
	struct attempt walks[MAX_LEVELS];	/* in progress, a level each */
	int open;
	const struct trace_event *last_end;	/* of level 0 */
	unsigned int attempts;		/* started at level 0 */
	unsigned int spills;		/* stacks allocated, at level 0 */
	char *why;
	size_t size;
};

static bool fail(struct checker *c, const struct trace_event *event, const char *fmt, ...)
{
	char line[512];
	va_list args;
	size_t len;

	va_start(args, fmt);
	len = vsnprintf(c->why, c->size, fmt, args);
	va_end(args);
	if (event && len < c->size) {
		trace_event_format(event, line, sizeof(line));
		snprintf(c->why + len, c->size - len, ", at %s", line);
	}
	return false;
}

/*
 * Is @start the attempt that may follow the lookup's last one? The first
 * is of the rcu kind; -ECHILD from it brings one of the ref kind (reval,
 * if the caller asked for LOOKUP_REVAL), -ESTALE from either of the first
 * two a last one of the reval kind.
 */
static bool attempt_follows(struct checker *c, const struct trace_event *start)
{
	const struct trace_event *prev = start->level ? NULL : c->last_end;
	bool ok;

	if (!prev)
		ok = !strcmp(start->attempt, "rcu");
	else if (prev->error == -ECHILD && c->attempts == 1)
		ok = strcmp(start->attempt, "rcu") != 0;
	else if (prev->error == -ESTALE && c->attempts <= 2)
		ok = !strcmp(start->attempt, "reval");
	else
		return fail(c, start, "an attempt after one that ended with %d",
			    prev->error);
	if (!ok)
		return fail(c, start, "a %s attempt after %s", start->attempt,
			    prev ? "one that gave up" : "none");
	return true;
}

static bool check_start(struct checker *c, const struct trace_event *e)
{
	struct attempt *a;
	int outer_links = 0;

	if (e->level != c->open || c->open == MAX_LEVELS)
		return fail(c, e, "a start at level %d with %d attempts open",
			    e->level, c->open);
	if (c->open)
		outer_links = c->walks[c->open - 1].links;
	/* each attempt starts from the count of the walks it is nested in */
	if (e->links != outer_links)
		return fail(c, e, "an attempt starting with %d links, not %d",
			    e->links, outer_links);
	if (e->error)
		return fail(c, e, "a start with an error");
	if (!attempt_follows(c, e))
		return false;
	if (!e->level)
		c->attempts++;
	a = c->walks + c->open++;
	memset(a, 0, sizeof(*a));
	a->start = e;
	a->links = e->links;
	return true;
}

static bool check_end(struct checker *c, struct attempt *a, const struct trace_event *e,
		      struct trace_counts *counts)
{
	if (strcmp(e->attempt, a->start->attempt) || strcmp(e->name, a->start->name))
		return fail(c, e, "the end of another attempt than the one started");
	if (a->height)
		return fail(c, e, "an attempt ends with %d frames never popped", a->height);
	if (e->links != a->start->links + a->counted)
		return fail(c, e, "%d links at the end, where %d were started with and %d "
			    "charged since", e->links, a->start->links, a->counted);
	if (!e->error && !strcmp(a->start->attempt, "rcu") && !a->left_rcu)
		return fail(c, e, "an RCU-walk attempt succeeded without leaving RCU-walk");
	if (e->error == -ECHILD && strcmp(a->start->attempt, "rcu"))
		return fail(c, e, "-ECHILD from a REF-walk attempt");
	c->open--;
	if (!e->level)
		c->last_end = e;
	counts->attempts++;
	return true;
}

/* The rules of the events inside an attempt. */
static bool check_inside(struct checker *c, struct attempt *a, const struct trace_event *e)
{
	const char *type = e->type;

	if ((e->fields & F_MODE) && !strcmp(e->mode, "rcu") &&
	    (strcmp(a->start->attempt, "rcu") || a->left_rcu))
		return fail(c, e, "an event in RCU-walk after the walk left it");
	if ((e->fields & F_DEPTH) && strcmp(type, "link_push") && strcmp(type, "link_pop") &&
	    e->depth != a->height)
		return fail(c, e, "depth %d on a stack %d high", e->depth, a->height);

	if (!strcmp(type, "link_push")) {
		if (e->depth != a->height + 1 || a->height == WALK_MAXSYMLINKS)
			return fail(c, e, "a push to depth %d on a stack %d high",
				    e->depth, a->height);
		if (e->links != a->links + 1 || e->links > WALK_MAXSYMLINKS)
			return fail(c, e, "a push that makes %d links after %d",
				    e->links, a->links);
		copy_value(a->frames[a->height], sizeof(a->frames[0]), e->link);
		a->height++;
		a->links++;
		a->counted++;
	} else if (!strcmp(type, "link_body")) {
		if (!a->height)
			return fail(c, e, "a body with no link on the stack");
	} else if (!strcmp(type, "link_pop")) {
		if (e->depth != a->height - 1 || !a->height)
			return fail(c, e, "a pop to depth %d from a stack %d high",
				    e->depth, a->height);
		if (strcmp(e->link, a->frames[e->depth]))
			return fail(c, e, "a pop of \"%s\" where \"%s\" was pushed",
				    e->link, a->frames[e->depth]);
		if (e->links != a->links)
			return fail(c, e, "a pop with %d links, not %d", e->links, a->links);
		a->height--;
	} else if (!strcmp(type, "eloop")) {
		if (!strcmp(e->reason, "budget")) {
			a->links++;
			a->counted++;
			if (e->links != WALK_MAXSYMLINKS + 1 || a->links != e->links)
				return fail(c, e, "the budget refused at %d links, after %d",
					    e->links, a->links - 1);
		} else if (e->links != a->links) {
			return fail(c, e, "-ELOOP with %d links, not %d", e->links, a->links);
		}
	} else if (!strcmp(type, "unlazy")) {
		if (strcmp(a->start->attempt, "rcu") || a->left_rcu)
			return fail(c, e, "leaving RCU-walk twice, or out of a REF-walk attempt");
		a->left_rcu = true;
	} else if (!strcmp(type, "stack_spill")) {
		if (a->height != 2)
			return fail(c, e, "a spill with %d frames in use", a->height);
		if (e->allocated && !e->level && ++c->spills > 1)
			return fail(c, e, "a lookup that allocated its stack twice");
	}
	return true;
}

bool trace_balanced(const struct trace_lookup *lookup, int result,
		    struct trace_counts *counts, char *why, size_t size)
{
	struct checker c = { .why = why, .size = size };
	unsigned int i;

	for (i = 0; i < lookup->count; i++) {
		const struct trace_event *e = lookup->events + i;
		struct attempt *a = c.open ? c.walks + c.open - 1 : NULL;

		if (!strcmp(e->type, "lookup_start")) {
			if (!check_start(&c, e))
				return false;
			continue;
		}
		if (!a || e->level != c.open - 1)
			return fail(&c, e, "an event at level %d with %d attempts open",
				    e->level, c.open);
		if (!strcmp(e->type, "lookup_end")) {
			if (!check_end(&c, a, e, counts))
				return false;
		} else if (!check_inside(&c, a, e)) {
			return false;
		}
	}
	if (c.open)
		return fail(&c, NULL, "%d attempts never ended", c.open);
	if (!c.last_end) {
		/* refused before any lookup: getname(), build_open_flags() */
		if (result == -ENOENT || result == -ENAMETOOLONG || result == -EINVAL)
			return true;
		return fail(&c, NULL, "no lookup, but the call returned %d", result);
	}
	if (c.last_end->error != result)
		return fail(&c, c.last_end, "the last attempt ended with %d, the call "
			    "returned %d", c.last_end->error, result);
	counts->calls++;
	counts->events += lookup->count;
	return true;
}

/* The reasons as static strings, for struct walk_event. */
static const char *reason_of(const char *reason)
{
	static const char *const reasons[] = {
		"walked", "terminate", "unlazy", "cached", "budget", "no_symlinks",
		"nosymfollow", "no_magiclinks", "automount", "nofollow",
	};
	size_t i;

	for (i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++)
		if (!strcmp(reason, reasons[i]))
			return reasons[i];
	return "(unknown)";
}

void trace_last_attempt(const struct trace_lookup *lookup, struct walk_events *out)
{
	static const struct {
		const char *type;
		enum walk_event_type walk_type;
	} predicted[] = {
		{ "link_push", WALK_EVENT_PUSH },
		{ "link_body", WALK_EVENT_BODY },
		{ "link_pop", WALK_EVENT_POP },
		{ "jump_root", WALK_EVENT_JUMP_ROOT },
		{ "eloop", WALK_EVENT_ELOOP },
	};
	unsigned int i, start = lookup->count;
	size_t j;

	for (i = 0; i < lookup->count; i++)
		if (!strcmp(lookup->events[i].type, "lookup_start") &&
		    !lookup->events[i].level)
			start = i;
	out->count = 0;
	for (i = start; i < lookup->count && out->count < WALK_EVENTS_MAX; i++) {
		const struct trace_event *e = lookup->events + i;
		struct walk_event *w;

		if (e->level)
			continue;
		for (j = 0; j < sizeof(predicted) / sizeof(predicted[0]); j++)
			if (!strcmp(e->type, predicted[j].type))
				break;
		if (j == sizeof(predicted) / sizeof(predicted[0]))
			continue;
		w = out->event + out->count++;
		*w = (struct walk_event){
			.type = predicted[j].walk_type,
			.depth = e->depth,
			.links = e->links,
			.trailing = e->trailing,
			.error = e->error,
			.reason = reason_of(e->reason),
		};
		copy_value(w->link, sizeof(w->link), e->link);
		copy_value(w->body, sizeof(w->body), e->body);
		copy_value(w->remnant, sizeof(w->remnant), e->remnant);
	}
}
