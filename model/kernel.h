/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's own answer to what walk_resolve() is asked: fstatat() for
 * a plain lookup, open() for O_CREAT or O_DIRECTORY, openat2() for the
 * RESOLVE_* flags.
 */
#ifndef SYMWALK_KERNEL_H
#define SYMWALK_KERNEL_H

#include <sys/stat.h>

/* Return: 0 with *@st the result's, or a negative errno. */
int kernel_resolve(int dirfd, const char *path, unsigned int flags,
		   struct stat *st);

#endif
