/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small file trees for the model's tests and the fuzzer, written and
 * printed as a listing, one node a line, each path from the tree's root:
 *
 *	dir/			a directory
 *	dir/file		a regular file
 *	link -> body		a symbolic link
 */
#ifndef SYMWALK_TREE_H
#define SYMWALK_TREE_H

#include <stddef.h>
#include <stdio.h>

enum node_type { NODE_DIR, NODE_FILE, NODE_LINK };

struct tree_node {
	enum node_type type;
	char *path;		/* from the tree's root; parents come first */
	char *body;		/* a link's body, else NULL */
};

struct tree {
	struct tree_node *nodes;
	size_t count, size;
};

/* Each returns 0 or a negative errno. */
int tree_add(struct tree *tree, enum node_type type, const char *path,
	     const char *body);
int tree_parse(struct tree *tree, const char *listing);
int tree_copy(struct tree *copy, const struct tree *tree);
void tree_remove_node(struct tree *tree, size_t index);
void tree_free(struct tree *tree);
void tree_print(const struct tree *tree, FILE *out, const char *indent);

/* Make the tree's nodes in the directory @dirfd. */
int tree_build(const struct tree *tree, int dirfd);
/* Remove everything in the directory @dirfd. */
int tree_clear(int dirfd);

/*
 * Make the directory @dir this process's root, in a mount namespace of its
 * own (gone with the process): a tmpfs mounted there, noatime so that no
 * atime update makes the kernel's walk leave RCU-walk, and chrooted into,
 * so that "..", absolute paths and bodies, and O_CREAT stay in it. Return
 * 0 or a negative errno, *@step naming what failed (-EPERM: not root).
 */
int tree_enter_scratch(const char *dir, const char **step);

#endif
