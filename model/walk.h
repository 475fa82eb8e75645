/* SPDX-License-Identifier: GPL-2.0 */
/*
 * walk: a userspace model of the kernel's iterative symlink walk
 * (fs/namei.c of Linux 6.12: link_path_walk() and its helpers).
 *
 * The model resolves a path itself, one component at a time: it asks the
 * kernel only to look up one name in one directory (openat() with
 * O_PATH|O_NOFOLLOW), to stat what it found and to read a link's body
 * (readlinkat() on the link's own O_PATH fd). Every rule of the walk --
 * following links, the symlink stack, the budget of 40 links, ".", "..",
 * the root, trailing slashes, O_CREAT and the openat2() RESOLVE_* scopes --
 * is the model's, written to be read beside fs/namei.c.
 */
#ifndef SYMWALK_WALK_H
#define SYMWALK_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/*
 * What to resolve, and how: open()'s and openat2()'s requests under the
 * names the kernel gives them in nd->flags (include/linux/namei.h). The
 * values are the model's own: the kernel's are not an ABI.
 */
#define LOOKUP_FOLLOW		0x001	/* follow a final link (stat, not lstat) */
#define LOOKUP_CREATE		0x002	/* O_CREAT: create a missing final name */
#define LOOKUP_EXCL		0x004	/* O_EXCL, with LOOKUP_CREATE; never follows */
#define LOOKUP_DIRECTORY	0x008	/* O_DIRECTORY: the result must be one */
#define LOOKUP_NO_SYMLINKS	0x010	/* RESOLVE_NO_SYMLINKS */
#define LOOKUP_BENEATH		0x020	/* RESOLVE_BENEATH */
#define LOOKUP_IN_ROOT		0x040	/* RESOLVE_IN_ROOT */

#define LOOKUP_IS_SCOPED	(LOOKUP_BENEATH | LOOKUP_IN_ROOT)

/*
 * walk_verbose - if set, every walk_resolve() prints on stderr each event
 * and the symlink stack after it, as lx-nameidata shows it in gdb (walk
 * -v). A setting of the whole model: set it before any walk starts.
 */
extern bool walk_verbose;

/* fd is an O_PATH fd of the result; of a file the walk created, O_RDWR. */
struct walk_result {
	int fd;
	struct stat st;		/* fstat() of fd */
	bool created;		/* LOOKUP_CREATE made a new file */
	int total_link_count;	/* links followed, of at most 40 */
	unsigned int max_depth;	/* the symlink stack's greatest height */
};

#define WALK_MAXSYMLINKS	40	/* links one lookup may follow */

/*
 * The namei events of the kernel (include/trace/events/namei.h) that the
 * model predicts, with the fields that do not depend on RCU-walk or on
 * where the kernel keeps things: the other events (lookup_start and _end,
 * unlazy, stack_spill, jump_link) and fields (mode, seq, done, level, the
 * jump's target) are left out.
 */
enum walk_event_type {
	WALK_EVENT_PUSH,	/* namei_link_push: a frame is pushed */
	WALK_EVENT_BODY,	/* namei_link_body: the walk enters its body */
	WALK_EVENT_POP,		/* namei_link_pop: a frame leaves the stack */
	WALK_EVENT_JUMP_ROOT,	/* namei_jump_root: to the root, or refused */
	WALK_EVENT_ELOOP,	/* namei_eloop: -ELOOP, and why */
};

/* Names and strings are cut to the events' NAMEI_TRACE_NAME_MAX bytes. */
#define WALK_EVENT_NAME_MAX	64

struct walk_event {
	enum walk_event_type type;
	int depth;		/* the stack's height after the event */
	int links;		/* push, pop, eloop: total_link_count after it */
	int trailing;		/* push: the link is the lookup's last component */
	int error;		/* jump_root: 0, or what nd_jump_root() returns */
	const char *reason;	/* pop: "walked" or "terminate"; eloop: "budget",
				 * "no_symlinks" or "nofollow" */
	char link[WALK_EVENT_NAME_MAX + 1];	/* push, pop, eloop */
	char body[WALK_EVENT_NAME_MAX + 1];	/* body: what is left to walk */
	char remnant[WALK_EVENT_NAME_MAX + 1];	/* body: where to resume after it */
};

/*
 * At most 40 pushes and their bodies and pops, a jump each and one at the
 * start, one -ELOOP.
 */
#define WALK_EVENTS_MAX		(4 * WALK_MAXSYMLINKS + 2)

/* The events of a lookup's last attempt, the one whose answer it gives. */
struct walk_events {
	unsigned int count;
	struct walk_event event[WALK_EVENTS_MAX];
};

/*
 * walk_event_format - @event as the kernel's trace shows it, the fields
 * above only: "namei_link_pop: depth=0 links=1 link=\"l\" reason=walked".
 */
void walk_event_format(const struct walk_event *event, char *buf, size_t size);

/*
 * walk_resolve - resolve @path from @dirfd (AT_FDCWD or an fd of a
 * directory) as open(2) and openat2(2) would with @flags; if @events is
 * not NULL, record there the events of the last attempt, success or not.
 *
 * Return: 0 and @out filled in (the caller closes out->fd), or a negative
 * errno: the one the kernel gives for the same call.
 */
int walk_resolve(int dirfd, const char *path, unsigned int flags,
		 struct walk_result *out, struct walk_events *events);

#endif
