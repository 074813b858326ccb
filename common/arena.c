// SPDX-License-Identifier: GPL-2.0
#include "arena.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;
	max_align_t data[];
};

#define ALIGN_TO(n, a) (((n) + (a) - 1) & ~((size_t)(a) - 1))

void *arena_alloc(struct arena *a, size_t n)
{
	void *p;

	n = ALIGN_TO(n ? n : 1, _Alignof(max_align_t));
	if ((size_t)(a->end - a->next) < n) {
		size_t size = a->chunks ? a->chunks->size * 2 : 8192;
		struct arena_chunk *c;

		if (size > (1 << 20))
			size = 1 << 20;
		if (size < n)
			size = n;
		c = xmalloc(sizeof(*c) + size);
		c->size = size;
		c->next = a->chunks;
		a->chunks = c;
		a->next = (char *)c->data;
		a->end = a->next + size;
	}
	p = a->next;
	a->next += n;
	memset(p, 0, n);
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void arena_reset(struct arena *a)
{
	struct arena_chunk *keep = a->chunks;

	if (!keep)
		return;
	/* Keep the newest (largest) chunk: the next directive reuses it. */
	while (keep->next) {
		struct arena_chunk *c = keep->next;

		keep->next = c->next;
		free(c);
	}
	a->next = (char *)keep->data;
	a->end = a->next + keep->size;
}

void arena_release(struct arena *a)
{
	while (a->chunks) {
		struct arena_chunk *c = a->chunks;

		a->chunks = c->next;
		free(c);
	}
	a->next = a->end = NULL;
}
