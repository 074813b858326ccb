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
	/* What the rules force (see eval_symbol): per variable 1, -1 or 0 unknown; per symbol and choice, done. */
	int8_t *fv;
	int nr_fv;
	uint8_t *sym_done, *choice_done;	/* 1 under way, 2 done, 3 its rule holds by its values alone */
	unsigned depth;
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
	u64map_release(&m->dc_form_at);
	free(m->dc_forms);
	m->dc_forms = NULL;
	m->nr_dc_forms = m->alloc_dc_forms = 0;
	logic_eval_free(m->dc_eval);
	m->dc_eval = NULL;
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
	free(dc->fv);
	free(dc->sym_done);
	free(dc->choice_done);
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
	if (dc->fv) {
		/* Evaluated with the values set so far: again from the start. */
		free(dc->fv);
		free(dc->sym_done);
		free(dc->choice_done);
		dc->fv = NULL;
		dc->sym_done = dc->choice_done = NULL;
	}
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

/* What conf makes of a bool/tristate symbol that is not a choice member: a value between lo and hi. */
static void symbol_bounds(struct model_defconfig *dc, const struct kconfig_symbol *s,
			  const struct msym *ms, struct model_bounds *bd, struct tv *lo, struct tv *hi)
{
	struct logic *l = dc->m->l;
	struct tv user;
	int u = dc->user[s->index];

	model_tristate_bounds(dc->b, s, ms->kind == MSYM_BOOL, bd);
	if (u < 0) {
		*lo = bd->P;
		*hi = bd->Ph;
		return;
	}
	/* Visible: the user's value capped by the visibility; else the default. */
	user = tv_of(u);
	user = (struct tv){ logic_and(l, user.ge1, bd->V.ge1), logic_and(l, user.ge2, bd->V.ge2) };
	*lo = (struct tv){ logic_ite(l, bd->V.ge1, user.ge1, bd->P.ge1),
			   logic_ite(l, bd->V.ge1, user.ge2, bd->P.ge2) };
	*hi = (struct tv){ logic_ite(l, bd->V.ge1, user.ge1, bd->Ph.ge1),
			   logic_ite(l, bd->V.ge1, user.ge2, bd->Ph.ge2) };
}

static formula symbol_rule(struct model_defconfig *dc, const struct kconfig_symbol *s,
			   const struct msym *ms)
{
	struct model_bounds bd;
	struct tv lo, hi;

	symbol_bounds(dc, s, ms, &bd, &lo, &hi);
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
 * A bool choice's rule as formulas: f[0] the mode, then per member i
 * f[1 + 3i] "visible", f[2 + 3i] "picked", the member's value when the
 * mode is on and it is visible, and f[3 + 3i] its default, its value when
 * it is not visible (the model's base says so). A member that is not bool
 * is never visible.
 */
#define CHOICE_FORMS(n) (1 + 3 * (n))

static formula *choice_forms(struct model_defconfig *dc, const struct kconfig_choice *c)
{
	struct tv Vc = model_visibility(dc->b, c->defs, c->nr_defs);
	formula *f = xcalloc(CHOICE_FORMS(c->nr_members), sizeof(*f));
	formula *vis = xcalloc(c->nr_members, sizeof(*vis));
	formula *pick = xcalloc(c->nr_members, sizeof(*pick));

	/* An optional choice is on only when the defconfig sets one of its members. */
	f[0] = c->optional && !dc->chosen[c->index] ? LOGIC_FALSE : Vc.ge1;
	for (size_t i = 0; i < c->nr_members; i++) {
		const struct kconfig_symbol *s = c->members[i];

		vis[i] = dc->m->syms[s->index].kind == MSYM_BOOL ?
			 model_visibility(dc->b, s->defs, s->nr_defs).ge1 : LOGIC_FALSE;
	}
	choice_picks(dc, c, vis, pick);
	for (size_t i = 0; i < c->nr_members; i++) {
		f[1 + 3 * i] = vis[i];
		f[2 + 3 * i] = pick[i];
		f[3 + 3 * i] = model_first_default(dc->b, c->members[i]).ge1;
	}
	free(vis);
	free(pick);
	return f;
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
	formula f, C, *forms;

	if (dc->m->choices[c->index].m || !c->nr_members)
		return LOGIC_TRUE;
	forms = choice_forms(dc, c);
	C = model_choice_mode(dc->b, c).ge2;
	f = logic_iff(l, C, forms[0]);
	for (size_t i = 0; i < c->nr_members; i++) {
		const struct msym *ms = &dc->m->syms[c->members[i]->index];

		if (ms->kind == MSYM_BOOL)
			f = logic_and(l, f, logic_implies(l, logic_and(l, C, forms[1 + 3 * i]),
							  logic_iff(l, logic_atom(l, ms->y), forms[2 + 3 * i])));
	}
	free(forms);
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

/* Does s have a rule of its own (a bool/tristate symbol in the cone, no choice member)? */
static int has_rule(const struct model_defconfig *dc, const struct kconfig_symbol *s)
{
	enum msym_kind kind = dc->m->syms[s->index].kind;

	return dc->in_cone[s->index] && (kind == MSYM_BOOL || kind == MSYM_TRISTATE) &&
	       !(s->flags & (KSYM_PROBE | KSYM_TRANSITIONAL | KSYM_ENV | KSYM_DEFCONFIG_LIST |
			     KSYM_CHOICE_MEMBER));
}

/* Does choice c have a rule (one member in the cone)? */
static int choice_has_rule(const struct model_defconfig *dc, const struct kconfig_choice *c)
{
	return c->nr_members && dc->in_cone[c->members[0]->index];
}

/* The keys of the rules: a rule depends only on its key. */
static uint64_t symbol_key(const struct model_defconfig *dc, const struct kconfig_symbol *s)
{
	return 1 + (uint64_t)s->index * 4 +
	       (dc->user[s->index] >= 0 ? (uint64_t)dc->user[s->index] : 3);
}

static uint64_t choice_key(const struct model_defconfig *dc, const struct kconfig_choice *c)
{
	return (1ULL << 40) + ((uint64_t)c->index << 20) + chosen_index(dc, c);
}

/*
 * What the rules force, without the solver (model_defconfig_settled's first
 * answer): each symbol's value computed from the values its rule reads, as
 * conf computes it, in three values. A value stays unknown where the model
 * leaves it free (probes, comparisons, int/hex/string symbols, what kconfig
 * versions disagree on, tristate choices, a member that may be hidden), in
 * a cycle, and outside the cone. A value known so is the same in every
 * configuration of the rules, each forced by those forced before it.
 */
#define EVAL_DEPTH 4096

/* The formulas of a rule, made once per model and key: their offset in m->dc_forms. */
static size_t forms_of(struct model_defconfig *dc, uint64_t key, const formula *made, size_t n)
{
	struct model *m = dc->m;
	uint64_t at;

	if (u64map_get(&m->dc_form_at, key, &at))
		return (size_t)at;
	ALLOC_GROW(m->dc_forms, m->nr_dc_forms + n, m->alloc_dc_forms);
	memcpy(m->dc_forms + m->nr_dc_forms, made, n * sizeof(*made));
	at = m->nr_dc_forms;
	m->nr_dc_forms += n;
	u64map_put(&m->dc_form_at, key, at);
	return (size_t)at;
}

static void set_value(struct model_defconfig *dc, int var, int v)
{
	if (var > 0 && var <= dc->nr_fv)
		dc->fv[var] = (int8_t)v;
}

static int known(const struct model_defconfig *dc, int var)
{
	return var > 0 && var <= dc->nr_fv ? dc->fv[var] : 0;
}

static int eval(struct model_defconfig *dc, formula f)
{
	return logic_eval(dc->m->dc_eval, f);
}

static void eval_symbol(struct model_defconfig *dc, const struct kconfig_symbol *s);

/* The symbols and choices s's rule reads, first. */
static void eval_inputs(struct model_defconfig *dc, const struct kconfig_symbol *s)
{
	const struct model *m = dc->m;
	const struct kconfig *kc = dc->kc;

	for (uint32_t k = m->dc_first[s->index]; k < m->dc_first[s->index + 1]; k++)
		eval_symbol(dc, kc->symbols[m->dc_reach[k]]);
}

/* A bool choice's mode, and each member's value where it is on and visible. */
static void eval_choice(struct model_defconfig *dc, const struct kconfig_choice *c)
{
	struct model *m = dc->m;
	uint64_t key = choice_key(dc, c);
	size_t at;
	uint64_t found;
	int mode, exact;

	if (dc->choice_done[c->index])
		return;
	dc->choice_done[c->index] = 2;
	if (m->choices[c->index].m || !choice_has_rule(dc, c))
		return;
	for (size_t i = 0; i < c->nr_members; i++)
		eval_inputs(dc, c->members[i]);
	if (u64map_get(&m->dc_form_at, key, &found)) {
		at = (size_t)found;
	} else {
		formula *f = choice_forms(dc, c);

		at = forms_of(dc, key, f, CHOICE_FORMS(c->nr_members));
		free(f);
	}
	mode = eval(dc, m->dc_forms[at]);
	set_value(dc, m->choices[c->index].y, mode);
	exact = mode != 0;
	for (size_t i = 0; i < c->nr_members; i++) {
		const formula *f = m->dc_forms + at + 3 * i;
		int vis = eval(dc, f[1]), y = vis < 0 ? eval(dc, f[3]) : vis > 0 && mode > 0 ? eval(dc, f[2]) : 0;

		if (m->syms[c->members[i]->index].kind != MSYM_BOOL)
			continue;
		set_value(dc, m->syms[c->members[i]->index].y, y);
		/* The member's part of the rule: void, or its value known. */
		exact = exact && (mode < 0 || vis < 0 || (vis > 0 && y != 0));
	}
	dc->choice_done[c->index] = exact ? 3 : 2;
}

/*
 * An enumerable string option's "S=text" variables, from its defaults,
 * where the user cannot type a value (the model's base says so): stored as
 * their number, then each variable's atom and what it equals.
 */
static void eval_string(struct model_defconfig *dc, const struct kconfig_symbol *s)
{
	struct model *m = dc->m;
	uint64_t key = (2ULL << 40) + s->index, found;
	size_t at;
	int typed, *vars;
	formula *forms, *f;

	eval_inputs(dc, s);
	if (u64map_get(&m->dc_form_at, key, &found)) {
		at = (size_t)found;
	} else {
		size_t n = model_string_atoms(dc->b, s, &typed, &vars, &forms);

		f = xcalloc(2 * n + 2, sizeof(*f));
		f[0] = (formula)n;
		f[1] = typed ? logic_atom(m->l, typed) : LOGIC_FALSE;
		for (size_t k = 0; k < n; k++) {
			f[2 + 2 * k] = logic_atom(m->l, vars[k]);
			f[3 + 2 * k] = forms[k];
		}
		at = forms_of(dc, key, f, 2 * n + 2);
		free(f);
		free(vars);
		free(forms);
	}
	f = m->dc_forms + at;
	typed = logic_literal(m->l, f[1]);
	if (typed) {
		/* Typed only where its prompt shows. */
		if (eval(dc, model_visibility(dc->b, s->defs, s->nr_defs).ge1) >= 0)
			return;
		set_value(dc, typed, -1);
	}
	for (size_t k = 0; k < (size_t)f[0]; k++)
		set_value(dc, logic_literal(m->l, f[2 + 2 * k]), eval(dc, f[3 + 2 * k]));
}

/* s's rule as the bounds of its value (model_value_bounds), made once per model and key. */
static void symbol_range(struct model_defconfig *dc, const struct kconfig_symbol *s,
			 const struct msym *ms, struct model_range *r)
{
	uint64_t key = symbol_key(dc, s), found;
	size_t at;

	if (u64map_get(&dc->m->dc_form_at, key, &found)) {
		at = (size_t)found;
	} else {
		struct model_bounds bd;
		struct tv lo, hi;

		symbol_bounds(dc, s, ms, &bd, &lo, &hi);
		model_value_bounds(dc->b, ms, lo, hi, &bd, r);
		at = forms_of(dc, key, (formula[]){ r->low1, r->high1, r->low2, r->high2 }, 4);
	}
	memcpy(r, dc->m->dc_forms + at, sizeof(*r));
}

/*
 * s's value from its rule: at least m where low1 holds, at most where
 * high1 does (y likewise), so known where both agree.
 */
static void eval_symbol(struct model_defconfig *dc, const struct kconfig_symbol *s)
{
	const struct msym *ms;
	struct model_range r;
	int ge1, y, l1, h1, l2, h2;

	if (s->index >= dc->kc->nr_symbols || dc->sym_done[s->index] || dc->depth > EVAL_DEPTH)
		return;
	if (!has_rule(dc, s)) {
		dc->sym_done[s->index] = 2;
		for (size_t k = 0; dc->in_cone[s->index] && k < s->nr_defs; k++)
			if (s->defs[k]->choice)
				eval_choice(dc, s->defs[k]->choice);
		if (dc->in_cone[s->index] && dc->m->syms[s->index].kind == MSYM_VALUE &&
		    s->type == KCONFIG_STRING)
			eval_string(dc, s);
		return;
	}
	dc->sym_done[s->index] = 1;
	dc->depth++;
	eval_inputs(dc, s);
	dc->depth--;
	ms = &dc->m->syms[s->index];
	symbol_range(dc, s, ms, &r);
	l1 = eval(dc, r.low1);
	h1 = eval(dc, r.high1);
	l2 = eval(dc, r.low2);
	h2 = eval(dc, r.high2);
	ge1 = l1 > 0 ? 1 : h1 < 0 ? -1 : 0;
	y = l2 > 0 ? 1 : h2 < 0 ? -1 : 0;
	set_value(dc, ms->y, y);
	/* m exactly: at least m and not y. */
	if (ms->kind == MSYM_TRISTATE)
		set_value(dc, ms->m, y > 0 ? -1 : y < 0 ? ge1 : ge1 < 0 ? -1 : 0);
	/* Every bound known: the rule says no more than the value. */
	dc->sym_done[s->index] = l1 && l1 == h1 && l2 && l2 == h2 ? 3 : 2;
}

static void eval_start(struct model_defconfig *dc)
{
	struct model *m = dc->m;

	if (dc->fv)
		return;
	close_cone(dc);
	dc->nr_fv = logic_nr_vars(m->l);
	dc->fv = xcalloc((size_t)dc->nr_fv + 1, 1);
	dc->sym_done = xcalloc(dc->kc->nr_symbols + 1, 1);
	dc->choice_done = xcalloc(dc->kc->nr_choices + 1, 1);
	if (!m->dc_eval)
		m->dc_eval = logic_eval_new(m->l, dc->fv, dc->nr_fv);
	else
		logic_eval_set_values(m->dc_eval, dc->fv, dc->nr_fv);
	/* Every tristate's rule reads MODULES. */
	if (dc->kc->modules)
		eval_symbol(dc, dc->kc->modules);
}

/* s's value (0 n, 1 m, 2 y) in every configuration, by evaluation alone; -1 when not known. */
static int eval_value(struct model_defconfig *dc, const struct kconfig_symbol *s)
{
	const struct msym *ms = &dc->m->syms[s->index];
	int y, m;

	if (ms->kind != MSYM_BOOL && ms->kind != MSYM_TRISTATE)
		return -1;
	eval_start(dc);
	eval_symbol(dc, s);
	y = known(dc, ms->y);
	m = ms->kind == MSYM_TRISTATE ? known(dc, ms->m) : -1;
	return y > 0 ? 2 : y < 0 && m < 0 ? 0 : y < 0 && m > 0 ? 1 : -1;
}

/* Is s visible in every configuration (1), in none (-1), by evaluation alone; 0 when not known. */
static int eval_visible(struct model_defconfig *dc, const struct kconfig_symbol *s)
{
	formula vis;

	eval_start(dc);
	vis = model_visibility(dc->b, s->defs, s->nr_defs).ge1;
	eval_inputs(dc, s);
	for (size_t k = 0; k < s->nr_defs; k++)
		if (s->defs[k]->choice)
			eval_choice(dc, s->defs[k]->choice);
	return eval(dc, vis);
}

/* Has s `value` (3: is it visible) in every configuration, by evaluation alone? */
static int forced(struct model_defconfig *dc, const struct kconfig_symbol *s, int value)
{
	return value == 3 ? eval_visible(dc, s) > 0 : eval_value(dc, s) == value;
}

/* A variable's value as a literal of the guard. */
static void add_value(struct model_defconfig *dc, int var)
{
	if (var && known(dc, var))
		add_lit(dc, known(dc, var) > 0 ? var : -var);
}

/*
 * The rules of the symbols in the cone, and of their choices, as the
 * guard's literals. A rule that holds by the values evaluation gives
 * (eval_symbol) is those values: no formula to encode, and propagation
 * without its helper variables. The guard allows the same configurations.
 */
static void collect_rules(struct model_defconfig *dc)
{
	const struct model *m = dc->m;
	const struct kconfig_symbol *s;
	size_t i;

	dc->nr_lits = 0;
	eval_start(dc);
	for_each_kconfig_symbol(dc->kc, i, s) {
		if (!has_rule(dc, s))
			continue;
		eval_symbol(dc, s);
		if (dc->sym_done[s->index] != 3) {
			add_lit(dc, rule_literal(dc, symbol_key(dc, s), s, NULL));
			continue;
		}
		add_value(dc, m->syms[s->index].y);
		if (m->syms[s->index].kind == MSYM_TRISTATE)
			add_value(dc, m->syms[s->index].m);
	}
	for (i = 0; i < dc->kc->nr_choices; i++) {
		const struct kconfig_choice *c = dc->kc->choices[i];

		if (!choice_has_rule(dc, c))
			continue;
		eval_choice(dc, c);
		if (dc->choice_done[i] != 3) {
			add_lit(dc, rule_literal(dc, choice_key(dc, c), NULL, c));
			continue;
		}
		add_value(dc, m->choices[i].y);
		for (size_t k = 0; k < c->nr_members; k++)
			if (m->syms[c->members[k]->index].kind == MSYM_BOOL)
				add_value(dc, m->syms[c->members[k]->index].y);
	}
}

int model_defconfig_forced(struct model_defconfig *dc, const struct kconfig_symbol *s)
{
	return s->index < dc->kc->nr_symbols ? eval_value(dc, s) : -1;
}

/*
 * A possible() question answered by evaluation, once a solve found a
 * configuration (a value known is then the one each has): 1 or 0, -1 when
 * evaluation does not know.
 */
static int possible_known(struct model_defconfig *dc, const struct kconfig_symbol *s, int value,
			  int visible)
{
	int v;

	if (!dc->vals || s->index >= dc->kc->nr_symbols)
		return -1;
	if (visible) {
		v = eval_visible(dc, s);
		return v ? v > 0 : -1;
	}
	v = eval_value(dc, s);
	return v < 0 ? -1 : v == value;
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
	/*
	 * Most questions evaluation leaves fail by propagating the rules
	 * alone: the copy of the base that propagates them is made for the
	 * first such defconfig of the model.
	 */
	sat_track_units(dc->m->sat);
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
	if (sat_complete(dc->m->sat, &dc->guard, 1, dc->vals, dc->nr_vals)) {
		sat_keep_model(dc->m->sat, dc->vals, dc->nr_vals);
		return 1;
	}
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
	sat_keep_model(dc->m->sat, dc->vals, dc->nr_vals);
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
	if (forced(dc, s, value))
		return 1;
	guard_rules(dc);
	/* Another value (hidden) is refuted. */
	f = logic_not(question_formula(dc, s, value == 3 ? 0 : value, value == 3));
	return sat_refuted(dc->m->sat, &dc->guard, 1, sat_tracked_literal(dc->m->sat, f));
}

int model_defconfig_possible(struct model_defconfig *dc, const struct kconfig_symbol *s,
			     int value, int visible)
{
	int answer = possible_known(dc, s, value, visible), q[2];

	if (answer >= 0 || !dc->guard)
		return answer > 0;
	q[0] = dc->guard;
	q[1] = sat_tracked_literal(dc->m->sat, question_formula(dc, s, value, visible));
	return !sat_refuted(dc->m->sat, q, 1, q[1]) && sat_solve(dc->m->sat, q, 2) == SAT_SAT;
}

void model_defconfig_possible_each(struct model_defconfig *dc,
				   const struct model_defconfig_question *q, size_t n, char *yes)
{
	formula *f = xcalloc(n + 1, sizeof(*f));
	size_t *at = xcalloc(n + 1, sizeof(*at)), nr = 0;
	char *got = xcalloc(n + 1, 1);

	for (size_t i = 0; i < n; i++) {
		int answer = possible_known(dc, q[i].sym, q[i].value, q[i].visible);

		yes[i] = answer > 0;
		if (answer >= 0 || !dc->guard)
			continue;
		f[nr] = question_formula(dc, q[i].sym, q[i].value, q[i].visible);
		at[nr++] = i;
	}
	if (nr)
		sat_solve_each(dc->m->sat, &dc->guard, 1, f, nr, got);
	for (size_t k = 0; k < nr; k++)
		yes[at[k]] = got[k];
	free(f);
	free(at);
	free(got);
}
