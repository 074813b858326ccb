/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bump allocator for things that die together (a parsed Kconfig tree, a
 * scanned file): a handful of mallocs instead of one per node.
 */
#ifndef UT_ARENA_H
#define UT_ARENA_H

#include <stddef.h>

struct arena_chunk;
struct arena {
	struct arena_chunk *chunks;
	char *next, *end;
};
#define ARENA_INIT { NULL, NULL, NULL }

void *arena_alloc(struct arena *a, size_t n);	/* zeroed, max_align_t-aligned */
char *arena_strndup(struct arena *a, const char *s, size_t n);
void arena_release(struct arena *a);
void arena_reset(struct arena *a);	/* frees all but the newest chunk, for reuse */

#endif
