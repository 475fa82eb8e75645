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
	if (flags & LOOKUP_CREATE) {
		how->flags |= O_CREAT | O_RDONLY;
		how->mode = 0644;
		if (flags & LOOKUP_EXCL)
			how->flags |= O_EXCL;
	} else {
		how->flags |= O_PATH;
	}
	if (!(flags & LOOKUP_FOLLOW))
		how->flags |= O_NOFOLLOW;
	if (flags & LOOKUP_DIRECTORY)
		how->flags |= O_DIRECTORY;
	if (flags & LOOKUP_NO_SYMLINKS)
		how->resolve |= RESOLVE_NO_SYMLINKS;
	if (flags & LOOKUP_BENEATH)
		how->resolve |= RESOLVE_BENEATH;
	if (flags & LOOKUP_IN_ROOT)
		how->resolve |= RESOLVE_IN_ROOT;
}

int kernel_resolve(int dirfd, const char *path, unsigned int flags,
		   struct stat *st)
{
	struct open_how how;
	int fd, err = 0;

	if (!(flags & (LOOKUP_CREATE | LOOKUP_DIRECTORY | LOOKUP_NO_SYMLINKS | LOOKUP_IS_SCOPED))) {
		if (fstatat(dirfd, path, st, flags & LOOKUP_FOLLOW ? 0 : AT_SYMLINK_NOFOLLOW))
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
