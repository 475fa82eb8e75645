/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's test filesystem nestfs (guest/modules/nestfs.c): mounted on
 * "nest" in the working directory, noatime (following its links leaves
 * RCU-walk for ->get_link() alone), with the directories "stale",
 * "managed" and "managed-ref" it makes; its parameters set for a test and
 * cleared after it.
 */
#ifndef SYMWALK_NESTFS_H
#define SYMWALK_NESTFS_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"

#define NESTFS_PARAMS "/sys/module/nestfs/parameters/"

static inline void nestfs_set(struct __test_metadata *_metadata, const char *param,
			      const char *value)
{
	char path[128];
	int fd, ok;

	snprintf(path, sizeof(path), NESTFS_PARAMS "%s", param);
	fd = open(path, O_WRONLY | O_TRUNC);
	ASSERT_LE(0, fd) TH_LOG("open %s: %m", path);
	/* a write of nothing would not reach the parameter: "\n" clears it */
	ok = write(fd, *value ? value : "\n", *value ? strlen(value) : 1) > 0;
	EXPECT_EQ(0, close(fd));
	ASSERT_TRUE(ok) TH_LOG("write %s: %m", path);
}

static inline void nestfs_mount(struct __test_metadata *_metadata)
{
	ASSERT_EQ(0, mkdir("nest", 0755));
	ASSERT_EQ(0, mount("nestfs", "nest", "nestfs", MS_NOATIME, ""))
		TH_LOG("mount nestfs (is guest/modules/nestfs.ko loaded?): %m");
}

static inline void nestfs_unmount(struct __test_metadata *_metadata)
{
	nestfs_set(_metadata, "nested_lookup", "");
	nestfs_set(_metadata, "nested_root", "");
	EXPECT_EQ(0, umount("nest"));
}

#endif
