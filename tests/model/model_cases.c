// SPDX-License-Identifier: GPL-2.0
/*
 * The model's rules, case by case, checked against the host kernel.
 *
 * Each case builds its tree twice, in two fresh directories: the model
 * resolves the path in one, the kernel (fstatat, open, openat2: kernel.c)
 * in the other, and each must give the answer the case expects: an errno,
 * or the object at the expected path of its own tree. A case's tree is
 * the base below plus the case's own nodes, as a listing (tree.h) in which
 * "@" stands for the test directory's absolute path:
 *
 *	<test dir>/
 *	|-- dir/
 *	|   |-- file
 *	|   `-- sub/
 *	|       `-- file
 *	`-- file
 *
 * usage: model_test [WALK]
 *   WALK, the model's command-line tool, adds the cases of the tool.
 * Prints TAP; exits 1 on any failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel.h"
#include "tree.h"
#include "walk.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BASE "dir/\ndir/file\ndir/sub/\ndir/sub/file\nfile\n"
#define UP8 "../../../../../../../../"

struct walk_case {
	const char *name;
	const char *tree;	/* nodes on top of BASE, if any */
	const char *start;	/* where the walk starts, from the test dir */
	const char *path;
	unsigned int flags;
	int error;		/* the errno expected, or 0 */
	int or_error;		/* if not 0: what the kernel may say instead */
	const char *result;	/* with 0: the object, from the test dir */
	bool created;		/* LOOKUP_CREATE makes result */
	int links;		/* if not 0: links the walk follows */
	unsigned int depth;	/* if not 0: the stack's greatest height */
};

/* Trees and paths too long to spell out, made by make_long_strings(). */
static char chain40[1024], chain41[1024], chain21_dir[1024], chain21_up[1024];
static char name_max[NAME_MAX + 1], name_too_long[NAME_MAX + 2];
static char tree_name_max[NAME_MAX + 2];
static char path_max[PATH_MAX], path_too_long[PATH_MAX + 1];
static char tree_body_max[PATH_MAX + 8];

static const struct walk_case cases[] = {
	{ .name = "a file", .path = "dir/file", .flags = LOOKUP_FOLLOW,
	  .result = "dir/file" },
	{ .name = "a missing name", .path = "dir/nope", .flags = LOOKUP_FOLLOW,
	  .error = ENOENT },
	{ .name = "a missing directory on the way", .path = "nope/file",
	  .flags = LOOKUP_FOLLOW, .error = ENOENT },
	{ .name = "a file on the way", .path = "file/file", .flags = LOOKUP_FOLLOW,
	  .error = ENOTDIR },
	{ .name = "a file before \".\"", .path = "file/.", .flags = LOOKUP_FOLLOW,
	  .error = ENOTDIR },
	{ .name = "a link to a file before \"..\"", .tree = "l -> file\n",
	  .path = "l/..", .flags = LOOKUP_FOLLOW, .error = ENOTDIR },
	{ .name = "a trailing slash on a file", .path = "file/", .flags = LOOKUP_FOLLOW,
	  .error = ENOTDIR },
	{ .name = "trailing slashes on a directory", .path = "dir//",
	  .flags = LOOKUP_FOLLOW, .result = "dir" },
	{ .name = "lstat: a final link is not followed", .tree = "l -> file\n",
	  .path = "l", .result = "l" },
	{ .name = "stat: a final link is followed", .tree = "l -> file\n", .path = "l",
	  .flags = LOOKUP_FOLLOW, .result = "file", .links = 1, .depth = 1 },
	{ .name = "lstat: a trailing slash follows a final link",
	  .tree = "ld -> dir\n", .path = "ld/", .result = "dir" },
	{ .name = "lstat: a trailing slash wants a directory", .tree = "l -> file\n",
	  .path = "l/", .error = ENOTDIR },
	{ .name = "a trailing slash follows the links its link leads to",
	  .tree = "l2 -> ld\nld -> dir\n", .path = "l2/", .result = "dir",
	  .links = 2 },
	{ .name = "a body's trailing slash wants a directory", .tree = "lf -> file/\n",
	  .path = "lf", .flags = LOOKUP_FOLLOW, .error = ENOTDIR },
	{ .name = "lstat follows a link on the way", .tree = "ld -> dir\n",
	  .path = "ld/file", .result = "dir/file" },
	{ .name = "a chain of 40 links, one frame high", .tree = chain40,
	  .path = "c40", .flags = LOOKUP_FOLLOW, .result = "file", .links = 40,
	  .depth = 1 },
	{ .name = "a chain of 41 links is one too many", .tree = chain41,
	  .path = "c41", .flags = LOOKUP_FOLLOW, .error = ELOOP },
	{ .name = "a chain on the way stays one frame high", .tree = chain21_dir,
	  .path = "c10/file", .flags = LOOKUP_FOLLOW, .result = "dir/file",
	  .links = 10, .depth = 1 },
	{ .name = "the budget is the lookup's: 20 + 20 links", .tree = chain21_dir,
	  .path = "c20/../c20/file", .flags = LOOKUP_FOLLOW, .result = "dir/file",
	  .links = 40 },
	{ .name = "the budget is the lookup's: 20 + 21 links", .tree = chain21_dir,
	  .path = "c20/../c21/file", .flags = LOOKUP_FOLLOW, .error = ELOOP },
	/*
	 * RESOLVE_BENEATH: RCU-walk leaves ".." in the root to a REF-walk
	 * retry, which is charged only for its own links (the series' first
	 * patch): 21 links fit. A kernel without that fix, like the host's,
	 * charges the retry for the first attempt's links too and says ELOOP
	 * for 21; for 20 and 21 alike it says EXDEV at once if the walk had
	 * left RCU-walk before (an atime update, a name not in the dcache).
	 */
	{ .name = "RESOLVE_BENEATH: 20 links to \"..\" above the start, in two attempts",
	  .tree = chain21_up, .start = "dir", .path = "c20/file",
	  .flags = LOOKUP_BENEATH | LOOKUP_FOLLOW, .error = EXDEV },
	{ .name = "RESOLVE_BENEATH: 21 links to \"..\" above the start, in two attempts",
	  .tree = chain21_up, .start = "dir", .path = "c21/file",
	  .flags = LOOKUP_BENEATH | LOOKUP_FOLLOW, .error = EXDEV, .or_error = ELOOP },
	{ .name = "a loop", .tree = "a -> b\nb -> a\n", .path = "a",
	  .flags = LOOKUP_FOLLOW, .error = ELOOP },
	{ .name = "lstat of a link to itself", .tree = "a -> a\n", .path = "a",
	  .result = "a" },
	{ .name = "nested links spill the stack to the heap",
	  .tree = "n1 -> n2/file\nn2 -> n3/sub\nn3 -> dir\n", .path = "n1",
	  .flags = LOOKUP_FOLLOW, .result = "dir/sub/file", .links = 3, .depth = 3 },
	{ .name = "an absolute body restarts at the root", .tree = "abs -> @/dir\n",
	  .path = "abs/file", .flags = LOOKUP_FOLLOW, .result = "dir/file" },
	{ .name = "a body of slashes is a jump to the root", .tree = "root -> //\n",
	  .path = "root", .flags = LOOKUP_FOLLOW, .result = "/", .links = 1,
	  .depth = 1 },
	{ .name = "an absolute path", .path = "@/dir/file", .flags = LOOKUP_FOLLOW,
	  .result = "dir/file" },
	{ .name = "\".\" and \"..\" on the way", .path = "dir/./sub/.././file",
	  .flags = LOOKUP_FOLLOW, .result = "dir/file" },
	{ .name = "\"..\" after a link is its target's parent",
	  .tree = "ls -> dir/sub\n", .path = "ls/../file", .flags = LOOKUP_FOLLOW,
	  .result = "dir/file" },
	{ .name = "\"..\" stops at the root", .path = UP8 UP8 UP8 UP8 UP8 UP8 UP8 UP8,
	  .flags = LOOKUP_FOLLOW, .result = "/" },
	{ .name = "a final \"..\"", .path = "dir/sub/..", .result = "dir" },
	{ .name = "a name of NAME_MAX bytes", .tree = tree_name_max, .path = name_max,
	  .flags = LOOKUP_FOLLOW, .result = name_max },
	{ .name = "a name longer than NAME_MAX", .path = name_too_long,
	  .flags = LOOKUP_FOLLOW, .error = ENAMETOOLONG },
	{ .name = "a path of PATH_MAX - 1 bytes", .path = path_max,
	  .flags = LOOKUP_FOLLOW, .result = "file" },
	{ .name = "a path of PATH_MAX bytes", .path = path_too_long,
	  .flags = LOOKUP_FOLLOW, .error = ENAMETOOLONG },
	{ .name = "a body of PATH_MAX - 1 bytes", .tree = tree_body_max, .path = "lb",
	  .flags = LOOKUP_FOLLOW, .result = "file" },
	{ .name = "the empty path", .path = "", .flags = LOOKUP_FOLLOW, .error = ENOENT },
	{ .name = "a start that is no directory", .start = "file", .path = ".",
	  .flags = LOOKUP_FOLLOW, .error = ENOTDIR },
	{ .name = "O_DIRECTORY on a file", .path = "file",
	  .flags = LOOKUP_FOLLOW | LOOKUP_DIRECTORY, .error = ENOTDIR },
	{ .name = "O_CREAT makes a missing file", .path = "dir/new",
	  .flags = LOOKUP_CREATE | LOOKUP_FOLLOW, .result = "dir/new", .created = true },
	{ .name = "O_CREAT through a dangling link", .tree = "dl -> dir/new\n",
	  .path = "dl", .flags = LOOKUP_CREATE | LOOKUP_FOLLOW, .result = "dir/new",
	  .created = true, .links = 1 },
	{ .name = "O_CREAT through a chain to an absolute body",
	  .tree = "d2 -> d1\nd1 -> @/dir/new\n", .path = "d2",
	  .flags = LOOKUP_CREATE | LOOKUP_FOLLOW, .result = "dir/new", .created = true,
	  .links = 2 },
	{ .name = "O_CREAT opens an existing file", .path = "file",
	  .flags = LOOKUP_CREATE | LOOKUP_FOLLOW, .result = "file" },
	{ .name = "O_EXCL on an existing file", .path = "file",
	  .flags = LOOKUP_CREATE | LOOKUP_EXCL | LOOKUP_FOLLOW, .error = EEXIST },
	{ .name = "O_EXCL on a dangling link", .tree = "dl -> dir/new\n", .path = "dl",
	  .flags = LOOKUP_CREATE | LOOKUP_EXCL | LOOKUP_FOLLOW, .error = EEXIST },
	{ .name = "O_CREAT|O_NOFOLLOW on a dangling link", .tree = "dl -> dir/new\n",
	  .path = "dl", .flags = LOOKUP_CREATE, .error = ELOOP },
	{ .name = "O_CREAT with a trailing slash", .path = "dir/new/",
	  .flags = LOOKUP_CREATE | LOOKUP_FOLLOW, .error = EISDIR },
	{ .name = "O_CREAT on a directory", .path = "dir",
	  .flags = LOOKUP_CREATE | LOOKUP_FOLLOW, .error = EISDIR },
	{ .name = "O_CREAT through a link to a directory", .tree = "ld -> dir\n",
	  .path = "ld", .flags = LOOKUP_CREATE | LOOKUP_FOLLOW, .error = EISDIR },
	{ .name = "O_CREAT at \".\"", .path = "dir/.",
	  .flags = LOOKUP_CREATE | LOOKUP_FOLLOW, .error = EISDIR },
	{ .name = "O_CREAT under a missing directory", .path = "nope/new",
	  .flags = LOOKUP_CREATE | LOOKUP_FOLLOW, .error = ENOENT },
	{ .name = "RESOLVE_NO_SYMLINKS: a link on the way", .tree = "ld -> dir\n",
	  .path = "ld/file", .flags = LOOKUP_NO_SYMLINKS | LOOKUP_FOLLOW, .error = ELOOP },
	{ .name = "RESOLVE_NO_SYMLINKS: a final link to follow", .tree = "l -> file\n",
	  .path = "l", .flags = LOOKUP_NO_SYMLINKS | LOOKUP_FOLLOW, .error = ELOOP },
	{ .name = "RESOLVE_NO_SYMLINKS: a final link left alone", .tree = "l -> file\n",
	  .path = "l", .flags = LOOKUP_NO_SYMLINKS, .result = "l" },
	{ .name = "RESOLVE_NO_SYMLINKS: no link at all", .path = "dir/sub/file",
	  .flags = LOOKUP_NO_SYMLINKS | LOOKUP_FOLLOW, .result = "dir/sub/file" },
	{ .name = "RESOLVE_BENEATH: \"..\" that stays beneath", .start = "dir",
	  .path = "sub/../file", .flags = LOOKUP_BENEATH | LOOKUP_FOLLOW,
	  .result = "dir/file" },
	{ .name = "RESOLVE_BENEATH: \"..\" above the start", .start = "dir",
	  .path = "../file", .flags = LOOKUP_BENEATH | LOOKUP_FOLLOW, .error = EXDEV },
	{ .name = "RESOLVE_BENEATH: an absolute path", .start = "dir",
	  .path = "@/dir/file", .flags = LOOKUP_BENEATH | LOOKUP_FOLLOW, .error = EXDEV },
	{ .name = "RESOLVE_BENEATH: an absolute body", .tree = "dir/abs -> @/dir/file\n",
	  .start = "dir", .path = "abs", .flags = LOOKUP_BENEATH | LOOKUP_FOLLOW,
	  .error = EXDEV },
	{ .name = "RESOLVE_BENEATH: a relative body that leaves",
	  .tree = "dir/up -> ../file\n", .start = "dir", .path = "up",
	  .flags = LOOKUP_BENEATH | LOOKUP_FOLLOW, .error = EXDEV },
	{ .name = "RESOLVE_IN_ROOT: \"..\" stops at the start", .start = "dir",
	  .path = "../../file", .flags = LOOKUP_IN_ROOT | LOOKUP_FOLLOW,
	  .result = "dir/file" },
	{ .name = "RESOLVE_IN_ROOT: an absolute path starts at the start",
	  .start = "dir", .path = "/sub", .flags = LOOKUP_IN_ROOT | LOOKUP_FOLLOW,
	  .result = "dir/sub" },
	{ .name = "RESOLVE_IN_ROOT: an absolute body", .tree = "dir/abs -> /file\n",
	  .start = "dir", .path = "abs", .flags = LOOKUP_IN_ROOT | LOOKUP_FOLLOW,
	  .result = "dir/file" },
	{ .name = "RESOLVE_BENEATH with RESOLVE_IN_ROOT", .path = "file",
	  .flags = LOOKUP_BENEATH | LOOKUP_IN_ROOT | LOOKUP_FOLLOW, .error = EINVAL },
	{ .name = "O_CREAT with O_DIRECTORY", .path = "dir/new",
	  .flags = LOOKUP_CREATE | LOOKUP_DIRECTORY | LOOKUP_FOLLOW, .error = EINVAL },
};

/* A test directory holding one case's tree. */
struct scratch {
	char dir[PATH_MAX];
	int fd;
	int start;		/* the case's start */
	char *path;		/* the case's path, "@" expanded */
};

static unsigned int test_count;
static bool failed;

static void bail_out(const char *what, int err)
{
	printf("Bail out! %s: %s\n", what, strerrorname_np(err));
	exit(1);
}

static void report(bool ok, const char *name)
{
	printf("%sok %u %s\n", ok ? "" : "not ", ++test_count, name);
	failed |= !ok;
}

static void diag(const char *fmt, ...)
{
	va_list args;

	fputs("# ", stdout);
	va_start(args, fmt);
	vprintf(fmt, args);
	va_end(args);
	putchar('\n');
}

static const char *answer_name(int err)
{
	return err ? strerrorname_np(err) : "ok";
}

/* @text with each "@" replaced by @dir. */
static char *expand(const char *text, const char *dir)
{
	size_t len = strlen(text) + 1, dir_len = strlen(dir);
	const char *at;
	char *out, *p;

	for (at = strchr(text, '@'); at; at = strchr(at + 1, '@'))
		len += dir_len - 1;
	out = malloc(len);
	if (!out)
		bail_out("malloc", ENOMEM);
	for (p = out; *text; text++) {
		if (*text == '@') {
			memcpy(p, dir, dir_len);
			p += dir_len;
		} else {
			*p++ = *text;
		}
	}
	*p = '\0';
	return out;
}

static void scratch_make(struct scratch *s, const struct walk_case *c)
{
	const char *tmpdir = getenv("TMPDIR");
	struct tree tree = { 0 };
	char *listing, *expanded;
	size_t len;
	int err;

	snprintf(s->dir, sizeof(s->dir), "%s/model_test.XXXXXX", tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(s->dir))
		bail_out("mkdtemp", errno);
	s->fd = open(s->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (s->fd < 0)
		bail_out(s->dir, errno);

	len = strlen(BASE) + (c->tree ? strlen(c->tree) : 0) + 1;
	listing = malloc(len);
	if (!listing)
		bail_out("malloc", ENOMEM);
	snprintf(listing, len, "%s%s", BASE, c->tree ? c->tree : "");
	expanded = expand(listing, s->dir);
	err = tree_parse(&tree, expanded);
	if (!err)
		err = tree_build(&tree, s->fd);
	if (err)
		bail_out("building a test tree", -err);
	tree_free(&tree);
	free(expanded);
	free(listing);

	s->start = openat(s->fd, c->start ? c->start : ".", O_PATH | O_CLOEXEC);
	if (s->start < 0)
		bail_out(c->start, errno);
	s->path = expand(c->path, s->dir);
}

static void scratch_remove(struct scratch *s)
{
	int err = tree_clear(s->fd);

	if (err)
		bail_out("removing a test directory", -err);
	if (close(s->start) || close(s->fd))
		bail_out("close", errno);
	if (rmdir(s->dir))
		bail_out(s->dir, errno);
	free(s->path);
}

/*
 * Is (@err, @st) from @who the answer @c expects in the tree at @s? Any
 * errno @also (if not 0) will do as well.
 */
static bool expected(const struct walk_case *c, const struct scratch *s,
		     const char *who, int err, const struct stat *st, int also)
{
	struct stat want;

	if (err != -c->error && !(also && err == -also)) {
		diag("%s: %s, expected %s", who, answer_name(-err), answer_name(c->error));
		return false;
	}
	if (err)
		return true;
	if (fstatat(s->fd, c->result, &want, AT_SYMLINK_NOFOLLOW)) {
		diag("%s: ok, but %s is missing", who, c->result);
		return false;
	}
	if (want.st_dev != st->st_dev || want.st_ino != st->st_ino) {
		diag("%s: ok, but not %s", who, c->result);
		return false;
	}
	return true;
}

/* What the model tells beyond the answer: what it made, and its stack. */
static bool expected_walk(const struct walk_case *c, const struct walk_result *res)
{
	bool ok = true;

	if (res->created != c->created) {
		diag("model: %s a file", res->created ? "created" : "did not create");
		ok = false;
	}
	if (c->links && res->total_link_count != c->links) {
		diag("model: followed %d links, expected %d", res->total_link_count,
		     c->links);
		ok = false;
	}
	if (c->depth && res->max_depth != c->depth) {
		diag("model: the stack grew %u high, expected %u", res->max_depth,
		     c->depth);
		ok = false;
	}
	return ok;
}

static void run_case(const struct walk_case *c)
{
	struct scratch model, kernel;
	struct walk_result res = { .fd = -1 };
	struct stat st;
	bool ok;
	int err;

	scratch_make(&model, c);
	err = walk_resolve(model.start, model.path, c->flags, &res, NULL);
	ok = expected(c, &model, "model", err, &res.st, 0);
	if (!err) {
		ok &= expected_walk(c, &res);
		if (close(res.fd))
			bail_out("close", errno);
	}
	scratch_remove(&model);

	scratch_make(&kernel, c);
	err = kernel_resolve(kernel.start, kernel.path, c->flags, &st);
	ok &= expected(c, &kernel, "kernel", err, &st, c->or_error);
	scratch_remove(&kernel);

	report(ok, c->name);
}

/* n links c1 .. cn in @dir: cn -> c(n-1), c1 -> target. */
static void make_chain(char *buf, size_t size, const char *dir, int n,
		       const char *target)
{
	size_t len = snprintf(buf, size, "%sc1 -> %s\n", dir, target);
	int i;

	for (i = 2; i <= n && len < size; i++)
		len += snprintf(buf + len, size - len, "%sc%d -> c%d\n", dir, i, i - 1);
	if (len >= size)
		bail_out("make_chain", ENOBUFS);
}

/* "./" repeated, then @tail, @len bytes in all. */
static void make_dots(char *buf, size_t len, const char *tail)
{
	size_t tail_len = strlen(tail), i;

	for (i = 0; i + tail_len < len; i++)
		buf[i] = i % 2 ? '/' : '.';
	memcpy(buf + i, tail, tail_len + 1);
}

static void make_long_strings(void)
{
	make_chain(chain40, sizeof(chain40), "", 40, "file");
	make_chain(chain41, sizeof(chain41), "", 41, "file");
	make_chain(chain21_dir, sizeof(chain21_dir), "", 21, "dir");
	make_chain(chain21_up, sizeof(chain21_up), "dir/", 21, "..");
	memset(name_max, 'n', NAME_MAX);
	memset(name_too_long, 'n', NAME_MAX + 1);
	snprintf(tree_name_max, sizeof(tree_name_max), "%s\n", name_max);
	/* an odd length ends in "//file" */
	make_dots(path_max, PATH_MAX - 1, "/file");
	make_dots(path_too_long, PATH_MAX, "file");
	memcpy(tree_body_max, "lb -> ", 6);
	memcpy(tree_body_max + 6, path_max, PATH_MAX);
}

/*
 * With walk_verbose set the model prints each event and the stack after it:
 * the third nested link moves it to the heap, and, as in the kernel, the
 * remnants sit one frame below their links in a trailing link's body.
 */
static void test_verbose(void)
{
	static const char *const want[] = {
		"walk: namei_link_body: depth=3 body=\"dir\" remnant=\"sub\"\n"
		"  depth: 3\n"
		"  total_link_count: 3 of 40\n"
		"  stack: heap array (40 frames)\n"
		"  [0] link n1  remnant \"file\"\n"
		"  [1] link n2  remnant \"sub\"\n"
		"  [2] link n3  remnant (none)\n",
		"walk: namei_link_pop: depth=0 links=3 link=\"n1\" reason=walked\n"
		"  depth: 0\n",
	};
	const struct walk_case c = { .tree = "n1 -> n2/file\nn2 -> n3/sub\nn3 -> dir\n",
				     .path = "n1" };
	struct walk_result res;
	struct scratch s;
	char trace[4096] = "";
	int saved, memfd, err;
	ssize_t len;
	bool ok = true;
	size_t i;

	scratch_make(&s, &c);
	memfd = memfd_create("trace", MFD_CLOEXEC);
	saved = dup(STDERR_FILENO);
	if (memfd < 0 || saved < 0 || dup2(memfd, STDERR_FILENO) < 0)
		bail_out("capturing stderr", errno);
	walk_verbose = true;
	err = walk_resolve(s.start, s.path, LOOKUP_FOLLOW, &res, NULL);
	walk_verbose = false;
	if (dup2(saved, STDERR_FILENO) < 0 || close(saved))
		bail_out("restoring stderr", errno);
	len = pread(memfd, trace, sizeof(trace) - 1, 0);
	if (len < 0 || close(memfd))
		bail_out("reading the trace", errno);
	trace[len] = '\0';
	if (err) {
		diag("model: %s", answer_name(-err));
		ok = false;
	} else if (close(res.fd)) {
		bail_out("close", errno);
	}
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		if (!strstr(trace, want[i])) {
			diag("the trace lacks:\n%s", want[i]);
			ok = false;
		}
	}
	scratch_remove(&s);
	report(ok, "walk_verbose prints the stack at each push and pop");
}

struct events_case {
	const char *name;
	const char *tree;
	const char *path;
	unsigned int flags;
	const char *want;	/* the events, a line each */
};

/*
 * The events the model records for the last attempt, where the kernel
 * fires them: the fuzzer holds the kernel's trace to the same lines.
 */
static const struct events_case events_cases[] = {
	{
		.name = "events: a trailing link's body nested two deep",
		.tree = "n1 -> n2/file\nn2 -> dir\n",
		.path = "n1",
		.flags = LOOKUP_FOLLOW,
		.want = "namei_link_push: depth=1 links=1 link=\"n1\" trailing=1\n"
			"namei_link_body: depth=1 body=\"n2/file\" remnant=\"\"\n"
			"namei_link_push: depth=2 links=2 link=\"n2\" trailing=0\n"
			"namei_link_body: depth=2 body=\"dir\" remnant=\"file\"\n"
			"namei_link_pop: depth=1 links=2 link=\"n2\" reason=walked\n"
			"namei_link_pop: depth=0 links=2 link=\"n1\" reason=walked\n",
	},
	{
		.name = "events: a pure jump",
		.tree = "j -> /\n",
		.path = "j",
		.flags = LOOKUP_FOLLOW,
		.want = "namei_link_push: depth=1 links=1 link=\"j\" trailing=1\n"
			"namei_jump_root: depth=1 error=0\n"
			"namei_link_pop: depth=0 links=1 link=\"j\" reason=walked\n",
	},
	{
		.name = "events: RESOLVE_BENEATH refuses an absolute body",
		.tree = "a -> /x\n",
		.path = "a/file",
		.flags = LOOKUP_FOLLOW | LOOKUP_BENEATH,
		.want = "namei_link_push: depth=1 links=1 link=\"a\" trailing=0\n"
			"namei_jump_root: depth=1 error=-18\n"
			"namei_link_pop: depth=0 links=1 link=\"a\" reason=terminate\n",
	},
	{
		.name = "events: RESOLVE_NO_SYMLINKS",
		.tree = "a -> dir\n",
		.path = "a/file",
		.flags = LOOKUP_FOLLOW | LOOKUP_NO_SYMLINKS,
		.want = "namei_link_push: depth=1 links=1 link=\"a\" trailing=0\n"
			"namei_eloop: depth=1 links=1 link=\"a\" reason=no_symlinks\n"
			"namei_link_pop: depth=0 links=1 link=\"a\" reason=terminate\n",
	},
	{
		.name = "events: O_CREAT|O_NOFOLLOW on a link",
		.tree = "a -> file\n",
		.path = "a",
		.flags = LOOKUP_CREATE,
		.want = "namei_eloop: depth=0 links=0 link=\"a\" reason=nofollow\n",
	},
	{
		.name = "events: O_CREAT through a dangling link keeps its frame",
		.tree = "a -> new\n",
		.path = "a",
		.flags = LOOKUP_CREATE | LOOKUP_FOLLOW,
		.want = "namei_link_push: depth=1 links=1 link=\"a\" trailing=1\n"
			"namei_link_body: depth=1 body=\"new\" remnant=\"\"\n"
			"namei_link_pop: depth=0 links=1 link=\"a\" reason=terminate\n",
	},
};

static void run_events_case(const struct events_case *c)
{
	const struct walk_case wc = { .tree = c->tree, .path = c->path };
	static struct walk_events events;
	char got[4096] = "", line[512];
	struct walk_result res;
	struct scratch s;
	unsigned int i;
	int err;

	scratch_make(&s, &wc);
	err = walk_resolve(s.start, s.path, c->flags, &res, &events);
	if (!err && close(res.fd))
		bail_out("close", errno);
	scratch_remove(&s);
	for (i = 0; i < events.count; i++) {
		walk_event_format(events.event + i, line, sizeof(line));
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s\n", line);
	}
	if (strcmp(got, c->want))
		diag("model (%s), events:\n%swanted:\n%s", answer_name(-err), got, c->want);
	report(!strcmp(got, c->want), c->name);
}

/* The budget: the 41st link is refused before it is pushed. */
static void test_events_budget(void)
{
	const struct walk_case wc = { .tree = chain41, .path = "c41" };
	static struct walk_events events;
	const struct walk_event *last;
	char line[512] = "";
	struct walk_result res;
	struct scratch s;
	bool ok;
	int err;

	scratch_make(&s, &wc);
	err = walk_resolve(s.start, s.path, LOOKUP_FOLLOW, &res, &events);
	scratch_remove(&s);
	last = events.count ? events.event + events.count - 1 : NULL;
	if (last)
		walk_event_format(last, line, sizeof(line));
	/*
	 * c41 .. c2 each pushed, entered and popped before the next is
	 * pushed; c1, the 41st, refused on an empty stack.
	 */
	ok = err == -ELOOP && last && events.count == 40 * 3 + 1 &&
	     !strcmp(line, "namei_eloop: depth=0 links=41 link=\"c1\" reason=budget");
	if (!ok)
		diag("model: %s, %u events, the last: %s", answer_name(-err),
		     events.count, line);
	report(ok, "events: the 41st link of a chain is refused, on an empty stack");
}

/*
 * Run the tool in @dir: its exit status, and its first line (stdout or
 * stderr) in @out.
 */
static int run_tool(const char *tool, const char *dir, char *const args[],
		    char *out, size_t size)
{
	int pipefd[2], status;
	size_t used;
	ssize_t len;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		bail_out("pipe2", errno);
	pid = fork();
	if (pid < 0)
		bail_out("fork", errno);
	if (pid == 0) {
		if (dup2(pipefd[1], STDOUT_FILENO) < 0 ||
		    dup2(pipefd[1], STDERR_FILENO) < 0 || chdir(dir))
			_exit(127);
		execv(tool, args);
		_exit(127);
	}
	if (close(pipefd[1]))
		bail_out("close", errno);
	/* read to the end: a closed pipe would kill the tool with SIGPIPE */
	for (used = 0; (len = read(pipefd[0], out + used, size - 1 - used)) > 0;)
		used += len;
	if (len < 0 || close(pipefd[0]) || waitpid(pid, &status, 0) != pid)
		bail_out("running the tool", errno);
	out[used] = '\0';
	out[strcspn(out, "\n")] = '\0';
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_tool(const char *tool)
{
	const struct walk_case c = { .tree = "l -> file\n", .path = "" };
	char *const lstat_args[] = { "walk", "-P", "l", NULL };
	char *const missing_args[] = { "walk", "-C", "dir", "nope", NULL };
	char *const bad_args[] = { "walk", "--excl", "l", NULL };
	char out[1024], want[256];
	struct scratch s;
	struct stat st;
	int status;
	bool ok;

	scratch_make(&s, &c);
	if (fstatat(s.fd, "l", &st, AT_SYMLINK_NOFOLLOW))
		bail_out("lstat", errno);
	snprintf(want, sizeof(want), "ok dev=%lu ino=%lu", (unsigned long)st.st_dev,
		 (unsigned long)st.st_ino);
	status = run_tool(tool, s.dir, lstat_args, out, sizeof(out));
	ok = !status && !strcmp(out, want);
	if (!ok)
		diag("walk -P l: exit %d, \"%s\"; expected 0, \"%s\"", status, out, want);
	report(ok, "walk -P prints the link's dev and ino");

	status = run_tool(tool, s.dir, missing_args, out, sizeof(out));
	ok = status == 1 && !strcmp(out, "ENOENT");
	if (!ok)
		diag("walk -C dir nope: exit %d, \"%s\"", status, out);
	report(ok, "walk prints the errno's name");

	status = run_tool(tool, s.dir, bad_args, out, sizeof(out));
	ok = status == 2 && !strcmp(out, "walk: --excl needs --creat");
	if (!ok)
		diag("walk --excl l: exit %d, \"%s\"", status, out);
	report(ok, "walk: --excl without --creat is bad usage");
	scratch_remove(&s);
}

int main(int argc, char **argv)
{
	char tool[PATH_MAX];
	size_t i;

	make_long_strings();
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		run_case(cases + i);
	test_verbose();
	for (i = 0; i < ARRAY_SIZE(events_cases); i++)
		run_events_case(events_cases + i);
	test_events_budget();
	if (argc > 1) {
		/* the tool runs in a test directory */
		if (!realpath(argv[1], tool))
			bail_out(argv[1], errno);
		test_tool(tool);
	}
	printf("1..%u\n", test_count);
	return failed;
}
