// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_walk's reader of trace_pipe_raw (model/fuzz/trace_raw.c), on a
 * made-up tracefs instance: pages laid out as the 6.12 ring buffer lays
 * them out, with each kind of event it writes (data, short and long; a
 * discarded one; a time extend; an absolute time stamp; the empty rest of
 * a page), two CPUs' records to be put in the order of their times, a page
 * that lost events; and two namei events' format files as the guest's
 * kernel prints them, with each form of value their lines print. The
 * guest's fuzzer holds the records of its first calls to the trace file's
 * lines.
 *
 * usage: trace_raw_test. Prints KTAP; exits 1 on any failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest.h"
#include "fuzz/trace_raw.h"

#define PAGE		4096
#define DATA		16	/* where a page's events begin */
#define TIME_SHIFT	27	/* a time extend's low bits are in its header */

static char dir[] = "/tmp/trace_raw_test.XXXXXX";

static void write_file(const char *name, const void *bytes, size_t len)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, bytes, len) != (ssize_t)len || close(fd))
		ksft_exit_fail_msg("writing %s: %s\n", path, strerror(errno));
}

/* A page: its time, then the events put() and the others append. */
struct page {
	unsigned char bytes[PAGE];
	size_t len;		/* of its events */
	unsigned long long commit_flags;
};

static void put_word(struct page *p, uint32_t word)
{
	memcpy(p->bytes + DATA + p->len, &word, 4);
	p->len += 4;
}

/* A data event of @words words, its first byte @tag. */
static void put(struct page *p, unsigned int delta, unsigned int words, unsigned char tag)
{
	if (words <= 28) {
		put_word(p, words | delta << 5);
	} else {
		/* type_len 0: array[0] counts itself */
		put_word(p, delta << 5);
		put_word(p, 4 * words + 4);
	}
	memset(p->bytes + DATA + p->len, 0, 4 * words);
	p->bytes[DATA + p->len] = tag;
	p->len += 4 * words;
}

static void put_time(struct page *p, unsigned int type, unsigned long long time)
{
	put_word(p, type | (time & ((1 << TIME_SHIFT) - 1)) << 5);
	put_word(p, time >> TIME_SHIFT);
}

/* A discarded event: padding of its length (array[0]), its delta not 0. */
static void put_discarded(struct page *p, unsigned int words)
{
	put_word(p, 29 | 1 << 5);
	put_word(p, 4 * words);
	p->len += 4 * words - 4;
}

static void page_start(struct page *p, unsigned long long time)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->bytes, &time, 8);
}

/*
 * Its commit word; then, inside the length it commits, the empty rest of
 * the page: a padding event of time delta 0, as rb_reset_tail() writes one
 * where no event fits. Whatever a reader made of what follows would be
 * an error: the page is zeroes after it.
 */
static void page_end(struct page *p)
{
	unsigned long long commit;

	put_word(p, 29);
	p->len += 16;
	commit = p->len | p->commit_flags;
	memcpy(p->bytes + 8, &commit, 8);
}

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

static int open_buffer(struct raw_buffer *buffer)
{
	char path[512];
	int fd, err;

	snprintf(path, sizeof(path), "%s/instance", dir);
	fd = open(path, O_PATH | O_DIRECTORY);
	if (fd < 0)
		ksft_exit_fail_msg("open %s: %s\n", path, strerror(errno));
	err = raw_buffer_open(buffer, fd);
	close(fd);
	return err;
}

static const struct raw_record *tagged(const struct raw_buffer *buffer, char tag)
{
	size_t i;

	for (i = 0; i < buffer->count; i++)
		if (buffer->records[i].data[0] == tag)
			return buffer->records + i;
	ksft_exit_fail_msg("no record tagged %c\n", tag);
}

static unsigned long long record_time(const struct raw_buffer *buffer, char tag)
{
	return tagged(buffer, tag)->time;
}

static unsigned int record_size(const struct raw_buffer *buffer, char tag)
{
	return tagged(buffer, tag)->size;
}

/* Drain the instance's buffers as they are now, for what it returns. */
static int drain_again(void)
{
	struct raw_buffer buffer;
	int err = open_buffer(&buffer);

	if (!err)
		err = raw_buffer_drain(&buffer);
	raw_buffer_close(&buffer);
	return err;
}

static void test_records(void)
{
	static const unsigned long long big = 1ULL << TIME_SHIFT;
	static unsigned char two_pages[2 * PAGE];
	struct raw_buffer buffer;
	struct page cpu0[2], cpu1;
	char tags[8] = "";
	bool ok;
	size_t i;
	int err;

	/* cpu0: 101, 103, big + 104, then on its next page big + 105 */
	page_start(cpu0, 100);
	put(cpu0, 1, 3, 'a');
	put_discarded(cpu0, 5);
	put(cpu0, 2, 40, 'c');		/* longer than 28 words */
	put_time(cpu0, 30, big + 1);	/* an extend: the next event's delta 0 */
	put(cpu0, 0, 1, 'e');
	page_end(cpu0);
	page_start(cpu0 + 1, big + 104);
	put(cpu0 + 1, 1, 2, 'g');
	page_end(cpu0 + 1);
	/* cpu1: 102, big + 105 (cpu0's last time too), big + 201 */
	page_start(&cpu1, 100);
	put(&cpu1, 2, 2, 'b');
	put_time(&cpu1, 30, big + 3);
	put(&cpu1, 0, 2, 'h');
	put_time(&cpu1, 31, big + 200);	/* absolute */
	put(&cpu1, 1, 2, 'i');
	page_end(&cpu1);
	memcpy(two_pages, cpu0[0].bytes, PAGE);
	memcpy(two_pages + PAGE, cpu0[1].bytes, PAGE);
	/* Regular files: read() ends at their end, not with EAGAIN. */
	write_file("instance/per_cpu/cpu0/trace_pipe_raw", two_pages, 2 * PAGE);
	write_file("instance/per_cpu/cpu1/trace_pipe_raw", cpu1.bytes, PAGE);

	err = open_buffer(&buffer);
	ksft_test_result(!err && buffer.cpus == 2 && buffer.page_size == PAGE,
			 "raw_buffer_open: the instance's two CPUs, pages of %d bytes (%s)\n",
			 PAGE, strerror(-err));
	if (err)
		ksft_exit_fail_msg("no buffers to read\n");
	err = raw_buffer_drain(&buffer);
	ok = !err && buffer.count == 7;
	ksft_test_result(ok, "raw_buffer_drain: 7 records of 2 CPUs' 3 pages (%zu, %s)\n",
			 buffer.count, strerror(-err));
	if (!ok)
		ksft_exit_fail_msg("no records to check\n");
	for (i = 0; i < buffer.count; i++)
		tags[i] = buffer.records[i].data[0];
	ksft_test_result(!strcmp(tags, "abceghi"), "the records in the order of their "
			 "times, in CPU order at the same time (%s)\n", tags);
	ok = record_time(&buffer, 'a') == 101 && record_time(&buffer, 'b') == 102 &&
		record_time(&buffer, 'c') == 103 && record_time(&buffer, 'e') == big + 104 &&
		record_time(&buffer, 'g') == big + 105 && record_time(&buffer, 'h') == big + 105 &&
		record_time(&buffer, 'i') == big + 201;
	ksft_test_result(ok, "times: the page's plus each event's delta, a time extend's, "
			 "an absolute one\n");
	ok = record_size(&buffer, 'a') == 12 && record_size(&buffer, 'c') == 160;
	ksft_test_result(ok, "sizes: a short event's from its type_len, a long one's from "
			 "its array[0]\n");
	raw_buffer_close(&buffer);

	cpu1.commit_flags = 1ULL << 31;
	cpu1.len -= 20;
	page_end(&cpu1);
	write_file("instance/per_cpu/cpu1/trace_pipe_raw", cpu1.bytes, PAGE);
	err = drain_again();
	ksft_test_result(err == -EPROTO, "a page that lost events: -EPROTO (%s)\n",
			 strerror(-err));

	/* local_t is 8 bytes (header_page): all of them are its commit */
	cpu1.commit_flags = 1ULL << 32;
	cpu1.len -= 20;
	page_end(&cpu1);
	write_file("instance/per_cpu/cpu1/trace_pipe_raw", cpu1.bytes, PAGE);
	err = drain_again();
	ksft_test_result(err == -EBADMSG, "a commit word read whole: a length past the page "
			 "in its high bytes is -EBADMSG (%s)\n", strerror(-err));
}

/* As the guest's kernel prints them (events/namei/NAME/format). */
#define COMMON_FIELDS							\
	"format:\n"							\
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"	\
	"\n"

static const char link_pop_format[] =
	"name: namei_link_pop\n"
	"ID: 265\n"
	COMMON_FIELDS
	"\tfield:unsigned int level;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] link;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:int depth;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:int links;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int flags;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:void * done;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:int reason;\toffset:40;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"level=%u depth=%d links=%d link=\"%s\" reason=%s done=%ps mode=%s\", "
	"REC->level, REC->depth, REC->links, __get_str(link), __print_symbolic(REC->reason, "
	"{ 0, \"walked\" }, { 1, \"terminate\" }, { 2, \"unlazy\" }, { 3, \"cached\" }), "
	"REC->done, ((REC->flags) & 0x0040 ? \"rcu\" : \"ref\")\n";

static const char lookup_start_format[] =
	"name: namei_lookup_start\n"
	"ID: 269\n"
	COMMON_FIELDS
	"\tfield:unsigned int level;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:int attempt;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] name;\toffset:16;\tsize:4;\tsigned:0;\n"
	"\tfield:int dfd;\toffset:20;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned int flags;\toffset:24;\tsize:4;\tsigned:0;\n"
	"\tfield:int links;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int error;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"level=%u attempt=%s name=\"%s\" dfd=%d flags=%s links=%d error=%d\", "
	"REC->level, __print_symbolic(REC->attempt, { 0, \"rcu\" }, { 1, \"ref\" }, "
	"{ 2, \"reval\" }), __get_str(name), REC->dfd, __print_flags(REC->flags, \"|\", "
	"{ 0x0001, \"FOLLOW\" }, { 0x0002, \"DIRECTORY\" }, { 0x0040, \"RCU\" }), "
	"REC->links, REC->error\n";

/* A symbol whose quotes hold what would end a value outside them. */
static const char quoted_format[] =
	"name: y\nID: 8\n"
	COMMON_FIELDS
	"\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int b;\toffset:12;\tsize:4;\tsigned:1;\n"
	"print fmt: \"a=%s b=%d\", __print_symbolic(REC->a, { 0, \"x)}, y\" }), REC->b\n";

/* Two keys, one value. */
static const char bad_format[] =
	"name: x\nID: 7\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
	"print fmt: \"a=%d b=%d\", REC->a\n";

static bool has_keys(const struct raw_format *format, const char *const *keys,
		     const enum raw_arg_kind *kinds, unsigned int count)
{
	unsigned int i;

	if (format->arg_count != count)
		return false;
	for (i = 0; i < count; i++)
		if (strcmp(format->args[i].key, keys[i]) || format->args[i].kind != kinds[i])
			return false;
	return true;
}

static int load(struct raw_format *format, const char *text)
{
	char path[512];

	write_file("format", text, strlen(text));
	snprintf(path, sizeof(path), "%s/format", dir);
	return raw_format_load(format, path);
}

static void test_formats(void)
{
	static const char *const pop_keys[] = {
		"level", "depth", "links", "link", "reason", "done", "mode",
	};
	static const enum raw_arg_kind pop_kinds[] = {
		RAW_FIELD, RAW_FIELD, RAW_FIELD, RAW_STRING, RAW_SYMBOLIC, RAW_FIELD,
		RAW_TERNARY,
	};
	static const char *const start_keys[] = {
		"level", "attempt", "name", "dfd", "flags", "links", "error",
	};
	static const enum raw_arg_kind start_kinds[] = {
		RAW_FIELD, RAW_SYMBOLIC, RAW_STRING, RAW_FIELD, RAW_OTHER, RAW_FIELD, RAW_FIELD,
	};
	unsigned char data[64] = { 0 };
	struct raw_record record = { .data = data, .size = 44 + 8 };
	struct raw_format format;
	const struct raw_arg *a;
	char text[8];
	bool ok;
	int err;

	err = load(&format, link_pop_format);
	ok = !err && format.id == 265 && format.field_count == 11 && format.min_size == 44 &&
		has_keys(&format, pop_keys, pop_kinds, 7);
	ksft_test_result(ok, "namei_link_pop's format: its ID, 11 fields, a record's least "
			 "size, each key with the form of its value (%s)\n", strerror(-err));
	if (!ok)
		ksft_exit_fail_msg("no format to read records with\n");
	a = format.args;
	ok = a[3].field->data_loc && a[3].field->offset == 12 && a[4].symbol_count == 4 &&
		a[4].symbols[3].value == 3 && !strcmp(a[4].symbols[3].name, "cached") &&
		a[6].mask == 0x40 && !strcmp(a[6].if_set, "rcu") && !strcmp(a[6].if_clear, "ref");
	ksft_test_result(ok, "a string's __data_loc field, 4 symbols and their values, a "
			 "mask of 0x40 and its two words\n");

	memcpy(data + 8, &(uint32_t){ 0xffffffff }, 4);	/* level */
	memcpy(data + 12, &(uint32_t){ 6 << 16 | 44 }, 4);	/* link: 6 bytes at 44 */
	memcpy(data + 16, &(int32_t){ -2 }, 4);		/* depth */
	memcpy(data + 24, &(uint32_t){ 0x41 }, 4);		/* flags */
	memcpy(data + 40, &(int32_t){ 1 }, 4);			/* reason */
	memcpy(data + 44, "abcdef", 6);
	ok = raw_field_value(a[0].field, &record) == 0xffffffffLL &&
		raw_field_value(a[1].field, &record) == -2;
	ksft_test_result(ok, "raw_field_value: an unsigned and a signed field\n");
	ok = !strcmp(raw_arg_text(a + 3, &record, text, sizeof(text)), "abcdef") &&
		!strcmp(raw_arg_text(a + 3, &record, text, 4), "abc") &&
		!strcmp(raw_arg_text(a + 4, &record, text, sizeof(text)), "terminate") &&
		!strcmp(raw_arg_text(a + 6, &record, text, sizeof(text)), "rcu");
	memcpy(data + 40, &(int32_t){ 7 }, 4);
	memcpy(data + 24, &(uint32_t){ 0x01 }, 4);
	ok = ok && !strcmp(raw_arg_text(a + 4, &record, text, sizeof(text)), "0x7") &&
		!strcmp(raw_arg_text(a + 6, &record, text, sizeof(text)), "ref");
	ksft_test_result(ok, "raw_arg_text: a string (and cut), a symbol (and a value "
			 "without one), each side of a flag's test\n");
	memcpy(data + 12, &(uint32_t){ 60 << 16 | 44 }, 4);
	ok = !strcmp(raw_arg_text(a + 3, &record, text, sizeof(text)), "");
	ksft_test_result(ok, "a string said to run past its record reads as empty\n");

	err = load(&format, lookup_start_format);
	ok = !err && format.id == 269 && has_keys(&format, start_keys, start_kinds, 7);
	ksft_test_result(ok, "namei_lookup_start's format: the values after __print_flags() "
			 "with its \"|\" and braces still each with their key (%s)\n",
			 strerror(-err));

	err = load(&format, quoted_format);
	ok = !err && format.arg_count == 2 && format.args[0].kind == RAW_SYMBOLIC &&
		!strcmp(format.args[0].symbols[0].name, "x)}, y") &&
		format.args[1].kind == RAW_FIELD;
	ksft_test_result(ok, "a parenthesis, a brace and a comma inside quotes end no value (%s)\n",
			 strerror(-err));

	ksft_print_msg("a format that must not load, which says why on stderr:\n");
	err = load(&format, bad_format);
	ksft_test_result(err == -EPROTO, "a print fmt with fewer values than keys: "
			 "-EPROTO (%s)\n", strerror(-err));
}

int main(void)
{
	static const char *const made[] = {
		"instance", "instance/events", "instance/per_cpu", "instance/per_cpu/cpu0",
		"instance/per_cpu/cpu1",
	};
	char path[512];
	size_t i;

	ksft_print_header();
	ksft_set_plan(15);
	if (!mkdtemp(dir))
		ksft_exit_fail_msg("mkdtemp: %s\n", strerror(errno));
	for (i = 0; i < sizeof(made) / sizeof(made[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, made[i]);
		if (mkdir(path, 0755))
			ksft_exit_fail_msg("mkdir %s: %s\n", path, strerror(errno));
	}
	write_file("instance/events/header_page", header_page, strlen(header_page));
	test_records();
	test_formats();
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		ksft_print_msg("could not remove %s\n", dir);
	ksft_finished();
}
