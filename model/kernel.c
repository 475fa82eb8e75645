// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own answer to what walk_resolve() is asked, through the
 * system call a program would make for it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "kernel.h"
#include "walk.h"

static void open_how_of(unsigned int flags, struct open_how *how)
{
	*how = (struct open_how){ .flags = O_CLOEXEC };
	if (flags & WALK_CREATE) {
		how->flags |= O_CREAT | O_RDONLY;
		how->mode = 0644;
		if (flags & WALK_EXCL)
			how->flags |= O_EXCL;
	} else {
		how->flags |= O_PATH;
	}
	if (!(flags & WALK_FOLLOW))
		how->flags |= O_NOFOLLOW;
	if (flags & WALK_DIRECTORY)
		how->flags |= O_DIRECTORY;
	if (flags & WALK_NO_SYMLINKS)
		how->resolve |= RESOLVE_NO_SYMLINKS;
	if (flags & WALK_BENEATH)
		how->resolve |= RESOLVE_BENEATH;
	if (flags & WALK_IN_ROOT)
		how->resolve |= RESOLVE_IN_ROOT;
}

int kernel_resolve(int dirfd, const char *path, unsigned int flags,
		   struct stat *st)
{
	struct open_how how;
	int fd, err = 0;

	if (!(flags & (WALK_CREATE | WALK_DIRECTORY | WALK_NO_SYMLINKS | WALK_SCOPED))) {
		if (fstatat(dirfd, path, st, flags & WALK_FOLLOW ? 0 : AT_SYMLINK_NOFOLLOW))
			return -errno;
		return 0;
	}
	open_how_of(flags, &how);
	/* openat2() for the RESOLVE_* flags, which open() lacks */
	if (how.resolve)
		fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	else
		fd = openat(dirfd, path, (int)how.flags, (mode_t)how.mode);
	if (fd < 0)
		return -errno;
	if (fstat(fd, st))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	return err;
}
