// SPDX-License-Identifier: GPL-2.0
/* Asking the model: variables by name, queries, explanations, checks, DIMACS. */
#include <stdlib.h>
#include <string.h>
#include "model-internal.h"

const char *model_intern_path(struct model *m, const char *s)
{
	char *v = strmap_get(&m->strings, s);
	if (!v) {
		v = xstrdup(s);
		strmap_put(&m->strings, s, v);
	}
	return v;
}

static enum msym_kind kind_of(const struct kconfig_symbol *s)
{
	if (s->flags & KSYM_PROBE)
		return MSYM_FREE;
	if (!s->nr_defs)
		return MSYM_UNDEFINED;
	if (s->type == KCONFIG_BOOL)
		return MSYM_BOOL;
	if (s->type == KCONFIG_TRISTATE)
		return MSYM_TRISTATE;
	if (s->type == KCONFIG_UNKNOWN)
		return MSYM_UNTYPED;
	return MSYM_VALUE;
}

struct model *model_alloc(const struct kconfig *kc)
{
	struct model *m = xcalloc(1, sizeof(*m));
	size_t i;
	const struct kconfig_symbol *s;

	m->arch = kc->arch ? xstrdup(kc->arch) : NULL;
	m->nr_syms = kc->nr_symbols;
	m->syms = xcalloc(m->nr_syms + 1, sizeof(*m->syms));
	m->modules = LOGIC_FALSE;
	for_each_kconfig_symbol(kc, i, s) {
		struct msym *ms = &m->syms[s->index];
		char *name = xstrfmt("CONFIG_%s", s->name);

		ms->name = model_intern_path(m, s->name);
		ms->display = model_intern_path(m, name);
		free(name);
		strmap_put(&m->by_name, s->name, (void *)(uintptr_t)(s->index + 1));
		ms->kind = kind_of(s);
	}
	return m;
}

struct model *model_new(const struct kconfig *kc)
{
	struct model *m = model_alloc(kc);
	size_t i;
	const struct kconfig_symbol *s;

	m->l = logic_new();
	m->sat = sat_new(m->l);
	for_each_kconfig_symbol(kc, i, s) {
		struct msym *ms = &m->syms[s->index];
		char *name;

		if (ms->kind == MSYM_UNDEFINED || ms->kind == MSYM_UNTYPED)
			continue;
		if (ms->kind == MSYM_FREE) {
			ms->y = logic_var_new(m->l, s->name);
			continue;
		}
		name = xstrfmt("CONFIG_%s", s->name);
		ms->y = logic_var_new(m->l, name);
		free(name);
		if (ms->kind == MSYM_TRISTATE) {
			name = xstrfmt("CONFIG_%s_MODULE", s->name);
			ms->m = logic_var_new(m->l, name);
			free(name);
			ms->ge1 = logic_or(m->l, logic_atom(m->l, ms->y), logic_atom(m->l, ms->m));
		} else {
			ms->ge1 = logic_atom(m->l, ms->y);
		}
	}
	if (kc->modules && m->syms[kc->modules->index].y)
		m->modules = logic_atom(m->l, m->syms[kc->modules->index].y);
	return m;
}

void model_free(struct model *m)
{
	if (!m)
		return;
	sat_free(m->sat);
	sat_free(m->explain);
	logic_free(m->l);
	free(m->arch);
	free(m->syms);
	free(m->groups);
	free(m->reasons);
	free(m->dep_ge1);
	free(m->dep_ge2);
	free(m->choices);
	model_defconfig_release(m);
	strmap_clear(&m->by_name, NULL);
	strmap_clear(&m->strings, free);
	free(m);
}

struct logic *model_logic(struct model *m) { return m->l; }
struct sat *model_sat(struct model *m) { return m->sat; }
const char *model_arch(const struct model *m) { return m->arch; }

static const struct msym *lookup(const struct model *m, const char *name)
{
	uintptr_t i = (uintptr_t)strmap_get(&m->by_name, name);
	return i ? &m->syms[i - 1] : NULL;
}

int model_var_y(const struct model *m, const char *symbol)
{
	const struct msym *ms = lookup(m, symbol);
	return ms ? ms->y : 0;
}

int model_var_m(const struct model *m, const char *symbol)
{
	const struct msym *ms = lookup(m, symbol);
	return ms ? ms->m : 0;
}

int model_symbol_defined(const struct model *m, const char *symbol)
{
	const struct msym *ms = lookup(m, symbol);
	return ms && ms->kind != MSYM_UNDEFINED && ms->kind != MSYM_FREE;
}

formula model_config(struct model *m, const char *name, int *defined)
{
	const struct msym *ms = NULL;
	*defined = 1;
	if (starts_with(name, "CONFIG_")) {
		const char *sym = name + strlen("CONFIG_");
		size_t len = strlen(sym);
		ms = lookup(m, sym);
		if (ms && ms->kind != MSYM_UNDEFINED && ms->kind != MSYM_FREE)
			return ms->y ? logic_atom(m->l, ms->y) : LOGIC_FALSE;
		if (len > 7 && ends_with(sym, "_MODULE")) {
			char *base = xstrndup(sym, len - 7);
			ms = lookup(m, base);
			free(base);
			if (ms && ms->kind == MSYM_TRISTATE)
				return logic_atom(m->l, ms->m);
			if (ms && ms->kind != MSYM_UNDEFINED && ms->kind != MSYM_FREE)
				return LOGIC_FALSE;
		}
	}
	*defined = 0;
	if (ms && ms->kind == MSYM_UNDEFINED) {
		/*
		 * A symbol this architecture's Kconfig names but does not define:
		 * n in the model, as pc.c has it (the same variable and fact), so
		 * that no answer depends on which of them asked first.
		 */
		int var = logic_var(m->l, name);

		sat_add_fact(m->sat, -var);
		return logic_atom(m->l, var);
	}
	return logic_atom(m->l, logic_var(m->l, name));
}

int model_satisfiable(struct model *m, formula f)
{
	return sat_satisfiable(m->sat, f);
}

static void build_explainer(struct model *m)
{
	if (m->explain)
		return;
	m->explain = sat_new(m->l);
	/* Guards first, so that group i is guarded by first_guard + i. */
	m->first_guard = logic_nr_vars(m->l) + 1;
	for (size_t i = 0; i < m->nr_groups; i++)
		logic_var_new(m->l, NULL);
	for (size_t i = 0; i < m->nr_groups; i++)
		sat_assert_guarded(m->explain, m->groups[i].f, m->first_guard + (int)i);
}

/* Solves the explainer under `as` (nr_fixed literals, then every guard); the failed guards. */
static size_t explain_under(struct model *m, int *as, size_t nr_fixed)
{
	size_t nr = nr_fixed + m->nr_groups, n, k = 0;
	int *failed = NULL;
	size_t alloc = 0;
	for (size_t i = 0; i < m->nr_groups; i++)
		as[nr_fixed + i] = m->first_guard + (int)i;
	if (sat_solve(m->explain, as, nr) == SAT_SAT)
		return 0;
	/* Minimising costs a solver call per assumption: only on small problems. */
	n = sat_failed(m->explain, as, nr, nr < 4000, &failed, &alloc);
	for (size_t i = 0; i < n; i++) {
		int g = failed[i] - m->first_guard;
		if (g < 0 || (size_t)g >= m->nr_groups)
			continue;
		ALLOC_GROW(m->reasons, k + 1, m->alloc_reasons);
		m->reasons[k++] = &m->groups[g].reason;
	}
	free(failed);
	return k;
}

size_t model_explain(struct model *m, formula f, const struct model_reason ***out)
{
	size_t k;
	*out = NULL;
	if (f == LOGIC_FALSE)
		return 0;
	build_explainer(m);
	int *as = xmalloc((m->nr_groups + 1) * sizeof(*as));
	size_t nr_fixed = 0;
	if (f != LOGIC_TRUE)
		as[nr_fixed++] = sat_query_literal(m->explain, f);
	k = explain_under(m, as, nr_fixed);
	free(as);
	*out = m->reasons;
	return k;
}

static void describe(const struct model_reason *r, struct strbuf *why)
{
	strbuf_addf(why, "%s:%d: %s: %s\n", r->path, r->line, r->symbol, r->what);
}

/*
 * Reads "CONFIG_FOO=value" lines into values[] (1 true, -1 false, 0 unknown);
 * what no variable can say (m for a bool) goes to `why`. Returns 1 then.
 */
static int read_config(struct model *m, const char *config, int8_t *values, struct strbuf *why)
{
	int bad = 0;
	for (size_t i = 0; i < m->nr_syms; i++) {
		const struct msym *ms = &m->syms[i];
		if (ms->kind == MSYM_FREE)
			continue;
		if (ms->y)
			values[ms->y] = -1;
		if (ms->m)
			values[ms->m] = -1;
	}
	for (const char *p = config; *p;) {
		const char *eol = strchr(p, '\n'), *eq;
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (starts_with(p, "CONFIG_") && (eq = memchr(p, '=', len))) {
			char *name = xstrndup(p + 7, eq - p - 7);
			const struct msym *ms = lookup(m, name);
			const char *v = eq + 1;
			size_t vlen = len - (v - p);
			if (ms && ms->kind != MSYM_FREE && ms->y) {
				if (ms->kind == MSYM_VALUE || (vlen == 1 && *v == 'y')) {
					values[ms->y] = 1;
				} else if (vlen == 1 && *v == 'm' && ms->m) {
					values[ms->m] = 1;
				} else if (vlen == 1 && *v == 'm') {
					strbuf_addf(why, "CONFIG_%s: a bool cannot be m\n", name);
					bad = 1;
				}
			}
			free(name);
		}
		p += len;
		if (*p)
			p++;
	}
	return bad;
}

int model_check_config(struct model *m, const char *config, struct strbuf *why)
{
	int nr_vars = logic_nr_vars(m->l);
	int8_t *values = xcalloc(nr_vars + 1, 1);
	int bad = read_config(m, config, values, why);
	/* First the constraints the configuration violates by itself (cheap, precise). */
	struct logic_eval *ev = logic_eval_new(m->l, values, nr_vars);
	size_t nr_violated = 0;
	for (size_t i = 0; i < m->nr_groups; i++) {
		if (logic_eval(ev, m->groups[i].f) >= 0)
			continue;
		/* A few lines tell what is wrong; thousands would bury it. */
		if (nr_violated++ < 50)
			describe(&m->groups[i].reason, why);
		bad = 1;
	}
	if (nr_violated > 50)
		strbuf_addf(why, "... and %zu more\n", nr_violated - 50);
	logic_eval_free(ev);
	if (!bad) {
		/* Then those that only fail together (choices, free atoms): ask the solver. */
		int *as = xmalloc((nr_vars + m->nr_groups + 1) * sizeof(*as));
		size_t nr = 0, k;
		for (int v = 1; v <= nr_vars; v++)
			if (values[v])
				as[nr++] = values[v] > 0 ? v : -v;
		if (sat_solve(m->sat, as, nr) == SAT_UNSAT) {
			bad = 1;
			build_explainer(m);
			k = explain_under(m, as, nr);
			for (size_t i = 0; i < k; i++)
				describe(m->reasons[i], why);
			if (!k)
				strbuf_addstr(why, "unsatisfiable (no single constraint to blame)\n");
		}
		free(as);
	}
	free(values);
	return bad;
}

void model_dump_dimacs(struct model *m, FILE *out)
{
	fprintf(out, "c Kconfig model%s%s: %zu constraints\n",
		m->arch ? " of " : "", m->arch ? m->arch : "", m->nr_groups);
	for (size_t i = 0; i < m->nr_syms; i++) {
		const struct msym *ms = &m->syms[i];
		if (ms->kind == MSYM_FREE || !ms->y)
			continue;
		fprintf(out, "c CONFIG_%s %d\n", ms->name, ms->y);
		if (ms->m)
			fprintf(out, "c CONFIG_%s_MODULE %d\n", ms->name, ms->m);
	}
	sat_write_dimacs(m->sat, out);
}

void model_get_stats(struct model *m, struct model_stats *st)
{
	st->symbols = m->nr_syms;
	st->constraints = m->nr_groups;
	st->vars = logic_nr_vars(m->l);
	st->clauses = sat_nr_base_clauses(m->sat);
	st->nodes = logic_nr_nodes(m->l);
}
