// SPDX-License-Identifier: GPL-2.0
/*
 * trace_pipe_raw's pages and the format files that say what is in them
 * (Documentation/trace/ftrace.rst, "trace_pipe_raw"; events/header_page,
 * events/header_event).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace_raw.h"

/* A ring buffer event's header: type_len in 5 bits, time_delta in 27. */
#define TYPE_LEN_BITS		5
#define TYPE_PADDING		29
#define TYPE_TIME_EXTEND	30
#define TYPE_TIME_STAMP		31
/* In a page's commit word, beside the length of its data. */
#define MISSED_EVENTS		(1ULL << 31)
#define MISSED_MASK		(3ULL << 30)

static int bad_format(const char *path, const char *what, const char *text)
{
	fprintf(stderr, "trace_raw: %s: %s: %.200s\n", path, what, text);
	return -EPROTO;
}

/* "\tfield:unsigned int level;\toffset:8;\tsize:4;\tsigned:0;" */
static int parse_field(const char *line, struct raw_field *field)
{
	const char *decl = strstr(line, "field:"), *semicolon, *name;
	int is_signed = 0;
	size_t len;

	if (!decl)
		return -EPROTO;
	decl += strlen("field:");
	semicolon = strchr(decl, ';');
	if (!semicolon)
		return -EPROTO;
	/* the name is the declaration's last word, without its [] */
	for (name = semicolon; name > decl && name[-1] != ' '; name--)
		;
	len = strcspn(name, "[;");
	if (!len || len >= sizeof(field->name))
		return -EPROTO;
	memset(field, 0, sizeof(*field));
	memcpy(field->name, name, len);
	field->data_loc = !strncmp(decl + strspn(decl, " "), "__data_loc ", 11);
	if (sscanf(semicolon, "; offset:%u; size:%u; signed:%d;", &field->offset,
		   &field->size, &is_signed) != 3)
		return -EPROTO;
	field->is_signed = is_signed;
	return 0;
}

const struct raw_field *raw_format_field(const struct raw_format *format, const char *name)
{
	unsigned int i;

	for (i = 0; i < format->field_count; i++)
		if (!strcmp(format->fields[i].name, name))
			return format->fields + i;
	return NULL;
}

/* Split the arguments after the format string at their top-level commas. */
static unsigned int split_args(char *args, char **out, unsigned int max)
{
	unsigned int count = 0, depth = 0;
	bool quoted = false;
	char *p = args;

	while (*p == ' ')
		p++;
	if (!*p)
		return 0;
	out[count++] = p;
	for (; *p; p++) {
		if (quoted) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				quoted = false;
		} else if (*p == '"') {
			quoted = true;
		} else if (*p == '(' || *p == '{') {
			depth++;
		} else if ((*p == ')' || *p == '}') && depth) {
			depth--;
		} else if (*p == ',' && !depth) {
			*p = '\0';
			if (count == max)
				return max + 1;
			for (p++; *p == ' '; p++)
				;
			out[count++] = p--;
		}
	}
	return count;
}

static int parse_symbols(struct raw_arg *arg, const char *p)
{
	int used;

	while (arg->symbol_count < RAW_MAX_SYMBOLS &&
	       sscanf(p, " , { %lli , \"%31[^\"]\" }%n",
		      &arg->symbols[arg->symbol_count].value,
		      arg->symbols[arg->symbol_count].name, &used) == 2) {
		arg->symbol_count++;
		p += used;
	}
	return strcmp(p, ")") ? -EPROTO : 0;	/* or more symbols than room */
}

/* What one argument of TP_printk() reads, in a form this file knows. */
static int parse_arg(const struct raw_format *format, struct raw_arg *arg, const char *text)
{
	char name[32];
	int used = -1;

	arg->kind = RAW_OTHER;
	if (sscanf(text, "REC->%31[A-Za-z0-9_]%n", name, &used) == 1 && !text[used]) {
		arg->kind = RAW_FIELD;
	} else if (sscanf(text, "__get_str(%31[A-Za-z0-9_])%n", name, &used) == 1 && !text[used]) {
		arg->kind = RAW_STRING;
	} else if (sscanf(text, "__print_symbolic(REC->%31[A-Za-z0-9_]%n", name, &used) == 1) {
		arg->kind = RAW_SYMBOLIC;
		if (parse_symbols(arg, text + used))
			return -EPROTO;
	} else if (sscanf(text, "((REC->%31[A-Za-z0-9_]) & %lli ? \"%15[^\"]\" : \"%15[^\"]\")%n",
			  name, (long long *)&arg->mask, arg->if_set, arg->if_clear,
			  &used) == 4 && !text[used]) {
		arg->kind = RAW_TERNARY;
	}
	if (arg->kind == RAW_OTHER)
		return 0;
	arg->field = raw_format_field(format, name);
	if (!arg->field || arg->field->data_loc != (arg->kind == RAW_STRING))
		return -EPROTO;
	return 0;
}

/*
 * print fmt: "level=%u link="%s" mode=%s", REC->level, __get_str(link), ...
 * The format string's quotes inside are not escaped: it ends at the first
 * quote that a comma follows, or at the line's last quote.
 */
static int parse_print_fmt(struct raw_format *format, char *text, const char *path)
{
	char *end = strstr(text, "\", "), *args = "", *tokens[RAW_MAX_ARGS + 1];
	char *key, *save;
	unsigned int keys = 0, i;

	if (end) {
		args = end + 3;
	} else {
		end = strrchr(text, '"');
		if (!end)
			return bad_format(path, "a print fmt without its end", text);
	}
	*end = '\0';
	for (key = strtok_r(text, " ", &save); key; key = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(key, '=');

		if (!eq || !strchr(eq, '%'))
			continue;
		if (keys == RAW_MAX_ARGS || eq - key >= (long)sizeof(format->args[0].key))
			return bad_format(path, "too many keys, or too long", key);
		memcpy(format->args[keys].key, key, eq - key);
		format->args[keys++].key[eq - key] = '\0';
	}
	if (!keys)	/* not a line of key=value: nothing to read of it */
		return 0;
	format->arg_count = split_args(args, tokens, RAW_MAX_ARGS);
	if (format->arg_count != keys)
		return bad_format(path, "not as many arguments as keys", args);
	for (i = 0; i < keys; i++)
		if (parse_arg(format, format->args + i, tokens[i]))
			return bad_format(path, "an argument of an unknown form", tokens[i]);
	return 0;
}

/* The lines of the format file @path (at @dirfd) into @format, unchecked. */
static int parse_format(struct raw_format *format, int dirfd, const char *path)
{
	char *line = NULL;
	size_t room = 0;
	int fd, err = 0;
	FILE *f;

	memset(format, 0, sizeof(*format));
	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	f = fd < 0 ? NULL : fdopen(fd, "r");
	if (!f) {
		err = bad_format(path, "cannot be read", strerror(errno));
		if (fd >= 0)
			close(fd);
		return err;
	}
	while (!err && getline(&line, &room, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "name: ", 6)) {
			snprintf(format->name, sizeof(format->name), "%s", line + 6);
		} else if (!strncmp(line, "ID: ", 4)) {
			format->id = strtoul(line + 4, NULL, 10);
		} else if (!strncmp(line, "print fmt: \"", 12)) {
			err = parse_print_fmt(format, line + 12, path);
		} else if (strstr(line, "field:")) {
			if (format->field_count == RAW_MAX_FIELDS)
				err = bad_format(path, "too many fields", line);
			else if (parse_field(line, format->fields + format->field_count++))
				err = bad_format(path, "a field not understood", line);
		}
	}
	free(line);
	fclose(f);
	return err;
}

int raw_format_load(struct raw_format *format, const char *path)
{
	unsigned int i;
	int err = parse_format(format, AT_FDCWD, path);

	if (err)
		return err;
	format->type = raw_format_field(format, "common_type");
	format->pid = raw_format_field(format, "common_pid");
	if (!format->id || !format->type || !format->pid)
		return bad_format(path, "no ID, common_type or common_pid", format->name);
	for (i = 0; i < format->field_count; i++)
		if (format->min_size < format->fields[i].offset + format->fields[i].size)
			format->min_size = format->fields[i].offset + format->fields[i].size;
	return 0;
}

static unsigned long long read_unsigned(const unsigned char *p, unsigned int size)
{
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64 = 0;

	switch (size) {
	case 1:
		memcpy(&u8, p, 1);
		return u8;
	case 2:
		memcpy(&u16, p, 2);
		return u16;
	case 4:
		memcpy(&u32, p, 4);
		return u32;
	default:
		memcpy(&u64, p, size < 8 ? size : 8);
		return u64;
	}
}

long long raw_field_value(const struct raw_field *field, const struct raw_record *record)
{
	unsigned long long value;
	unsigned int bits = 8 * field->size;

	if (field->offset + field->size > record->size)
		return 0;
	value = read_unsigned(record->data + field->offset, field->size);
	if (field->is_signed && bits && bits < 64 && (value >> (bits - 1)) & 1)
		value |= ~0ULL << bits;
	return (long long)value;
}

const char *raw_arg_text(const struct raw_arg *arg, const struct raw_record *record,
			 char *buf, size_t size)
{
	long long value;
	unsigned int i;

	if (arg->kind == RAW_STRING) {
		/* __data_loc: the string's length above its offset */
		unsigned int loc = raw_field_value(arg->field, record);
		unsigned int offset = loc & 0xffff, len = loc >> 16;

		if (offset > record->size || len > record->size - offset)
			len = 0;
		len = strnlen((const char *)record->data + offset, len);
		if (len > size - 1)
			len = size - 1;
		memcpy(buf, record->data + offset, len);
		buf[len] = '\0';
		return buf;
	}
	value = raw_field_value(arg->field, record);
	if (arg->kind == RAW_TERNARY)
		return (unsigned long long)value & arg->mask ? arg->if_set : arg->if_clear;
	for (i = 0; i < arg->symbol_count; i++)
		if (arg->symbols[i].value == value)
			return arg->symbols[i].name;
	/* as trace_print_symbols_seq() prints a value it has no name for */
	snprintf(buf, size, "0x%llx", (unsigned long long)value);
	return buf;
}

/* The instance's own events/header_page: its pages' layout. */
static int read_page_layout(struct raw_buffer *buffer, int instance_fd)
{
	const char *path = "events/header_page";
	const struct raw_field *time, *commit, *data;
	struct raw_format header;
	int err = parse_format(&header, instance_fd, path);

	if (err)
		return err;
	time = raw_format_field(&header, "timestamp");
	commit = raw_format_field(&header, "commit");
	data = raw_format_field(&header, "data");
	if (!time || !commit || !data || time->size != 8 || commit->size > 8 ||
	    data->offset < commit->offset + commit->size)
		return bad_format(path, "not a timestamp, a commit and the data", "");
	buffer->time_offset = time->offset;
	buffer->commit_offset = commit->offset;
	buffer->commit_size = commit->size;
	buffer->data_offset = data->offset;
	buffer->page_size = data->offset + data->size;
	return 0;
}

int raw_buffer_open(struct raw_buffer *buffer, int instance_fd)
{
	struct dirent *entry;
	char path[sizeof(entry->d_name) + 32];
	unsigned int cpu;
	int fd, err;
	DIR *dir;

	memset(buffer, 0, sizeof(*buffer));
	for (cpu = 0; cpu < RAW_MAX_CPUS; cpu++)
		buffer->fds[cpu] = -1;
	err = read_page_layout(buffer, instance_fd);
	if (err)
		return err;
	fd = openat(instance_fd, "per_cpu", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dir = fd < 0 ? NULL : fdopendir(fd);
	if (!dir) {
		err = bad_format("per_cpu", "cannot be read", strerror(errno));
		if (fd >= 0)
			close(fd);
		return err;
	}
	/* fds[] by CPU number: records of the same time are taken lowest CPU first */
	while (!err && (entry = readdir(dir))) {
		if (sscanf(entry->d_name, "cpu%u", &cpu) != 1)
			continue;
		if (cpu >= RAW_MAX_CPUS) {
			err = bad_format("per_cpu", "more CPUs than fuzz_walk reads", entry->d_name);
			break;
		}
		snprintf(path, sizeof(path), "per_cpu/%s/trace_pipe_raw", entry->d_name);
		fd = openat(instance_fd, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			err = bad_format(path, "cannot be opened", strerror(errno));
			break;
		}
		buffer->fds[cpu] = fd;
		if (buffer->cpus <= cpu)
			buffer->cpus = cpu + 1;
	}
	closedir(dir);
	if (!err && !buffer->cpus)
		err = bad_format("per_cpu", "no CPU", "");
	if (err)
		raw_buffer_close(buffer);
	return err;
}

void raw_buffer_close(struct raw_buffer *buffer)
{
	unsigned int cpu;

	for (cpu = 0; cpu < buffer->cpus; cpu++)
		if (buffer->fds[cpu] >= 0)
			close(buffer->fds[cpu]);
	free(buffer->pages);
	free(buffer->page_sizes);
	free(buffer->records);
	memset(buffer, 0, sizeof(*buffer));
}

static int add_record(struct raw_buffer *buffer, uint64_t time,
		      const unsigned char *data, unsigned int size)
{
	if (buffer->count == buffer->room) {
		size_t room = buffer->room ? 2 * buffer->room : 256;
		struct raw_record *records = reallocarray(buffer->records, room,
							  sizeof(*records));

		if (!records)
			return -ENOMEM;
		buffer->records = records;
		buffer->room = room;
	}
	buffer->records[buffer->count++] = (struct raw_record){ time, data, size };
	return 0;
}

/*
 * The records of one page of @got bytes, after those of the pages before
 * it. A page that does not hold what its header says is -EBADMSG.
 */
static int parse_page(struct raw_buffer *buffer, const unsigned char *page, size_t got)
{
	unsigned long long commit = read_unsigned(page + buffer->commit_offset,
						  buffer->commit_size);
	const unsigned char *data = page + buffer->data_offset;
	size_t len = commit & ~MISSED_MASK, off = 0;
	uint64_t time;
	int err;

	if (commit & MISSED_EVENTS)
		return -EPROTO;
	if (len > got - buffer->data_offset)
		return -EBADMSG;
	memcpy(&time, page + buffer->time_offset, sizeof(time));
	while (off + 4 <= len) {
		uint32_t header, array0 = 0;
		unsigned int type_len, delta;
		size_t left = len - off - 4;	/* after the header */

		memcpy(&header, data + off, 4);
		type_len = header & ((1 << TYPE_LEN_BITS) - 1);
		delta = header >> TYPE_LEN_BITS;
		if (left >= 4)
			memcpy(&array0, data + off + 4, 4);
		if (type_len == TYPE_PADDING && !delta)
			break;		/* the rest of the page is empty */
		if (type_len >= TYPE_PADDING && left < 4)
			return -EBADMSG;
		if (type_len == TYPE_PADDING) {
			/* a discarded event: array[0] is its length */
			if (array0 > left)
				return -EBADMSG;
			off += 4 + array0;
		} else if (type_len == TYPE_TIME_EXTEND) {
			time += ((uint64_t)array0 << (32 - TYPE_LEN_BITS)) + delta;
			off += 8;
		} else if (type_len == TYPE_TIME_STAMP) {
			/*
			 * Absolute, in the low 59 bits only: enough for the
			 * counter clock, which never reaches the rest.
			 */
			time = ((uint64_t)array0 << (32 - TYPE_LEN_BITS)) + delta;
			off += 8;
		} else {
			/* type_len 0: the length, itself included, in array[0] */
			size_t start = type_len ? 4 : 8;
			size_t size = type_len ? 4 * type_len : array0 - 4;

			if (!type_len && (array0 < 4 || array0 > left))
				return -EBADMSG;
			if (type_len && size > left)
				return -EBADMSG;
			time += delta;
			err = add_record(buffer, time, data + off + start, size);
			if (err)
				return err;
			off += start + size;
		}
	}
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct raw_record *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	/* the same time: the order they were read in, a CPU's in its order */
	return x->data < y->data ? -1 : x->data > y->data;
}

int raw_buffer_drain(struct raw_buffer *buffer)
{
	unsigned int cpu, cpus_read = 0;
	size_t page;
	int err;

	buffer->page_count = buffer->count = 0;
	for (cpu = 0; cpu < buffer->cpus; cpu++) {
		size_t before = buffer->page_count;

		while (buffer->fds[cpu] >= 0) {
			ssize_t got;

			if (buffer->page_count == buffer->page_room) {
				size_t room = buffer->page_room ? 2 * buffer->page_room : 8;
				unsigned char *pages = reallocarray(buffer->pages, room,
								    buffer->page_size);
				size_t *sizes;

				if (!pages)
					return -ENOMEM;
				buffer->pages = pages;
				sizes = reallocarray(buffer->page_sizes, room, sizeof(*sizes));
				if (!sizes)
					return -ENOMEM;
				buffer->page_sizes = sizes;
				buffer->page_room = room;
			}
			got = read(buffer->fds[cpu],
				   buffer->pages + buffer->page_count * buffer->page_size,
				   buffer->page_size);
			if (got < 0 && errno == EAGAIN)
				break;
			if (got < 0)
				return -errno;
			if (!got)
				break;
			if ((size_t)got < buffer->data_offset)
				return -EBADMSG;
			buffer->page_sizes[buffer->page_count++] = got;
		}
		cpus_read += buffer->page_count > before;
	}
	/* parsed once all are read: reading may move the pages */
	for (page = 0; page < buffer->page_count; page++) {
		err = parse_page(buffer, buffer->pages + page * buffer->page_size,
				 buffer->page_sizes[page]);
		if (err)
			return err;
	}
	if (cpus_read > 1)
		qsort(buffer->records, buffer->count, sizeof(*buffer->records), by_time);
	return 0;
}
