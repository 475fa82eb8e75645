// SPDX-License-Identifier: GPL-2.0
/*
 * walkbench: what path walks cost, in instructions, for make bench.
 *
 * usage: walkbench [-n ITERATIONS] [-e EVENTS]
 *
 * Under QEMU's -icount shift=0 the guest's time stamp counter counts
 * executed instructions, identically from boot to boot: rdtsc around a
 * syscall gives the instructions it took (the two rdtsc's own included,
 * the same for every kernel). Each case is made ITERATIONS times (300 by
 * default) after a few unmeasured ones that fill the dcache; it prints the
 * median, min and max:
 *
 *   bench: mode=MODE case=CASE n=N median=M min=A max=B
 *
 * MODE is "off" (every namei event disabled, or a kernel without them),
 * "all" (every namei event enabled, written to the ring buffer, nobody
 * reading it), or the name of the one event enabled. With -e, the events
 * of EVENTS (comma-separated, or "all"; default none) are measured too, and
 * for each case the events one operation fires, by name:
 *
 *   bench: events case=CASE namei_link_push=40 namei_link_pop=40 ...
 *
 * The fixture, on a noatime tmpfs at /bench (so that no atime update takes
 * a walk out of RCU-walk, as on the relatime mounts most systems have once
 * their links have been read):
 *
 *   /bench/
 *   |-- file
 *   |-- l1 -> file, l2 -> l1, ... l41 -> l40     chain-N: stat("lN")
 *   |-- nK/n1 -> n2/., ... nK/nK -> dir          nested-K: stat("nK/n1/file"),
 *   |   `-- dir/file                             K frames on the stack
 *   |-- abs -> /bench/file                       an absolute link
 *   `-- root/                                    openat2(RESOLVE_IN_ROOT)
 *       |-- abs -> /dir/file                     of "abs" from root/
 *       `-- dir/file
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#define BENCH "/bench"
#define TRACEFS "/sys/kernel/tracing"
#define WARMUP 8
#define MAX_ITERATIONS 10000

#define MAX_EVENTS 32

/* The kernel's namei events, by name, from tracefs. */
static char events[MAX_EVENTS][64];
static unsigned int nr_events;

static int compare_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void find_events(void)
{
	DIR *dir = opendir(TRACEFS "/events/namei");
	struct dirent *entry;

	if (!dir)
		return;
	while ((entry = readdir(dir)) && nr_events < MAX_EVENTS)
		if (!strncmp(entry->d_name, "namei_", 6) &&
		    strlen(entry->d_name) < sizeof(events[0]))
			strcpy(events[nr_events++], entry->d_name);
	closedir(dir);
	qsort(events, nr_events, sizeof(events[0]), compare_names);
}

/* Whether name is one of the comma-separated names of list ("all": any). */
static int in_list(const char *list, const char *name)
{
	size_t len = strlen(name);

	if (!strcmp(list, "all"))
		return 1;
	for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, len) && (p[len] == ',' || p[len] == '\0'))
			return 1;
	return 0;
}

static void die(const char *what)
{
	fprintf(stderr, "walkbench: %s: %s\n", what, strerror(errno));
	exit(2);
}

static inline uint64_t instructions(void)
{
	uint32_t lo, hi;

	asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

static void make_link(const char *body, const char *link)
{
	if (symlink(body, link) != 0)
		die(link);
}

static void make_file(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY, 0644);

	if (fd < 0 || close(fd) != 0)
		die(path);
}

static void make_dir(const char *path)
{
	if (mkdir(path, 0755) != 0)
		die(path);
}

static void make_fixture(void)
{
	char link[64], body[64];

	if (mkdir(BENCH, 0755) != 0 && errno != EEXIST)
		die(BENCH);
	if (mount("walkbench", BENCH, "tmpfs", MS_NOATIME, "mode=0755") != 0)
		die("mount " BENCH);
	make_file(BENCH "/file");
	for (int i = 1; i <= 41; i++) {
		snprintf(link, sizeof(link), BENCH "/l%d", i);
		snprintf(body, sizeof(body), i == 1 ? "file" : "l%d", i - 1);
		make_link(body, link);
	}
	for (int depth = 3; depth <= 40; depth++) {
		if (depth != 3 && depth != 10 && depth != 40)
			continue;
		snprintf(link, sizeof(link), BENCH "/n%d", depth);
		make_dir(link);
		snprintf(link, sizeof(link), BENCH "/n%d/dir", depth);
		make_dir(link);
		snprintf(link, sizeof(link), BENCH "/n%d/dir/file", depth);
		make_file(link);
		for (int i = 1; i <= depth; i++) {
			snprintf(link, sizeof(link), BENCH "/n%d/n%d", depth, i);
			if (i == depth)
				snprintf(body, sizeof(body), "dir");
			else
				snprintf(body, sizeof(body), "n%d/.", i + 1);
			make_link(body, link);
		}
	}
	make_link(BENCH "/file", BENCH "/abs");
	make_dir(BENCH "/root");
	make_dir(BENCH "/root/dir");
	make_file(BENCH "/root/dir/file");
	make_link("/dir/file", BENCH "/root/abs");
}

enum op { STAT, OPENAT2_IN_ROOT };

struct bench_case {
	const char *name;
	enum op op;
	char path[64];
	int expect_errno;
};

static struct bench_case cases[32];
static int nr_cases;
static int root_fd = -1, magic_fd = -1;

static void add_case(const char *name, enum op op, const char *path, int expect_errno)
{
	struct bench_case *c = &cases[nr_cases++];

	c->name = name;
	c->op = op;
	snprintf(c->path, sizeof(c->path), "%s", path);
	c->expect_errno = expect_errno;
}

static void make_cases(void)
{
	static char names[16][24];
	static const int chain[] = { 0, 1, 2, 3, 8, 20, 40 };
	static const int nested[] = { 3, 10, 40 };
	char path[64];
	int n = 0;

	for (unsigned int i = 0; i < sizeof(chain) / sizeof(chain[0]); i++) {
		snprintf(names[n], sizeof(names[n]), "chain-%d", chain[i]);
		if (chain[i])
			snprintf(path, sizeof(path), BENCH "/l%d", chain[i]);
		else
			snprintf(path, sizeof(path), BENCH "/file");
		add_case(names[n++], STAT, path, 0);
	}
	for (unsigned int i = 0; i < sizeof(nested) / sizeof(nested[0]); i++) {
		snprintf(names[n], sizeof(names[n]), "nested-%d", nested[i]);
		snprintf(path, sizeof(path), BENCH "/n%d/n1/file", nested[i]);
		add_case(names[n++], STAT, path, 0);
	}
	add_case("eloop-41", STAT, BENCH "/l41", ELOOP);
	add_case("absolute", STAT, BENCH "/abs", 0);
	magic_fd = open(BENCH "/file", O_RDONLY);
	if (magic_fd < 0)
		die(BENCH "/file");
	snprintf(path, sizeof(path), "/proc/self/fd/%d", magic_fd);
	add_case("magic", STAT, path, 0);
	root_fd = open(BENCH "/root", O_PATH | O_DIRECTORY);
	if (root_fd < 0)
		die(BENCH "/root");
	add_case("openat2-in-root", OPENAT2_IN_ROOT, "abs", 0);
}

/* One operation; its result checked, so that a wrong walk is not timed. */
static uint64_t measure(const struct bench_case *c)
{
	struct open_how how = { .flags = O_RDONLY, .resolve = RESOLVE_IN_ROOT };
	uint64_t start, end;
	struct stat st;
	long ret;
	int err;

	if (c->op == STAT) {
		start = instructions();
		ret = stat(c->path, &st);
		end = instructions();
	} else {
		start = instructions();
		ret = syscall(SYS_openat2, root_fd, c->path, &how, sizeof(how));
		end = instructions();
	}
	err = ret < 0 ? errno : 0;
	if (err != c->expect_errno) {
		fprintf(stderr, "walkbench: %s %s: %s, not %s\n", c->name, c->path,
			strerror(err), c->expect_errno ? strerror(c->expect_errno) : "success");
		exit(2);
	}
	if (c->op == OPENAT2_IN_ROOT && close(ret) != 0)
		die("close");
	return end - start;
}

static int compare(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void run_case(const char *mode, const struct bench_case *c, int iterations)
{
	static uint64_t samples[MAX_ITERATIONS];

	for (int i = 0; i < WARMUP; i++)
		measure(c);
	for (int i = 0; i < iterations; i++)
		samples[i] = measure(c);
	qsort(samples, iterations, sizeof(samples[0]), compare);
	printf("bench: mode=%s case=%s n=%d median=%llu min=%llu max=%llu\n", mode,
	       c->name, iterations, (unsigned long long)samples[iterations / 2],
	       (unsigned long long)samples[0], (unsigned long long)samples[iterations - 1]);
	fflush(stdout);
}

static void write_tracefs(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY | O_TRUNC);
	ssize_t len = strlen(text);

	if (fd < 0 || write(fd, text, len) != len || close(fd) != 0)
		die(file);
}

/* Enable the events of one mode ("off", "all" or an event's name). */
static void set_events(const char *mode)
{
	char file[128];

	write_tracefs(TRACEFS "/events/namei/enable", "0\n");
	if (!strcmp(mode, "all")) {
		write_tracefs(TRACEFS "/events/namei/enable", "1\n");
	} else if (strcmp(mode, "off")) {
		snprintf(file, sizeof(file), TRACEFS "/events/namei/%s/enable", mode);
		write_tracefs(file, "1\n");
	}
}

/* The events one operation of c fires, by name, from the trace buffer. */
static void count_events(const struct bench_case *c, int tracing_on)
{
	unsigned int count[MAX_EVENTS] = { 0 };
	char line[512];
	FILE *trace;

	/*
	 * The buffer records only while the operation runs: the writes
	 * that switch it, to a file opened before, look nothing up.
	 */
	write_tracefs(TRACEFS "/tracing_on", "0\n");
	set_events("all");
	write_tracefs(TRACEFS "/trace", "");
	if (write(tracing_on, "1\n", 2) != 2)
		die(TRACEFS "/tracing_on");
	measure(c);
	if (write(tracing_on, "0\n", 2) != 2)
		die(TRACEFS "/tracing_on");
	set_events("off");
	write_tracefs(TRACEFS "/tracing_on", "1\n");
	trace = fopen(TRACEFS "/trace", "r");
	if (!trace)
		die(TRACEFS "/trace");
	while (fgets(line, sizeof(line), trace)) {
		if (line[0] == '#')
			continue;
		for (unsigned int i = 0; i < nr_events; i++) {
			char name[64];

			snprintf(name, sizeof(name), " %s: ", events[i]);
			if (strstr(line, name))
				count[i]++;
		}
	}
	if (fclose(trace) != 0)
		die(TRACEFS "/trace");
	printf("bench: events case=%s", c->name);
	for (unsigned int i = 0; i < nr_events; i++)
		printf(" %s=%u", events[i], count[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	const char *modes[MAX_EVENTS + 2];
	int iterations = 300, nr_modes = 0, opt, traced;
	char *list = NULL;

	while ((opt = getopt(argc, argv, "n:e:")) != -1) {
		switch (opt) {
		case 'n':
			iterations = atoi(optarg);
			break;
		case 'e':
			list = optarg;
			break;
		default:
			fprintf(stderr, "usage: walkbench [-n ITERATIONS] [-e EVENTS|all]\n");
			return 2;
		}
	}
	if (iterations < 1 || iterations > MAX_ITERATIONS) {
		fprintf(stderr, "walkbench: -n takes 1 to %d\n", MAX_ITERATIONS);
		return 2;
	}
	find_events();
	traced = nr_events > 0;
	modes[nr_modes++] = "off";
	if (list && traced) {
		modes[nr_modes++] = "all";
		for (unsigned int i = 0; i < nr_events; i++)
			if (in_list(list, events[i]))
				modes[nr_modes++] = events[i];
	}
	if (traced) {
		/* Room for the events of the largest case, all of them on. */
		write_tracefs(TRACEFS "/buffer_size_kb", "4096\n");
		set_events("off");
	}
	printf("bench: kernel namei events: %s\n", traced ? "yes" : "no");

	make_fixture();
	make_cases();
	for (int m = 0; m < nr_modes; m++) {
		if (traced)
			set_events(modes[m]);
		for (int i = 0; i < nr_cases; i++)
			run_case(modes[m], &cases[i], iterations);
		if (traced)
			set_events("off");
	}
	if (list && traced) {
		int tracing_on = open(TRACEFS "/tracing_on", O_WRONLY);

		if (tracing_on < 0)
			die(TRACEFS "/tracing_on");
		for (int i = 0; i < nr_cases; i++)
			count_events(&cases[i], tracing_on);
		if (close(tracing_on) != 0)
			die(TRACEFS "/tracing_on");
	}
	printf("bench: done\n");
	return 0;
}
