// SPDX-License-Identifier: GPL-2.0
/*
 * walk: resolve one path with the model of the kernel's symlink walk.
 *
 * Prints "ok dev=D ino=I" or the errno's name (e.g. "ELOOP"), and exits 0
 * on success, 1 on a failed lookup, 2 on bad usage. -v prints on stderr the
 * namei events the kernel would fire, each with the symlink stack after it
 * as lx-nameidata shows it in gdb.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "walk.h"

static const char usage_text[] =
	"usage: walk [-v] [-L|-P] [-d] [--creat] [--excl] [--no-symlinks]\n"
	"            [--beneath|--in-root] [-C DIR] PATH\n";

static const char help_text[] =
	"\n"
	"Resolve PATH with the model of the kernel's symlink walk.\n"
	"\n"
	"  -v, --verbose    print the events, each with the stack after it (stderr)\n"
	"  -L               follow a final link, like stat (the default)\n"
	"  -P               do not follow a final link, like lstat\n"
	"  -d, --directory  the result must be a directory (O_DIRECTORY)\n"
	"  --creat          create a missing final file (O_CREAT)\n"
	"  --excl           with --creat: fail on any existing name (O_EXCL)\n"
	"  --no-symlinks    openat2's RESOLVE_NO_SYMLINKS\n"
	"  --beneath        openat2's RESOLVE_BENEATH, beneath -C DIR or .\n"
	"  --in-root        openat2's RESOLVE_IN_ROOT, with -C DIR or . as root\n"
	"  -C DIR           start at DIR (resolved by the model) instead of .\n";

enum { OPT_CREAT = 256, OPT_EXCL, OPT_NO_SYMLINKS, OPT_BENEATH, OPT_IN_ROOT };

static const struct option options[] = {
	{ "verbose", no_argument, NULL, 'v' },
	{ "directory", no_argument, NULL, 'd' },
	{ "creat", no_argument, NULL, OPT_CREAT },
	{ "excl", no_argument, NULL, OPT_EXCL },
	{ "no-symlinks", no_argument, NULL, OPT_NO_SYMLINKS },
	{ "beneath", no_argument, NULL, OPT_BENEATH },
	{ "in-root", no_argument, NULL, OPT_IN_ROOT },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int usage(const char *problem)
{
	if (problem)
		fprintf(stderr, "walk: %s\n", problem);
	fputs(usage_text, stderr);
	fputs("'walk --help' tells more.\n", stderr);
	return 2;
}

static const char *usage_problem(unsigned int flags, int args)
{
	if (args != 1)
		return "give exactly one PATH";
	if ((flags & LOOKUP_EXCL) && !(flags & LOOKUP_CREATE))
		return "--excl needs --creat";
	if ((flags & LOOKUP_BENEATH) && (flags & LOOKUP_IN_ROOT))
		return "--beneath and --in-root exclude each other";
	if ((flags & LOOKUP_CREATE) && (flags & LOOKUP_DIRECTORY))
		return "--creat and -d exclude each other";
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned int flags = LOOKUP_FOLLOW;
	bool verbose = false;
	struct walk_result start, res;
	const char *dir = NULL, *problem;
	int opt, dirfd = AT_FDCWD, err;

	while ((opt = getopt_long(argc, argv, "vLPdC:h", options, NULL)) != -1) {
		switch (opt) {
		case 'v':
			verbose = true;
			break;
		case 'L':
			flags |= LOOKUP_FOLLOW;
			break;
		case 'P':
			flags &= ~LOOKUP_FOLLOW;
			break;
		case 'd':
			flags |= LOOKUP_DIRECTORY;
			break;
		case 'C':
			dir = optarg;
			break;
		case OPT_CREAT:
			flags |= LOOKUP_CREATE;
			break;
		case OPT_EXCL:
			flags |= LOOKUP_EXCL;
			break;
		case OPT_NO_SYMLINKS:
			flags |= LOOKUP_NO_SYMLINKS;
			break;
		case OPT_BENEATH:
			flags |= LOOKUP_BENEATH;
			break;
		case OPT_IN_ROOT:
			flags |= LOOKUP_IN_ROOT;
			break;
		case 'h':
			fputs(usage_text, stdout);
			fputs(help_text, stdout);
			return 0;
		default:
			return usage(NULL);
		}
	}
	problem = usage_problem(flags, argc - optind);
	if (problem)
		return usage(problem);

	if (dir) {
		err = walk_resolve(AT_FDCWD, dir, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &start, NULL);
		if (err) {
			fprintf(stderr, "walk: -C %s: %s\n", dir, strerrorname_np(-err));
			return 2;
		}
		dirfd = start.fd;
	}
	/* the events of PATH, not those of -C DIR */
	walk_verbose = verbose;

	err = walk_resolve(dirfd, argv[optind], flags, &res, NULL);
	if (err) {
		printf("%s\n", strerrorname_np(-err));
		return 1;
	}
	printf("ok dev=%lu ino=%lu\n", (unsigned long)res.st.st_dev,
	       (unsigned long)res.st.st_ino);
	if (close(res.fd) != 0 || (dir && close(dirfd) != 0)) {
		perror("walk: close");
		return 1;
	}
	return 0;
}
