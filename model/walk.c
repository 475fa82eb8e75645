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
 * Left out: RCU-walk but for its one decision of its own (WALK_RCU below)
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

#include "walk.h"

#define EMBEDDED_LEVELS	2	/* frames inside struct walk itself */
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
#define WALK_RCU	0x10000		/* beyond the flags of walk.h */

/* How walk_component() and step_into() treat the component at hand. */
enum {
	WALK_TRAILING = 1,	/* the last component of the whole lookup */
	WALK_MORE = 2,		/* more components follow it */
};

/* Where the walk stands, or what a lookup found: the kernel's struct path. */
struct path {
	int fd;			/* O_PATH; a link is opened itself, not followed */
	struct stat st;		/* what nd->inode tells the kernel */
};

/* A link being followed: the kernel's struct saved. */
struct frame {
	char link[NAME_MAX + 1];	/* the link's name */
	char *body;			/* its body, as ->get_link() gives it */
	const char *name;		/* remnant: where to resume (link_path_walk()) */
};

/* The walk in progress: the kernel's struct nameidata. */
struct walk {
	struct path path;		/* where the walk stands */
	struct {
		const char *name;	/* in the path or in a body */
		size_t len;
	} last;				/* the component at hand */
	char last_name[NAME_MAX + 1];	/* last as a string, for openat() */
	int last_type;
	struct path root;		/* fd -1 until needed: set_root() */
	unsigned int flags;		/* WALK_*, some set on the way */
	unsigned int depth;		/* the stack's height */
	int total_link_count;		/* links followed so far */
	struct frame *stack, internal[EMBEDDED_LEVELS];
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

static void copy_name(char *dst, const char *src)
{
	snprintf(dst, WALK_EVENT_NAME_MAX + 1, "%s", src);
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

/* With WALK_VERBOSE: the event, then the stack as lx-nameidata shows it. */
static void print_event(const struct walk *nd, const struct walk_event *event)
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
		const struct frame *frame = nd->stack + i;

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
static struct walk_event *record(struct walk *nd, enum walk_event_type type,
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

static void record_link(struct walk *nd, enum walk_event_type type,
			const char *link, const char *reason, int trailing)
{
	struct walk_event scratch, *event = record(nd, type, &scratch);

	copy_name(event->link, link);
	event->reason = reason;
	event->trailing = trailing;
	if (nd->flags & WALK_VERBOSE)
		print_event(nd, event);
}

static void record_body(struct walk *nd, const char *body, const char *remnant)
{
	struct walk_event scratch, *event = record(nd, WALK_EVENT_BODY, &scratch);

	copy_name(event->body, body);
	copy_name(event->remnant, remnant);
	if (nd->flags & WALK_VERBOSE)
		print_event(nd, event);
}

static void record_jump_root(struct walk *nd, int error)
{
	struct walk_event scratch, *event = record(nd, WALK_EVENT_JUMP_ROOT, &scratch);

	event->error = error;
	if (nd->flags & WALK_VERBOSE)
		print_event(nd, event);
}

static bool nd_alloc_stack(struct walk *nd)
{
	struct frame *p = calloc(MAXSYMLINKS, sizeof(*p));

	if (!p)
		return false;
	memcpy(p, nd->internal, sizeof(nd->internal));
	nd->stack = p;
	return true;
}

/* Spend one link of the budget; make room for a third frame and up. */
static int reserve_stack(struct walk *nd)
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
static void put_link(struct walk *nd)
{
	struct frame *last = nd->stack + --nd->depth;

	free(last->body);
	last->body = NULL;
	record_link(nd, WALK_EVENT_POP, last->link, "walked", 0);
}

static int set_root(struct walk *nd)
{
	return lookup_one(AT_FDCWD, "/", &nd->root);
}

static int nd_jump_root(struct walk *nd)
{
	struct path root;
	int err = -EXDEV;

	if (nd->flags & WALK_BENEATH)
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

/* The link's body, as ->get_link() gives it to the kernel. */
static int get_link(const struct path *link, char **body)
{
	char buf[PATH_MAX];
	ssize_t len;

	len = readlinkat(link->fd, "", buf, sizeof(buf));
	if (len < 0)
		return -errno;
	/* symlink() stores at most PATH_MAX - 1 bytes: a full buffer is cut. */
	if (len == sizeof(buf))
		return -ENAMETOOLONG;
	*body = strndup(buf, len);
	return *body ? 0 : -ENOMEM;
}

/*
 * Push @link, which the walk now owns, and set *@res to the rest of its
 * body to walk; NULL when there is none left after a jump to the root
 * (a body of slashes only), whose frame is popped at once.
 */
static int pick_link(struct walk *nd, struct path *link, int flags,
		     const char **res)
{
	struct frame *last;
	const char *body;
	int err = reserve_stack(nd);

	if (err) {
		path_put(link);
		return err;
	}
	last = nd->stack + nd->depth++;
	if (nd->depth > nd->max_depth)
		nd->max_depth = nd->depth;
	/* step_into() is only ever handed what lookup_component() found */
	memcpy(last->link, nd->last_name, sizeof(last->link));
	last->body = NULL;
	last->name = NULL;
	record_link(nd, WALK_EVENT_PUSH, last->link, NULL, !!(flags & WALK_TRAILING));

	if (nd->flags & WALK_NO_SYMLINKS) {
		path_put(link);
		record_link(nd, WALK_EVENT_ELOOP, last->link, "no_symlinks", 0);
		return -ELOOP;
	}
	err = get_link(link, &last->body);
	path_put(link);
	if (err)
		return err;

	body = last->body;
	if (*body == '/') {
		err = nd_jump_root(nd);
		if (err)
			return err;
		while (*++body == '/')
			;
	}
	if (*body) {
		*res = body;
		return 0;
	}
	/* a pure jump */
	put_link(nd);
	*res = NULL;
	return 0;
}

/*
 * Move onto @found (the walk now owns it), or, if it is a link to follow,
 * push it and set *@link to its body.
 */
static int step_into(struct walk *nd, int flags, struct path *found,
		     const char **link)
{
	*link = NULL;
	if (!S_ISLNK(found->st.st_mode) ||
	    ((flags & WALK_TRAILING) && !(nd->flags & WALK_FOLLOW))) {
		path_replace(&nd->path, found);
		return 0;
	}
	return pick_link(nd, found, flags, link);
}

static int follow_dotdot(struct walk *nd, struct path *parent)
{
	if (path_equal(&nd->path, &nd->root)) {
		/*
		 * ".." stops at the root, and RESOLVE_BENEATH refuses to try;
		 * but follow_dotdot_rcu() leaves that to the REF-walk attempt.
		 */
		if (nd->flags & WALK_BENEATH)
			return nd->flags & WALK_RCU ? -ECHILD : -EXDEV;
		return path_from_fd(nd->path.fd, parent);
	}
	return lookup_one(nd->path.fd, "..", parent);
}

static int handle_dots(struct walk *nd, int type)
{
	struct path parent;
	int err;

	if (type != LAST_DOTDOT)
		return 0;
	if (nd->root.fd < 0) {
		err = set_root(nd);
		if (err)
			return err;
	}
	err = follow_dotdot(nd, &parent);
	if (err)
		return err;
	/* step_into(nd, WALK_NOFOLLOW, parent): a directory, never a link */
	path_replace(&nd->path, &parent);
	return 0;
}

static int lookup_component(struct walk *nd, struct path *found)
{
	/* Like simple_lookup(): no name in a directory is longer. */
	if (nd->last.len > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(nd->last_name, nd->last.name, nd->last.len);
	nd->last_name[nd->last.len] = '\0';
	return lookup_one(nd->path.fd, nd->last_name, found);
}

static int walk_component(struct walk *nd, int flags, const char **link)
{
	struct path found;
	int err;

	*link = NULL;
	if (nd->last_type != LAST_NORM) {
		if (!(flags & WALK_MORE) && nd->depth)
			put_link(nd);
		return handle_dots(nd, nd->last_type);
	}
	err = lookup_component(nd, &found);
	/*
	 * A name that is not there is no error yet: the kernel's lookup finds
	 * a negative dentry, which step_into() refuses after the pop below.
	 */
	if (err && err != -ENOENT)
		return err;
	/*
	 * The last component of a body: that link is done. Popping it before
	 * stepping keeps a chain of links one frame high.
	 */
	if (!(flags & WALK_MORE) && nd->depth)
		put_link(nd);
	if (err)
		return err;
	return step_into(nd, flags, &found, link);
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
static int link_path_walk(const char *name, struct walk *nd)
{
	unsigned int depth = 0;
	const char *link;
	int err;

	nd->last_type = LAST_ROOT;
	while (*name == '/')
		name++;
	if (!*name)
		return 0;
	/* the body of a trailing link, on top of the stack, has no remnant */
	if (nd->depth)
		record_body(nd, name, "");

	for (;;) {
		nd->last.name = name;
		nd->last.len = strcspn(name, "/");
		nd->last_type = component_type(name, nd->last.len);
		name += nd->last.len;
		while (*name == '/')
			name++;

		if (*name) {
			err = walk_component(nd, WALK_MORE, &link);
		} else {
			/* the path's last component, or a trailing link's */
			if (!depth)
				return 0;
			/* the last component of a link met on the way */
			name = nd->stack[--depth].name;
			err = walk_component(nd, 0, &link);
		}
		if (err)
			return err;
		if (link) {
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

static int lookup_last(struct walk *nd, const char **link)
{
	/* A trailing slash follows a final link and wants a directory. */
	if (nd->last_type == LAST_NORM && nd->last.name[nd->last.len])
		nd->flags |= WALK_FOLLOW | WALK_DIRECTORY;
	return walk_component(nd, WALK_TRAILING, link);
}

/* The final name is missing: create it, as lookup_open() does. */
static int lookup_open(struct walk *nd)
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

static int open_last_lookups(struct walk *nd, const char **link)
{
	struct path found;
	int err;

	*link = NULL;
	if (nd->last_type != LAST_NORM) {
		if (nd->depth)
			put_link(nd);
		return handle_dots(nd, nd->last_type);
	}
	/* lookup_fast_for_open(): O_CREAT makes no directory */
	if (nd->last.name[nd->last.len])
		return -EISDIR;
	err = lookup_component(nd, &found);
	if (err == -ENOENT)
		return lookup_open(nd);
	if (err)
		return err;
	if (nd->depth)
		put_link(nd);
	return step_into(nd, WALK_TRAILING, &found, link);
}

/* What do_open() refuses to open with O_CREAT. */
static int do_open(struct walk *nd)
{
	if ((nd->flags & WALK_EXCL) && !nd->created)
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

static int path_init(struct walk *nd, unsigned int flags, int dirfd, const char *s)
{
	int err;

	nd->flags = flags;
	/*
	 * Each attempt is charged only for the links it follows itself (the
	 * first patch of the series: 6.12 charged a retry for its first
	 * attempt's links too). The events are of the last attempt.
	 */
	nd->total_link_count = 0;
	if (nd->events)
		nd->events->count = 0;
	/* RESOLVE_IN_ROOT's "/" is dirfd: start there, as for any relative path */
	if (*s == '/' && !(nd->flags & WALK_IN_ROOT))
		return nd_jump_root(nd);

	if (dirfd == AT_FDCWD)
		err = lookup_one(AT_FDCWD, ".", &nd->path);
	else
		err = path_from_fd(dirfd, &nd->path);
	if (err)
		return err;
	if (!S_ISDIR(nd->path.st.st_mode))
		return -ENOTDIR;

	/* a scoped lookup's root is where it starts */
	if (nd->flags & WALK_SCOPED)
		return path_from_fd(nd->path.fd, &nd->root);
	return 0;
}

/* The end of one attempt: drop_links() and the path_put()s. */
static void terminate_walk(struct walk *nd)
{
	while (nd->depth) {
		struct frame *last = nd->stack + --nd->depth;

		free(last->body);
		last->body = NULL;
		record_link(nd, WALK_EVENT_POP, last->link, "terminate", 0);
	}
	path_put(&nd->path);
	path_put(&nd->root);
}

/* One attempt at a lookup; on success *@result is what it found. */
static int path_lookupat(struct walk *nd, unsigned int flags, int dirfd,
			 const char *s, struct path *result)
{
	int err = path_init(nd, flags, dirfd, s);

	if (!err) {
		do {
			err = link_path_walk(s, nd);
			if (!err)
				err = lookup_last(nd, &s);
		} while (!err && s);
	}
	if (!err && (nd->flags & WALK_DIRECTORY) && !S_ISDIR(nd->path.st.st_mode))
		err = -ENOTDIR;
	if (!err)
		path_replace(result, &nd->path);
	terminate_walk(nd);
	return err;
}

/* One attempt at an open with O_CREAT. */
static int path_openat(struct walk *nd, unsigned int flags, int dirfd,
		       const char *s, struct path *result)
{
	int err = path_init(nd, flags, dirfd, s);

	nd->created = false;
	if (!err) {
		do {
			err = link_path_walk(s, nd);
			if (!err)
				err = open_last_lookups(nd, &s);
		} while (!err && s);
	}
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
	int (*attempt)(struct walk *nd, unsigned int flags, int dirfd, const char *s,
		       struct path *result);
	struct path result = { .fd = -1 };
	struct walk nd = {
		.path.fd = -1,
		.root.fd = -1,
		.events = events,
	};
	int err;

	if (events)
		events->count = 0;
	/* build_open_flags() */
	if ((flags & WALK_BENEATH) && (flags & WALK_IN_ROOT))
		return -EINVAL;
	if ((flags & WALK_CREATE) && (flags & WALK_DIRECTORY))
		return -EINVAL;
	if ((flags & WALK_CREATE) && (flags & WALK_EXCL))
		flags &= ~WALK_FOLLOW;

	/* getname(): PATH_MAX counts the terminating NUL */
	if (!*path)
		return -ENOENT;
	if (strnlen(path, PATH_MAX) == PATH_MAX)
		return -ENAMETOOLONG;

	/* set_nameidata() */
	nd.stack = nd.internal;
	attempt = flags & WALK_CREATE ? path_openat : path_lookupat;
	err = attempt(&nd, flags | WALK_RCU, dirfd, path, &result);
	if (err == -ECHILD) {
		if (flags & WALK_VERBOSE)
			fputs("walk: RCU-walk gave up (ECHILD): again in REF-walk\n",
			      stderr);
		err = attempt(&nd, flags, dirfd, path, &result);
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
