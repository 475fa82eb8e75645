/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A negative errno carried in a pointer, the way the kernel's functions of
 * the walk return one (include/linux/err.h): no object lives in the last
 * MAX_ERRNO bytes of the address space, so those addresses are errnos.
 */
#ifndef SYMWALK_ERR_H
#define SYMWALK_ERR_H

#include <stdbool.h>
#include <stdint.h>

#define MAX_ERRNO	4095

static inline void *ERR_PTR(long error)
{
	return (void *)(intptr_t)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)(intptr_t)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return (uintptr_t)ptr >= (uintptr_t)-MAX_ERRNO;
}

#endif
