// SPDX-License-Identifier: GPL-2.0
/*
 * Small file trees: the listing format of tree.h, and making and removing
 * a tree on disk.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tree.h"

#define LINK_ARROW " -> "

int tree_add(struct tree *tree, enum node_type type, const char *path,
	     const char *body)
{
	struct tree_node *node;

	if (tree->count == tree->size) {
		size_t size = tree->size ? 2 * tree->size : 16;
		struct tree_node *nodes = reallocarray(tree->nodes, size,
						       sizeof(*nodes));

		if (!nodes)
			return -ENOMEM;
		tree->nodes = nodes;
		tree->size = size;
	}
	node = tree->nodes + tree->count;
	node->type = type;
	node->path = strdup(path);
	node->body = body ? strdup(body) : NULL;
	if (!node->path || (body && !node->body)) {
		free(node->path);
		free(node->body);
		return -ENOMEM;
	}
	tree->count++;
	return 0;
}

/* One line of a listing, without its newline. */
static int tree_add_line(struct tree *tree, char *line)
{
	char *arrow = strstr(line, LINK_ARROW);
	size_t len = strlen(line);

	if (arrow) {
		*arrow = '\0';
		return tree_add(tree, NODE_LINK, line, arrow + strlen(LINK_ARROW));
	}
	if (len > 1 && line[len - 1] == '/') {
		line[len - 1] = '\0';
		return tree_add(tree, NODE_DIR, line, NULL);
	}
	return tree_add(tree, NODE_FILE, line, NULL);
}

int tree_parse(struct tree *tree, const char *listing)
{
	char *text = strdup(listing), *line, *next;
	int err = 0;

	if (!text)
		return -ENOMEM;
	for (line = text; !err && *line; line = next) {
		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		if (*line)
			err = tree_add_line(tree, line);
	}
	free(text);
	return err;
}

int tree_copy(struct tree *copy, const struct tree *tree)
{
	size_t i;
	int err = 0;

	*copy = (struct tree){ 0 };
	for (i = 0; !err && i < tree->count; i++)
		err = tree_add(copy, tree->nodes[i].type, tree->nodes[i].path,
			       tree->nodes[i].body);
	if (err)
		tree_free(copy);
	return err;
}

static void node_free(struct tree_node *node)
{
	free(node->path);
	free(node->body);
}

/* Is @node inside the directory @dir? */
static bool node_is_under(const struct tree_node *node, const struct tree_node *dir)
{
	size_t len = strlen(dir->path);

	return dir->type == NODE_DIR && !strncmp(node->path, dir->path, len) &&
	       node->path[len] == '/';
}

void tree_remove_node(struct tree *tree, size_t index)
{
	struct tree_node removed = tree->nodes[index];
	size_t i, kept = 0;

	for (i = 0; i < tree->count; i++) {
		if (i == index)
			continue;
		if (node_is_under(tree->nodes + i, &removed))
			node_free(tree->nodes + i);
		else
			tree->nodes[kept++] = tree->nodes[i];
	}
	node_free(&removed);
	tree->count = kept;
}

void tree_free(struct tree *tree)
{
	size_t i;

	for (i = 0; i < tree->count; i++)
		node_free(tree->nodes + i);
	free(tree->nodes);
	*tree = (struct tree){ 0 };
}

void tree_print(const struct tree *tree, FILE *out, const char *indent)
{
	const struct tree_node *node;

	for (node = tree->nodes; node < tree->nodes + tree->count; node++) {
		switch (node->type) {
		case NODE_DIR:
			fprintf(out, "%s%s/\n", indent, node->path);
			break;
		case NODE_FILE:
			fprintf(out, "%s%s\n", indent, node->path);
			break;
		case NODE_LINK:
			fprintf(out, "%s%s%s%s\n", indent, node->path, LINK_ARROW,
				node->body);
			break;
		}
	}
}

static int node_build(const struct tree_node *node, int dirfd)
{
	int fd;

	switch (node->type) {
	case NODE_DIR:
		return mkdirat(dirfd, node->path, 0755) ? -errno : 0;
	case NODE_LINK:
		return symlinkat(node->body, dirfd, node->path) ? -errno : 0;
	case NODE_FILE:
		break;
	}
	fd = openat(dirfd, node->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	return close(fd) ? -errno : 0;
}

int tree_build(const struct tree *tree, int dirfd)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < tree->count; i++)
		err = node_build(tree->nodes + i, dirfd);
	return err;
}

/* Remove @entry of the directory @dirfd, and all inside it. */
static int entry_remove(int dirfd, const struct dirent *entry)
{
	int subdir, err;

	if (entry->d_type != DT_DIR)
		return unlinkat(dirfd, entry->d_name, 0) ? -errno : 0;
	subdir = openat(dirfd, entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			O_CLOEXEC);
	if (subdir < 0)
		return -errno;
	err = tree_clear(subdir);
	if (close(subdir) && !err)
		err = -errno;
	if (!err && unlinkat(dirfd, entry->d_name, AT_REMOVEDIR))
		err = -errno;
	return err;
}

int tree_clear(int dirfd)
{
	struct dirent *entry;
	DIR *dir;
	int fd, err = 0;

	/* A listing needs a readable fd: dirfd may be O_PATH. */
	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	dir = fdopendir(fd);
	if (!dir) {
		err = -errno;
		return close(fd) ? -errno : err;
	}
	while (!err) {
		errno = 0;
		entry = readdir(dir);
		if (!entry) {
			err = -errno;
			break;
		}
		if (strcmp(entry->d_name, ".") && strcmp(entry->d_name, ".."))
			err = entry_remove(fd, entry);
	}
	if (closedir(dir) && !err)
		err = -errno;
	return err;
}

int tree_enter_scratch(const char *dir, const char **step)
{
	*step = "unshare(CLONE_NEWNS)";
	if (unshare(CLONE_NEWNS))
		return -errno;
	*step = "making / private";
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -errno;
	*step = "mounting a tmpfs";
	if (mount("tree", dir, "tmpfs", MS_NOATIME | MS_NOSUID | MS_NODEV, "mode=0755"))
		return -errno;
	*step = "chroot";
	if (chroot(dir) || chdir("/"))
		return -errno;
	return 0;
}
