/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tracefs instance's records as the ring buffer holds them: the pages of
 * per_cpu/cpuN/trace_pipe_raw, laid out as events/header_page says, and
 * each event's fields where its format file puts them. Read so, no event is
 * formatted as text in the kernel and parsed back here, which was most of
 * what the fuzzer did under TCG (but for the first calls, whose lines it
 * reads too, to compare).
 */
#ifndef SYMWALK_TRACE_RAW_H
#define SYMWALK_TRACE_RAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RAW_MAX_FIELDS	16
#define RAW_MAX_ARGS	12
#define RAW_MAX_SYMBOLS	16
#define RAW_MAX_CPUS	64

/* A field of an event's record, from its format file. */
struct raw_field {
	char name[32];
	unsigned int offset, size;
	bool is_signed;
	bool data_loc;		/* __data_loc: the string's offset and length */
};

/* The forms of a TP_printk() argument that the format files show. */
enum raw_arg_kind {
	RAW_FIELD,		/* REC->field */
	RAW_STRING,		/* __get_str(field) */
	RAW_SYMBOLIC,		/* __print_symbolic(REC->field, { value, "name" }, ...) */
	RAW_TERNARY,		/* ((REC->field) & mask ? "set" : "clear") */
	RAW_OTHER,		/* anything else: its key's value is not read */
};

struct raw_symbol {
	long long value;
	char name[32];
};

/* One key=value of an event's printed line, and where its value comes from. */
struct raw_arg {
	char key[32];
	enum raw_arg_kind kind;
	const struct raw_field *field;	/* but for RAW_OTHER */
	unsigned long long mask;
	char if_set[16], if_clear[16];
	struct raw_symbol symbols[RAW_MAX_SYMBOLS];
	unsigned int symbol_count;
};

struct raw_format {
	char name[64];
	unsigned int id;
	struct raw_field fields[RAW_MAX_FIELDS];
	unsigned int field_count;
	struct raw_arg args[RAW_MAX_ARGS];
	unsigned int arg_count;
	const struct raw_field *type, *pid;	/* common_type, common_pid */
	unsigned int min_size;		/* of a record: its fields' end */
};

/* One record, its payload in a page read from a CPU's buffer. */
struct raw_record {
	uint64_t time;
	const unsigned char *data;
	unsigned int size;
};

/* The per-CPU buffers of an instance, and what the last drain read. */
struct raw_buffer {
	int fds[RAW_MAX_CPUS];		/* by CPU number; -1 for none */
	unsigned int cpus;		/* the highest CPU's number + 1 */
	size_t page_size, time_offset, commit_offset, commit_size, data_offset;
	unsigned char *pages;		/* read, all CPUs', a page_size each */
	size_t *page_sizes;		/* the bytes read of each */
	size_t page_count, page_room;
	struct raw_record *records;	/* merged, in the order of their times */
	size_t count, room;
};

/*
 * Parse the format file at @path into @format. Return 0, or -EPROTO with
 * what was not understood (or could not be read) printed on stderr.
 */
int raw_format_load(struct raw_format *format, const char *path);
const struct raw_field *raw_format_field(const struct raw_format *format, const char *name);

/* A numeric field's value in @record, sign-extended as the field says. */
long long raw_field_value(const struct raw_field *field, const struct raw_record *record);
/*
 * The text the kernel prints for @arg (not RAW_FIELD, not RAW_OTHER): a
 * string field's, cut to @size - 1 bytes, or a value without a symbol, in
 * @buf; a symbol or either word of a flag's test, @arg's own.
 */
const char *raw_arg_text(const struct raw_arg *arg, const struct raw_record *record,
			 char *buf, size_t size);

/*
 * Open the buffers of the instance at @instance_fd (every CPU's), reading
 * their layout from its events/header_page. Return 0 or a negative errno,
 * with what failed printed on stderr.
 */
int raw_buffer_open(struct raw_buffer *buffer, int instance_fd);
void raw_buffer_close(struct raw_buffer *buffer);
/*
 * Read all that the buffers hold into buffer->records, the records of all
 * CPUs in the order they were written. Return 0, -EPROTO if the kernel
 * lost events, -EBADMSG if a page does not hold what its header says, or
 * another negative errno.
 */
int raw_buffer_drain(struct raw_buffer *buffer);

#endif
