// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_walk: the model of the symlink walk (model/) against the kernel, on
 * random trees and random paths through them.
 *
 * usage: fuzz_walk [-s SEED] [-f FIRST] [-n CASES] [-d DIR]
 *
 * -f FIRST asks only the cases from FIRST to CASES - 1: the ones before are
 * made but not asked, so that a mismatch's replay line asks its case alone.
 *
 * It needs root. It runs in a child process with a mount namespace of its
 * own, where it mounts a tmpfs, noatime, on a fresh directory under DIR
 * (/tmp) and chroots into it: "..", absolute paths and absolute bodies
 * all stop at a root it owns, O_CREAT makes nothing outside, and no atime
 * update makes the kernel leave RCU-walk early, which would change some
 * answers of RESOLVE_BENEATH (see LOOKUP_RCU in ../walk.c). The tmpfs
 * ends with the child.
 *
 * There it builds random trees, each for 100 cases: dirs, files, relative
 * and absolute links, ".", "..", loops, dangling links, chains of 36 to 43
 * links, links nested past the 2 embedded frames, bodies too long to be
 * inline (> 128 bytes). A case is a random path from a random directory of
 * the tree, asked of the kernel and of the model as each operation:
 *
 *	stat			fstatat(dir, path, 0)
 *	lstat			fstatat(dir, path, AT_SYMLINK_NOFOLLOW)
 *	creat			openat(dir, path, O_CREAT [| O_EXCL | O_NOFOLLOW])
 *	openat2-no-symlinks	openat2(dir, path, O_PATH [| O_NOFOLLOW | O_DIRECTORY],
 *	openat2-beneath			RESOLVE_NO_SYMLINKS, _BENEATH or _IN_ROOT)
 *	openat2-in-root
 *
 * The two answers (an errno, or st_dev and st_ino; for creat, where a new
 * file appeared instead, which is then removed) must be the same.
 *
 * With the kernel's namei events (a tracefs instance of the fuzzer's own,
 * every event on: kernel_trace.c), each system call's events must
 * balance (pushes and pops, starts and ends of attempts, depths and link
 * counts, the last attempt's error the call's), and the events of its last
 * attempt must be the ones the model predicts: each push, body, pop, jump
 * to the root and -ELOOP, with their depths, link counts, names and
 * reasons. (Where RCU-walk gives up, which depends on caches and atime,
 * is the kernel's alone: the model predicts the attempt that answers.)
 * The events are read as the ring buffer's records, with libtracefs and
 * libtraceevent.
 *
 * The first mismatch of each operation, of answers or of events, is reduced
 * while it stays a mismatch of the same kind with the same errnos (or
 * successes): nodes dropped from the tree, links bypassed (X -> Y -> Z
 * made X -> Z), components dropped from the path and the bodies. It is
 * printed as a listing of the tree, the call, both answers and, for events,
 * both lists, with the options that replay it.
 *
 * Prints TAP, a line per operation and one for the balance of the events;
 * exits non-zero on any mismatch or unbalanced call.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest.h"
#include "kernel.h"
#include "kernel_trace.h"
#include "tree.h"
#include "walk.h"

#define DEFAULT_SEED	1
#define DEFAULT_CASES	10000
#define CASES_PER_TREE	100
#define PATH_SIZE	(PATH_MAX + 64)	/* room for paths that are too long */
#define MAX_ROUNDS	20		/* of reduction */

enum op_kind {
	OP_STAT, OP_LSTAT, OP_CREAT, OP_NO_SYMLINKS, OP_BENEATH, OP_IN_ROOT,
	OP_COUNT
};

static const struct {
	const char *name;
	unsigned int flags;
} ops[OP_COUNT] = {
	[OP_STAT] = { "stat", LOOKUP_FOLLOW },
	[OP_LSTAT] = { "lstat", 0 },
	[OP_CREAT] = { "creat", LOOKUP_CREATE },
	[OP_NO_SYMLINKS] = { "openat2-no-symlinks", LOOKUP_NO_SYMLINKS },
	[OP_BENEATH] = { "openat2-beneath", LOOKUP_BENEATH },
	[OP_IN_ROOT] = { "openat2-in-root", LOOKUP_IN_ROOT },
};

static const char *const names[] = { "a", "b", "c", "d", "e", "f" };
#define NAMES_COUNT ARRAY_SIZE(names)

struct options {
	uint64_t seed;
	unsigned long first, cases;
};

/* One question: a path from a directory of the tree, as one operation. */
struct fuzz_case {
	enum op_kind op;
	unsigned int flags;
	char start[PATH_MAX];	/* the directory, from the root: "" or "a/b" */
	char path[PATH_SIZE];
};

/*
 * One answer: an errno, or the object; for creat, where a new file was;
 * and the events of the last attempt, if the kernel's are traced.
 */
struct answer {
	int err;
	dev_t dev;
	ino_t ino;
	char created[PATH_MAX];
	struct walk_result walk;	/* the model's, for the summary */
	struct walk_events events;
};

/* What the model's answers to one operation were, to show what was reached. */
struct summary {
	unsigned long errors[EHWPOISON + 1];	/* by errno; [0]: successes */
	unsigned long created;
	unsigned long spilled;		/* stacks moved to the heap */
	unsigned long long_walks;	/* lookups of 36 links or more */
};

/* The first mismatch of an operation, of answers or events, for reduction. */
struct mismatch {
	bool of_events;
	unsigned int count;
	unsigned long index;	/* of the case, from 0 */
	struct tree tree;
	struct fuzz_case c;
	struct answer kernel, model;
	int kernel_err, model_err;	/* as first seen */
};

/* What a generated tree offers random paths beyond its own names. */
struct extras {
	unsigned int chain;	/* length of the chain k/1 .. k/N, or 0 */
	bool nest;		/* m1 -> m2/.. -> ... nested links */
	bool long_name;		/* a name of NAME_MAX bytes in the root */
};

static uint64_t rng_state;
static char name_max[NAME_MAX + 1], name_too_long[NAME_MAX + 2];

/* The kernel's events, if it has them (else NULL); of the last call asked. */
static struct kernel_trace *trace;
static struct trace_lookup traced;

/* The inodes the tree was built with: any other one is a new file. */
static ino_t *tree_inodes;
static size_t tree_inode_count;

/* splitmix64 */
static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int rnd(unsigned int n)
{
	return rng_next() % n;
}

static bool chance(unsigned int percent)
{
	return rnd(100) < percent;
}

/* Append @text to the string @buf of @size bytes; fail on overflow. */
static void append(char *buf, size_t size, const char *text)
{
	size_t len = strlen(buf), text_len = strlen(text);

	if (len + text_len >= size)
		ksft_exit_fail_msg("a generated path outgrew its buffer\n");
	memcpy(buf + len, text, text_len + 1);
}

/* Does the tree hold a node at @path? */
static const struct tree_node *tree_find(const struct tree *tree, const char *path)
{
	size_t i;

	for (i = 0; i < tree->count; i++)
		if (!strcmp(tree->nodes[i].path, path))
			return tree->nodes + i;
	return NULL;
}

/* @dir's entry @name as a path from the root. */
static void child_path(char *out, size_t size, const char *dir, const char *name)
{
	const char *slash = *dir && strcmp(dir, "/") ? "/" : "";

	if ((size_t)snprintf(out, size, "%s%s%s", dir, slash, name) >= size)
		ksft_exit_fail_msg("a path outgrew its buffer\n");
}

/* The last component of a node's path. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The directory a node is in, as a path from the root: "" for the root. */
static void parent_dir(const char *path, char *out, size_t size)
{
	const char *name = base_name(path);

	snprintf(out, size, "%.*s", (int)(name > path ? name - path - 1 : 0), path);
}

static bool is_dir(const struct tree_node *node, const char *unused)
{
	(void)unused;
	return node->type == NODE_DIR;
}

/* Is @node an entry of the directory @dir ("" is the root)? */
static bool is_child(const struct tree_node *node, const char *dir)
{
	size_t len = strlen(dir);

	if (len && (strncmp(node->path, dir, len) || node->path[len] != '/'))
		return false;
	return !strchr(node->path + (len ? len + 1 : 0), '/');
}

/* A random node that @match()es, or NULL if none does. */
static const struct tree_node *random_node(const struct tree *tree,
					   bool (*match)(const struct tree_node *, const char *),
					   const char *arg)
{
	size_t i, count = 0;
	unsigned int chosen;

	for (i = 0; i < tree->count; i++)
		count += match(tree->nodes + i, arg);
	if (!count)
		return NULL;
	chosen = rnd(count);
	for (i = 0; i < tree->count; i++)
		if (match(tree->nodes + i, arg) && chosen-- == 0)
			return tree->nodes + i;
	return NULL;
}

/* A random directory of the tree, "" for the root. */
static const char *random_dir(const struct tree *tree)
{
	const struct tree_node *dir = chance(30) ? NULL :
				      random_node(tree, is_dir, NULL);

	return dir ? dir->path : "";
}

/* A name that the extras of the tree give meaning in its root. */
static const char *extra_name(const struct extras *extras, char *buf, size_t size)
{
	unsigned int which = rnd(3);

	if (which == 0 && extras->chain) {
		snprintf(buf, size, "k/%u", extras->chain - rnd(4));
		return buf;
	}
	if (which == 1 && extras->nest)
		return "m1";
	if (which == 2 && extras->long_name)
		return name_max;
	return names[rnd(NAMES_COUNT)];
}

/*
 * Random components joined by slashes: if @here is not NULL, the
 * directory they start from, whose entries they then mostly name.
 */
static void gen_components(const struct tree *tree, const struct extras *extras,
			   const char *here, char *out, size_t size)
{
	char dir[PATH_MAX], next[PATH_MAX], extra[16];
	unsigned int count = 1 + rnd(5), i, r;
	const struct tree_node *child;
	const char *name;

	if (here)
		snprintf(dir, sizeof(dir), "%s", here);
	for (i = 0; i < count; i++) {
		r = rnd(100);
		child = here && r >= 25 ? random_node(tree, is_child, dir) : NULL;
		if (r < 1 && chance(50))
			name = name_too_long;
		else if (r < 10)
			name = "..";
		else if (r < 15)
			name = ".";
		else if (r < 25)
			name = extra_name(extras, extra, sizeof(extra));
		else if (child)
			name = base_name(child->path);
		else
			name = names[rnd(NAMES_COUNT)];

		if (i)
			append(out, size, chance(5) ? "//" : "/");
		append(out, size, name);

		/* follow where the path goes while it stays in known dirs */
		if (!here || !strcmp(name, "."))
			continue;
		if (!strcmp(name, "..")) {
			char *slash = strrchr(dir, '/');

			if (slash)
				*slash = '\0';
			else
				dir[0] = '\0';
			continue;
		}
		child_path(next, sizeof(next), dir, name);
		child = tree_find(tree, next);
		if (child && child->type == NODE_DIR)
			snprintf(dir, sizeof(dir), "%s", next);
		else
			here = NULL;
	}
	if (chance(15))
		append(out, size, "/");
}

/* "./" @count times, to make a body or path long. */
static void append_dots(char *out, size_t size, unsigned int count)
{
	while (count--)
		append(out, size, "./");
}

/*
 * A body for the link @link: relative or absolute, short or long (past
 * the 128 bytes tmpfs keeps inline), a jump to "/" or a loop of one.
 */
static void gen_body(const struct tree *tree, const struct extras *extras,
		     const char *link, char *body, size_t size)
{
	unsigned int r = rnd(100);
	char dir[PATH_MAX];
	const char *here;

	body[0] = '\0';
	if (r < 3) {
		append(body, size, r ? "/" : "//");
		return;
	}
	if (r < 8) {
		append(body, size, base_name(link));
		return;
	}
	/* mostly through names that exist, from the link's directory or "/" */
	parent_dir(link, dir, sizeof(dir));
	here = chance(50) ? dir : NULL;
	if (r < 20) {
		append(body, size, "/");
		here = here ? "" : NULL;
	}
	if (chance(10))
		append_dots(body, size, 65 + rnd(40));
	gen_components(tree, extras, here, body + strlen(body), size - strlen(body));
}

static void add_node(struct tree *tree, enum node_type type, const char *path,
		     const char *body)
{
	if (tree_add(tree, type, path, body))
		ksft_exit_fail_msg("out of memory\n");
}

/*
 * k/1 .. k/N: a chain of @len links, k/I -> I-1 (in some chains also
 * ./I-1 or /k/I-1), and k/1 -> an existing node, so that k/I takes I
 * links or one more.
 */
static void add_chain(struct tree *tree, struct extras *extras, unsigned int len)
{
	const struct tree_node *target = random_node(tree, is_child, "");
	unsigned int i, variety = chance(50) ? 0 : 20;
	char link[16], body[PATH_MAX];

	extras->chain = len;
	add_node(tree, NODE_DIR, "k", NULL);
	for (i = 1; i <= len; i++) {
		snprintf(link, sizeof(link), "k/%u", i);
		if (i > 1)
			snprintf(body, sizeof(body), "%s%u", !chance(variety) ? "" :
				 chance(50) ? "./" : "/k/", i - 1);
		else if (target && chance(80))
			snprintf(body, sizeof(body), "%s%s", chance(50) ? "../" : "/",
				 target->path);
		else
			snprintf(body, sizeof(body), "..");
		add_node(tree, NODE_LINK, link, body);
	}
}

/* m1 -> m2/X, m2 -> m3/Y, ...: links nested @depth frames high. */
static void add_nest(struct tree *tree, struct extras *extras, unsigned int depth)
{
	char link[16], body[PATH_MAX];
	unsigned int i;

	extras->nest = true;
	for (i = 1; i <= depth; i++) {
		snprintf(link, sizeof(link), "m%u", i);
		if (i < depth)
			snprintf(body, sizeof(body), "m%u/%s", i + 1,
				 chance(70) ? "." : names[rnd(NAMES_COUNT)]);
		else
			snprintf(body, sizeof(body), "%s", random_dir(tree));
		add_node(tree, NODE_LINK, link, *body ? body : ".");
	}
}

static void gen_tree(struct tree *tree, struct extras *extras)
{
	unsigned int count = 4 + rnd(12), i, tries, r;
	char path[PATH_MAX], body[PATH_MAX];
	const char *dir;

	*extras = (struct extras){ 0 };
	for (i = 0; i < count; i++) {
		dir = random_dir(tree);
		for (tries = 0; tries < 4; tries++) {
			child_path(path, sizeof(path), dir, names[rnd(NAMES_COUNT)]);
			if (!tree_find(tree, path))
				break;
		}
		if (tries == 4)
			continue;
		r = rnd(100);
		if (r < 30) {
			add_node(tree, NODE_DIR, path, NULL);
		} else if (r < 50) {
			add_node(tree, NODE_FILE, path, NULL);
		} else {
			gen_body(tree, extras, path, body, sizeof(body));
			add_node(tree, NODE_LINK, path, body);
		}
	}
	if (chance(35))
		add_chain(tree, extras, 36 + rnd(8));
	if (chance(25))
		add_nest(tree, extras, 3 + rnd(4));
	if (chance(5)) {
		extras->long_name = true;
		add_node(tree, NODE_FILE, name_max, NULL);
	}
}

static void gen_case(const struct tree *tree, const struct extras *extras,
		     struct fuzz_case *c)
{
	unsigned int r = rnd(1000);

	snprintf(c->start, sizeof(c->start), "%s", chance(25) ? random_dir(tree) : "");
	c->path[0] = '\0';
	if (r < 5)
		return;		/* the empty path */
	if (r < 10) {
		/* PATH_MAX bytes or more */
		append_dots(c->path, sizeof(c->path), PATH_MAX / 2 - rnd(2));
		append(c->path, sizeof(c->path), names[rnd(NAMES_COUNT)]);
		return;
	}
	if (r < 100) {
		append(c->path, sizeof(c->path), "/");
		gen_components(tree, extras, "", c->path, sizeof(c->path));
		return;
	}
	gen_components(tree, extras, c->start, c->path, sizeof(c->path));
}

/* The flags of one operation, with its random variations. */
static unsigned int op_flags(enum op_kind op)
{
	unsigned int flags = ops[op].flags;

	switch (op) {
	case OP_STAT:
	case OP_LSTAT:
		return flags;
	case OP_CREAT:
		/* O_CREAT, O_CREAT|O_EXCL, O_CREAT|O_NOFOLLOW */
		switch (rnd(4)) {
		case 0:
			return flags | LOOKUP_EXCL;
		case 1:
			return flags;
		default:
			return flags | LOOKUP_FOLLOW;
		}
	default:
		if (chance(75))
			flags |= LOOKUP_FOLLOW;
		if (chance(10))
			flags |= LOOKUP_DIRECTORY;
		return flags;
	}
}

static bool tree_inode(ino_t ino)
{
	size_t i;

	for (i = 0; i < tree_inode_count; i++)
		if (tree_inodes[i] == ino)
			return true;
	return false;
}

static void remember_inode(const char *path)
{
	struct stat st;
	ino_t *inodes;

	if (lstat(path, &st))
		ksft_exit_fail_msg("lstat %s: %s\n", path, strerror(errno));
	inodes = reallocarray(tree_inodes, tree_inode_count + 1, sizeof(*inodes));
	if (!inodes)
		ksft_exit_fail_msg("out of memory\n");
	tree_inodes = inodes;
	tree_inodes[tree_inode_count++] = st.st_ino;
}

/* Build @tree at the root, in place of the last one. Return 0 or -errno. */
static int build(const struct tree *tree)
{
	char path[PATH_MAX];
	int root, err;
	size_t i;

	root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		ksft_exit_fail_msg("open /: %s\n", strerror(errno));
	err = tree_clear(root);
	if (err)
		ksft_exit_fail_msg("clearing the tree: %s\n", strerror(-err));
	err = tree_build(tree, root);
	if (close(root))
		ksft_exit_fail_msg("close: %s\n", strerror(errno));
	if (err)
		return err;

	tree_inode_count = 0;
	remember_inode("/");
	for (i = 0; i < tree->count; i++) {
		child_path(path, sizeof(path), "/", tree->nodes[i].path);
		remember_inode(path);
	}
	return 0;
}

/* Find the file with inode @ino in directory @dir, remove it, say where. */
static bool remove_new_file(const char *dir, ino_t ino, char *where, size_t size)
{
	struct dirent *entry;
	bool found = false;
	DIR *d = opendir(dir);

	if (!d)
		ksft_exit_fail_msg("opendir %s: %s\n", dir, strerror(errno));
	errno = 0;
	while (!found && (entry = readdir(d))) {
		if (entry->d_ino != ino)
			continue;
		child_path(where, size, dir, entry->d_name);
		if (unlinkat(dirfd(d), entry->d_name, 0))
			ksft_exit_fail_msg("unlink %s: %s\n", where, strerror(errno));
		found = true;
	}
	if (!found && errno)
		ksft_exit_fail_msg("readdir %s: %s\n", dir, strerror(errno));
	if (closedir(d))
		ksft_exit_fail_msg("closedir %s: %s\n", dir, strerror(errno));
	return found;
}

/* A creat made a new file: record where, and remove it for the next case. */
static void take_new_file(const struct tree *tree, ino_t ino, struct answer *a)
{
	char dir[PATH_MAX];
	size_t i;

	if (remove_new_file("/", ino, a->created, sizeof(a->created)))
		return;
	for (i = 0; i < tree->count; i++) {
		if (tree->nodes[i].type != NODE_DIR)
			continue;
		child_path(dir, sizeof(dir), "/", tree->nodes[i].path);
		if (remove_new_file(dir, ino, a->created, sizeof(a->created)))
			return;
	}
	ksft_exit_fail_msg("a new file (inode %lu) is nowhere in the tree\n",
			   (unsigned long)ino);
}

/* Fill in all of @a but its events. */
static void answer_of(const struct tree *tree, const struct fuzz_case *c,
		      int err, const struct stat *st, struct answer *a)
{
	a->err = err;
	a->dev = 0;
	a->ino = 0;
	a->created[0] = '\0';
	memset(&a->walk, 0, sizeof(a->walk));
	if (err)
		return;
	a->dev = st->st_dev;
	a->ino = st->st_ino;
	if ((c->flags & LOOKUP_CREATE) && !tree_inode(st->st_ino))
		take_new_file(tree, st->st_ino, a);
}

/* Ask the kernel and the model; the tree is built. Return 0 or -errno. */
static int ask(const struct tree *tree, const struct fuzz_case *c,
	       struct answer *kernel, struct answer *model)
{
	struct walk_result res;
	char start[PATH_MAX];
	struct stat st;
	int dirfd, err;

	child_path(start, sizeof(start), "/", c->start);
	dirfd = open(start, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return -errno;

	if (trace) {
		err = kernel_trace_begin(trace);
		if (err)
			ksft_exit_fail_msg("marking the trace: %s\n", strerror(-err));
	}
	err = kernel_resolve(dirfd, c->path, c->flags, &st);
	if (trace) {
		int trace_err = kernel_trace_end(trace, &traced);

		if (trace_err)
			ksft_exit_fail_msg("reading the trace: %s\n", strerror(-trace_err));
		trace_last_attempt(&traced, &kernel->events);
	}
	answer_of(tree, c, err, &st, kernel);

	err = walk_resolve(dirfd, c->path, c->flags, &res, &model->events);
	if (!err && close(res.fd))
		ksft_exit_fail_msg("close: %s\n", strerror(errno));
	answer_of(tree, c, err, &res.st, model);
	if (!err)
		model->walk = res;

	if (close(dirfd))
		ksft_exit_fail_msg("close: %s\n", strerror(errno));
	return 0;
}

static void summarize(struct summary *sum, const struct answer *model)
{
	if (-model->err <= EHWPOISON)
		sum->errors[-model->err]++;
	if (model->err)
		return;
	sum->created += !!model->created[0];
	sum->spilled += model->walk.max_depth > 2;
	sum->long_walks += model->walk.total_link_count >= 36;
}

static void print_summary(const char *op, const struct summary *sum)
{
	int err;

	printf("# %s: ok %lu (%lu created, %lu spilled the stack, %lu with 36+ links)",
	       op, sum->errors[0], sum->created, sum->spilled, sum->long_walks);
	for (err = 1; err <= EHWPOISON; err++)
		if (sum->errors[err])
			printf(", %s %lu", strerrorname_np(err), sum->errors[err]);
	printf("\n");
}

static bool same_answer(const struct answer *a, const struct answer *b)
{
	if (a->err != b->err)
		return false;
	if (a->err)
		return true;
	if (a->created[0] || b->created[0])
		return !strcmp(a->created, b->created);
	return a->dev == b->dev && a->ino == b->ino;
}

static void format_event(const struct walk_events *events, unsigned int i,
			 char *line, size_t size)
{
	if (i < events->count)
		walk_event_format(events->event + i, line, size);
	else
		snprintf(line, size, "(none)");
}

/*
 * Every field of @a as of @b: the two print the same line. (Lines can
 * match with some field apart, one the event does not print.)
 */
static bool same_fields(const struct walk_event *a, const struct walk_event *b)
{
	return a->type == b->type && a->depth == b->depth && a->links == b->links &&
	       a->trailing == b->trailing && a->error == b->error &&
	       (a->reason == b->reason || (a->reason && b->reason &&
					   !strcmp(a->reason, b->reason))) &&
	       !strcmp(a->link, b->link) && !strcmp(a->body, b->body) &&
	       !strcmp(a->remnant, b->remnant);
}

/* The index of the first event where @a and @b differ, or -1. */
static int first_event_difference(const struct answer *a, const struct answer *b)
{
	char line_a[512], line_b[512];
	unsigned int i;

	for (i = 0; i < a->events.count || i < b->events.count; i++) {
		/* Formatting both is most of the comparison's time under TCG. */
		if (i < a->events.count && i < b->events.count &&
		    same_fields(a->events.event + i, b->events.event + i))
			continue;
		format_event(&a->events, i, line_a, sizeof(line_a));
		format_event(&b->events, i, line_b, sizeof(line_b));
		if (strcmp(line_a, line_b))
			return (int)i;
	}
	return -1;
}

/*
 * Does the case, on a fresh build of @tree, still give the mismatch @m
 * has: the same two errnos (0 for a success), and different answers or,
 * for a mismatch of events, the same answers and different events?
 */
static bool still_differs(const struct tree *tree, const struct fuzz_case *c,
			  const struct mismatch *m)
{
	static struct answer kernel, model;

	if (build(tree) || ask(tree, c, &kernel, &model))
		return false;
	if (kernel.err != m->kernel_err || model.err != m->model_err)
		return false;
	if (m->of_events)
		return same_answer(&kernel, &model) &&
		       first_event_difference(&kernel, &model) >= 0;
	return !same_answer(&kernel, &model);
}

/*
 * @in without its @index-th component (and the slashes after it).
 * Return false if it has no such component.
 */
static bool drop_component(const char *in, unsigned int index, char *out, size_t size)
{
	const char *p = in, *start;

	for (;;) {
		while (*p == '/')
			p++;
		if (!*p)
			return false;
		start = p;
		p += strcspn(p, "/");
		while (*p == '/')
			p++;
		if (!index--)
			break;
	}
	snprintf(out, size, "%.*s%s", (int)(start - in), in, p);
	return true;
}

/* @in with each run of slashes made one. */
static void squash_slashes(const char *in, char *out)
{
	for (; *in; in++)
		if (*in != '/' || in[1] != '/')
			*out++ = *in;
	*out = '\0';
}

/*
 * Drop what components of @s (of @size bytes, the path or a body of @m)
 * the mismatch survives, and its doubled slashes if it survives that.
 */
static bool reduce_string(char *s, size_t size, struct mismatch *m)
{
	char *saved = strdup(s), *candidate = malloc(size);
	unsigned int index = 0;
	bool changed = false;

	if (!saved || !candidate)
		ksft_exit_fail_msg("out of memory\n");
	squash_slashes(saved, candidate);
	if (strcmp(candidate, saved)) {
		snprintf(s, size, "%s", candidate);
		if (still_differs(&m->tree, &m->c, m)) {
			snprintf(saved, size, "%s", candidate);
			changed = true;
		}
	}
	while (drop_component(saved, index, candidate, size)) {
		snprintf(s, size, "%s", candidate);
		if (*candidate && still_differs(&m->tree, &m->c, m)) {
			snprintf(saved, size, "%s", candidate);
			changed = true;
		} else {
			index++;
		}
	}
	snprintf(s, size, "%s", saved);
	free(saved);
	free(candidate);
	return changed;
}

/*
 * For links X -> Y and Y -> Z in one directory, try X -> Z: with fewer
 * links in the way, more nodes can go.
 */
static bool bypass_links(struct mismatch *m)
{
	char dir[PATH_MAX], path[PATH_MAX], *body;
	const struct tree_node *next;
	bool changed = false;
	size_t i;

	for (i = 0; i < m->tree.count; i++) {
		struct tree_node *link = m->tree.nodes + i;

		if (link->type != NODE_LINK || strchr(link->body, '/'))
			continue;
		parent_dir(link->path, dir, sizeof(dir));
		child_path(path, sizeof(path), dir, link->body);
		next = tree_find(&m->tree, path);
		if (!next || next == link || next->type != NODE_LINK)
			continue;
		body = link->body;
		link->body = strdup(next->body);
		if (!link->body)
			ksft_exit_fail_msg("out of memory\n");
		if (still_differs(&m->tree, &m->c, m)) {
			free(body);
			changed = true;
		} else {
			free(link->body);
			link->body = body;
		}
	}
	return changed;
}

/* Shrink the tree, the path and the bodies while the mismatch stays. */
static void reduce(struct mismatch *m)
{
	unsigned int rounds = 0;
	struct tree candidate;
	bool changed;
	size_t i;

	do {
		changed = false;
		for (i = m->tree.count; i-- > 0;) {
			if (i >= m->tree.count)
				continue;
			if (tree_copy(&candidate, &m->tree))
				ksft_exit_fail_msg("out of memory\n");
			tree_remove_node(&candidate, i);
			if (still_differs(&candidate, &m->c, m)) {
				tree_free(&m->tree);
				m->tree = candidate;
				changed = true;
			} else {
				tree_free(&candidate);
			}
		}
		changed |= bypass_links(m);
		changed |= reduce_string(m->c.path, sizeof(m->c.path), m);
		for (i = 0; i < m->tree.count; i++) {
			struct tree_node *node = m->tree.nodes + i;
			char body[PATH_MAX];

			if (node->type != NODE_LINK)
				continue;
			/* reduced in place, where build() reads it */
			snprintf(body, sizeof(body), "%s", node->body);
			free(node->body);
			node->body = body;
			changed |= reduce_string(body, sizeof(body), m);
			node->body = strdup(body);
			if (!node->body)
				ksft_exit_fail_msg("out of memory\n");
		}
	} while (changed && ++rounds < MAX_ROUNDS);

	/* the answers of the reduced case, for the report */
	if (build(&m->tree) || ask(&m->tree, &m->c, &m->kernel, &m->model))
		ksft_exit_fail_msg("the reduced case no longer builds\n");
}

/* @s, with a long run of "./" shown as a count. */
static void print_compact(const char *s)
{
	unsigned int dots = 0;

	while (!strncmp(s + 2 * dots, "./", 2))
		dots++;
	if (dots >= 8) {
		printf("(./ x%u)", dots);
		s += 2 * dots;
	}
	printf("%s", s);
}

static const char *answer_name(int err)
{
	return err ? strerrorname_np(-err) : "ok";
}

static void print_answer(const char *who, const struct answer *a)
{
	printf("#   %s: ", who);
	if (a->err)
		printf("%s\n", answer_name(a->err));
	else if (a->created[0])
		printf("ok, created %s\n", a->created);
	else
		printf("ok dev=%lu ino=%lu\n", (unsigned long)a->dev,
		       (unsigned long)a->ino);
}

/* The system call the case makes, as C. */
static void print_call(const struct fuzz_case *c)
{
	bool follow = c->flags & LOOKUP_FOLLOW;

	printf("#   call: ");
	switch (c->op) {
	case OP_STAT:
	case OP_LSTAT:
		printf("fstatat(/%s, \"", c->start);
		print_compact(c->path);
		printf("\", %s)\n", follow ? "0" : "AT_SYMLINK_NOFOLLOW");
		break;
	case OP_CREAT:
		printf("openat(/%s, \"", c->start);
		print_compact(c->path);
		printf("\", O_CREAT%s%s)\n", c->flags & LOOKUP_EXCL ? "|O_EXCL" : "",
		       follow || (c->flags & LOOKUP_EXCL) ? "" : "|O_NOFOLLOW");
		break;
	default:
		printf("openat2(/%s, \"", c->start);
		print_compact(c->path);
		printf("\", O_PATH%s%s, RESOLVE_%s)\n", follow ? "" : "|O_NOFOLLOW",
		       c->flags & LOOKUP_DIRECTORY ? "|O_DIRECTORY" : "",
		       c->op == OP_NO_SYMLINKS ? "NO_SYMLINKS" :
		       c->op == OP_BENEATH ? "BENEATH" : "IN_ROOT");
		break;
	}
}

static void print_node(const struct tree_node *node)
{
	printf("#     %s%s", node->path, node->type == NODE_DIR ? "/" : "");
	if (node->type == NODE_LINK) {
		printf(" -> ");
		print_compact(node->body);
	}
	printf("\n");
}

/* Is @b @a with each number in it one more, like "k/8" after "k/7"? */
static bool next_in_series(const char *a, const char *b)
{
	char *end_a, *end_b;

	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			if (strtoul(a, &end_a, 10) + 1 != strtoul(b, &end_b, 10))
				return false;
			a = end_a;
			b = end_b;
		} else if (*a++ != *b++) {
			return false;
		}
	}
	return !*a && !*b;
}

static bool next_node_in_series(const struct tree_node *a, const struct tree_node *b)
{
	return a->type == NODE_LINK && b->type == NODE_LINK &&
	       next_in_series(a->path, b->path) && next_in_series(a->body, b->body);
}

/* The tree's listing, a series of like links (a chain) shortened. */
static void print_tree(const struct tree *tree)
{
	size_t i, end;

	for (i = 0; i < tree->count; i = end) {
		for (end = i + 1; end < tree->count; end++)
			if (!next_node_in_series(tree->nodes + end - 1, tree->nodes + end))
				break;
		print_node(tree->nodes + i);
		if (end - i > 3) {
			printf("#     ... %zu more like these ...\n", end - i - 2);
			i = end - 1;
			print_node(tree->nodes + i);
		}
		for (i++; i < end; i++)
			print_node(tree->nodes + i);
	}
}

/* Both lists of events, side by side in turn, the first difference marked. */
static void print_events(const struct mismatch *m)
{
	int first = first_event_difference(&m->kernel, &m->model);
	const struct answer *who[] = { &m->kernel, &m->model };
	char line[512];
	unsigned int i, j;

	for (j = 0; j < 2; j++) {
		printf("#   %s's events of the last attempt:\n", j ? "model" : "kernel");
		for (i = 0; i < who[j]->events.count; i++) {
			format_event(&who[j]->events, i, line, sizeof(line));
			printf("#     %s%s\n", line, (int)i == first ? "  <- first difference" : "");
		}
		if ((int)who[j]->events.count == first)
			printf("#     (no more)  <- first difference\n");
	}
	if (first < 0)
		printf("#   (the same events now)\n");
}

static void print_mismatch(const struct mismatch *m, uint64_t seed)
{
	printf("# %s: mismatch of %s, seed %llu, case %lu; reduced, in the scratch root /:\n",
	       ops[m->c.op].name, m->of_events ? "events" : "answers",
	       (unsigned long long)seed, m->index);
	print_tree(&m->tree);
	print_call(&m->c);
	print_answer("kernel", &m->kernel);
	print_answer("model ", &m->model);
	if (m->of_events)
		print_events(m);
	else if (same_answer(&m->kernel, &m->model))
		printf("#   (the same answers now: first the kernel said %s, the model %s)\n",
		       answer_name(m->kernel_err), answer_name(m->model_err));
	printf("#   replay: fuzz_walk -s %llu -f %lu -n %lu\n", (unsigned long long)seed,
	       m->index, m->index + 1);
}

static __noreturn void usage(void)
{
	fprintf(stderr, "usage: fuzz_walk [-s SEED] [-f FIRST] [-n CASES] [-d DIR]\n");
	exit(2);
}

static unsigned long long parse_number(const char *text)
{
	unsigned long long n;
	char *end;

	errno = 0;
	n = strtoull(text, &end, 0);
	if (errno || end == text || *end)
		usage();
	return n;
}

/* Enter a scratch root of the child's own (tree_enter_scratch()). */
static void enter_scratch(const char *dir)
{
	const char *step;
	int err = tree_enter_scratch(dir, &step);

	if (err == -EPERM)
		ksft_exit_skip("%s needs CAP_SYS_ADMIN: run as root\n", step);
	if (err)
		ksft_exit_fail_msg("%s on %s: %s\n", step, dir, strerror(-err));
}

/* What the balance checks found, over the whole run. */
struct balance {
	struct trace_counts counts;
	unsigned long violations;
};

/* Check the events of the call just asked; show the first violation. */
static void check_balance(struct balance *b, const struct fuzz_case *c,
			  const struct answer *kernel, unsigned long index, uint64_t seed)
{
	char why[1024], line[512];
	unsigned int i;

	if (trace_balanced(&traced, kernel->err, &b->counts, why, sizeof(why)) ||
	    b->violations++)
		return;
	printf("# events: unbalanced, seed %llu, case %lu: %s\n",
	       (unsigned long long)seed, index, why);
	print_call(c);
	print_answer("kernel", kernel);
	printf("#   the call's events:\n");
	for (i = 0; i < traced.count; i++) {
		trace_event_format(traced.events + i, line, sizeof(line));
		printf("#     %s\n", line);
	}
	printf("#   replay: fuzz_walk -s %llu -n %lu\n", (unsigned long long)seed,
	       index + 1);
}

/* Keep the first mismatch of its kind of an operation, to reduce it later. */
static void keep_mismatch(struct mismatch *m, bool of_events, unsigned long index,
			  const struct fuzz_case *c, const struct tree *tree,
			  const struct answer *kernel, const struct answer *model)
{
	if (m->count++)
		return;
	m->of_events = of_events;
	m->index = index;
	m->c = *c;
	m->kernel = *kernel;
	m->model = *model;
	m->kernel_err = kernel->err;
	m->model_err = model->err;
	if (tree_copy(&m->tree, tree))
		ksft_exit_fail_msg("out of memory\n");
}

/* Make the cases, ask, compare, reduce, report; exit with the verdict. */
static __noreturn void fuzz(const struct options *opts)
{
	static struct mismatch mismatches[OP_COUNT], event_mismatches[OP_COUNT];
	static struct summary summaries[OP_COUNT];
	static struct answer kernel, model;
	struct balance balance = { 0 };
	struct tree tree = { 0 };
	struct extras extras;
	struct fuzz_case c;
	unsigned long index;
	enum op_kind op;
	int err;

	ksft_print_header();
	ksft_set_plan(OP_COUNT + 1);
	ksft_print_msg("seed %llu, cases %lu to %lu, %u cases a tree\n",
		       (unsigned long long)opts->seed, opts->first, opts->cases - 1,
		       CASES_PER_TREE);
	memset(name_max, 'n', NAME_MAX);
	memset(name_too_long, 'n', NAME_MAX + 1);
	rng_state = opts->seed;

	for (index = 0; index < opts->cases; index++) {
		if (index % CASES_PER_TREE == 0) {
			tree_free(&tree);
			gen_tree(&tree, &extras);
		}
		gen_case(&tree, &extras, &c);
		if (index < opts->first)
			continue;
		if (index % CASES_PER_TREE == 0 || index == opts->first) {
			err = build(&tree);
			if (err)
				ksft_exit_fail_msg("building a tree: %s\n", strerror(-err));
		}
		for (op = 0; op < OP_COUNT; op++) {
			c.op = op;
			c.flags = op_flags(op);
			err = ask(&tree, &c, &kernel, &model);
			if (err)
				ksft_exit_fail_msg("opening /%s: %s\n", c.start,
						   strerror(-err));
			summarize(summaries + op, &model);
			if (trace)
				check_balance(&balance, &c, &kernel, index, opts->seed);
			if (!same_answer(&kernel, &model))
				keep_mismatch(mismatches + op, false, index, &c, &tree,
					      &kernel, &model);
			else if (trace && first_event_difference(&kernel, &model) >= 0)
				keep_mismatch(event_mismatches + op, true, index, &c,
					      &tree, &kernel, &model);
		}
	}
	tree_free(&tree);

	for (op = 0; op < OP_COUNT; op++) {
		struct mismatch *kept[] = { mismatches + op, event_mismatches + op };
		unsigned int i;

		print_summary(ops[op].name, summaries + op);
		for (i = 0; i < 2; i++) {
			if (!kept[i]->count)
				continue;
			reduce(kept[i]);
			print_mismatch(kept[i], opts->seed);
			tree_free(&kept[i]->tree);
		}
		if (trace)
			ksft_test_result(!kept[0]->count && !kept[1]->count,
					 "%s: cases %lu to %lu, %u mismatched answers, "
					 "%u mismatched events\n", ops[op].name, opts->first,
					 opts->cases - 1, kept[0]->count, kept[1]->count);
		else
			ksft_test_result(!kept[0]->count, "%s: cases %lu to %lu, %u mismatches\n",
					 ops[op].name, opts->first, opts->cases - 1,
					 kept[0]->count);
	}
	if (trace)
		ksft_test_result(!balance.violations,
				 "events: %lu calls, %lu attempts, %lu events checked, "
				 "%lu unbalanced\n", balance.counts.calls,
				 balance.counts.attempts, balance.counts.events,
				 balance.violations);
	else
		ksft_test_result_skip("events: the kernel has no namei events\n");
	trace_lookup_free(&traced);
	free(tree_inodes);
	ksft_finished();
}

/* The child of kernel_trace_fork(): fuzz in a scratch root at @dir. */
static void fuzz_in_scratch(const char *dir, struct kernel_trace *kernel_trace, void *opts)
{
	trace = kernel_trace;
	enter_scratch(dir);
	fuzz(opts);
}

int main(int argc, char **argv)
{
	struct options opts = { .seed = DEFAULT_SEED, .cases = DEFAULT_CASES };
	const char *parent = "/tmp";
	int opt;

	while ((opt = getopt(argc, argv, "s:f:n:d:")) != -1) {
		switch (opt) {
		case 's':
			opts.seed = parse_number(optarg);
			break;
		case 'f':
			opts.first = parse_number(optarg);
			break;
		case 'n':
			opts.cases = parse_number(optarg);
			break;
		case 'd':
			parent = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || opts.first >= opts.cases)
		usage();
	return kernel_trace_fork(parent, fuzz_in_scratch, &opts);
}
