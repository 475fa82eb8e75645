// SPDX-License-Identifier: GPL-2.0
/*
 * race_walk: lookups racing with renames on another CPU, each answer held
 * to what the model of the walk (model/) gives for one of the trees the
 * lookup could have seen.
 *
 * usage: race_walk [-t SECONDS] [-s SEED] [-d DIR]
 *
 * It needs root and two CPUs, and skips otherwise. In a scratch root of its
 * own (a tmpfs, noatime, chrooted into: see tree_enter_scratch()) it
 * builds one tree, four entries of which a racer thread, pinned to one
 * CPU, flips at random while a walker thread, pinned to the other, makes
 * lookups through a chain of 30 links, nested links, absolute and relative
 * links and "..", as stat, lstat and openat2() with RESOLVE_NO_SYMLINKS,
 * RESOLVE_BENEATH and RESOLVE_IN_ROOT:
 *
 *	dir <-> dir.away	a directory renamed away and back
 *	x1 <-> x2		two directories exchanged (RENAME_EXCHANGE)
 *	l <-> l.alt		two links exchanged: l -> x1/one, l.alt -> /x2/two
 *	f			a hard link to keep, unlinked and made again
 *
 * No path looks up two names of one flip, so that whenever each part of a
 * lookup happens, its answer is one the model gives for one of the 16
 * states of the tree: the walker's answers must be among those. Besides,
 * EAGAIN only from RESOLVE_BENEATH and RESOLVE_IN_ROOT lookups through ".."
 * (handle_dots() gives up when a rename ran), and never ECHILD.
 *
 * Then the same lookups race a mount churn: a process in a mount namespace
 * of its own, on the other CPU, mounts a tmpfs on x1 and unmounts it, over
 * and over. The walker's tree does not change (the mounts are in the other
 * namespace), but mount_lock, one sequence count for the whole system,
 * does: every RCU-walk that legitimizes its mounts after a mount ran gives
 * up and runs again in REF-walk. The answers must not change.
 *
 * With the namei events (a tracefs instance of its own), it counts the
 * walker's lookups that ran again in REF-walk, which proves the race was
 * run, and checks each name that an event of the walker reports (a link,
 * a jump's target): it must be one the test made or, for a name copied
 * while a rename changed it, a non-empty prefix of one.
 *
 * Prints TAP; exits non-zero on a wrong answer or name.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "kernel.h"
#include "kernel_trace.h"
#include "tree.h"
#include "walk.h"

#define DEFAULT_SECONDS	3
#define CHURN_SECONDS	2
#define WATCH_PAUSE_MS	1	/* after a read that found no full page */
#define CHAIN		30
#define STATES		(1 << FLIP_COUNT)
#define MAX_WRONG_SHOWN	5

static const char base_tree[] =
	"dir/\ndir/f\ndir/sub/\n"
	"x1/\nx1/one\nx2/\nx2/two\n"
	"keep\n"
	"n1 -> n2/.\nn2 -> n3/.\nn3 -> dir\n"
	"l -> x1/one\nl.alt -> /x2/two\n"
	"a -> /dir\n"
	"up -> dir/sub/..\n";

/* Names the test makes beyond the tree's: the other sides of the flips. */
static const char *const extra_names[] = { "dir.away", "f", "/" };

enum flip { FLIP_DIR, FLIP_X, FLIP_L, FLIP_F, FLIP_COUNT };

/* Where a lookup starts. */
enum start { START_ROOT, START_DIR, START_COUNT };

struct lookup_case {
	enum start start;
	const char *path;
	bool dotdot;		/* through "..", in the path or a body */
};

static const struct lookup_case cases[] = {
	{ START_ROOT, "c30/f", false },
	{ START_ROOT, "c30/sub/../f", true },
	{ START_ROOT, "c20/../f", true },
	{ START_ROOT, "n1/f", false },
	{ START_ROOT, "n1/sub/..", true },
	{ START_ROOT, "l", false },
	{ START_ROOT, "a/f", false },
	{ START_ROOT, "a/sub/../f", true },
	{ START_ROOT, "up/f", true },
	{ START_ROOT, "x1/one", false },
	{ START_ROOT, "x2/../keep", true },
	{ START_ROOT, "f", false },
	{ START_ROOT, "dir/sub/../../f", true },
	{ START_DIR, "sub/../f", true },
	{ START_DIR, "../keep", true },
	{ START_DIR, "f", false },
};
#define CASES ARRAY_SIZE(cases)

static const struct {
	const char *name;
	unsigned int flags;
} ops[] = {
	{ "stat", LOOKUP_FOLLOW },
	{ "lstat", 0 },
	{ "openat2-no-symlinks", LOOKUP_FOLLOW | LOOKUP_NO_SYMLINKS },
	{ "openat2-beneath", LOOKUP_FOLLOW | LOOKUP_BENEATH },
	{ "openat2-in-root", LOOKUP_FOLLOW | LOOKUP_IN_ROOT },
};
#define OPS ARRAY_SIZE(ops)

struct answer {
	int err;
	dev_t dev;
	ino_t ino;
};

/* The answers the model gives a lookup in the states of the tree. */
struct answers {
	unsigned int count;
	struct answer answer[STATES];
};

static struct answers allowed[CASES][OPS];
static int start_fd[START_COUNT];
static bool state[FLIP_COUNT];		/* false: as built */
static struct tree tree;		/* as built; its names stay known */
static const char **known_names;
static size_t known_count;
static uint64_t walker_rng;

/* splitmix64, a state per thread */
static uint64_t rng_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int flip(enum flip which)
{
	int err = 0;

	switch (which) {
	case FLIP_DIR:
		err = state[which] ? rename("dir.away", "dir") : rename("dir", "dir.away");
		break;
	case FLIP_X:
		err = renameat2(AT_FDCWD, "x1", AT_FDCWD, "x2", RENAME_EXCHANGE);
		break;
	case FLIP_L:
		err = renameat2(AT_FDCWD, "l", AT_FDCWD, "l.alt", RENAME_EXCHANGE);
		break;
	case FLIP_F:
		err = state[which] ? link("keep", "f") : unlink("f");
		break;
	default:
		abort();
	}
	if (err)
		return -errno;
	state[which] = !state[which];
	return 0;
}

static void set_state(unsigned int bits)
{
	enum flip which;
	int err;

	for (which = 0; which < FLIP_COUNT; which++) {
		if (state[which] == !!(bits & (1u << which)))
			continue;
		err = flip(which);
		if (err)
			ksft_exit_fail_msg("flip %d: %s\n", which, strerror(-err));
	}
}

static bool same(const struct answer *a, const struct answer *b)
{
	return a->err == b->err && (a->err || (a->dev == b->dev && a->ino == b->ino));
}

static bool is_allowed(const struct answers *set, const struct answer *a)
{
	unsigned int i;

	for (i = 0; i < set->count; i++)
		if (same(set->answer + i, a))
			return true;
	return false;
}

static struct answer kernel_answer(const struct lookup_case *c, unsigned int op)
{
	struct answer a = { 0 };
	struct stat st;

	a.err = kernel_resolve(start_fd[c->start], c->path, ops[op].flags, &st);
	if (!a.err) {
		a.dev = st.st_dev;
		a.ino = st.st_ino;
	}
	return a;
}

static struct answer model_answer(const struct lookup_case *c, unsigned int op)
{
	struct walk_result res;
	struct answer a = { 0 };

	a.err = walk_resolve(start_fd[c->start], c->path, ops[op].flags, &res, NULL);
	if (!a.err) {
		a.dev = res.st.st_dev;
		a.ino = res.st.st_ino;
		if (close(res.fd))
			ksft_exit_fail_msg("close: %s\n", strerror(errno));
	}
	return a;
}

static const char *answer_name(const struct answer *a)
{
	static char buf[64];

	if (a->err)
		return strerrorname_np(-a->err);
	snprintf(buf, sizeof(buf), "ok ino=%lu", (unsigned long)a->ino);
	return buf;
}

/*
 * The model's answers in each state of the tree, and, with no race yet,
 * the kernel's: they must agree. Return the number of disagreements.
 */
static unsigned int compute_allowed(unsigned long *checked)
{
	unsigned int bits, i, op, wrong = 0;

	for (bits = 0; bits < STATES; bits++) {
		set_state(bits);
		for (i = 0; i < CASES; i++) {
			for (op = 0; op < OPS; op++) {
				struct answers *set = &allowed[i][op];
				struct answer model = model_answer(cases + i, op);
				struct answer kernel = kernel_answer(cases + i, op);

				if (!same(&model, &kernel) && wrong++ < MAX_WRONG_SHOWN)
					ksft_print_msg("state %u, %s of %s%s: kernel %s, model %s\n",
						       bits, ops[op].name,
						       cases[i].start == START_DIR ? "dir/" : "/",
						       cases[i].path, answer_name(&kernel),
						       answer_name(&model));
				(*checked)++;
				if (!is_allowed(set, &model))
					set->answer[set->count++] = model;
			}
		}
	}
	set_state(0);
	return wrong;
}

static void learn_names(void)
{
	size_t i;

	known_count = tree.count + ARRAY_SIZE(extra_names);
	known_names = calloc(known_count, sizeof(*known_names));
	if (!known_names)
		ksft_exit_fail_msg("out of memory\n");
	for (i = 0; i < tree.count; i++) {
		const char *slash = strrchr(tree.nodes[i].path, '/');

		known_names[i] = slash ? slash + 1 : tree.nodes[i].path;
	}
	for (i = 0; i < ARRAY_SIZE(extra_names); i++)
		known_names[tree.count + i] = extra_names[i];
}

/* A name the test made, or (torn by a rename) a non-empty prefix of one. */
static bool known_name(const char *name)
{
	size_t i, len = strlen(name);

	for (i = 0; len && i < known_count; i++)
		if (!strncmp(known_names[i], name, len))
			return true;
	return false;
}

static void build_tree(void)
{
	char listing[4096], line[64];
	int i, root, err;

	snprintf(listing, sizeof(listing), "%s", base_tree);
	for (i = 1; i <= CHAIN; i++) {
		snprintf(line, sizeof(line), i == 1 ? "c%d -> dir\n" : "c%d -> c%d\n",
			 i, i - 1);
		strncat(listing, line, sizeof(listing) - strlen(listing) - 1);
	}
	err = tree_parse(&tree, listing);
	root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (!err && root >= 0)
		err = tree_build(&tree, root);
	if (err || root < 0)
		ksft_exit_fail_msg("building the tree: %s\n", strerror(err ? -err : errno));
	if (link("keep", "f"))
		ksft_exit_fail_msg("link keep f: %s\n", strerror(errno));
	learn_names();
	start_fd[START_ROOT] = root;
	start_fd[START_DIR] = open("dir", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (start_fd[START_DIR] < 0)
		ksft_exit_fail_msg("open dir: %s\n", strerror(errno));
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

struct racer {
	int cpu;
	uint64_t rng;
	atomic_bool stop;
	unsigned long flips;
	int err;
};

static void *race(void *arg)
{
	struct racer *r = arg;

	r->err = -pin(r->cpu);
	while (!r->err && !atomic_load(&r->stop)) {
		r->err = flip(rng_next(&r->rng) % FLIP_COUNT);
		r->flips++;
	}
	return NULL;
}

/* What the events of the walker said, read while the race runs. */
struct watcher {
	struct kernel_trace *trace;
	pid_t walker;
	atomic_bool stop;
	unsigned long lookups, restarts, names, unnamed_pops, lost;
	unsigned long bad_names;
	char first_bad[128];
	int err;
};

static void watch_event(struct watcher *w, const struct namei_event *e)
{
	static const char *const named[] = {
		"link_push", "link_pop", "eloop", "jump_root", "jump_link",
	};
	size_t i;

	if (!strcmp(e->type, "lookup_start") && !e->level) {
		w->lookups++;
		w->restarts += strcmp(e->attempt, "rcu") != 0;
	}
	for (i = 0; i < ARRAY_SIZE(named); i++)
		if (!strcmp(e->type, named[i]))
			break;
	/* a jump to the root before the walk has one names none */
	if (i == ARRAY_SIZE(named) || (!e->link[0] && !strcmp(e->type, "jump_root")))
		return;
	/*
	 * nor does the frame whose mount could not be legitimized (a mount
	 * ran): it holds no dentry when terminate_walk() pops it
	 */
	if (!e->link[0] && !strcmp(e->type, "link_pop") && !strcmp(e->reason, "terminate")) {
		w->unnamed_pops++;
		return;
	}
	w->names++;
	if (!known_name(e->link) && !w->bad_names++)
		trace_event_format(e, w->first_bad, sizeof(w->first_bad));
}

/*
 * Read the walker's events as they come until told to stop, and then (the
 * instance recording no more) until all are read.
 */
static void *watch(void *arg)
{
	struct trace_lookup events = { 0 };
	struct watcher *w = arg;
	unsigned int i;
	bool stopping, full;
	int pages;

	for (;;) {
		stopping = atomic_load(&w->stop);
		pages = kernel_trace_read(w->trace, w->walker, &events, &w->lost, &full);
		if (pages < 0) {
			w->err = pages;
			break;
		}
		for (i = 0; i < events.count; i++)
			watch_event(w, events.events + i);
		if (stopping && !pages)
			break;
		/* a page the writer still fills: let it fill a while */
		if (!full && !stopping)
			usleep(WATCH_PAUSE_MS * 1000);
	}
	trace_lookup_free(&events);
	return NULL;
}

struct tally {
	unsigned long lookups, wrong, eagain;
};

static void walk_until(const struct timespec *end, struct tally *t)
{
	struct timespec now;
	unsigned int i, op;

	do {
		for (int n = 0; n < 64; n++) {
			i = rng_next(&walker_rng) % CASES;
			op = rng_next(&walker_rng) % OPS;
			struct answer a = kernel_answer(cases + i, op);
			bool scoped = ops[op].flags & (LOOKUP_BENEATH | LOOKUP_IN_ROOT);

			t->lookups++;
			if (a.err == -EAGAIN && scoped && cases[i].dotdot) {
				t->eagain++;
				continue;
			}
			if (is_allowed(&allowed[i][op], &a))
				continue;
			if (t->wrong++ < MAX_WRONG_SHOWN)
				ksft_print_msg("wrong: %s of %s%s gave %s\n", ops[op].name,
					       cases[i].start == START_DIR ? "dir/" : "/",
					       cases[i].path, answer_name(&a));
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec < end->tv_sec ||
		 (now.tv_sec == end->tv_sec && now.tv_nsec < end->tv_nsec));
}

/*
 * A process in a mount namespace of its own, on cpu, mounting a tmpfs on x1
 * and unmounting it until killed; *rounds counts the pairs. Its exit
 * status says why it stopped early: 1, no namespace of its own; 2, a
 * mount or umount failed.
 */
static pid_t start_mount_churn(int cpu, unsigned long *rounds)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	if (pin(cpu) || unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		_exit(1);
	for (;;) {
		if (mount("churn", "/x1", "tmpfs", 0, "") || umount("/x1"))
			_exit(2);
		__atomic_add_fetch(rounds, 1, __ATOMIC_RELAXED);
	}
}

/* The walker's lookups beside a mount churn: a TAP result. */
static void race_mount_churn(const int cpus[2])
{
	struct tally tally = { 0 };
	unsigned long *rounds;
	struct timespec end;
	int status;
	pid_t churner;

	rounds = mmap(NULL, sizeof(*rounds), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rounds == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	*rounds = 0;
	fflush(stdout);
	churner = start_mount_churn(cpus[1], rounds);
	if (churner < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += CHURN_SECONDS;
	walk_until(&end, &tally);
	if (kill(churner, SIGKILL) || waitpid(churner, &status, 0) != churner)
		ksft_exit_fail_msg("stopping the mount churn: %s\n", strerror(errno));
	/* Wrong answers fail, whatever the churner did. */
	if (!tally.wrong && WIFEXITED(status))
		ksft_test_result_skip("race, mount churn: the churner stopped: %s\n",
				      WEXITSTATUS(status) == 1 ? "no mount namespace of its own" :
				      "a mount or umount failed");
	else if (!tally.wrong && !*rounds)
		ksft_test_result_skip("race, mount churn: the churner made no progress\n");
	else
		ksft_test_result(!tally.wrong, "race, mount churn: %lu lookups beside %lu mounts "
				 "and umounts in another mount namespace in %u s, %lu wrong "
				 "answers\n", tally.lookups, *rounds, CHURN_SECONDS, tally.wrong);
}

/* The first two CPUs this task may run on; false if there are fewer. */
static bool two_cpus(int cpus[2])
{
	cpu_set_t set;
	int cpu, found = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return false;
	for (cpu = 0; cpu < CPU_SETSIZE && found < 2; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[found++] = cpu;
	return found == 2;
}

/* The child of kernel_trace_fork(): the race, in a scratch root at @dir. */
static void run(const char *dir, struct kernel_trace *trace, void *arg)
{
	unsigned int seconds = *(unsigned int *)arg;
	struct watcher watcher = { .trace = trace, .walker = getpid() };
	unsigned long checked = 0;
	struct tally tally = { 0 };
	struct racer racer;
	pthread_t racer_thread, watcher_thread;
	struct timespec end;
	unsigned int wrong;
	const char *step;
	int cpus[2], err;

	ksft_print_header();
	if (!two_cpus(cpus))
		ksft_exit_skip("the race needs two CPUs, this task may use one\n");
	err = tree_enter_scratch(dir, &step);
	if (err == -EPERM)
		ksft_exit_skip("%s needs CAP_SYS_ADMIN: run as root\n", step);
	if (err)
		ksft_exit_fail_msg("%s on %s: %s\n", step, dir, strerror(-err));
	ksft_set_plan(5);
	build_tree();

	wrong = compute_allowed(&checked);
	ksft_test_result(!wrong, "static: %lu answers in %u states, %u where the kernel "
			 "and the model differ\n", checked, STATES, wrong);

	racer = (struct racer){ .cpu = cpus[1], .rng = ~walker_rng };
	if (pin(cpus[0]) || pthread_create(&racer_thread, NULL, race, &racer))
		ksft_exit_fail_msg("starting the racer: %s\n", strerror(errno));
	if (trace && pthread_create(&watcher_thread, NULL, watch, &watcher))
		ksft_exit_fail_msg("starting the watcher: %s\n", strerror(errno));
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += seconds;
	walk_until(&end, &tally);
	atomic_store(&racer.stop, true);
	if (pthread_join(racer_thread, NULL) || racer.err)
		ksft_exit_fail_msg("the racer: %s\n", strerror(-racer.err));
	ksft_test_result(!tally.wrong, "race: %lu lookups against %lu flips in %u s, %lu "
			 "wrong answers, %lu EAGAIN from scoped \"..\"\n", tally.lookups,
			 racer.flips, seconds, tally.wrong, tally.eagain);
	race_mount_churn(cpus);

	if (!trace) {
		ksft_test_result_skip("race: restarts in REF-walk: no namei events\n");
		ksft_test_result_skip("events: names: no namei events\n");
		ksft_finished();
	}
	err = kernel_trace_stop(trace);
	if (err)
		ksft_exit_fail_msg("stopping the trace: %s\n", strerror(-err));
	atomic_store(&watcher.stop, true);
	if (pthread_join(watcher_thread, NULL) || watcher.err)
		ksft_exit_fail_msg("reading the events: %s\n", strerror(-watcher.err));
	ksft_test_result(watcher.restarts > 0, "race: %lu of %lu lookups traced ran again "
			 "in REF-walk (%lu times the buffer overran)\n", watcher.restarts,
			 watcher.lookups, watcher.lost);
	if (watcher.bad_names)
		ksft_print_msg("the first: %s\n", watcher.first_bad);
	ksft_test_result(!watcher.bad_names, "events: %lu names reported, %lu not made by "
			 "the test; %lu frames popped unnamed (their mount could not be "
			 "legitimized)\n", watcher.names, watcher.bad_names, watcher.unnamed_pops);
	ksft_finished();
}

static __noreturn void usage(void)
{
	fprintf(stderr, "usage: race_walk [-t SECONDS] [-s SEED] [-d DIR]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned int seconds = DEFAULT_SECONDS;
	const char *parent = "/tmp";
	char *end;
	int opt;

	walker_rng = 1;
	while ((opt = getopt(argc, argv, "d:t:s:")) != -1) {
		switch (opt) {
		case 'd':
			parent = optarg;
			break;
		case 't':
			seconds = strtoul(optarg, &end, 0);
			if (*end || !seconds)
				usage();
			break;
		case 's':
			walker_rng = strtoull(optarg, &end, 0);
			if (*end)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	return kernel_trace_fork(parent, run, &seconds);
}
