// SPDX-License-Identifier: GPL-2.0
/*
 * lookup: path lookups made by a process the gdb helpers and the lab
 * breakpoints can tell apart from the rest of the guest.
 *
 * usage: lookup [-n COMM] [-d DIR] [-R FLAGS] [-o FILE [-u]] [-r COUNT] [-t]
 *               OP PATH
 *
 *   OP is one of
 *     stat, lstat      stat(), lstat()
 *     open, nofollow   open(O_RDONLY), open(O_RDONLY | O_NOFOLLOW)
 *     creat, excl      open(O_CREAT | O_WRONLY), the same with O_EXCL
 *     openat2          openat2(O_RDONLY) with the resolve flags of -R
 *     mkdir            mkdir(0755)
 *     readlink         readlink(): the body of the link PATH
 *     chdir            chdir(), then getcwd(): where the kernel went
 *
 *   -n COMM   the process name (default symwalk-lab), set just before the
 *             lookups, after the preparations below
 *   -d DIR    look PATH up from DIR (opened O_PATH) instead of the cwd
 *   -R FLAGS  resolve flags for openat2, comma-separated: no_symlinks,
 *             no_magiclinks, no_xdev, beneath, in_root, cached, or a number
 *             (0x40)
 *   -o FILE   open FILE first; "%d" in PATH becomes the fd
 *   -u        unlink FILE once it is open
 *   -r COUNT  make the lookup COUNT times in this one process (default 1)
 *   -t        enable the namei events while it makes the lookups, then
 *             print the events this process left in the trace buffer
 *             ("namei_...: fields", one a line, after the results);
 *             events/namei/enable is put back as it was. The events are
 *             this process's by its pid: neither set_event_pid (its
 *             per-CPU filter lost events on SMP) nor the trace's comm
 *             column (resolved from saved_cmdlines, which a busy CPU
 *             skips filling: "<...>") can be trusted for that.
 *
 * Prints "OP PATH: ok dev=D ino=I" (readlink: "ok body=\"...\"", chdir: also
 * "cwd=...") or "OP PATH: ERRNAME (message)" for each lookup; with -o, a
 * result that is FILE's inode says so, and a last line describes FILE's fd.
 * Exits 0 if every lookup succeeded, 1 if one failed, 2 on bad usage or a
 * failed preparation. While it makes the lookups, and only then, the
 * process is named COMM (breakpoints filter on it: the open of the trace
 * file must not stop in them) and the guest's hostname is COMM: a
 * debugger's cue (see announce()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#define TRACEFS "/sys/kernel/tracing"

/*
 * Tell a debugger that this process's lookups start (the guest's hostname
 * becomes its name) or are over (the hostname is put back): a lab run by
 * gdb keeps its breakpoints disabled outside them
 * (gdb-scripts/symwalk_gdb/lab.py), since every stop, even one whose
 * condition fails, costs the guest dear under TCG.
 */
static void announce(const char *hostname)
{
	if (sethostname(hostname, strlen(hostname)) != 0)
		perror("lookup: sethostname");
}

static int usage(void)
{
	fprintf(stderr,
		"usage: lookup [-n COMM] [-d DIR] [-R FLAGS] [-o FILE [-u]] [-r COUNT] [-t] OP PATH\n"
		"  OP: stat lstat open nofollow creat excl openat2 mkdir readlink chdir\n");
	return 2;
}

static const struct {
	const char *name;
	__u64 flag;
} resolve_names[] = {
	{ "no_symlinks", RESOLVE_NO_SYMLINKS },
	{ "no_magiclinks", RESOLVE_NO_MAGICLINKS },
	{ "no_xdev", RESOLVE_NO_XDEV },
	{ "beneath", RESOLVE_BENEATH },
	{ "in_root", RESOLVE_IN_ROOT },
	{ "cached", RESOLVE_CACHED },
};

/*
 * The RESOLVE_* flags named in a comma-separated list, or given as numbers
 * (0x40: a flag this program does not know, such as an exercise's); -1 for
 * a bad name.
 */
static long long parse_resolve(char *list)
{
	long long flags = 0;
	char *name, *save, *end;

	for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		size_t i;

		if (!strncmp(name, "0x", 2)) {
			flags |= strtoll(name, &end, 16);
			if (*end || end == name + 2) {
				fprintf(stderr, "lookup: bad resolve flag number '%s'\n", name);
				return -1;
			}
			continue;
		}
		for (i = 0; i < sizeof(resolve_names) / sizeof(resolve_names[0]); i++)
			if (!strcmp(name, resolve_names[i].name))
				break;
		if (i == sizeof(resolve_names) / sizeof(resolve_names[0])) {
			fprintf(stderr, "lookup: unknown resolve flag '%s'\n", name);
			return -1;
		}
		flags |= resolve_names[i].flag;
	}
	return flags;
}

/* Write text to an open tracefs file; 0 or -1. */
static int write_fd(int fd, const char *text)
{
	ssize_t len = strlen(text);

	return write(fd, text, len) == len ? 0 : -1;
}

/* The text of a small tracefs file into buf; 0 or -1. */
static int read_tracefs(const char *file, char *buf, size_t size)
{
	int fd = open(file, O_RDONLY);
	ssize_t len;

	if (fd < 0) {
		fprintf(stderr, "lookup: open %s: %m\n", file);
		return -1;
	}
	len = read(fd, buf, size - 1);
	if (len < 0 || close(fd) != 0) {
		fprintf(stderr, "lookup: read %s: %m\n", file);
		return -1;
	}
	buf[len] = '\0';
	return 0;
}

/* Print the namei events of this process in the trace buffer; 0 or -1. */
static int print_events(void)
{
	char line[1024], task[32];
	FILE *trace = fopen(TRACEFS "/trace", "r");

	if (!trace) {
		fprintf(stderr, "lookup: open %s/trace: %m\n", TRACEFS);
		return -1;
	}
	/* The task column: "comm-pid", comm maybe "<...>". */
	snprintf(task, sizeof(task), "-%d ", getpid());
	while (fgets(line, sizeof(line), trace)) {
		char *event = strstr(line, " namei_");

		if (line[0] != '#' && event && strstr(line, task) && strstr(line, task) < event)
			fputs(event + 1, stdout);
	}
	if (fclose(trace) != 0) {
		fprintf(stderr, "lookup: read %s/trace: %m\n", TRACEFS);
		return -1;
	}
	return 0;
}

static int open_tracefs(const char *file, int flags)
{
	int fd = open(file, O_WRONLY | flags);

	if (fd < 0)
		fprintf(stderr, "lookup: open %s: %m\n", file);
	return fd;
}

/*
 * One lookup. Returns 0 and fills st (and, for readlink and chdir, text), or
 * -1 with errno set.
 */
static int do_op(const char *op, int dirfd, const char *path, __u64 resolve,
		 struct stat *st, char *text, size_t size)
{
	int fd, flags, ret;

	if (!strcmp(op, "stat"))
		return fstatat(dirfd, path, st, 0);
	if (!strcmp(op, "lstat"))
		return fstatat(dirfd, path, st, AT_SYMLINK_NOFOLLOW);
	if (!strcmp(op, "mkdir")) {
		if (mkdirat(dirfd, path, 0755) != 0)
			return -1;
		return fstatat(dirfd, path, st, AT_SYMLINK_NOFOLLOW);
	}
	if (!strcmp(op, "readlink")) {
		ssize_t len = readlinkat(dirfd, path, text, size - 1);

		if (len < 0)
			return -1;
		text[len] = '\0';
		return fstatat(dirfd, path, st, AT_SYMLINK_NOFOLLOW);
	}
	if (!strcmp(op, "chdir")) {
		if (dirfd != AT_FDCWD) {
			errno = EINVAL;
			return -1;
		}
		if (chdir(path) != 0 || !getcwd(text, size))
			return -1;
		return stat(".", st);
	}
	if (!strcmp(op, "openat2")) {
		struct open_how how = { .flags = O_RDONLY, .resolve = resolve };

		fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	} else {
		if (!strcmp(op, "open"))
			flags = O_RDONLY;
		else if (!strcmp(op, "nofollow"))
			flags = O_RDONLY | O_NOFOLLOW;
		else if (!strcmp(op, "creat"))
			flags = O_CREAT | O_WRONLY;
		else if (!strcmp(op, "excl"))
			flags = O_CREAT | O_EXCL | O_WRONLY;
		else
			return -2;
		fd = openat(dirfd, path, flags, 0644);
	}
	if (fd < 0)
		return -1;
	ret = fstat(fd, st);
	if (close(fd) != 0)
		ret = -1;
	return ret;
}

static int known_op(const char *op)
{
	static const char *const ops[] = {
		"stat", "lstat", "open", "nofollow", "creat", "excl", "openat2",
		"mkdir", "readlink", "chdir", NULL
	};

	for (int i = 0; ops[i]; i++)
		if (!strcmp(op, ops[i]))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *comm = "symwalk-lab", *dir = NULL, *file = NULL, *op;
	char path[PATH_MAX], text[PATH_MAX], saved_enable[16], hostname[HOST_NAME_MAX + 1];
	char own_comm[16];
	int opt, dirfd = AT_FDCWD, filefd = -1, unlink_file = 0, trace = 0;
	int enable_fd = -1, failed = 0;
	long count = 1;
	long long resolve = 0;
	struct stat st, file_st;
	char *percent;

	while ((opt = getopt(argc, argv, "n:d:R:o:ur:t")) != -1) {
		switch (opt) {
		case 'n':
			comm = optarg;
			break;
		case 'd':
			dir = optarg;
			break;
		case 'R':
			resolve = parse_resolve(optarg);
			if (resolve < 0)
				return usage();
			break;
		case 'o':
			file = optarg;
			break;
		case 'u':
			unlink_file = 1;
			break;
		case 'r':
			count = strtol(optarg, NULL, 10);
			if (count < 1)
				return usage();
			break;
		case 't':
			trace = 1;
			break;
		default:
			return usage();
		}
	}
	if (argc - optind != 2 || !known_op(argv[optind]) || (unlink_file && !file))
		return usage();
	op = argv[optind];
	if (resolve && strcmp(op, "openat2"))
		return usage();

	/* The preparations: their lookups are made under the old name. */
	if (dir) {
		dirfd = open(dir, O_PATH | O_DIRECTORY);
		if (dirfd < 0) {
			fprintf(stderr, "lookup: open %s: %m\n", dir);
			return 2;
		}
	}
	if (file) {
		filefd = open(file, O_RDONLY);
		if (filefd < 0 || fstat(filefd, &file_st) != 0) {
			fprintf(stderr, "lookup: open %s: %m\n", file);
			return 2;
		}
		printf("opened %s: fd %d\n", file, filefd);
		if (unlink_file) {
			if (unlink(file) != 0) {
				fprintf(stderr, "lookup: unlink %s: %m\n", file);
				return 2;
			}
			printf("unlinked %s\n", file);
		}
	}
	percent = strstr(argv[optind + 1], "%d");
	if (percent && file)
		snprintf(path, sizeof(path), "%.*s%d%s", (int)(percent - argv[optind + 1]),
			 argv[optind + 1], filefd, percent + 2);
	else
		snprintf(path, sizeof(path), "%s", argv[optind + 1]);
	if (trace) {
		/* The events' switch, to put back once the lookups are traced. */
		if (read_tracefs(TRACEFS "/events/namei/enable", saved_enable,
				 sizeof(saved_enable)))
			return 2;
		enable_fd = open_tracefs(TRACEFS "/events/namei/enable", 0);
		if (enable_fd < 0)
			return 2;
	}

	if (gethostname(hostname, sizeof(hostname)) != 0) {
		perror("lookup: gethostname");
		return 2;
	}
	/* Breakpoints and traces filter on this name. */
	if (prctl(PR_GET_NAME, own_comm) != 0 || prctl(PR_SET_NAME, comm) != 0) {
		perror("prctl(PR_SET_NAME)");
		return 2;
	}
	announce(comm);
	if (trace && write_fd(enable_fd, "1\n") != 0) {
		perror("lookup: start tracing");
		return 2;
	}

	for (long i = 0; i < count; i++) {
		int ret = do_op(op, dirfd, path, resolve, &st, text, sizeof(text));

		if (ret != 0) {
			printf("%s %s: %s (%s)\n", op, path, strerrorname_np(errno),
			       strerror(errno));
			failed = 1;
			continue;
		}
		printf("%s %s: ok dev=%lu ino=%lu", op, path,
		       (unsigned long)st.st_dev, (unsigned long)st.st_ino);
		if (!strcmp(op, "readlink"))
			printf(" body=\"%s\"", text);
		if (!strcmp(op, "chdir"))
			printf(" cwd=%s", text);
		if (file && st.st_dev == file_st.st_dev && st.st_ino == file_st.st_ino)
			printf(" (the file of fd %d)", filefd);
		printf("\n");
	}
	announce(hostname);
	if (prctl(PR_SET_NAME, own_comm) != 0) {
		perror("prctl(PR_SET_NAME)");
		return 2;
	}

	if (trace) {
		/* Put the events' switch back as it was. */
		if (write_fd(enable_fd, saved_enable[0] == '1' ? "1\n" : "0\n") != 0 ||
		    close(enable_fd) != 0) {
			perror("lookup: stop tracing");
			return 2;
		}
		fflush(stdout);
		if (print_events() != 0)
			return 2;
	}
	if (file) {
		if (fstat(filefd, &file_st) != 0) {
			perror("lookup: fstat");
			return 2;
		}
		printf("fd %d: %s%s, dev=%lu ino=%lu nlink=%lu\n", filefd, file,
		       unlink_file ? " (unlinked)" : "", (unsigned long)file_st.st_dev,
		       (unsigned long)file_st.st_ino, (unsigned long)file_st.st_nlink);
	}
	fflush(stdout);
	return failed;
}
