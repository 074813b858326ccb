// SPDX-License-Identifier: GPL-2.0
/*
 * A defconfig's configuration over the model (model.h, model_defconfig_*):
 * per symbol a rule saying what conf makes of it, given to the model's
 * solver as assumptions, so that the base keeps no trace of one defconfig
 * and the rule of a symbol the defconfig leaves alone is encoded once.
 */
#include <stdlib.h>
#include <string.h>
#include "model-internal.h"

struct model_defconfig {
	struct model *m;
	const struct kconfig *kc;
	struct builder *b;
	signed char *user;			/* per symbol: -1 unset, else 0..2 */
	const struct kconfig_symbol **chosen;	/* per choice: the last member set to y */
	int8_t *vals;				/* per variable, after a solve (1 true) */
	int nr_vals;
	int *lits;				/* the rules' literals of the last solve */
	size_t nr_lits, alloc_lits;
	int guard;				/* implies them all (sat_guard), or 0 */
	int ready;				/* the guard holds the rules of the values set */
	/* The symbols whose values may reach those the defconfig sets (their rules are asked). */
	char *in_cone;
	uint32_t *stack;
	size_t nr_stack;
};

/* The builder of the model's defconfig rules, kept with the model. */
static struct builder *defconfig_builder(struct model *m, const struct kconfig *kc)
{
	if (!m->dc_builder) {
		struct builder *b = xcalloc(1, sizeof(*b));

		b->m = m;
		b->choices = m->choices;
		b->dep = xcalloc(m->nr_deps + 1, sizeof(*b->dep));
		b->has_dep = xcalloc(m->nr_deps + 1, 1);
		for (size_t i = 0; i < m->nr_deps; i++) {
			b->dep[i] = (struct tv){ m->dep_ge1[i], m->dep_ge2[i] };
			b->has_dep[i] = 1;
		}
		m->dc_builder = b;
	}
	m->dc_builder->kc = kc;
	return m->dc_builder;
}

void model_defconfig_release(struct model *m)
{
	if (!m->dc_builder)
		return;
	free(m->dc_builder->dep);
	free(m->dc_builder->has_dep);
	u64map_release(&m->dc_builder->memo);
	free(m->dc_builder);
	u64map_release(&m->dc_lits);
	free(m->dc_first);
	free(m->dc_reach);
	m->dc_first = m->dc_reach = NULL;
	m->dc_reach_kc = NULL;
	m->dc_builder = NULL;
}

/* The symbols one symbol's value may depend on, while the model's list is made. */
struct reach {
	const struct kconfig *kc;
	uint32_t *v;
	size_t nr, alloc;
	uint32_t *stamp;	/* per symbol: 1 + the symbol whose list holds it */
	uint32_t from;
};

static void reach_push(struct reach *r, const struct kconfig_symbol *s)
{
	if (s->index < r->kc->nr_symbols && r->stamp[s->index] != r->from + 1) {
		r->stamp[s->index] = r->from + 1;
		ALLOC_GROW(r->v, r->nr + 1, r->alloc);
		r->v[r->nr++] = (uint32_t)s->index;
	}
}

static void reach_expr(struct reach *r, const struct kconfig_expr *e)
{
	if (!e || e->type == KEXPR_CONST)
		return;
	if (e->type == KEXPR_SYMBOL) {
		if (!(e->sym->flags & KSYM_CONST))
			reach_push(r, e->sym);
		return;
	}
	reach_expr(r, e->left);
	if (e->type != KEXPR_NOT)
		reach_expr(r, e->right);
}

static void reach_each(void *data, const struct kconfig_expr *e)
{
	reach_expr(data, e);
}

static void reach_definition(struct reach *r, const struct kconfig_definition *d)
{
	kconfig_definition_each_expr(d, reach_each, r);
}

static void reach_reverse(struct reach *r, const struct kconfig_reverse *rev, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		if (rev[i].from->symbol)
			reach_push(r, rev[i].from->symbol);
		reach_definition(r, rev[i].from);
		reach_expr(r, rev[i].cond);
	}
}

/*
 * Per symbol, once per model: what its rule reads (its definitions, its
 * choice's and members, what selects or implies it and when). The cone of
 * a defconfig is their closure, walked as indices for each defconfig.
 */
static void make_reach(struct model *m, const struct kconfig *kc)
{
	struct reach r = { .kc = kc };

	free(m->dc_first);
	free(m->dc_reach);
	m->dc_reach_kc = kc;
	r.stamp = xcalloc(kc->nr_symbols + 1, sizeof(*r.stamp));
	m->dc_first = xcalloc(kc->nr_symbols + 1, sizeof(*m->dc_first));
	for (size_t i = 0; i < kc->nr_symbols; i++) {
		const struct kconfig_symbol *s = kc->symbols[i];

		r.from = (uint32_t)i;
		m->dc_first[i] = (uint32_t)r.nr;
		for (size_t k = 0; k < s->nr_defs; k++) {
			const struct kconfig_choice *c = s->defs[k]->choice;

			reach_definition(&r, s->defs[k]);
			for (size_t j = 0; c && j < c->nr_defs; j++)
				reach_definition(&r, c->defs[j]);
			for (size_t j = 0; c && j < c->nr_members; j++)
				reach_push(&r, c->members[j]);
		}
		reach_reverse(&r, s->selected_by, s->nr_selected_by);
		reach_reverse(&r, s->implied_by, s->nr_implied_by);
	}
	m->dc_first[kc->nr_symbols] = (uint32_t)r.nr;
	m->dc_reach = r.v;
	free(r.stamp);
}

struct model_defconfig *model_defconfig_new(struct model *m, const struct kconfig *kc)
{
	struct model_defconfig *dc = xcalloc(1, sizeof(*dc));

	dc->m = m;
	dc->kc = kc;
	dc->b = defconfig_builder(m, kc);
	/* Most of a defconfig's questions fail by propagating its rules alone. */
	sat_track_units(m->sat);
	dc->user = xmalloc(kc->nr_symbols + 1);
	memset(dc->user, -1, kc->nr_symbols + 1);
	dc->chosen = xcalloc(kc->nr_choices + 1, sizeof(*dc->chosen));
	dc->in_cone = xcalloc(kc->nr_symbols + 1, 1);
	dc->stack = xcalloc(kc->nr_symbols + 1, sizeof(*dc->stack));
	if (m->dc_reach_kc != kc)
		make_reach(m, kc);
	return dc;
}

void model_defconfig_free(struct model_defconfig *dc)
{
	if (!dc)
		return;
	/*
	 * Its rules switched off for good: left pending, the next defconfig's
	 * guard gave them to the solver (each defconfig's thousands of
	 * implications, kept by every later solve).
	 */
	if (dc->guard)
		sat_release_guard(dc->m->sat, dc->guard);
	free(dc->user);
	free(dc->vals);
	free(dc->chosen);
	free(dc->in_cone);
	free(dc->stack);
	free(dc->lits);
	free(dc);
}

static void cone_push(struct model_defconfig *dc, size_t index)
{
	if (index < dc->kc->nr_symbols && !dc->in_cone[index]) {
		dc->in_cone[index] = 1;
		dc->stack[dc->nr_stack++] = (uint32_t)index;
	}
}

/*
 * Everything the value of a symbol set by the defconfig may depend on:
 * only their rules are asked, the others' values cannot reach them (and
 * leaving a rule out only allows more configurations).
 */
static void close_cone(struct model_defconfig *dc)
{
	const struct model *m = dc->m;

	if (dc->kc->modules)
		cone_push(dc, dc->kc->modules->index);
	while (dc->nr_stack) {
		uint32_t i = dc->stack[--dc->nr_stack];

		for (uint32_t k = m->dc_first[i]; k < m->dc_first[i + 1]; k++)
			cone_push(dc, m->dc_reach[k]);
	}
}

void model_defconfig_set(struct model_defconfig *dc, const struct kconfig_symbol *s, int value)
{
	if (s->index >= dc->kc->nr_symbols || !s->nr_defs)
		return;
	dc->ready = 0;
	dc->user[s->index] = (signed char)value;
	cone_push(dc, s->index);
	/* conf: a member set to y becomes its choice's user value; n says nothing. */
	for (size_t k = 0; value == 2 && k < s->nr_defs; k++)
		if (s->defs[k]->choice)
			dc->chosen[s->defs[k]->choice->index] = s;
}

static struct tv tv_of(int value)
{
	return (struct tv){ value >= 1 ? LOGIC_TRUE : LOGIC_FALSE,
			    value == 2 ? LOGIC_TRUE : LOGIC_FALSE };
}

/* What conf makes of a bool/tristate symbol that is not a choice member. */
static formula symbol_rule(struct model_defconfig *dc, const struct kconfig_symbol *s,
			   const struct msym *ms)
{
	struct logic *l = dc->m->l;
	struct model_bounds bd;
	struct tv lo, hi, user;
	int u = dc->user[s->index];

	model_tristate_bounds(dc->b, s, ms->kind == MSYM_BOOL, &bd);
	if (u < 0)
		return model_value_between(dc->b, ms, bd.P, bd.Ph, &bd);
	/* Visible: the user's value capped by the visibility; else the default. */
	user = tv_of(u);
	user = (struct tv){ logic_and(l, user.ge1, bd.V.ge1), logic_and(l, user.ge2, bd.V.ge2) };
	lo = (struct tv){ logic_ite(l, bd.V.ge1, user.ge1, bd.P.ge1),
			  logic_ite(l, bd.V.ge1, user.ge2, bd.P.ge2) };
	hi = (struct tv){ logic_ite(l, bd.V.ge1, user.ge1, bd.Ph.ge1),
			  logic_ite(l, bd.V.ge1, user.ge2, bd.Ph.ge2) };
	return model_value_between(dc->b, ms, lo, hi, &bd);
}

static size_t member_index(const struct kconfig_choice *c, const struct kconfig_symbol *s)
{
	for (size_t i = 0; i < c->nr_members; i++)
		if (c->members[i] == s)
			return i;
	return c->nr_members;
}

/*
 * The members picked, into pick[]: the user's choice when visible, else
 * the first active default whose member is visible, else the first visible
 * member (sym_calc_choice).
 */
static void choice_picks(struct model_defconfig *dc, const struct kconfig_choice *c,
			 const formula *vis, formula *pick)
{
	struct logic *l = dc->m->l;
	const struct kconfig_symbol *u = dc->chosen[c->index];
	size_t ui = u ? member_index(c, u) : c->nr_members;
	formula taken = ui < c->nr_members ? vis[ui] : LOGIC_FALSE;

	for (size_t i = 0; i < c->nr_members; i++)
		pick[i] = i == ui ? vis[i] : LOGIC_FALSE;
	for (size_t k = 0; k < c->nr_defs; k++) {
		const struct kconfig_definition *d = c->defs[k];
		struct tv dep = model_def_dep(dc->b, d);

		for (size_t j = 0; j < d->nr_defaults; j++) {
			const struct kconfig_expr *v = d->defaults[j].value;
			size_t t = v->type == KEXPR_SYMBOL ? member_index(c, v->sym) : c->nr_members;
			formula active;

			if (t == c->nr_members)
				continue;
			active = logic_and(l, logic_and(l, dep.ge1, vis[t]),
					   model_tv_expr(dc->b, d->defaults[j].cond, 1).ge1);
			pick[t] = logic_or(l, pick[t], logic_and(l, logic_not(taken), active));
			taken = logic_or(l, taken, active);
		}
	}
	for (size_t i = 0; i < c->nr_members; i++) {
		pick[i] = logic_or(l, pick[i], logic_and(l, logic_not(taken), vis[i]));
		taken = logic_or(l, taken, vis[i]);
	}
}

/*
 * What conf makes of a bool choice: its mode is its visibility (an
 * optional one's only when the defconfig sets a member to y), and a
 * visible member is y exactly when picked. Tristate choices are left as
 * the model has them.
 */
static formula choice_rule(struct model_defconfig *dc, const struct kconfig_choice *c)
{
	struct logic *l = dc->m->l;
	struct tv C, Vc;
	formula f, *vis, *pick;

	if (dc->m->choices[c->index].m || !c->nr_members)
		return LOGIC_TRUE;
	C = model_choice_mode(dc->b, c);
	Vc = model_visibility(dc->b, c->defs, c->nr_defs);
	/* An optional choice is on only when the defconfig sets one of its members. */
	f = logic_iff(l, C.ge2, c->optional && !dc->chosen[c->index] ? LOGIC_FALSE : Vc.ge1);
	vis = xcalloc(c->nr_members, sizeof(*vis));
	pick = xcalloc(c->nr_members, sizeof(*pick));
	for (size_t i = 0; i < c->nr_members; i++) {
		const struct kconfig_symbol *s = c->members[i];

		vis[i] = dc->m->syms[s->index].kind == MSYM_BOOL ?
			 model_visibility(dc->b, s->defs, s->nr_defs).ge1 : LOGIC_FALSE;
	}
	choice_picks(dc, c, vis, pick);
	for (size_t i = 0; i < c->nr_members; i++) {
		const struct msym *ms = &dc->m->syms[c->members[i]->index];

		if (ms->kind != MSYM_BOOL)
			continue;
		f = logic_and(l, f, logic_implies(l, logic_and(l, C.ge2, vis[i]),
						  logic_iff(l, logic_atom(l, ms->y), pick[i])));
	}
	free(vis);
	free(pick);
	return f;
}

static void add_lit(struct model_defconfig *dc, int lit)
{
	ALLOC_GROW(dc->lits, dc->nr_lits + 1, dc->alloc_lits);
	dc->lits[dc->nr_lits++] = lit;
}

/* A rule's literal, encoded once per model: rules depend only on their key. */
static int rule_literal(struct model_defconfig *dc, uint64_t key, const struct kconfig_symbol *s,
			const struct kconfig_choice *c)
{
	uint64_t lit;

	if (!u64map_get(&dc->m->dc_lits, key, &lit)) {
		formula f = s ? symbol_rule(dc, s, &dc->m->syms[s->index]) : choice_rule(dc, c);

		lit = (uint64_t)(int64_t)sat_tracked_literal(dc->m->sat, f);
		u64map_put(&dc->m->dc_lits, key, lit);
	}
	return (int)(int64_t)lit;
}

static size_t chosen_index(const struct model_defconfig *dc, const struct kconfig_choice *c)
{
	const struct kconfig_symbol *u = dc->chosen[c->index];

	return u ? member_index(c, u) + 1 : 0;
}

/* The rules' literals of the symbols in the cone, and of their choices. */
static void collect_rules(struct model_defconfig *dc)
{
	struct model *m = dc->m;
	const struct kconfig_symbol *s;
	size_t i;

	dc->nr_lits = 0;
	close_cone(dc);
	for_each_kconfig_symbol(dc->kc, i, s) {
		const struct msym *ms = &m->syms[s->index];

		if (!dc->in_cone[s->index] || (ms->kind != MSYM_BOOL && ms->kind != MSYM_TRISTATE) ||
		    (s->flags & (KSYM_PROBE | KSYM_TRANSITIONAL | KSYM_ENV | KSYM_DEFCONFIG_LIST |
				 KSYM_CHOICE_MEMBER)))
			continue;
		add_lit(dc, rule_literal(dc, 1 + (uint64_t)s->index * 4 +
					     (dc->user[s->index] >= 0 ? (uint64_t)dc->user[s->index] : 3),
				     s, NULL));
	}
	for (i = 0; i < dc->kc->nr_choices; i++)
		if (dc->kc->choices[i]->nr_members &&
		    dc->in_cone[dc->kc->choices[i]->members[0]->index])
			add_lit(dc, rule_literal(dc, (1ULL << 40) + ((uint64_t)i << 20) +
						 chosen_index(dc, dc->kc->choices[i]),
					     NULL, dc->kc->choices[i]));
}

static int var_true(void *data, int var)
{
	const struct model_defconfig *dc = data;

	return var > 0 && var <= dc->nr_vals && dc->vals[var - 1] > 0;
}

/* The user's values as the solver's first guesses: most lines are kept. */
static void prefer_user_values(struct model_defconfig *dc, int on)
{
	const struct kconfig_symbol *s;
	size_t i;

	for_each_kconfig_symbol(dc->kc, i, s) {
		const struct msym *ms = &dc->m->syms[s->index];
		int u = dc->user[s->index];

		if (u < 0 || (ms->kind != MSYM_BOOL && ms->kind != MSYM_TRISTATE))
			continue;
		sat_prefer(dc->m->sat, u == 2 ? ms->y : -ms->y, on);
		if (ms->kind == MSYM_TRISTATE)
			sat_prefer(dc->m->sat, u == 1 ? ms->m : -ms->m, on);
	}
}

/* The rules of the values set, behind a new guard. */
static void guard_rules(struct model_defconfig *dc)
{
	if (dc->ready)
		return;
	collect_rules(dc);
	if (dc->guard)
		sat_release_guard(dc->m->sat, dc->guard);
	dc->guard = sat_guard(dc->m->sat, dc->lits, dc->nr_lits);
	dc->ready = 1;
}

int model_defconfig_solve(struct model_defconfig *dc)
{
	int r;

	guard_rules(dc);
	dc->nr_vals = logic_nr_vars(dc->m->l);
	dc->vals = xrealloc(dc->vals, (size_t)dc->nr_vals + 1);
	/* Propagation and guesses going back one step at most find most configurations. */
	if (sat_complete(dc->m->sat, &dc->guard, 1, dc->vals, dc->nr_vals))
		return 1;
	prefer_user_values(dc, 1);
	r = sat_solve(dc->m->sat, &dc->guard, 1);
	prefer_user_values(dc, 0);
	if (r != SAT_SAT) {
		free(dc->vals);
		dc->vals = NULL;
		return 0;
	}
	for (int v = 1; v <= dc->nr_vals; v++)
		dc->vals[v - 1] = (int8_t)(sat_value(dc->m->sat, v) > 0);
	return 1;
}

int model_defconfig_value(const struct model_defconfig *dc, const struct kconfig_symbol *s)
{
	const struct msym *ms;

	if (s->index >= dc->kc->nr_symbols || !dc->vals)
		return -1;
	ms = &dc->m->syms[s->index];
	switch (ms->kind) {
	case MSYM_BOOL:
	case MSYM_VALUE:
		return var_true((void *)dc, ms->y) ? 2 : 0;
	case MSYM_TRISTATE:
		return var_true((void *)dc, ms->y) ? 2 : var_true((void *)dc, ms->m) ? 1 : 0;
	default:
		return -1;
	}
}

int model_defconfig_visible(struct model_defconfig *dc, const struct kconfig_symbol *s)
{
	formula f = model_visibility(dc->b, s->defs, s->nr_defs).ge1;

	return dc->vals && logic_eval_with(dc->m->l, f, var_true, dc) > 0;
}

/* The formula of a possible() question. */
static formula question_formula(struct model_defconfig *dc, const struct kconfig_symbol *s,
				int value, int visible)
{
	struct logic *l = dc->m->l;
	const struct msym *ms = &dc->m->syms[s->index];
	formula y = ms->y ? logic_atom(l, ms->y) : LOGIC_FALSE;
	formula ge1 = ms->kind == MSYM_TRISTATE ? ms->ge1 : y;

	if (visible)
		return model_visibility(dc->b, s->defs, s->nr_defs).ge1;
	if (value == 2)
		return y;
	if (value == 1)
		return ms->kind == MSYM_TRISTATE ? logic_and(l, logic_atom(l, ms->m), logic_not(y)) :
			LOGIC_FALSE;
	return logic_not(ge1);
}

int model_defconfig_settled(struct model_defconfig *dc, const struct kconfig_symbol *s, int value)
{
	const struct msym *ms;
	formula f;

	if (s->index >= dc->kc->nr_symbols)
		return 1;
	ms = &dc->m->syms[s->index];
	if (value < 3 && ms->kind != MSYM_BOOL && ms->kind != MSYM_VALUE && ms->kind != MSYM_TRISTATE)
		return 1;
	guard_rules(dc);
	/* Another value (hidden) is refuted. */
	f = logic_not(question_formula(dc, s, value == 3 ? 0 : value, value == 3));
	return sat_refuted(dc->m->sat, &dc->guard, 1, sat_tracked_literal(dc->m->sat, f));
}

int model_defconfig_possible(struct model_defconfig *dc, const struct kconfig_symbol *s,
			     int value, int visible)
{
	int q[2] = { dc->guard, sat_tracked_literal(dc->m->sat, question_formula(dc, s, value, visible)) };

	return dc->guard && !sat_refuted(dc->m->sat, q, 1, q[1]) &&
	       sat_solve(dc->m->sat, q, 2) == SAT_SAT;
}

void model_defconfig_possible_each(struct model_defconfig *dc,
				   const struct model_defconfig_question *q, size_t n, char *yes)
{
	formula *f = xcalloc(n + 1, sizeof(*f));

	for (size_t i = 0; i < n; i++)
		f[i] = question_formula(dc, q[i].sym, q[i].value, q[i].visible);
	if (dc->guard)
		sat_solve_each(dc->m->sat, &dc->guard, 1, f, n, yes);
	else
		memset(yes, 0, n);
	free(f);
}
