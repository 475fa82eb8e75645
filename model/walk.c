// SPDX-License-Identifier: GPL-2.0
/*
 * The walk, modelled on fs/namei.c of Linux 6.12. Each function bears the
 * name of the kernel function it models and does what that one does, in
 * the same order, with an O_PATH fd where the kernel holds a dentry:
 *
 *   walk_resolve()       filename_lookup(), do_filp_open(): an RCU-walk attempt,
 *                        and a REF-walk one if the first gives up
 *   path_lookupat()      one attempt at stat, lstat, open without O_CREAT
 *   path_openat()        one attempt at open with O_CREAT
 *   path_init()          where the walk starts, and its root
 *   link_path_walk()     every component but the last
 *   lookup_last()        the last component (open_last_lookups() for O_CREAT)
 *   lookup_open(), do_open()  what O_CREAT creates, and what it refuses
 *   walk_component()     one component: look it up, pop a finished link, step
 *   step_into()          move there, or follow the link found there
 *   pick_link()          push a link on the stack and read its body
 *   reserve_stack()      the budget of 40 links; the stack's move to the heap
 *   put_link()           pop
 *   handle_dots()        "." and ".."
 *   nd_jump_root()       an absolute path or body restarts at the root
 *
 * Each has the kernel's signature where the model holds the same things:
 * a struct nameidata, struct saved for the frames of its symlink stack,
 * LOOKUP_* in nd->flags, WALK_* for how a component is treated, and, from
 * those that may hand back a link to follow, a const char * that is the
 * link's body, NULL, or an errno in a pointer (ERR_PTR(), err.h).
 *
 * Left out: RCU-walk but for its one decision of its own (LOOKUP_RCU below)
 * and its other ways to fail, permission checks of its own
 * (may_lookup() and may_follow_link(); openat() makes the lookup's), the
 * mount rules (LOOKUP_NO_XDEV, paths compared by st_dev/st_ino rather than
 * by mount and dentry) and magic links (/proc/PID/fd/N, nd_jump_link()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "walk.h"

#define EMBEDDED_LEVELS	2	/* frames inside struct nameidata itself */
#define MAXSYMLINKS	WALK_MAXSYMLINKS

/* nd->last_type */
enum { LAST_NORM, LAST_ROOT, LAST_DOT, LAST_DOTDOT };

/*
 * The first attempt of a lookup, in the kernel's RCU-walk. The model has
 * RCU-walk only where it changes the answer: in the kernel it goes on
 * while every name is in the dcache and no atime is due for an update (a
 * tmpfs mounted noatime, say), and then fails with -ECHILD only at ".."
 * in the root of a RESOLVE_BENEATH lookup (follow_dotdot_rcu()).
 */
#define LOOKUP_RCU	0x10000		/* beyond the flags of walk.h */

/* How walk_component() and step_into() treat the component at hand. */
enum {
	WALK_TRAILING = 1,	/* the last component of the whole lookup */
	WALK_MORE = 2,		/* more components follow it */
	WALK_NOFOLLOW = 4,	/* never a link to follow: ".." */
};

bool walk_verbose;

/*
 * Where the walk stands, or what a lookup found. fd -1 is no path, or,
 * from lookup_component(), a name that is not there: a negative dentry.
 */
struct path {
	int fd;			/* O_PATH; a link is opened itself, not followed */
	struct stat st;		/* what nd->inode tells the kernel */
};

/* A name in the path or in a body, not NUL-terminated there. */
struct qstr {
	const char *name;
	size_t len;
};

/* The walk in progress. */
struct nameidata {
	struct path path;		/* where the walk stands */
	struct qstr last;		/* the component at hand */
	struct path root;		/* fd -1 until needed: set_root() */
	unsigned int flags;		/* LOOKUP_*, some set on the way */
	int last_type;
	unsigned int depth;		/* the stack's height */
	int total_link_count;		/* links followed so far */
	/* A link being followed. */
	struct saved {
		/* the link, by the name the events give it: all the model
		 * keeps of the kernel's struct path link once its body is read */
		char link[NAME_MAX + 1];
		char *done;		/* the body's buffer, freed by put_link():
					 * the kernel's delayed_call */
		const char *name;	/* remnant: where to resume (link_path_walk()) */
	} *stack, internal[EMBEDDED_LEVELS];
	const char *name;		/* what the lookup resolves */
	int dfd;			/* and where from */
	/* the model's own */
	char last_name[NAME_MAX + 1];	/* last as a string, for openat() */
	bool created;			/* lookup_open() made the file */
	unsigned int max_depth;		/* the stack's greatest height */
	struct walk_events *events;	/* of this attempt, or NULL */
};

/* Closing an O_PATH fd fails only when it is no fd: a bug in the model. */
static void path_put(struct path *path)
{
	if (path->fd >= 0 && close(path->fd) != 0)
		abort();
	path->fd = -1;
}

/* Move to @to, which the walk now owns. */
static void path_replace(struct path *path, struct path *to)
{
	path_put(path);
	*path = *to;
	to->fd = -1;
}

static bool path_equal(const struct path *a, const struct path *b)
{
	return a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino;
}

/* Fill in path->st for a fresh path->fd, or drop it. */
static int path_stat(struct path *path)
{
	int err;

	if (fstat(path->fd, &path->st) == 0)
		return 0;
	err = -errno;
	path_put(path);
	return err;
}

/* A path of its own for what @fd refers to. */
static int path_from_fd(int fd, struct path *path)
{
	path->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (path->fd < 0)
		return -errno;
	return path_stat(path);
}

/*
 * The only lookup the model asks of the kernel: what is @name in the
 * directory @dirfd? @name is a single component, and O_NOFOLLOW makes
 * openat() open a link itself instead of what it points to.
 */
static int lookup_one(int dirfd, const char *name, struct path *found)
{
	found->fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (found->fd < 0)
		return -errno;
	return path_stat(found);
}

/* Cut to WALK_EVENT_NAME_MAX bytes, as the events cut names. */
static void copy_name(char *dst, const char *src)
{
	size_t len = strnlen(src, WALK_EVENT_NAME_MAX);

	memcpy(dst, src, len);
	dst[len] = '\0';
}

void walk_event_format(const struct walk_event *event, char *buf, size_t size)
{
	switch (event->type) {
	case WALK_EVENT_PUSH:
		snprintf(buf, size, "namei_link_push: depth=%d links=%d link=\"%s\" trailing=%d",
			 event->depth, event->links, event->link, event->trailing);
		break;
	case WALK_EVENT_BODY:
		snprintf(buf, size, "namei_link_body: depth=%d body=\"%s\" remnant=\"%s\"",
			 event->depth, event->body, event->remnant);
		break;
	case WALK_EVENT_POP:
		snprintf(buf, size, "namei_link_pop: depth=%d links=%d link=\"%s\" reason=%s",
			 event->depth, event->links, event->link, event->reason);
		break;
	case WALK_EVENT_JUMP_ROOT:
		snprintf(buf, size, "namei_jump_root: depth=%d error=%d",
			 event->depth, event->error);
		break;
	case WALK_EVENT_ELOOP:
		snprintf(buf, size, "namei_eloop: depth=%d links=%d link=\"%s\" reason=%s",
			 event->depth, event->links, event->link, event->reason);
		break;
	}
}

/* With walk_verbose: the event, then the stack as lx-nameidata shows it. */
static void print_event(const struct nameidata *nd, const struct walk_event *event)
{
	char line[4 * WALK_EVENT_NAME_MAX];
	unsigned int i;

	walk_event_format(event, line, sizeof(line));
	fprintf(stderr, "walk: %s\n  depth: %u\n  total_link_count: %d of %d\n",
		line, nd->depth, nd->total_link_count, MAXSYMLINKS);
	if (nd->stack == nd->internal)
		fprintf(stderr, "  stack: embedded (%d frames)\n", EMBEDDED_LEVELS);
	else
		fprintf(stderr, "  stack: heap array (%d frames)\n", MAXSYMLINKS);
	for (i = 0; i < nd->depth; i++) {
		const struct saved *frame = nd->stack + i;

		if (frame->name)
			fprintf(stderr, "  [%u] link %s  remnant \"%s\"\n", i,
				frame->link, frame->name);
		else
			fprintf(stderr, "  [%u] link %s  remnant (none)\n", i,
				frame->link);
	}
}

/*
 * An event of the walk, where the kernel fires it; its depth and links are
 * the walk's at that point. The caller fills in the rest.
 */
static struct walk_event *record(struct nameidata *nd, enum walk_event_type type,
				 struct walk_event *scratch)
{
	struct walk_event *event = scratch;

	if (nd->events) {
		/* WALK_EVENTS_MAX bounds any walk: more is a bug of the model */
		if (nd->events->count == WALK_EVENTS_MAX)
			abort();
		event = nd->events->event + nd->events->count++;
	}
	*event = (struct walk_event){
		.type = type,
		.depth = nd->depth,
		.links = nd->total_link_count,
	};
	return event;
}

static void record_link(struct nameidata *nd, enum walk_event_type type,
			const char *link, const char *reason, int trailing)
{
	struct walk_event scratch, *event = record(nd, type, &scratch);

	copy_name(event->link, link);
	event->reason = reason;
	event->trailing = trailing;
	if (walk_verbose)
		print_event(nd, event);
}

static void record_body(struct nameidata *nd, const char *body, const char *remnant)
{
	struct walk_event scratch, *event = record(nd, WALK_EVENT_BODY, &scratch);

	copy_name(event->body, body);
	copy_name(event->remnant, remnant);
	if (walk_verbose)
		print_event(nd, event);
}

static void record_jump_root(struct nameidata *nd, int error)
{
	struct walk_event scratch, *event = record(nd, WALK_EVENT_JUMP_ROOT, &scratch);

	event->error = error;
	if (walk_verbose)
		print_event(nd, event);
}

static bool nd_alloc_stack(struct nameidata *nd)
{
	struct saved *p = calloc(MAXSYMLINKS, sizeof(*p));

	if (!p)
		return false;
	memcpy(p, nd->internal, sizeof(nd->internal));
	nd->stack = p;
	return true;
}

/* Spend one link of the budget; make room for a third frame and up. */
static int reserve_stack(struct nameidata *nd)
{
	if (nd->total_link_count++ >= MAXSYMLINKS) {
		record_link(nd, WALK_EVENT_ELOOP, nd->last_name, "budget", 0);
		return -ELOOP;
	}
	if (nd->depth != EMBEDDED_LEVELS)
		return 0;
	if (nd->stack != nd->internal)
		return 0;
	return nd_alloc_stack(nd) ? 0 : -ENOMEM;
}

/* Pop the top link: its body is walked, or is being left for good. */
static void put_link(struct nameidata *nd)
{
	struct saved *last = nd->stack + --nd->depth;

	free(last->done);
	last->done = NULL;
	record_link(nd, WALK_EVENT_POP, last->link, "walked", 0);
}

static int set_root(struct nameidata *nd)
{
	return lookup_one(AT_FDCWD, "/", &nd->root);
}

static int nd_jump_root(struct nameidata *nd)
{
	struct path root;
	int err = -EXDEV;

	if (nd->flags & LOOKUP_BENEATH)
		goto out;
	if (nd->root.fd < 0) {
		err = set_root(nd);
		if (err)
			goto out;
	}
	err = path_from_fd(nd->root.fd, &root);
	if (!err)
		path_replace(&nd->path, &root);
out:
	record_jump_root(nd, err);
	return err;
}

/*
 * The link's body, as ->get_link() gives it to the kernel, or an errno;
 * *@done is what put_link() frees.
 */
static const char *get_link(const struct path *link, char **done)
{
	char buf[PATH_MAX];
	ssize_t len;

	len = readlinkat(link->fd, "", buf, sizeof(buf));
	if (len < 0)
		return ERR_PTR(-errno);
	/* symlink() stores at most PATH_MAX - 1 bytes: a full buffer is cut. */
	if (len == sizeof(buf))
		return ERR_PTR(-ENAMETOOLONG);
	*done = strndup(buf, len);
	return *done ? *done : ERR_PTR(-ENOMEM);
}

/*
 * Push @link, which the walk now owns, and return the rest of its body to
 * walk; NULL when there is none left after a jump to the root (a body of
 * slashes only), whose frame is popped at once.
 */
static const char *pick_link(struct nameidata *nd, struct path *link, int flags)
{
	struct saved *last;
	const char *res;
	int error = reserve_stack(nd);

	if (error) {
		path_put(link);
		return ERR_PTR(error);
	}
	last = nd->stack + nd->depth++;
	if (nd->depth > nd->max_depth)
		nd->max_depth = nd->depth;
	/* step_into() is only ever handed what lookup_component() found */
	memcpy(last->link, nd->last_name, sizeof(last->link));
	last->done = NULL;
	last->name = NULL;
	record_link(nd, WALK_EVENT_PUSH, last->link, NULL, !!(flags & WALK_TRAILING));

	if (nd->flags & LOOKUP_NO_SYMLINKS) {
		path_put(link);
		record_link(nd, WALK_EVENT_ELOOP, last->link, "no_symlinks", 0);
		return ERR_PTR(-ELOOP);
	}
	res = get_link(link, &last->done);
	path_put(link);
	if (IS_ERR(res))
		return res;

	if (*res == '/') {
		error = nd_jump_root(nd);
		if (error)
			return ERR_PTR(error);
		while (*++res == '/')
			;
	}
	if (*res)
		return res;
	/* a pure jump */
	put_link(nd);
	return NULL;
}

/*
 * Move onto @found (the walk now owns it) and return NULL, or, if it is a
 * link to follow, push it and return its body.
 */
static const char *step_into(struct nameidata *nd, int flags, struct path *found)
{
	/* a negative dentry: handle_mounts() refuses it */
	if (found->fd < 0)
		return ERR_PTR(-ENOENT);
	if (!S_ISLNK(found->st.st_mode) ||
	    ((flags & WALK_TRAILING) && !(nd->flags & LOOKUP_FOLLOW)) ||
	    (flags & WALK_NOFOLLOW)) {
		path_replace(&nd->path, found);
		return NULL;
	}
	return pick_link(nd, found, flags);
}

static int follow_dotdot(struct nameidata *nd, struct path *parent)
{
	if (path_equal(&nd->path, &nd->root)) {
		/*
		 * ".." stops at the root, and RESOLVE_BENEATH refuses to try;
		 * but follow_dotdot_rcu() leaves that to the REF-walk attempt.
		 */
		if (nd->flags & LOOKUP_BENEATH)
			return nd->flags & LOOKUP_RCU ? -ECHILD : -EXDEV;
		return path_from_fd(nd->path.fd, parent);
	}
	return lookup_one(nd->path.fd, "..", parent);
}

static const char *handle_dots(struct nameidata *nd, int type)
{
	struct path parent;
	int err;

	if (type == LAST_DOTDOT) {
		if (nd->root.fd < 0) {
			err = set_root(nd);
			if (err)
				return ERR_PTR(err);
		}
		err = follow_dotdot(nd, &parent);
		if (err)
			return ERR_PTR(err);
		return step_into(nd, WALK_NOFOLLOW, &parent);
	}
	return NULL;
}

/*
 * lookup_fast() and lookup_slow(): the component at hand in the walk's
 * directory. A name that is not there is no error yet: *@found is then
 * negative (fd -1), as the kernel's lookup finds a negative dentry, which
 * step_into() refuses (after walk_component() pops a finished link) and
 * open_last_lookups() creates.
 */
static int lookup_component(struct nameidata *nd, struct path *found)
{
	int err;

	/* Like simple_lookup(): no name in a directory is longer. */
	if (nd->last.len > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(nd->last_name, nd->last.name, nd->last.len);
	nd->last_name[nd->last.len] = '\0';
	err = lookup_one(nd->path.fd, nd->last_name, found);
	if (err == -ENOENT) {
		found->fd = -1;
		return 0;
	}
	return err;
}

static const char *walk_component(struct nameidata *nd, int flags)
{
	struct path found;
	int err;

	if (nd->last_type != LAST_NORM) {
		if (!(flags & WALK_MORE) && nd->depth)
			put_link(nd);
		return handle_dots(nd, nd->last_type);
	}
	err = lookup_component(nd, &found);
	if (err)
		return ERR_PTR(err);
	/*
	 * The last component of a body: that link is done. Popping it before
	 * stepping keeps a chain of links one frame high.
	 */
	if (!(flags & WALK_MORE) && nd->depth)
		put_link(nd);
	return step_into(nd, flags, &found);
}

static int component_type(const char *name, size_t len)
{
	if (len == 1 && name[0] == '.')
		return LAST_DOT;
	if (len == 2 && name[0] == '.' && name[1] == '.')
		return LAST_DOTDOT;
	return LAST_NORM;
}

/*
 * Walk every component of @name but the last, following the links met on
 * the way; on return nd->last is the last component, for lookup_last().
 *
 * depth counts the remnants this call saved, and indexes the stack like
 * the kernel's does: it equals nd->depth in a walk of the path itself,
 * but in the walk of a trailing link's body (a new call, depth 0) the
 * trailing link holds frame 0, so the first remnant saved here goes into
 * frame 0 too, below the frame of the link it belongs to.
 */
static int link_path_walk(const char *name, struct nameidata *nd)
{
	unsigned int depth = 0;

	nd->last_type = LAST_ROOT;
	/* path_init(), lookup_last() or open_last_lookups() failed */
	if (IS_ERR(name))
		return PTR_ERR(name);
	while (*name == '/')
		name++;
	if (!*name)
		return 0;
	/* the body of a trailing link, on top of the stack, has no remnant */
	if (nd->depth)
		record_body(nd, name, "");

	for (;;) {
		const char *link;

		nd->last.name = name;
		nd->last.len = strcspn(name, "/");
		nd->last_type = component_type(name, nd->last.len);
		name += nd->last.len;
		while (*name == '/')
			name++;

		if (*name) {
			link = walk_component(nd, WALK_MORE);
		} else {
			/* the path's last component, or a trailing link's */
			if (!depth)
				return 0;
			/* the last component of a link met on the way */
			name = nd->stack[--depth].name;
			link = walk_component(nd, 0);
		}
		if (link) {
			if (IS_ERR(link))
				return PTR_ERR(link);
			/* a link to follow: resume at name once it is walked */
			nd->stack[depth++].name = name;
			record_body(nd, link, name);
			name = link;
			continue;
		}
		if (!S_ISDIR(nd->path.st.st_mode))
			return -ENOTDIR;
	}
}

static const char *lookup_last(struct nameidata *nd)
{
	/* A trailing slash follows a final link and wants a directory. */
	if (nd->last_type == LAST_NORM && nd->last.name[nd->last.len])
		nd->flags |= LOOKUP_FOLLOW | LOOKUP_DIRECTORY;
	return walk_component(nd, WALK_TRAILING);
}

/* The final name is missing: create it, as lookup_open() does. */
static int lookup_open(struct nameidata *nd)
{
	struct path created;
	int err;

	created.fd = openat(nd->path.fd, nd->last_name,
			    O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (created.fd < 0)
		return -errno;
	err = path_stat(&created);
	if (err)
		return err;
	path_replace(&nd->path, &created);
	nd->created = true;
	return 0;
}

static const char *open_last_lookups(struct nameidata *nd)
{
	struct path found;
	int err;

	if (nd->last_type != LAST_NORM) {
		if (nd->depth)
			put_link(nd);
		return handle_dots(nd, nd->last_type);
	}
	/* lookup_fast_for_open(): O_CREAT makes no directory */
	if (nd->last.name[nd->last.len])
		return ERR_PTR(-EISDIR);
	err = lookup_component(nd, &found);
	if (err)
		return ERR_PTR(err);
	/*
	 * Created, not stepped into: a link whose body named it stays on
	 * the stack until terminate_walk(), as in the kernel.
	 */
	if (found.fd < 0) {
		err = lookup_open(nd);
		return err ? ERR_PTR(err) : NULL;
	}
	if (nd->depth)
		put_link(nd);
	return step_into(nd, WALK_TRAILING, &found);
}

/* What do_open() refuses to open with O_CREAT. */
static int do_open(struct nameidata *nd)
{
	if ((nd->flags & LOOKUP_EXCL) && !nd->created)
		return -EEXIST;
	if (S_ISDIR(nd->path.st.st_mode))
		return -EISDIR;
	/* may_open(): a final link left unfollowed opens as nothing */
	if (S_ISLNK(nd->path.st.st_mode)) {
		record_link(nd, WALK_EVENT_ELOOP, nd->last_name, "nofollow", 0);
		return -ELOOP;
	}
	return 0;
}

/* Where the walk starts, and its root: nd->name, or an errno. */
static const char *path_init(struct nameidata *nd, unsigned int flags)
{
	const char *s = nd->name;
	int err;

	/*
	 * Each attempt is charged only for the links it follows itself (the
	 * first patch of the series: 6.12 charged a retry for its first
	 * attempt's links too). The events are of the last attempt.
	 */
	nd->total_link_count = 0;
	if (nd->events)
		nd->events->count = 0;
	nd->flags = flags;
	/* RESOLVE_IN_ROOT's "/" is dirfd: start there, as for any relative path */
	if (*s == '/' && !(flags & LOOKUP_IN_ROOT)) {
		err = nd_jump_root(nd);
		return err ? ERR_PTR(err) : s;
	}

	if (nd->dfd == AT_FDCWD)
		err = lookup_one(AT_FDCWD, ".", &nd->path);
	else
		err = path_from_fd(nd->dfd, &nd->path);
	if (err)
		return ERR_PTR(err);
	if (!S_ISDIR(nd->path.st.st_mode))
		return ERR_PTR(-ENOTDIR);

	/* a scoped lookup's root is where it starts */
	if (flags & LOOKUP_IS_SCOPED) {
		err = path_from_fd(nd->path.fd, &nd->root);
		if (err)
			return ERR_PTR(err);
	}
	return s;
}

/* The end of one attempt: drop_links() and the path_put()s. */
static void terminate_walk(struct nameidata *nd)
{
	while (nd->depth) {
		struct saved *last = nd->stack + --nd->depth;

		free(last->done);
		last->done = NULL;
		record_link(nd, WALK_EVENT_POP, last->link, "terminate", 0);
	}
	path_put(&nd->path);
	path_put(&nd->root);
}

/* One attempt at a lookup; on success *@result is what it found. */
static int path_lookupat(struct nameidata *nd, unsigned int flags,
			 struct path *result)
{
	const char *s = path_init(nd, flags);
	int err;

	while (!(err = link_path_walk(s, nd)) &&
	       (s = lookup_last(nd)) != NULL)
		;
	if (!err && (nd->flags & LOOKUP_DIRECTORY) && !S_ISDIR(nd->path.st.st_mode))
		err = -ENOTDIR;
	if (!err)
		path_replace(result, &nd->path);
	terminate_walk(nd);
	return err;
}

/* One attempt at an open with O_CREAT. */
static int path_openat(struct nameidata *nd, unsigned int flags,
		       struct path *result)
{
	const char *s = path_init(nd, flags);
	int err;

	nd->created = false;
	while (!(err = link_path_walk(s, nd)) &&
	       (s = open_last_lookups(nd)) != NULL)
		;
	if (!err)
		err = do_open(nd);
	if (!err)
		path_replace(result, &nd->path);
	terminate_walk(nd);
	return err;
}

/*
 * filename_lookup() and do_filp_open(): a first attempt in RCU-walk and,
 * if it gives up with -ECHILD, a second in REF-walk, on one nameidata.
 */
int walk_resolve(int dirfd, const char *path, unsigned int flags,
		 struct walk_result *out, struct walk_events *events)
{
	int (*attempt)(struct nameidata *nd, unsigned int flags,
		       struct path *result);
	struct path result = { .fd = -1 };
	struct nameidata nd = {
		.path.fd = -1,
		.root.fd = -1,
		.events = events,
	};
	int err;

	if (events)
		events->count = 0;
	/* build_open_flags() */
	if ((flags & LOOKUP_BENEATH) && (flags & LOOKUP_IN_ROOT))
		return -EINVAL;
	if ((flags & LOOKUP_CREATE) && (flags & LOOKUP_DIRECTORY))
		return -EINVAL;
	if ((flags & LOOKUP_CREATE) && (flags & LOOKUP_EXCL))
		flags &= ~LOOKUP_FOLLOW;

	/* getname(): PATH_MAX counts the terminating NUL */
	if (!*path)
		return -ENOENT;
	if (strnlen(path, PATH_MAX) == PATH_MAX)
		return -ENAMETOOLONG;

	/* set_nameidata() */
	nd.stack = nd.internal;
	nd.dfd = dirfd;
	nd.name = path;
	attempt = flags & LOOKUP_CREATE ? path_openat : path_lookupat;
	err = attempt(&nd, flags | LOOKUP_RCU, &result);
	if (err == -ECHILD) {
		if (walk_verbose)
			fputs("walk: RCU-walk gave up (ECHILD): again in REF-walk\n",
			      stderr);
		err = attempt(&nd, flags, &result);
	}
	if (!err) {
		out->fd = result.fd;
		out->st = result.st;
		out->created = nd.created;
		out->total_link_count = nd.total_link_count;
		out->max_depth = nd.max_depth;
	}
	/* restore_nameidata() */
	if (nd.stack != nd.internal)
		free(nd.stack);
	return err;
}
