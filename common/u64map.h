/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A map from 64-bit keys to 64-bit values, open addressing: for memo tables
 * keyed by a pointer or a formula (the model builder's expression memo, the
 * solver's answers). Key 0 is reserved: callers add 1 where 0 may occur.
 */
#ifndef UT_U64MAP_H
#define UT_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct u64map {
	uint64_t *keys, *values;
	size_t nr, cap;
	unsigned shift;		/* 64 - log2(cap): the hash's top bits index */
};

#define U64MAP_INIT { 0 }

/* 1 and *value set when `key` is in the map, else 0. */
int u64map_get(const struct u64map *m, uint64_t key, uint64_t *value);
/* Adds or replaces. */
void u64map_put(struct u64map *m, uint64_t key, uint64_t value);
/* Forgets every entry, keeps the memory. */
void u64map_clear(struct u64map *m);
void u64map_release(struct u64map *m);
size_t u64map_size(const struct u64map *m);

#endif
