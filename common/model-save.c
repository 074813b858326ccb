// SPDX-License-Identifier: GPL-2.0
/*
 * A built model written for the disk cache and read back (model.h): its
 * store, its solver's base, and what it knows of each symbol, constraint,
 * choice and definition. Everything read back is checked against the Kconfig
 * tree it is loaded for and against the store before it is used.
 */
#include <stdlib.h>
#include <string.h>
#include "diskcache.h"
#include "model-internal.h"

#define MODEL_SAVE_FORMAT 2

/* The index of `s` in the entry's string table (0: NULL), added when new. */
static uint32_t string_index(struct strmap *index, struct strvec *table, const char *s)
{
	uintptr_t i;

	if (!s)
		return 0;
	i = (uintptr_t)strmap_get(index, s);
	if (!i) {
		strvec_push(table, s);
		i = table->nr;
		strmap_put(index, s, (void *)i);
	}
	return (uint32_t)i;
}

static void save_groups(const struct model *m, struct strbuf *sb)
{
	struct strmap index = STRMAP_INIT;
	struct strvec table = STRVEC_INIT;
	uint32_t *w = xmalloc((m->nr_groups * 5 + 1) * sizeof(*w));

	for (size_t i = 0; i < m->nr_groups; i++) {
		const struct model_group *g = &m->groups[i];

		w[5 * i] = g->f;
		w[5 * i + 1] = string_index(&index, &table, g->reason.path);
		w[5 * i + 2] = (uint32_t)g->reason.line;
		w[5 * i + 3] = string_index(&index, &table, g->reason.symbol);
		w[5 * i + 4] = string_index(&index, &table, g->reason.what);
	}
	diskcache_put_u64(sb, table.nr);
	for (size_t i = 0; i < table.nr; i++)
		diskcache_put_str(sb, table.v[i]);
	diskcache_put_u32s(sb, w, m->nr_groups * 5);
	free(w);
	strvec_clear(&table);
	strmap_clear(&index, NULL);
}

void model_save(const struct model *m, struct strbuf *sb)
{
	uint32_t *w = xmalloc((m->nr_syms * 4 + m->nr_choices * 2 + 1) * sizeof(*w));

	diskcache_put_u64(sb, MODEL_SAVE_FORMAT);
	diskcache_put_u64(sb, m->nr_syms);
	diskcache_put_u64(sb, m->nr_deps);
	diskcache_put_u64(sb, m->nr_choices);
	logic_save(m->l, sb);
	sat_save_base(m->sat, sb);
	for (size_t i = 0; i < m->nr_syms; i++) {
		w[4 * i] = m->syms[i].kind;
		w[4 * i + 1] = (uint32_t)m->syms[i].y;
		w[4 * i + 2] = (uint32_t)m->syms[i].m;
		w[4 * i + 3] = m->syms[i].ge1;
	}
	diskcache_put_u32s(sb, w, m->nr_syms * 4);
	diskcache_put_u64(sb, m->modules);
	save_groups(m, sb);
	for (size_t i = 0; i < m->nr_choices; i++) {
		diskcache_put_str(sb, m->choices[i].name);
		w[2 * i] = (uint32_t)m->choices[i].y;
		w[2 * i + 1] = (uint32_t)m->choices[i].m;
	}
	diskcache_put_u32s(sb, w, m->nr_choices * 2);
	diskcache_put_u32s(sb, m->dep_ge1, m->nr_deps);
	diskcache_put_u32s(sb, m->dep_ge2, m->nr_deps);
	free(w);
}

/* What the entry says of each symbol: the kind Kconfig gives it, variables and formulas of the store. */
static int load_syms(struct model *m, struct diskcache_reader *rd)
{
	uint32_t *w;
	size_t n = diskcache_get_u32s(rd, &w, m->nr_syms * 4);
	uint32_t vars = (uint32_t)logic_nr_vars(m->l), nodes = (uint32_t)logic_nr_nodes(m->l);
	int ok = n == m->nr_syms * 4;

	for (size_t i = 0; ok && i < m->nr_syms; i++) {
		struct msym *ms = &m->syms[i];

		ok = w[4 * i] == ms->kind && w[4 * i + 1] <= vars && w[4 * i + 2] <= vars &&
		     w[4 * i + 3] >> 1 < nodes;
		ms->y = (int)w[4 * i + 1];
		ms->m = (int)w[4 * i + 2];
		ms->ge1 = w[4 * i + 3];
	}
	free(w);
	return ok ? 0 : -1;
}

static const char *table_string(struct model *m, char **table, size_t nr, uint32_t i, int *ok)
{
	if (i > nr) {
		*ok = 0;
		return NULL;
	}
	return i ? model_intern_path(m, table[i - 1]) : NULL;
}

static int load_groups(struct model *m, struct diskcache_reader *rd)
{
	uint64_t nr = diskcache_get_u64(rd);
	size_t nr_strings = nr < (uint64_t)(rd->end - rd->p) ? (size_t)nr : 0, n;
	char **table = xcalloc(nr_strings + 1, sizeof(*table));
	uint32_t *w = NULL, nodes = (uint32_t)logic_nr_nodes(m->l);
	int ok = nr == nr_strings;

	for (size_t i = 0; ok && i < nr_strings; i++)
		ok = (table[i] = diskcache_get_str(rd)) != NULL;
	n = ok ? diskcache_get_u32s(rd, &w, (size_t)UINT32_MAX) : 0;
	ok = ok && !rd->bad && n % 5 == 0;
	m->nr_groups = m->alloc_groups = ok ? n / 5 : 0;
	m->groups = xcalloc(m->nr_groups + 1, sizeof(*m->groups));
	for (size_t i = 0; ok && i < m->nr_groups; i++) {
		struct model_group *g = &m->groups[i];

		g->f = w[5 * i];
		ok = g->f >> 1 < nodes && w[5 * i + 1] && w[5 * i + 4];
		g->reason.path = table_string(m, table, nr_strings, w[5 * i + 1], &ok);
		g->reason.line = (int)w[5 * i + 2];
		g->reason.symbol = table_string(m, table, nr_strings, w[5 * i + 3], &ok);
		g->reason.what = table_string(m, table, nr_strings, w[5 * i + 4], &ok);
	}
	free(w);
	for (size_t i = 0; i < nr_strings; i++)
		free(table[i]);
	free(table);
	return ok ? 0 : -1;
}

static int load_formulas(struct diskcache_reader *rd, formula **out, size_t nr, uint32_t nodes)
{
	size_t n = diskcache_get_u32s(rd, out, nr);

	if (n != nr)
		return -1;
	for (size_t i = 0; i < n; i++)
		if ((*out)[i] >> 1 >= nodes)
			return -1;
	return 0;
}

static int load_rest(struct model *m, const struct kconfig *kc, struct diskcache_reader *rd)
{
	uint32_t *w = NULL, vars = (uint32_t)logic_nr_vars(m->l);
	uint32_t nodes = (uint32_t)logic_nr_nodes(m->l);
	int ok;

	m->modules = (formula)diskcache_get_u64(rd);
	if (m->modules >> 1 >= nodes || load_groups(m, rd) < 0)
		return -1;
	m->nr_choices = kc->nr_choices;
	m->choices = xcalloc(m->nr_choices + 1, sizeof(*m->choices));
	ok = 1;
	for (size_t i = 0; ok && i < m->nr_choices; i++) {
		char *name = diskcache_get_str(rd);

		ok = name != NULL;
		m->choices[i].name = name ? model_intern_path(m, name) : NULL;
		free(name);
	}
	ok = ok && diskcache_get_u32s(rd, &w, m->nr_choices * 2) == m->nr_choices * 2;
	for (size_t i = 0; ok && i < m->nr_choices; i++) {
		m->choices[i].y = (int)w[2 * i];
		m->choices[i].m = (int)w[2 * i + 1];
		ok = w[2 * i] <= vars && w[2 * i + 1] <= vars;
	}
	free(w);
	m->nr_deps = kc->nr_definitions;
	return ok && !load_formulas(rd, &m->dep_ge1, m->nr_deps, nodes) &&
	       !load_formulas(rd, &m->dep_ge2, m->nr_deps, nodes) ? 0 : -1;
}

struct model *model_load(const struct kconfig *kc, const struct strbuf *entry)
{
	struct diskcache_reader rd;
	struct model *m;

	diskcache_reader_init(&rd, entry);
	if (diskcache_get_u64(&rd) != MODEL_SAVE_FORMAT || diskcache_get_u64(&rd) != kc->nr_symbols ||
	    diskcache_get_u64(&rd) != kc->nr_definitions || diskcache_get_u64(&rd) != kc->nr_choices)
		return NULL;
	m = model_alloc(kc);
	m->l = logic_load(&rd);
	if (m->l) {
		m->sat = sat_new(m->l);
		if (sat_load_base(m->sat, &rd) == 0 && load_syms(m, &rd) == 0 &&
		    load_rest(m, kc, &rd) == 0 && diskcache_reader_done(&rd))
			return m;
	}
	if (!m->l)
		m->l = logic_new();
	model_free(m);
	return NULL;
}
