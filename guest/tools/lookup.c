// SPDX-License-Identifier: GPL-2.0
/*
 * lookup: one path lookup, made by a process the gdb helpers and the lab
 * breakpoints can tell apart from the rest of the guest.
 *
 * usage: lookup [-n COMM] stat|lstat|open|creat PATH
 *
 * Prints "OP PATH: ok dev=D ino=I" or "OP PATH: ERRNAME (message)" and exits
 * 0 on success, 1 on a failed lookup, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

static int usage(void)
{
	fprintf(stderr, "usage: lookup [-n COMM] stat|lstat|open|creat PATH\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *comm = "symwalk-lab", *op, *path;
	struct stat st;
	int opt, fd, ret;

	while ((opt = getopt(argc, argv, "n:")) != -1) {
		if (opt != 'n')
			return usage();
		comm = optarg;
	}
	if (argc - optind != 2)
		return usage();
	op = argv[optind];
	path = argv[optind + 1];

	/* Breakpoints and traces filter on this name. */
	if (prctl(PR_SET_NAME, comm) != 0) {
		perror("prctl(PR_SET_NAME)");
		return 2;
	}

	if (!strcmp(op, "stat")) {
		ret = stat(path, &st);
	} else if (!strcmp(op, "lstat")) {
		ret = lstat(path, &st);
	} else if (!strcmp(op, "open") || !strcmp(op, "creat")) {
		int flags = !strcmp(op, "creat") ? O_CREAT | O_WRONLY : O_RDONLY;

		fd = open(path, flags, 0644);
		ret = fd < 0 ? -1 : fstat(fd, &st);
		if (fd >= 0 && close(fd) != 0)
			ret = -1;
	} else {
		return usage();
	}

	if (ret != 0) {
		printf("%s %s: %s (%s)\n", op, path, strerrorname_np(errno),
		       strerror(errno));
		return 1;
	}
	printf("%s %s: ok dev=%lu ino=%lu\n", op, path,
	       (unsigned long)st.st_dev, (unsigned long)st.st_ino);
	return 0;
}
