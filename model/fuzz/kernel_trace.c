// SPDX-License-Identifier: GPL-2.0
/*
 * The namei events of one system call, from a tracefs instance of the
 * caller's own, and the rules they must keep.
 *
 * The instance keeps its own ring buffer, with every namei event on and
 * the "counter" clock, which orders the events of all CPUs as they
 * happened even when the caller moves between CPUs. A mark written to its
 * trace_marker before the call and one after delimit the call's events;
 * events of other processes, which the instance records among them, are
 * skipped by their common_pid.
 *
 * libtracefs makes the instance and reads its trace_pipe_raw files;
 * libtraceevent parses the events' formats and the pages, and reads each
 * field of a record by its name. The symbolic fields (attempt, reason,
 * mode) are named from the tables that scripts/symwalk/events.py makes of
 * the series' namei.h (namei_events.h), never from a TP_printk().
 * libtraceevent 1.7.1 fails to parse the print fmt of an event that prints
 * name="%s" (the kernel leaves the quotes unescaped) and flags the event
 * TEP_EVENT_FL_FAILED, but keeps the fields it parsed before it: all that
 * is read here.
 *
 * All of it is made and opened before the fork: the child chroots, where
 * no tracefs path resolves. So the CPUs' files are opened once, and
 * drain() reads them as tracefs_iterate_raw_events() would, which opens
 * them by path at each call.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

#include "kernel_trace.h"
#include "namei_events.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MARK_PREFIX	"fuzz_walk"
#define BUFFER_KB	"2048"	/* per CPU: far more than one call fires */
#define MAX_LEVELS	8	/* walks nested in one another */
#define MAX_KEYS	8	/* of one event */
#define NO_NAMEI_EVENTS	1	/* kernel_trace_open(): not an error */
/* room left in a page the writer moved on from: more than a namei record */
#define FULL_SLACK	512

_Static_assert(NAMEI_EVENT_NAME_MAX == WALK_EVENT_NAME_MAX,
	       "namei.h cuts names where the model does not");

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

/*
 * Every key an event may print, and the member of struct namei_event it
 * fills: an int, a string (a name, or the name of a symbolic value), or
 * none.
 */
enum key_kind { KEY_INT, KEY_STRING, KEY_IGNORED };

static const struct {
	const char *key;
	enum key_kind kind;
	unsigned int flag;
	size_t offset, size;
} event_keys[] = {
#define INT_FIELD(k, flag, member) \
	{ k, KEY_INT, flag, offsetof(struct namei_event, member), sizeof(int) }
#define STRING_FIELD(k, flag, member) \
	{ k, KEY_STRING, flag, offsetof(struct namei_event, member), \
	  sizeof(((struct namei_event *)0)->member) }
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

/* A namei event's record format: each key's field, found once by name. */
struct event_format {
	struct tep_event *event;
	const struct namei_event_type *type;
	struct tep_format_field *fields[MAX_KEYS];
	unsigned char keys[MAX_KEYS];	/* in event_keys */
	unsigned int min_size;	/* of a record: the end of its last field read */
};

/* One CPU's trace_pipe_raw, and the page of it being read. */
struct cpu_reader {
	struct tracefs_cpu *tcpu;
	struct kbuffer *kbuf;
	void *page;
	void *data;		/* the record to read next, or NULL */
	unsigned long long ts;	/* its time */
	unsigned int pages;	/* read by this drain() */
};

struct kernel_trace {
	struct tracefs_instance *instance;
	struct tep_handle *tep;
	int tracing_on_fd;	/* off between calls: the model's own lookups */
	unsigned long serial;	/* of the last system call traced */
	struct tep_event *mark;	/* trace_marker's: ftrace's print */
	struct tep_format_field *mark_buf;	/* its text, to the record's end */
	unsigned int mark_size;			/* of a mark's record, at least */
	struct tep_format_field *common_pid;	/* the same in every event */
	unsigned int pid_end;			/* its offset and size */
	struct event_format formats[ARRAY_SIZE(namei_event_types)];
	struct cpu_reader *cpus;
	int cpu_count;
};

/* What one read keeps of the records it goes through. */
struct reading {
	pid_t tid;
	const char *begin, *end;	/* the marks around a call, or NULL */
	bool begun, ended;
	unsigned int page_limit;	/* of each CPU, or 0: all there is */
	unsigned int pages;		/* read */
	unsigned long lost;		/* pages after lost events */
	unsigned int full;		/* pages the writer had left */
	struct trace_lookup *lookup;
};

/* libtracefs and libtraceevent fail with -1 and, mostly, errno. */
static int lib_error(void)
{
	return errno ? -errno : -EIO;
}

static int bad_vocabulary(const char *event, const char *key, const char *why)
{
	fprintf(stderr, "%s: namei_%s: %s: %s\n", program_invocation_short_name, event,
		key, why);
	return -EPROTO;
}

/* A field holds what the key reads: a __data_loc string, or a number. */
static bool field_fits(const struct tep_format_field *field, bool string)
{
	if (field->offset < 0 || !!(field->flags & TEP_FIELD_IS_DYNAMIC) != string)
		return false;
	if (string)	/* offset and length in 32 bits, from the record's start */
		return field->size == 4 && !(field->flags & TEP_FIELD_IS_RELATIVE);
	return !(field->flags & TEP_FIELD_IS_ARRAY) &&
		(field->size == 1 || field->size == 2 || field->size == 4 || field->size == 8);
}

/*
 * Find @type's event and each field its keys print, and check that they
 * fill the members of struct namei_event that the checks read, each from
 * a field of the form the key reads. (That the kernel names the symbolic
 * values as namei_events.h does, tests/docs/events_test.py checks against
 * the format files of make check's run.) Return 0, -ENOENT if the kernel
 * has no such event, or -EPROTO.
 */
static int load_format(struct kernel_trace *trace, struct event_format *format,
		       const struct namei_event_type *type)
{
	const struct tep_format_field *field;
	unsigned int fields = 0, i;
	char name[64];
	size_t k;

	snprintf(name, sizeof(name), "%s_%s", NAMEI_EVENT_SYSTEM, type->name);
	format->type = type;
	format->event = tep_find_event_by_name(trace->tep, NAMEI_EVENT_SYSTEM, name);
	if (!format->event)
		return -ENOENT;
	if (type->key_count > MAX_KEYS)
		return bad_vocabulary(type->name, "keys", "more than fuzz_walk reads");
	format->min_size = trace->pid_end;
	for (i = 0; i < type->key_count; i++) {
		const struct namei_event_key *key = type->keys + i;
		bool symbolic = key->symbols || key->flag;

		for (k = 0; k < ARRAY_SIZE(event_keys); k++)
			if (!strcmp(key->name, event_keys[k].key))
				break;
		if (k == ARRAY_SIZE(event_keys))
			return bad_vocabulary(type->name, key->name, "a key fuzz_walk does not know");
		if (event_keys[k].kind == KEY_INT ? key->string || symbolic :
		    event_keys[k].kind == KEY_STRING && !key->string && !symbolic)
			return bad_vocabulary(type->name, key->name, "a value of a form not read here");
		field = format->fields[i] = tep_find_field(format->event, key->field);
		if (!field)
			return bad_vocabulary(type->name, key->field, "no such field in its format");
		if (!field_fits(field, key->string))
			return bad_vocabulary(type->name, key->field, key->string ?
					      "not a __data_loc string" : "not a number");
		if ((unsigned int)(field->offset + field->size) > format->min_size)
			format->min_size = field->offset + field->size;
		format->keys[i] = k;
		fields |= event_keys[k].flag;
	}
	for (k = 0; k < ARRAY_SIZE(event_fields); k++)
		if (!strcmp(type->name, event_fields[k].type))
			return fields == event_fields[k].fields ? 0 :
				bad_vocabulary(type->name, "keys", "not the keys it must print");
	return bad_vocabulary(type->name, "event", "an event fuzz_walk does not know");
}

/* Is each namei event the kernel has one of namei_events.h's? */
static int check_all_known(struct kernel_trace *trace)
{
	struct tep_event *event;
	int i, count = tep_get_events_count(trace->tep);
	size_t j;

	for (i = 0; i < count; i++) {
		event = tep_get_event(trace->tep, i);
		if (!event || strcmp(event->system, NAMEI_EVENT_SYSTEM))
			continue;
		for (j = 0; j < ARRAY_SIZE(trace->formats); j++)
			if (trace->formats[j].event == event)
				break;
		if (j == ARRAY_SIZE(trace->formats)) {
			fprintf(stderr, "%s: %s: in the kernel, not in namei_events.h\n",
				program_invocation_short_name, event->name);
			return -EBADMSG;
		}
	}
	return 0;
}

/*
 * The formats of the namei events and of trace_marker's, parsed from the
 * kernel's. Return 0, NO_NAMEI_EVENTS, or a negative errno.
 */
static int load_formats(struct kernel_trace *trace)
{
	const char *systems[] = { NAMEI_EVENT_SYSTEM, "ftrace", NULL };
	const char *missing = NULL;
	unsigned int i, found = 0;
	int err;

	trace->tep = tracefs_local_events_system(NULL, systems);
	if (!trace->tep)
		return lib_error();
	trace->mark = tep_find_event_by_name(trace->tep, "ftrace", "print");
	if (!trace->mark)
		return -ENOENT;
	trace->common_pid = tep_find_common_field(trace->mark, "common_pid");
	trace->mark_buf = tep_find_field(trace->mark, "buf");
	if (!trace->common_pid || !field_fits(trace->common_pid, false) || !trace->mark_buf ||
	    trace->mark_buf->offset < 0)
		return bad_vocabulary("print", "buf", "trace_marker's event has no text");
	trace->pid_end = trace->common_pid->offset + trace->common_pid->size;
	trace->mark_size = trace->mark_buf->offset;
	if (trace->mark_size < trace->pid_end)
		trace->mark_size = trace->pid_end;
	for (i = 0; i < ARRAY_SIZE(namei_event_types); i++) {
		err = load_format(trace, trace->formats + i, namei_event_types + i);
		if (err && err != -ENOENT)
			break;
		if (err && !missing)
			missing = namei_event_types[i].name;
		found += !err;
		err = 0;
	}
	if (err)
		return err;
	if (!found)
		return NO_NAMEI_EVENTS;
	if (missing)
		return bad_vocabulary(missing, "event", "in namei_events.h, not in the kernel");
	return check_all_known(trace);
}

/*
 * The CPUs the instance has a buffer for, by its per_cpu/cpuN: what
 * sysconf() counts may have none, or (without /sys) leave some out.
 */
static int count_cpus(struct tracefs_instance *instance)
{
	char *dir = tracefs_instance_get_dir(instance), path[PATH_MAX];
	struct dirent *entry;
	int count = 0, cpu;
	DIR *per_cpu;

	if (!dir)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/per_cpu", dir);
	tracefs_put_tracing_file(dir);
	per_cpu = opendir(path);
	if (!per_cpu)
		return -errno;
	while ((entry = readdir(per_cpu)))
		if (sscanf(entry->d_name, "cpu%d", &cpu) == 1 && cpu >= count)
			count = cpu + 1;
	closedir(per_cpu);
	return count ? count : -ENODEV;
}

/* Each CPU's trace_pipe_raw, open, and a page to read it into. */
static int open_cpus(struct kernel_trace *trace)
{
	int count = count_cpus(trace->instance);
	struct cpu_reader *c;

	if (count < 0)
		return count;
	trace->cpus = calloc(count, sizeof(*trace->cpus));
	if (!trace->cpus)
		return -ENOMEM;
	while (trace->cpu_count < count) {
		c = trace->cpus + trace->cpu_count;
		errno = 0;
		c->tcpu = tracefs_cpu_open(trace->instance, trace->cpu_count, true);
		if (!c->tcpu)
			return lib_error();
		/* counted now: kernel_trace_remove() closes what is open */
		trace->cpu_count++;
		c->kbuf = kbuffer_alloc(KBUFFER_LSIZE_SAME_AS_HOST, KBUFFER_ENDIAN_SAME_AS_HOST);
		c->page = malloc(tracefs_cpu_read_size(c->tcpu));
		if (!c->kbuf || !c->page)
			return -ENOMEM;
	}
	return 0;
}

/*
 * Make the instance, turn the namei events on in it, and open what is
 * read and written in it. Return 0, NO_NAMEI_EVENTS, or a negative errno.
 */
static int kernel_trace_open(struct kernel_trace *trace)
{
	char name[64];
	int err;

	*trace = (struct kernel_trace){ .tracing_on_fd = -1 };
	errno = 0;
	err = load_formats(trace);
	/* no tracefs, or no namei events in it: nothing to check, as before */
	if (err == -ENOENT || err == -ENODEV)
		return NO_NAMEI_EVENTS;
	if (err)
		return err;
	snprintf(name, sizeof(name), "%s-%d", program_invocation_short_name, getpid());
	errno = 0;
	trace->instance = tracefs_instance_create(name);
	if (!trace->instance)
		return lib_error();
	/* another's, with its contents: not ours to read or remove */
	if (!tracefs_instance_is_new(trace->instance)) {
		tracefs_instance_free(trace->instance);
		trace->instance = NULL;
		return -EEXIST;
	}
	errno = 0;
	if (tracefs_instance_file_write(trace->instance, "buffer_size_kb", BUFFER_KB) < 0 ||
	    tracefs_instance_file_write(trace->instance, "trace_clock", "counter") < 0 ||
	    tracefs_event_enable(trace->instance, NAMEI_EVENT_SYSTEM, NULL) ||
	    tracefs_print_init(trace->instance))
		return lib_error();
	errno = 0;
	trace->tracing_on_fd = tracefs_trace_on_get_fd(trace->instance);
	if (trace->tracing_on_fd < 0)
		return lib_error();
	return open_cpus(trace);
}

/* Close what is open in the instance, remove it, and free the rest. */
static int kernel_trace_remove(struct kernel_trace *trace)
{
	int i, err = 0;

	for (i = 0; i < trace->cpu_count; i++) {
		tracefs_cpu_close(trace->cpus[i].tcpu);
		kbuffer_free(trace->cpus[i].kbuf);
		free(trace->cpus[i].page);
	}
	free(trace->cpus);
	if (trace->tracing_on_fd >= 0)
		close(trace->tracing_on_fd);
	if (trace->instance) {
		tracefs_print_close(trace->instance);
		if (tracefs_instance_destroy(trace->instance))
			err = lib_error();
		tracefs_instance_free(trace->instance);
	}
	tep_free(trace->tep);
	return err;
}

int kernel_trace_fork(const char *parent,
		      void (*child)(const char *dir, struct kernel_trace *trace, void *arg),
		      void *arg)
{
	struct kernel_trace trace;
	char dir[PATH_MAX], why[PATH_MAX + 64];
	int status, err;
	pid_t pid, reaped;

	snprintf(dir, sizeof(dir), "%s/%s.XXXXXX", parent, program_invocation_short_name);
	if (!mkdtemp(dir)) {
		snprintf(why, sizeof(why), "mkdtemp %s: %s", dir, strerror(errno));
		goto bail_out;
	}
	errno = 0;
	err = kernel_trace_open(&trace);
	if (err < 0) {
		snprintf(why, sizeof(why), "a trace instance: %s", strerror(-err));
		kernel_trace_remove(&trace);
		rmdir(dir);
		goto bail_out;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		child(dir, err ? NULL : &trace, arg);
		exit(1);
	}
	why[0] = '\0';
	if (pid < 0) {
		snprintf(why, sizeof(why), "fork: %s", strerror(errno));
	} else {
		/* failing but for a signal, waitpid() has seen the child gone */
		do
			reaped = waitpid(pid, &status, 0);
		while (reaped < 0 && errno == EINTR);
		if (reaped != pid)
			snprintf(why, sizeof(why), "waitpid: %s", strerror(errno));
	}
	err = kernel_trace_remove(&trace);
	if (err && !why[0])
		snprintf(why, sizeof(why), "removing the trace instance: %s", strerror(-err));
	if (rmdir(dir) && !why[0])
		snprintf(why, sizeof(why), "rmdir %s: %s", dir, strerror(errno));
	if (why[0])
		goto bail_out;
	if (WIFSIGNALED(status)) {
		snprintf(why, sizeof(why), "%s died of signal %d",
			 program_invocation_short_name, WTERMSIG(status));
		goto bail_out;
	}
	return WEXITSTATUS(status);
bail_out:
	printf("Bail out! %s\n", why);
	return 1;
}

/* Copy a string of at most @len bytes, cut to the size of @dst. */
static void copy_bytes(char *dst, size_t size, const char *value, size_t len)
{
	len = strnlen(value, len < size - 1 ? len : size - 1);
	memcpy(dst, value, len);
	dst[len] = '\0';
}

/* Copy a value, cut to the size of @dst like the events cut it. */
static void copy_value(char *dst, size_t size, const char *value)
{
	copy_bytes(dst, size, value, size);
}

/* The name namei.h gives a symbolic field's @value, into @dst. */
static int symbol_name(const struct namei_event_type *type, const struct namei_event_key *key,
		       unsigned long long value, char *dst, size_t size)
{
	unsigned int i;

	if (!key->symbols) {
		copy_value(dst, size, key->choice[value & key->flag ? 0 : 1]);
		return 0;
	}
	for (i = 0; i < key->symbol_count; i++)
		if (key->symbols[i].value == (int)value) {
			copy_value(dst, size, key->symbols[i].name);
			return 0;
		}
	fprintf(stderr, "%s: namei_%s: %s=%d, a value namei.h does not name\n",
		program_invocation_short_name, type->name, key->name, (int)value);
	return -EBADMSG;
}

/* A number field's value, sign-extended if its format says it is signed. */
static long long field_value(const struct tep_format_field *field, const void *data)
{
	bool is_signed = field->flags & TEP_FIELD_IS_SIGNED;
	union {
		uint8_t u8;
		uint16_t u16;
		uint32_t u32;
		uint64_t u64;
	} v;

	memcpy(&v, (const char *)data + field->offset, field->size);
	switch (field->size) {
	case 1:
		return is_signed ? (int8_t)v.u8 : (long long)v.u8;
	case 2:
		return is_signed ? (int16_t)v.u16 : (long long)v.u16;
	case 4:
		return is_signed ? (int32_t)v.u32 : (long long)v.u32;
	default:
		return v.u64;
	}
}

/* @record's fields, each from the field load_format() found, into @event. */
static int event_of_record(const struct event_format *format, struct tep_record *record,
			   struct namei_event *event)
{
	unsigned int i, loc, offset, len;
	long long value;
	int err;

	if ((unsigned int)record->size < format->min_size)
		return -EBADMSG;
	memset(event, 0, sizeof(*event));
	copy_value(event->type, sizeof(event->type), format->type->name);
	for (i = 0; i < format->type->key_count; i++) {
		const struct namei_event_key *key = format->type->keys + i;
		const typeof(event_keys[0]) *member = event_keys + format->keys[i];
		char *field = (char *)event + member->offset;

		event->fields |= member->flag;
		if (member->kind == KEY_IGNORED)
			continue;
		value = field_value(format->fields[i], record->data);
		if (key->string) {
			/* __data_loc: the string's length above its offset */
			loc = value;
			offset = loc & 0xffff;
			len = loc >> 16;
			if (offset > (unsigned int)record->size ||
			    len > (unsigned int)record->size - offset)
				return -EBADMSG;
			copy_bytes(field, member->size, (const char *)record->data + offset, len);
			continue;
		}
		if (member->kind == KEY_INT) {
			*(int *)field = (int)value;
			continue;
		}
		err = symbol_name(format->type, key, value, field, member->size);
		if (err)
			return err;
	}
	return 0;
}

/* A new event at the end of @lookup, to fill in; NULL without memory. */
static struct namei_event *add_event(struct trace_lookup *lookup)
{
	if (lookup->count == lookup->size) {
		unsigned int size = lookup->size ? 2 * lookup->size : 64;
		struct namei_event *events = reallocarray(lookup->events, size,
							  sizeof(*events));

		if (!events)
			return NULL;
		lookup->events = events;
		lookup->size = size;
	}
	return lookup->events + lookup->count++;
}

/* Is @record the mark @text? trace_marker ends a mark with a newline. */
static bool is_mark(const struct kernel_trace *trace, struct tep_record *record,
		    const char *text)
{
	const char *mark = (const char *)record->data + trace->mark_buf->offset;
	size_t len = strlen(text);

	return len < (size_t)(record->size - trace->mark_buf->offset) &&
		!memcmp(mark, text, len) && (mark[len] == '\n' || mark[len] == '\0');
}

/* One record, in the order of their times: keep it if it is @r's to keep. */
static int collect(struct kernel_trace *trace, struct tep_record *record, struct reading *r)
{
	int type = tep_data_type(trace->tep, record);
	struct namei_event *event;
	unsigned int i;

	if ((unsigned int)record->size < trace->pid_end)
		return -EBADMSG;
	if ((pid_t)field_value(trace->common_pid, record->data) != r->tid)
		return 0;
	if (type == trace->mark->id) {
		if ((unsigned int)record->size < trace->mark_size)
			return -EBADMSG;
		if (r->begin && !r->ended) {
			r->begun |= is_mark(trace, record, r->begin);
			r->ended = is_mark(trace, record, r->end);
		}
		return 0;
	}
	if (r->begin && (!r->begun || r->ended))
		return 0;
	for (i = 0; i < ARRAY_SIZE(trace->formats); i++)
		if (trace->formats[i].event->id == type)
			break;
	/* the instance records nothing else: load_formats() knows them all */
	if (i == ARRAY_SIZE(trace->formats))
		return -EBADMSG;
	event = add_event(r->lookup);
	return event ? event_of_record(trace->formats + i, record, event) : -ENOMEM;
}

/* Point @c at its next record, reading its next page if this one is done. */
static int cpu_next(struct cpu_reader *c, struct reading *r)
{
	int got;

	while (!(c->data = kbuffer_read_event(c->kbuf, &c->ts))) {
		if (r->page_limit && c->pages++ == r->page_limit)
			return 0;
		errno = 0;
		/* tracefs_cpu_open() made it nonblocking: the flag changes nothing */
		got = tracefs_cpu_read(c->tcpu, c->page, true);
		if (got <= 0)
			return got ? lib_error() : 0;
		/* a page larger than the read (header_page's size) is not whole */
		if (kbuffer_load_subbuffer(c->kbuf, c->page) ||
		    kbuffer_start_of_data(c->kbuf) + kbuffer_subbuffer_size(c->kbuf) > got)
			return -EBADMSG;
		r->pages++;
		r->full += kbuffer_subbuffer_size(c->kbuf) + FULL_SLACK >
			got - kbuffer_start_of_data(c->kbuf);
		r->lost += kbuffer_missed_events(c->kbuf) != 0;
	}
	return 0;
}

/*
 * Read what the instance holds, up to @r's limit, each CPU's records merged
 * by their times.
 */
static int drain(struct kernel_trace *trace, struct reading *r)
{
	struct cpu_reader *next;
	int i, err;

	for (i = 0; i < trace->cpu_count; i++) {
		trace->cpus[i].pages = 0;
		err = cpu_next(trace->cpus + i, r);
		if (err)
			return err;
	}
	for (;;) {
		struct tep_record record = { 0 };

		next = NULL;
		for (i = 0; i < trace->cpu_count; i++)
			if (trace->cpus[i].data && (!next || trace->cpus[i].ts < next->ts))
				next = trace->cpus + i;
		if (!next)
			return 0;
		record.ts = next->ts;
		record.size = kbuffer_event_size(next->kbuf);
		record.data = next->data;
		record.cpu = next - trace->cpus;
		err = collect(trace, &record, r);
		if (err)
			return err;
		kbuffer_next_event(next->kbuf, NULL);
		/* the call's last record: the rest waits for the next read */
		if (r->ended)
			return 0;
		err = cpu_next(next, r);
		if (err)
			return err;
	}
}

int kernel_trace_read(struct kernel_trace *trace, pid_t tid, struct trace_lookup *lookup,
		      unsigned long *lost, bool *full)
{
	struct reading r = { .tid = tid, .page_limit = 1, .lookup = lookup };
	int err;

	lookup->count = 0;
	err = drain(trace, &r);
	*lost += r.lost;
	*full = r.full;
	return err ? err : (int)r.pages;
}

int kernel_trace_stop(struct kernel_trace *trace)
{
	errno = 0;
	return tracefs_trace_off_fd(trace->tracing_on_fd) ? lib_error() : 0;
}

int kernel_trace_begin(struct kernel_trace *trace)
{
	trace->serial++;
	errno = 0;
	if (tracefs_trace_on_fd(trace->tracing_on_fd) ||
	    tracefs_printf(trace->instance, MARK_PREFIX " begin %lu", trace->serial))
		return lib_error();
	return 0;
}

/*
 * Between two calls, the model and the tree's builder make lookups of
 * their own: recorded, their events would be read back only to be skipped.
 * The instance records from just before the begin mark to just after the
 * end mark; this process's events between them are the call's.
 */
int kernel_trace_end(struct kernel_trace *trace, struct trace_lookup *lookup)
{
	char begin[64], end[64];
	struct reading r = { .tid = getpid(), .begin = begin, .end = end, .lookup = lookup };
	int err;

	snprintf(begin, sizeof(begin), MARK_PREFIX " begin %lu", trace->serial);
	snprintf(end, sizeof(end), MARK_PREFIX " end %lu", trace->serial);
	errno = 0;
	if (tracefs_printf(trace->instance, "%s", end) ||
	    tracefs_trace_off_fd(trace->tracing_on_fd))
		return lib_error();
	lookup->count = 0;
	err = drain(trace, &r);
	if (!err && (r.lost || !r.begun || !r.ended))
		err = -EPROTO;
	return err;
}

void trace_lookup_free(struct trace_lookup *lookup)
{
	free(lookup->events);
	*lookup = (struct trace_lookup){ 0 };
}

void trace_event_format(const struct namei_event *event, char *buf, size_t size)
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
	const struct namei_event *start;
	int height, links;
	int counted;		/* links it was charged for: pushes and refusals */
	bool left_rcu;		/* an unlazy event said so */
	char frames[WALK_MAXSYMLINKS][WALK_EVENT_NAME_MAX + 1];
};

struct checker {
	struct attempt walks[MAX_LEVELS];	/* in progress, a level each */
	int open;
	const struct namei_event *last_end;	/* of level 0 */
	unsigned int attempts;		/* started at level 0 */
	unsigned int spills;		/* stacks allocated, at level 0 */
	char *why;
	size_t size;
};

static bool fail(struct checker *c, const struct namei_event *event, const char *fmt, ...)
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
static bool attempt_follows(struct checker *c, const struct namei_event *start)
{
	const struct namei_event *prev = start->level ? NULL : c->last_end;
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

static bool check_start(struct checker *c, const struct namei_event *e)
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

static bool check_end(struct checker *c, struct attempt *a, const struct namei_event *e,
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
static bool check_inside(struct checker *c, struct attempt *a, const struct namei_event *e)
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
		const struct namei_event *e = lookup->events + i;
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

/* A reason as namei_events.h's own string, static for struct walk_event. */
static const char *reason_of(const char *reason)
{
	const struct namei_event_key *key;
	size_t t;
	unsigned int k, i;

	for (t = 0; t < ARRAY_SIZE(namei_event_types); t++)
		for (k = 0; k < namei_event_types[t].key_count; k++) {
			key = namei_event_types[t].keys + k;
			if (!key->symbols || strcmp(key->name, "reason"))
				continue;
			for (i = 0; i < key->symbol_count; i++)
				if (!strcmp(reason, key->symbols[i].name))
					return key->symbols[i].name;
		}
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
		const struct namei_event *e = lookup->events + i;
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
