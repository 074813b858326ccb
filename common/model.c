// SPDX-License-Identifier: GPL-2.0
/*
 * Building the model of a Kconfig tree: see model.h, and DESIGN.md for the
 * semantics. The rules follow what the kernel's kconfig computes (symbol.c,
 * menu.c of Linux 6.1) for a bool/tristate symbol S:
 *
 *   visibility V = OR(dep && prompt condition)     (bool: m counts as y)
 *   direct dep D = OR(dep of each definition)
 *   reverse dep R = OR(selector && its dep && its condition)
 *   implied I    = the same over `imply`
 *   default P    = the first default whose condition (&& dep) is not n,
 *                  min(value, condition); when I != n: min(max(P, I), D)
 *   value        = V != n: the user's value capped by V, or P; then max with R
 *                  V == n: max(P, R)
 *   finally m becomes y for a bool, and for every symbol when MODULES is n.
 *
 * A tristate value is a pair of formulas (value >= m, value == y): AND is
 * min, OR is max, NOT swaps and negates them.
 */
#include <stdlib.h>
#include <string.h>
#include "model-internal.h"

static struct tv tv_const(formula ge1, formula ge2)
{
	struct tv t = { ge1, ge2 };
	return t;
}

static struct tv tv_and(struct logic *l, struct tv a, struct tv b)
{
	return tv_const(logic_and(l, a.ge1, b.ge1), logic_and(l, a.ge2, b.ge2));
}

static struct tv tv_or(struct logic *l, struct tv a, struct tv b)
{
	return tv_const(logic_or(l, a.ge1, b.ge1), logic_or(l, a.ge2, b.ge2));
}

/* m counts as y (a bool's dependencies and visibility). */
static struct tv tv_promote(struct tv a)
{
	return tv_const(a.ge1, a.ge1);
}

static struct msym *msym_of(struct builder *b, const struct kconfig_symbol *s)
{
	return &b->m->syms[s->index];
}

/* The value of a symbol in an expression. */
static struct tv tv_symbol(struct builder *b, const struct kconfig_symbol *s, int rewrite_m)
{
	struct logic *l = b->m->l;
	if (s == b->kc->sym_y)
		return tv_const(LOGIC_TRUE, LOGIC_TRUE);
	if (s == b->kc->sym_n)
		return tv_const(LOGIC_FALSE, LOGIC_FALSE);
	if (s == b->kc->sym_m)
		/* kconfig rewrites a bare m in dependencies into m && MODULES. */
		return tv_const(rewrite_m ? b->m->modules : LOGIC_TRUE, LOGIC_FALSE);
	const struct msym *ms = msym_of(b, s);
	if (ms->kind == MSYM_BOOL || ms->kind == MSYM_FREE)
		return tv_const(logic_atom(l, ms->y), logic_atom(l, ms->y));
	if (ms->kind == MSYM_TRISTATE)
		return tv_const(ms->ge1, logic_atom(l, ms->y));
	/* int/hex/string, untyped and undefined symbols are n in a tristate context. */
	return tv_const(LOGIC_FALSE, LOGIC_FALSE);
}

/* What an operand of a comparison is known to be. */
struct operand {
	const char *text;	/* a known string value, or NULL */
	struct tv tri;		/* for bool/tristate symbols */
	int is_tri;
	const char *name;	/* for opaque atoms */
};

static struct operand operand_of(struct builder *b, const struct kconfig_expr *e)
{
	struct operand o = { NULL, { 0, 0 }, 0, NULL };
	if (e->type == KEXPR_CONST) {
		o.text = o.name = e->value;
		return o;
	}
	if (e->type != KEXPR_SYMBOL) {
		o.name = "?";
		return o;
	}
	const struct kconfig_symbol *s = e->sym;
	o.name = s->name;
	if (s == b->kc->sym_y || s == b->kc->sym_m || s == b->kc->sym_n) {
		o.text = s == b->kc->sym_y ? "y" : s == b->kc->sym_m ? "m" : "n";
		return o;
	}
	const struct msym *ms = msym_of(b, s);
	if (ms->kind == MSYM_BOOL || ms->kind == MSYM_TRISTATE) {
		o.is_tri = 1;
		o.tri = tv_symbol(b, s, 0);
	} else if (ms->kind == MSYM_UNDEFINED) {
		/* kconfig gives a symbol it does not know its own name as value. */
		o.text = s->name;
	}
	return o;
}

static int is_number(const char *s, long long *out)
{
	char *end;
	if (!*s)
		return 0;
	*out = strtoll(s, &end, 0);
	return !*end;
}

/* The formula "this operand's value is the string t" for a bool/tristate one. */
static formula tri_equals(struct builder *b, struct tv v, const char *t)
{
	struct logic *l = b->m->l;
	if (!strcmp(t, "y"))
		return v.ge2;
	if (!strcmp(t, "m"))
		return logic_and(l, v.ge1, logic_not(v.ge2));
	if (!strcmp(t, "n"))
		return logic_not(v.ge1);
	return LOGIC_FALSE;
}

static formula opaque(struct builder *b, const char *op, struct operand *x, struct operand *y)
{
	char *name = xstrfmt("%s%s%s", x->name, op, y->name);
	formula f = logic_atom(b->m->l, logic_var(b->m->l, name));
	free(name);
	return f;
}

/*
 * The text of a default's value when it is a constant: "b", a word no Kconfig
 * defines, or y, m, n (kconfig reads `default "y"` as the symbol y).
 */
static const char *constant_text(const struct kconfig_expr *e)
{
	if (e && e->type == KEXPR_CONST)
		return e->value;
	if (e && e->type == KEXPR_SYMBOL && !e->sym->nr_defs)
		return e->sym->name;
	return NULL;
}

int model_string_values(const struct kconfig_symbol *s, struct strvec *values)
{
	struct strmap seen = STRMAP_INIT;
	int ok = s->type == KCONFIG_STRING && s->nr_defs &&
		 !(s->flags & (KSYM_PROBE | KSYM_TRANSITIONAL | KSYM_ENV | KSYM_DEFCONFIG_LIST));

	for (size_t i = 0; ok && i < s->nr_defs; i++) {
		const struct kconfig_definition *d = s->defs[i];

		for (size_t j = 0; ok && j < d->nr_defaults; j++) {
			const char *t = constant_text(d->defaults[j].value);

			ok = t != NULL && seen.nr < MODEL_STRING_MAX;
			if (ok && !strmap_contains(&seen, t)) {
				strmap_put(&seen, t, NULL);
				if (values)
					strvec_push(values, t);
			}
		}
	}
	strmap_clear(&seen, NULL);
	return ok;
}

int model_string_typed(const struct kconfig_symbol *s)
{
	for (size_t i = 0; i < s->nr_defs; i++)
		if (s->defs[i]->nr_prompts)
			return 1;
	return 0;
}

static const struct kconfig_location *first_loc(const struct kconfig_symbol *s);

static formula named_atom(struct builder *b, const char *sym, const char *text)
{
	char *name = xstrfmt("%s=%s", sym, text);
	formula f = logic_atom(b->m->l, logic_var(b->m->l, name));

	free(name);
	return f;
}

/*
 * "S is text" for an enumerable string option: its variable (tied to the
 * defaults at the end of model_build); a text no default gives only as
 * typed by the user (S=*), or false when S has no prompt.
 */
static formula string_equals(struct builder *b, const struct kconfig_symbol *s, const char *text)
{
	struct strvec values = STRVEC_INIT;
	int defaulted = !*text;
	formula f;

	model_string_values(s, &values);
	for (size_t i = 0; i < values.nr && !defaulted; i++)
		defaulted = !strcmp(values.v[i], text);
	strvec_clear(&values);
	if (!defaulted && !model_string_typed(s))
		return LOGIC_FALSE;
	if (b->strings)	/* NULL after the build (model_expr): tied already, or free */
		b->strings[s->index] = 1;
	f = named_atom(b, s->name, text);
	if (!defaulted)
		model_add(b, logic_implies(b->m->l, f, named_atom(b, s->name, "*")),
			  first_loc(s), msym_of(b, s)->display, "default");
	return f;
}

/* The enumerable string option one side of `a = b` names, the other side's text. */
static const struct kconfig_symbol *string_side(struct builder *b, const struct kconfig_expr *e,
						const struct operand *x, const struct operand *y,
						const char **text)
{
	const struct kconfig_expr *sides[2] = { e->left, e->right };
	const struct operand *texts[2] = { y, x };

	for (int k = 0; k < 2; k++) {
		const struct kconfig_symbol *s = sides[k]->type == KEXPR_SYMBOL ? sides[k]->sym : NULL;

		if (s && texts[k]->text && msym_of(b, s)->kind == MSYM_VALUE &&
		    model_string_values(s, NULL)) {
			*text = texts[k]->text;
			return s;
		}
	}
	return NULL;
}

static formula comparison(struct builder *b, const struct kconfig_expr *e)
{
	struct logic *l = b->m->l;
	struct operand x = operand_of(b, e->left), y = operand_of(b, e->right);
	const struct kconfig_symbol *s;
	const char *text;
	long long a, c;
	static const char *const ops[] = {
		[KEXPR_EQUAL] = "=", [KEXPR_UNEQUAL] = "!=", [KEXPR_LESS] = "<",
		[KEXPR_LESS_EQUAL] = "<=", [KEXPR_GREATER] = ">", [KEXPR_GREATER_EQUAL] = ">=",
	};
	if (e->type == KEXPR_EQUAL || e->type == KEXPR_UNEQUAL) {
		formula eq;
		if (x.text && y.text) {
			if (!strcmp(x.text, y.text))
				eq = LOGIC_TRUE;
			else if (is_number(x.text, &a) && is_number(y.text, &c))
				eq = a == c ? LOGIC_TRUE : LOGIC_FALSE;
			else
				eq = LOGIC_FALSE;
		} else if (x.is_tri && y.is_tri) {
			eq = logic_and(l, logic_iff(l, x.tri.ge1, y.tri.ge1),
				       logic_iff(l, x.tri.ge2, y.tri.ge2));
		} else if (x.is_tri && y.text) {
			eq = tri_equals(b, x.tri, y.text);
		} else if (y.is_tri && x.text) {
			eq = tri_equals(b, y.tri, x.text);
		} else if ((s = string_side(b, e, &x, &y, &text))) {
			eq = string_equals(b, s, text);
		} else {
			eq = opaque(b, "=", &x, &y);
		}
		return e->type == KEXPR_EQUAL ? eq : logic_not(eq);
	}
	if (x.text && y.text && is_number(x.text, &a) && is_number(y.text, &c)) {
		switch (e->type) {
		case KEXPR_LESS: return a < c ? LOGIC_TRUE : LOGIC_FALSE;
		case KEXPR_LESS_EQUAL: return a <= c ? LOGIC_TRUE : LOGIC_FALSE;
		case KEXPR_GREATER: return a > c ? LOGIC_TRUE : LOGIC_FALSE;
		default: return a >= c ? LOGIC_TRUE : LOGIC_FALSE;
		}
	}
	return opaque(b, ops[e->type], &x, &y);
}

static struct tv tv_expr_uncached(struct builder *b, const struct kconfig_expr *e, int rewrite_m);

struct tv model_tv_expr(struct builder *b, const struct kconfig_expr *e, int rewrite_m)
{
	if (!e)
		return tv_const(LOGIC_TRUE, LOGIC_TRUE);
	if (e->type == KEXPR_SYMBOL)
		return tv_symbol(b, e->sym, rewrite_m);
	/* The expression's address, its low bit saying rewrite_m. */
	uint64_t key = (uint64_t)(uintptr_t)e + !!rewrite_m, packed;
	if (u64map_get(&b->memo, key, &packed))
		return tv_const((formula)packed, (formula)(packed >> 32));
	struct tv v = tv_expr_uncached(b, e, rewrite_m);
	u64map_put(&b->memo, key, (uint64_t)v.ge1 | (uint64_t)v.ge2 << 32);
	return v;
}

static struct tv tv_expr_uncached(struct builder *b, const struct kconfig_expr *e, int rewrite_m)
{
	struct logic *l = b->m->l;
	struct tv x, y;
	switch (e->type) {
	case KEXPR_SYMBOL:
		return tv_symbol(b, e->sym, rewrite_m);
	case KEXPR_CONST:
		/* A bare string in a tristate context is a symbol kconfig does not know: n. */
		return tv_const(LOGIC_FALSE, LOGIC_FALSE);
	case KEXPR_NOT:
		x = model_tv_expr(b, e->left, rewrite_m);
		return tv_const(logic_not(x.ge2), logic_not(x.ge1));
	case KEXPR_AND:
		x = model_tv_expr(b, e->left, rewrite_m);
		y = model_tv_expr(b, e->right, rewrite_m);
		return tv_and(l, x, y);
	case KEXPR_OR:
		x = model_tv_expr(b, e->left, rewrite_m);
		y = model_tv_expr(b, e->right, rewrite_m);
		return tv_or(l, x, y);
	default: {
		formula f = comparison(b, e);
		return tv_const(f, f);
	}
	}
}

/* The choice's own value (its mode). */
static struct tv tv_choice(struct builder *b, const struct kconfig_choice *c)
{
	struct logic *l = b->m->l;
	const struct mchoice *mc = &b->choices[c->index];
	formula y = logic_atom(l, mc->y);
	if (!mc->m)
		return tv_const(y, y);
	return tv_const(logic_or(l, y, logic_atom(l, mc->m)), y);
}

/*
 * A definition's dependency as kconfig propagates it: for a choice member
 * the choice's mode too, and `choice = y` for a bool member of a tristate choice.
 */
static struct tv def_dep(struct builder *b, const struct kconfig_definition *d)
{
	if (b->has_dep[d->index])
		return b->dep[d->index];
	struct tv dep = model_tv_expr(b, d->dep, 1);
	if (d->kind != KDEF_CHOICE && d->choice) {
		struct tv c = tv_choice(b, d->choice);
		dep = tv_and(b->m->l, dep, c);
		if (d->choice->type == KCONFIG_TRISTATE && d->symbol->type != KCONFIG_TRISTATE)
			dep = tv_and(b->m->l, dep, tv_const(c.ge2, c.ge2));
	}
	b->has_dep[d->index] = 1;
	b->dep[d->index] = dep;
	return dep;
}

/* Adds a constraint; `symbol` is an interned name ("CONFIG_FOO", "<choice>"). */
void model_add(struct builder *b, formula f, const struct kconfig_location *loc,
	       const char *symbol, const char *what)
{
	struct model *m = b->m;
	if (f == LOGIC_TRUE)
		return;
	ALLOC_GROW(m->groups, m->nr_groups + 1, m->alloc_groups);
	struct model_group *g = &m->groups[m->nr_groups++];
	g->f = f;
	const char *path = loc ? loc->path : "";
	if (path != m->last_path) {
		m->last_path = path;
		m->last_interned = model_intern_path(m, path);
	}
	g->reason.path = m->last_interned;
	g->reason.line = loc ? loc->line : 0;
	g->reason.symbol = symbol;	/* interned by the caller */
	g->reason.what = what;
	sat_assert(m->sat, f);
}

/* The visibility of a symbol or a choice: the OR over its prompts. */
static struct tv visibility(struct builder *b, struct kconfig_definition *const *defs, size_t nr)
{
	struct tv v = tv_const(LOGIC_FALSE, LOGIC_FALSE);
	for (size_t i = 0; i < nr; i++) {
		const struct kconfig_definition *d = defs[i];
		if (!d->nr_prompts)
			continue;
		struct tv dep = def_dep(b, d);
		for (size_t j = 0; j < d->nr_prompts; j++)
			v = tv_or(b->m->l, v, tv_and(b->m->l, dep, model_tv_expr(b, d->prompts[j].cond, 1)));
	}
	return v;
}

/* The first active default, as a value (min(value, condition)). */
static struct tv first_default(struct builder *b, const struct kconfig_symbol *s)
{
	struct logic *l = b->m->l;
	struct tv acc = tv_const(LOGIC_FALSE, LOGIC_FALSE);
	/* Built from the last default backwards: "if this one is active, it; else the rest". */
	for (size_t i = s->nr_defs; i-- > 0;) {
		const struct kconfig_definition *d = s->defs[i];
		if (!d->nr_defaults)
			continue;
		struct tv dep = def_dep(b, d);
		for (size_t j = d->nr_defaults; j-- > 0;) {
			struct tv c = tv_and(l, dep, model_tv_expr(b, d->defaults[j].cond, 1));
			struct tv v = model_tv_expr(b, d->defaults[j].value, 0);
			acc = tv_const(logic_ite(l, c.ge1, v.ge1, acc.ge1),
				       logic_ite(l, c.ge1, logic_and(l, v.ge2, c.ge2), acc.ge2));
		}
	}
	return acc;
}

/* The OR over `select`s (or `imply`s) of s: selector && its dep && its condition. */
static struct tv reverse(struct builder *b, const struct kconfig_reverse *r, size_t nr)
{
	struct tv acc = tv_const(LOGIC_FALSE, LOGIC_FALSE);
	for (size_t i = 0; i < nr; i++)
		acc = tv_or(b->m->l, acc, model_reverse_one(b, &r[i]));
	return acc;
}

struct tv model_reverse_one(struct builder *b, const struct kconfig_reverse *r)
{
	struct logic *l = b->m->l;
	if (!r->from->symbol)
		return tv_const(LOGIC_FALSE, LOGIC_FALSE);
	struct tv t = tv_symbol(b, r->from->symbol, 0);
	t = tv_and(l, t, def_dep(b, r->from));
	return tv_and(l, t, model_tv_expr(b, r->cond, 1));
}

/*
 * The same, as kconfig up to 6.9 has it for a config in a bool choice's
 * block (see kconfig.h, in_choice): its own dependency and the choice's mode, which is y where the
 * choice's dependency is m (6.10 on: that m, as model_reverse_one). Never
 * below model_reverse_one; the model allows any value between the two.
 */
static struct tv reverse_one_high(struct builder *b, const struct kconfig_reverse *r)
{
	struct logic *l = b->m->l;
	const struct kconfig_definition *d = r->from;
	if (!d->symbol || !d->in_choice || b->choices[d->in_choice->index].m)
		return model_reverse_one(b, r);
	struct tv t = tv_and(l, tv_symbol(b, d->symbol, 0), tv_choice(b, d->in_choice));
	t = tv_and(l, t, model_tv_expr(b, d->in_choice_dep, 1));
	return tv_and(l, t, model_tv_expr(b, r->cond, 1));
}

static const struct kconfig_location *first_loc(const struct kconfig_symbol *s)
{
	return s->nr_defs ? &s->defs[0]->loc : NULL;
}

/*
 * What kconfig computes a bool/tristate symbol's value from (see the top of
 * this file): V, and the default P and reverse dependency R with their
 * variants Ph, Rh where kconfig versions differ (Ph >= P, Rh >= R).
 */
void model_tristate_bounds(struct builder *b, const struct kconfig_symbol *s, int is_bool,
			   struct model_bounds *out)
{
	struct logic *l = b->m->l;
	struct tv D = tv_const(LOGIC_FALSE, LOGIC_FALSE), V, I, P;

	for (size_t i = 0; i < s->nr_defs; i++)
		D = tv_or(l, D, def_dep(b, s->defs[i]));
	V = visibility(b, s->defs, s->nr_defs);
	I = reverse(b, s->implied_by, s->nr_implied_by);
	struct tv Ih = I, Ph;
	for (size_t i = 0; i < s->nr_implied_by; i++)
		if (s->implied_by[i].from->in_choice)
			Ih = tv_or(l, Ih, reverse_one_high(b, &s->implied_by[i]));
	P = first_default(b, s);
	if (is_bool) {
		D = tv_promote(D);
		V = tv_promote(V);
		I = tv_promote(I);
		Ih = tv_promote(Ih);
	}
	/* imply raises the default, capped by the direct dependency (Ph: with Ih). */
	Ph = tv_const(logic_ite(l, Ih.ge1, D.ge1, P.ge1),
		      logic_ite(l, Ih.ge1, logic_and(l, logic_or(l, P.ge2, Ih.ge2), D.ge2), P.ge2));
	P = tv_const(logic_ite(l, I.ge1, D.ge1, P.ge1),
		     logic_ite(l, I.ge1, logic_and(l, logic_or(l, P.ge2, I.ge2), D.ge2), P.ge2));
	if (is_bool) {
		P = tv_promote(P);
		Ph = tv_promote(Ph);
	}
	struct tv R = reverse(b, s->selected_by, s->nr_selected_by), Rh = R;
	for (size_t i = 0; i < s->nr_selected_by; i++)
		if (s->selected_by[i].from->in_choice)
			Rh = tv_or(l, Rh, reverse_one_high(b, &s->selected_by[i]));
	if (is_bool) {
		R = tv_promote(R);
		Rh = tv_promote(Rh);
	}
	*out = (struct model_bounds){ .V = V, .P = P, .Ph = Ph, .R = R, .Rh = Rh };
}

/*
 * A value between max(lo, R) and max(hi, Rh) as (Y, M) of a symbol: the
 * value kconfig gives a symbol that takes lo (hi where versions differ).
 */
void model_value_bounds(struct builder *b, const struct msym *ms, struct tv lo, struct tv hi,
			const struct model_bounds *bd, struct model_range *out)
{
	struct logic *l = b->m->l;
	int is_bool = ms->kind == MSYM_BOOL;
	formula nomod = logic_not(b->m->modules);

	out->low1 = logic_or(l, lo.ge1, bd->R.ge1);
	out->high1 = logic_or(l, hi.ge1, bd->Rh.ge1);
	out->low2 = is_bool ? out->low1 :
		logic_or(l, logic_or(l, lo.ge2, bd->R.ge2), logic_and(l, out->low1, nomod));
	out->high2 = is_bool ? out->high1 :
		logic_or(l, logic_or(l, hi.ge2, bd->Rh.ge2), logic_and(l, out->high1, nomod));
}

formula model_value_between(struct builder *b, const struct msym *ms, struct tv lo, struct tv hi,
			    const struct model_bounds *bd)
{
	struct logic *l = b->m->l;
	formula Y = logic_atom(l, ms->y);
	formula ge1 = ms->kind == MSYM_BOOL ? Y : ms->ge1;
	struct model_range r;

	model_value_bounds(b, ms, lo, hi, bd, &r);
	return logic_and(l, logic_and(l, logic_implies(l, r.low1, ge1), logic_implies(l, ge1, r.high1)),
			 logic_and(l, logic_implies(l, r.low2, Y), logic_implies(l, Y, r.high2)));
}

/* For model-defconfig.c: the builder's own views. */
struct tv model_visibility(struct builder *b, struct kconfig_definition *const *defs, size_t nr)
{
	return visibility(b, defs, nr);
}

struct tv model_def_dep(struct builder *b, const struct kconfig_definition *d)
{
	return def_dep(b, d);
}

struct tv model_first_default(struct builder *b, const struct kconfig_symbol *s)
{
	return first_default(b, s);
}

struct tv model_choice_mode(struct builder *b, const struct kconfig_choice *c)
{
	return tv_choice(b, c);
}

/*
 * The value of a bool/tristate symbol (not a choice member), with (y, m) its
 * variables (m = LOGIC_FALSE for a bool).
 */
static void encode_tristate_value(struct builder *b, const struct kconfig_symbol *s,
				  const struct msym *ms)
{
	struct logic *l = b->m->l;
	int is_bool = ms->kind == MSYM_BOOL;
	formula Y = logic_atom(l, ms->y);
	formula M = is_bool ? LOGIC_FALSE : logic_atom(l, ms->m);
	formula ge1 = logic_or(l, Y, M), nomod = logic_not(b->m->modules);
	const struct kconfig_location *loc = first_loc(s);
	struct model_bounds bd;

	model_tristate_bounds(b, s, is_bool, &bd);
	struct tv V = bd.V, P = bd.P, Ph = bd.Ph;

	/* select: a lower bound per selecting definition, whatever S depends on. */
	for (size_t i = 0; i < s->nr_selected_by; i++) {
		const struct kconfig_reverse *r = &s->selected_by[i];
		struct tv t = model_reverse_one(b, r);
		if (is_bool)
			t = tv_promote(t);
		formula f = logic_and(l, logic_implies(l, t.ge1, ge1), logic_implies(l, t.ge2, Y));
		model_add(b, f, &r->from->loc, ms->display, "select");
	}
	struct tv R = bd.R, Rh = bd.Rh;

	/* Upper bound: the user's value is capped by the visibility. */
	formula up = logic_implies(l, ge1, logic_or_n(l, (formula[]){ V.ge1, Ph.ge1, Rh.ge1 }, 3));
	if (!is_bool)
		up = logic_and(l, up, logic_implies(l, Y,
			logic_or_n(l, (formula[]){ V.ge2, Ph.ge2, Rh.ge2, nomod }, 4)));
	model_add(b, up, loc, ms->display, "depends on");

	/*
	 * Without a visible prompt the value is exactly max(default, reverse
	 * dependency): between R and Rh where kconfig versions differ.
	 */
	formula low1 = logic_or(l, P.ge1, R.ge1);
	formula low2 = is_bool ? low1 : logic_or(l, logic_or(l, P.ge2, R.ge2), logic_and(l, low1, nomod));
	formula high2 = is_bool ? low1 : logic_or(l, logic_or(l, Ph.ge2, Rh.ge2), logic_and(l, low1, nomod));
	formula exact = logic_and(l, logic_iff(l, ge1, low1),
				  logic_and(l, logic_implies(l, low2, Y), logic_implies(l, Y, high2)));
	model_add(b, logic_implies(l, logic_not(V.ge1), exact), loc, ms->display, "default");
	if (!is_bool)
		model_add(b, logic_and(l, logic_not(logic_and(l, Y, M)),
				       logic_implies(l, M, b->m->modules)), loc, ms->display, "tristate");
}

/* int/hex/string: "has a value" is exactly "visible, or some default active". */
static void encode_has_value(struct builder *b, const struct kconfig_symbol *s, const struct msym *ms)
{
	struct logic *l = b->m->l;
	formula any = visibility(b, s->defs, s->nr_defs).ge1;
	for (size_t i = 0; i < s->nr_defs; i++) {
		const struct kconfig_definition *d = s->defs[i];
		if (!d->nr_defaults)
			continue;
		struct tv dep = def_dep(b, d);
		for (size_t j = 0; j < d->nr_defaults; j++)
			any = logic_or(l, any, logic_and(l, dep.ge1, model_tv_expr(b, d->defaults[j].cond, 1).ge1));
	}
	model_add(b, logic_iff(l, logic_atom(l, ms->y), any), first_loc(s), ms->display, "default");
}

/*
 * An enumerable string option's "S=text" variables (model_string_values):
 * each holds exactly when the first active default gives that text, "" when
 * none is active, unless the user typed the value (S=*, only while a prompt
 * is visible: then any one text may hold, one a default gives elsewhere
 * too, as U-Boot's defconfigs type SYS_VENDOR "BuR" at zynq's prompt, which
 * BuR's am33xx boards give as a default). A chain of "no default active before this one"
 * keeps it linear in the defaults, however many texts there are.
 */
/*
 * What each of an enumerable string option's texts (model_string_values,
 * into `values`, then "" when no default gives it) equals while the user
 * typed no value: the first active default gives it ("" when none is
 * active). A chain of "no default active before this one" keeps it linear
 * in the defaults, however many texts there are. 0 when not enumerable.
 */
static size_t string_defaults(struct builder *b, const struct kconfig_symbol *s,
			      struct strvec *values, formula **out)
{
	struct logic *l = b->m->l;
	struct strmap index = STRMAP_INIT;
	formula none = LOGIC_TRUE, *eq;
	size_t n;

	*out = NULL;
	if (!model_string_values(s, values))
		return 0;
	n = values->nr + !strvec_has(values, "");
	eq = xcalloc(n + 1, sizeof(*eq));
	for (size_t i = 0; i < values->nr; i++)
		strmap_put(&index, values->v[i], (void *)(uintptr_t)(i + 1));
	for (size_t i = 0; i < s->nr_defs; i++) {
		const struct kconfig_definition *d = s->defs[i];

		for (size_t j = 0; j < d->nr_defaults; j++) {
			formula active = logic_and(l, def_dep(b, d).ge1,
						   model_tv_expr(b, d->defaults[j].cond, 1).ge1);
			size_t k = (uintptr_t)strmap_get(&index, constant_text(d->defaults[j].value)) - 1;

			eq[k] = logic_or(l, eq[k], logic_and(l, none, active));
			none = logic_and(l, none, logic_not(active));
		}
	}
	for (size_t k = 0; k < values->nr; k++)
		if (!*values->v[k])
			eq[k] = logic_or(l, eq[k], none);
	if (n > values->nr) {
		strvec_push(values, "");
		eq[n - 1] = none;
	}
	strmap_clear(&index, NULL);
	*out = eq;
	return n;
}

/*
 * An enumerable string option's "S=text" variables (model_string_values):
 * each holds exactly when the first active default gives that text
 * (string_defaults), unless the user typed the value (S=*, only while a
 * prompt is visible: then any one text may hold, one a default gives
 * elsewhere too, as U-Boot's defconfigs type SYS_VENDOR "BuR" at zynq's
 * prompt, which BuR's am33xx boards give as a default).
 */
static void encode_string_values(struct builder *b, const struct kconfig_symbol *s,
				 const struct msym *ms)
{
	struct logic *l = b->m->l;
	struct strvec values = STRVEC_INIT;
	formula typed = LOGIC_FALSE, any = LOGIC_FALSE, *eq;
	size_t n;

	if (!model_string_values(s, NULL))
		return;
	if (model_string_typed(s)) {
		typed = named_atom(b, s->name, "*");
		model_add(b, logic_implies(l, typed, visibility(b, s->defs, s->nr_defs).ge1),
			  first_loc(s), ms->display, "depends on");
	}
	n = string_defaults(b, s, &values, &eq);
	for (size_t k = 0; k < n; k++) {
		formula atom = named_atom(b, s->name, values.v[k]);

		model_add(b, logic_implies(l, logic_not(typed), logic_iff(l, atom, eq[k])),
			  first_loc(s), ms->display, "default");
		/* Typed, at most one text: no two of them (a chain, linear in the texts). */
		model_add(b, logic_not(logic_and(l, any, atom)), first_loc(s), ms->display, "default");
		any = logic_or(l, any, atom);
	}
	free(eq);
	strvec_clear(&values);
}

size_t model_string_atoms(struct builder *b, const struct kconfig_symbol *s, int *typed,
			  int **vars, formula **forms)
{
	struct strvec values = STRVEC_INIT;
	size_t n = string_defaults(b, s, &values, forms), k = 0;
	char *name = xstrfmt("%s=*", s->name);

	*typed = model_string_typed(s) ? logic_var_find(b->m->l, name) : 0;
	free(name);
	*vars = xcalloc(n + 1, sizeof(**vars));
	for (size_t i = 0; i < n; i++) {
		name = xstrfmt("%s=%s", s->name, values.v[i]);
		(*vars)[k] = logic_var_find(b->m->l, name);
		(*forms)[k] = (*forms)[i];
		k += (*vars)[k] != 0;
		free(name);
	}
	strvec_clear(&values);
	return k;
}

/*
 * A choice: its mode is at most its visibility and, unless `optional`, at
 * least m (y for a bool choice) when visible. A member whose visibility is y
 * is y exactly when chosen: at most one is, and one is when the mode is y and
 * some member is visible. A member visible only as m (mode m) is n or m. An
 * invisible member takes its default (kconfig ignores select on members).
 */
static void encode_choice(struct builder *b, const struct kconfig_choice *c)
{
	struct logic *l = b->m->l;
	const struct mchoice *mc = &b->choices[c->index];
	const struct kconfig_location *loc = c->nr_defs ? &c->defs[0]->loc : NULL;
	const char *name = mc->name;
	formula nomod = logic_not(b->m->modules);
	int tristate = mc->m != 0;
	struct tv C = tv_choice(b, c), Vc = visibility(b, c->defs, c->nr_defs);
	struct tv Dc = tv_const(LOGIC_FALSE, LOGIC_FALSE);
	formula f;
	for (size_t i = 0; i < c->nr_defs; i++)
		Dc = tv_or(l, Dc, def_dep(b, c->defs[i]));
	if (!tristate) {
		Vc = tv_promote(Vc);
		Dc = tv_promote(Dc);
	} else {
		Vc = tv_const(Vc.ge1, logic_or(l, Vc.ge2, logic_and(l, Vc.ge1, nomod)));
		Dc = tv_const(Dc.ge1, logic_or(l, Dc.ge2, logic_and(l, Dc.ge1, nomod)));
	}
	/*
	 * The mode is capped by the choice's dependencies, not by its prompt:
	 * since 6.11 kconfig picks a member of a choice whose prompt is hidden
	 * (`prompt "..." if EXPERT`) when the members are visible, where 6.1
	 * leaves them all n. Both are allowed.
	 */
	f = logic_and(l, logic_implies(l, C.ge1, Dc.ge1), logic_implies(l, C.ge2, Dc.ge2));
	if (!c->optional)
		f = logic_and(l, f, logic_implies(l, Vc.ge1, C.ge1));
	if (tristate) {
		formula M = logic_atom(l, mc->m);
		f = logic_and(l, f, logic_not(logic_and(l, C.ge2, M)));
		f = logic_and(l, f, logic_implies(l, M, b->m->modules));
	}
	model_add(b, f, loc, name, "choice mode");

	formula *chosen = xcalloc(c->nr_members + 1, sizeof(*chosen));
	formula any_visible = LOGIC_FALSE;
	for (size_t i = 0; i < c->nr_members; i++) {
		const struct kconfig_symbol *s = c->members[i];
		const struct msym *ms = msym_of(b, s);
		if (ms->kind != MSYM_BOOL && ms->kind != MSYM_TRISTATE)
			continue;
		int is_bool = ms->kind == MSYM_BOOL;
		formula Y = logic_atom(l, ms->y), M = is_bool ? LOGIC_FALSE : logic_atom(l, ms->m);
		struct tv V = visibility(b, s->defs, s->nr_defs), P = first_default(b, s);
		if (!is_bool)	/* visible only as m while the mode is y: not visible */
			V.ge1 = logic_and(l, V.ge1, logic_or(l, V.ge2, logic_not(C.ge2)));
		V = is_bool ? tv_promote(V) : tv_const(V.ge1, logic_or(l, V.ge2, logic_and(l, V.ge1, nomod)));
		formula ge1 = logic_or(l, Y, M);
		formula p2 = is_bool ? P.ge1 : logic_or(l, P.ge2, logic_and(l, P.ge1, nomod));
		f = logic_implies(l, V.ge2, logic_not(M));
		f = logic_and(l, f, logic_implies(l, logic_and(l, V.ge1, logic_not(V.ge2)),
						    logic_implies(l, Y, p2)));
		f = logic_and(l, f, logic_implies(l, logic_not(V.ge1),
			logic_and(l, logic_iff(l, ge1, P.ge1), logic_iff(l, Y, p2))));
		if (!is_bool)
			f = logic_and(l, f, logic_and(l, logic_not(logic_and(l, Y, M)),
						     logic_implies(l, M, b->m->modules)));
		model_add(b, f, first_loc(s), ms->display, "choice member");
		chosen[i] = logic_and(l, V.ge2, Y);
		any_visible = logic_or(l, any_visible, V.ge2);
	}
	/* At most one chosen member: pairwise, choices are small. */
	formula amo = LOGIC_TRUE;
	for (size_t i = 0; i < c->nr_members; i++)
		for (size_t j = i + 1; j < c->nr_members; j++)
			if (chosen[i] && chosen[j])
				amo = logic_and(l, amo, logic_not(logic_and(l, chosen[i], chosen[j])));
	formula alo = logic_implies(l, logic_and(l, C.ge2, any_visible),
				    logic_or_n(l, chosen, c->nr_members));
	model_add(b, logic_and(l, amo, alo), loc, name, "choice: one member");
	free(chosen);
}

static int is_choice_member(const struct kconfig_symbol *s)
{
	for (size_t i = 0; i < s->nr_defs; i++)
		if (s->defs[i]->choice)
			return 1;
	return 0;
}

/* Every definition's dependency, for model_definition_dep once the builder is gone. */
static void keep_definition_deps(struct builder *b)
{
	const struct kconfig *kc = b->kc;
	struct model *m = b->m;
	size_t i;
	const struct kconfig_symbol *s;

	m->nr_deps = kc->nr_definitions;
	m->dep_ge1 = xcalloc(m->nr_deps + 1, sizeof(*m->dep_ge1));
	m->dep_ge2 = xcalloc(m->nr_deps + 1, sizeof(*m->dep_ge2));
	for_each_kconfig_symbol(kc, i, s)
		for (size_t k = 0; k < s->nr_defs; k++) {
			struct tv dep = def_dep(b, s->defs[k]);

			m->dep_ge1[s->defs[k]->index] = dep.ge1;
			m->dep_ge2[s->defs[k]->index] = dep.ge2;
		}
	for (i = 0; i < kc->nr_choices; i++)
		for (size_t k = 0; k < kc->choices[i]->nr_defs; k++) {
			struct tv dep = def_dep(b, kc->choices[i]->defs[k]);

			m->dep_ge1[kc->choices[i]->defs[k]->index] = dep.ge1;
			m->dep_ge2[kc->choices[i]->defs[k]->index] = dep.ge2;
		}
}

void model_definition_dep(const struct model *m, size_t index, formula *ge1, formula *ge2)
{
	*ge1 = index < m->nr_deps ? m->dep_ge1[index] : LOGIC_TRUE;
	*ge2 = index < m->nr_deps ? m->dep_ge2[index] : LOGIC_TRUE;
}

void model_expr(struct model *m, const struct kconfig *kc, const struct kconfig_expr *e,
		formula *ge1, formula *ge2)
{
	struct builder b = { .m = m, .kc = kc };
	struct tv v = model_tv_expr(&b, e, 1);

	u64map_release(&b.memo);
	*ge1 = v.ge1;
	*ge2 = v.ge2;
}

struct model *model_build(const struct kconfig *kc)
{
	return model_build_strings(kc, NULL);
}

struct model *model_build_strings(const struct kconfig *kc, const char *const *strings)
{
	struct model *m = model_new(kc);
	struct builder b = { .m = m, .kc = kc };
	size_t i;
	const struct kconfig_symbol *s;

	b.strings = xcalloc(kc->nr_symbols + 1, 1);
	for (; strings && *strings; strings++) {
		s = kconfig_lookup(kc, *strings);
		if (s && m->syms[s->index].kind == MSYM_VALUE && model_string_values(s, NULL))
			b.strings[s->index] = 1;
	}
	b.dep = xcalloc(kc->nr_definitions + 1, sizeof(*b.dep));
	b.has_dep = xcalloc(kc->nr_definitions + 1, 1);
	b.choices = xcalloc(kc->nr_choices + 1, sizeof(*b.choices));
	for (i = 0; i < kc->nr_choices; i++) {
		const struct kconfig_choice *c = kc->choices[i];
		struct mchoice *mc = &b.choices[i];
		char *name = c->name ? xstrfmt("<choice %s>", c->name) : xstrdup("<choice>");
		mc->name = model_intern_path(m, name);
		free(name);
		mc->y = logic_var_new(m->l, NULL);
		if (c->type == KCONFIG_TRISTATE && kc->modules)
			mc->m = logic_var_new(m->l, NULL);
	}
	for_each_kconfig_symbol(kc, i, s) {
		const struct msym *ms = &m->syms[s->index];
		/* Free: kconfig never writes them (SYMBOL_NO_WRITE: env, defconfig_list). */
		if (s->flags & (KSYM_PROBE | KSYM_TRANSITIONAL | KSYM_ENV | KSYM_DEFCONFIG_LIST))
			continue;
		if (ms->kind == MSYM_BOOL || ms->kind == MSYM_TRISTATE) {
			if (!is_choice_member(s))
				encode_tristate_value(&b, s, ms);
		} else if (ms->kind == MSYM_VALUE) {
			encode_has_value(&b, s, ms);
		}
	}
	for (i = 0; i < kc->nr_choices; i++)
		encode_choice(&b, kc->choices[i]);
	for_each_kconfig_symbol(kc, i, s)
		if (b.strings[s->index])
			encode_string_values(&b, s, &m->syms[s->index]);
	keep_definition_deps(&b);
	m->choices = b.choices;		/* kept for model_defconfig_new */
	m->nr_choices = kc->nr_choices;
	free(b.dep);
	free(b.has_dep);
	free(b.strings);
	u64map_release(&b.memo);
	return m;
}
