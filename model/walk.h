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
#include <sys/stat.h>

/* What to resolve, and how: the model's own spelling of open()'s flags. */
#define WALK_FOLLOW		0x001	/* follow a final link (stat, not lstat) */
#define WALK_CREATE		0x002	/* O_CREAT: create a missing final name */
#define WALK_EXCL		0x004	/* O_EXCL, with WALK_CREATE; never follows */
#define WALK_DIRECTORY		0x008	/* O_DIRECTORY: the result must be one */
#define WALK_NO_SYMLINKS	0x010	/* RESOLVE_NO_SYMLINKS */
#define WALK_BENEATH		0x020	/* RESOLVE_BENEATH */
#define WALK_IN_ROOT		0x040	/* RESOLVE_IN_ROOT */
#define WALK_VERBOSE		0x080	/* trace pushes and pops on stderr */

#define WALK_SCOPED		(WALK_BENEATH | WALK_IN_ROOT)

/* fd is an O_PATH fd of the result; of a file the walk created, O_RDWR. */
struct walk_result {
	int fd;
	struct stat st;		/* fstat() of fd */
	bool created;		/* WALK_CREATE made a new file */
	int total_link_count;	/* links followed, of at most 40 */
	unsigned int max_depth;	/* the symlink stack's greatest height */
};

/*
 * walk_resolve - resolve @path from @dirfd (AT_FDCWD or an fd of a
 * directory) as open(2) and openat2(2) would with @flags.
 *
 * Return: 0 and @out filled in (the caller closes out->fd), or a negative
 * errno: the one the kernel gives for the same call.
 */
int walk_resolve(int dirfd, const char *path, unsigned int flags,
		 struct walk_result *out);

#endif
