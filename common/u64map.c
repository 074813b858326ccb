// SPDX-License-Identifier: GPL-2.0
#include "u64map.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/*
 * Fibonacci hashing: the multiply spreads pointer keys (whose low bits are
 * alike) and small formula numbers over the top bits, which index.
 */
static size_t slot(const struct u64map *m, uint64_t key)
{
	size_t mask = m->cap - 1;
	size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> m->shift);

	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & mask;
	return i;
}

static void grow(struct u64map *m)
{
	struct u64map old = *m;

	m->cap = old.cap ? old.cap * 2 : 256;
	m->shift = 64;
	for (size_t c = m->cap; c > 1; c >>= 1)
		m->shift--;
	m->keys = xcalloc(m->cap, sizeof(*m->keys));
	m->values = xcalloc(m->cap, sizeof(*m->values));
	for (size_t i = 0; i < old.cap; i++) {
		if (old.keys[i]) {
			size_t j = slot(m, old.keys[i]);

			m->keys[j] = old.keys[i];
			m->values[j] = old.values[i];
		}
	}
	free(old.keys);
	free(old.values);
}

int u64map_get(const struct u64map *m, uint64_t key, uint64_t *value)
{
	size_t i;

	if (!m->cap)
		return 0;
	i = slot(m, key);
	if (!m->keys[i])
		return 0;
	*value = m->values[i];
	return 1;
}

void u64map_put(struct u64map *m, uint64_t key, uint64_t value)
{
	size_t i;

	if (!key)
		die("internal error: u64map key 0");
	if ((m->nr + 1) * 2 > m->cap)
		grow(m);
	i = slot(m, key);
	if (!m->keys[i]) {
		m->keys[i] = key;
		m->nr++;
	}
	m->values[i] = value;
}

void u64map_clear(struct u64map *m)
{
	if (m->cap)
		memset(m->keys, 0, m->cap * sizeof(*m->keys));
	m->nr = 0;
}

void u64map_release(struct u64map *m)
{
	free(m->keys);
	free(m->values);
	memset(m, 0, sizeof(*m));
}

size_t u64map_size(const struct u64map *m)
{
	return m->nr;
}
