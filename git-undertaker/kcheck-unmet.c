// SPDX-License-Identifier: GPL-2.0
/*
 * Unmet selects (kind `unmet`): `select X` from S where some valid
 * configuration has S on while X's own dependencies are off, the
 * configurations where kconfig warns "unmet direct dependencies detected
 * for X". One satisfiability question per select, on the models of the
 * architectures kcheck_scope() names.
 */
#include "kcheck-internal.h"

#include <stdlib.h>
#include <string.h>

#include "model.h"

#include "analyze.h"

/* One `select` found unmet on some architectures. */
struct unmet {
	int line;
	char *target, *from;	/* X, S (without CONFIG_) */
	char *statement;	/* select X [if C] */
	char *failing;		/* the dependency of X that fails */
	struct strvec arches;
};

struct unmet_scan {
	struct strmap found;	/* "line X S" -> struct unmet */
	struct strvec order;	/* keys in the order found */
};

/*
 * What is at least the select's value in every configuration kconfig can
 * make: the conjuncts of the selecting side's dependency and of the
 * select's `if` (symbols, and whole expressions such as `!UML`,
 * `MTD != n` or `(ARCH_MXC || COMPILE_TEST)`; a conjunct `A = y` bounds A
 * too), then, through a bool or tristate with one definition that nothing
 * selects and no choice holds (its value never exceeds its dependency),
 * the conjuncts of that one's dependency, and so on. On Linux most selects
 * are met through such a chain, each a solver question otherwise (about
 * 1 ms on an architecture's model, 22 models).
 */
#define FLOOR_MAX 256

struct floor {
	const struct kconfig_symbol *sym[FLOOR_MAX];
	size_t nr;
	const struct kconfig_expr *expr[FLOOR_MAX];	/* the conjuncts that are no symbol */
	size_t nr_expr;
};

static int floor_has(const struct floor *f, const struct kconfig_symbol *s)
{
	for (size_t i = 0; i < f->nr; i++)
		if (f->sym[i] == s)
			return 1;
	return 0;
}

/* Are a and b the same expression (the same symbols, constants and operators)? */
static int same_expr(const struct kconfig_expr *a, const struct kconfig_expr *b)
{
	if (a == b)
		return 1;
	if (!a || !b || a->type != b->type)
		return 0;
	if (a->type == KEXPR_SYMBOL)
		return a->sym == b->sym;
	if (a->type == KEXPR_CONST)
		return !strcmp(a->value, b->value);
	if (a->type == KEXPR_NOT)
		return same_expr(a->left, b->left);
	return same_expr(a->left, b->left) && same_expr(a->right, b->right);
}

static int floor_has_expr(const struct floor *f, const struct kconfig_expr *e)
{
	for (size_t i = 0; i < f->nr_expr; i++)
		if (same_expr(f->expr[i], e))
			return 1;
	return 0;
}

static int is_y(const struct kconfig_expr *e)
{
	return e->type == KEXPR_SYMBOL && (e->sym->flags & KSYM_CONST) && !strcmp(e->sym->name, "y");
}

static void floor_add_symbol(struct floor *f, const struct kconfig_symbol *s)
{
	if (f->nr < FLOOR_MAX && !floor_has(f, s))
		f->sym[f->nr++] = s;
}

static void floor_add_conjuncts(struct floor *f, const struct kconfig_expr *e)
{
	if (!e)
		return;
	if (e->type == KEXPR_AND) {
		floor_add_conjuncts(f, e->left);
		floor_add_conjuncts(f, e->right);
	} else if (e->type == KEXPR_SYMBOL) {
		floor_add_symbol(f, e->sym);
	} else if (f->nr_expr < FLOOR_MAX) {
		f->expr[f->nr_expr++] = e;
		/* A = y is y only where A is: A is at least the select's value too. */
		if (e->type == KEXPR_EQUAL && e->left->type == KEXPR_SYMBOL && is_y(e->right))
			floor_add_symbol(f, e->left->sym);
		else if (e->type == KEXPR_EQUAL && e->right->type == KEXPR_SYMBOL && is_y(e->left))
			floor_add_symbol(f, e->right->sym);
	}
}

static int bounded_by_dependency(const struct kconfig_symbol *s)
{
	return s->nr_defs == 1 && !s->nr_selected_by && kcheck_is_tristate_logic(s) &&
	       !(s->flags & (KSYM_CHOICE_MEMBER | KSYM_PROBE | KSYM_ENV | KSYM_TRANSITIONAL)) &&
	       !s->defs[0]->choice && !s->defs[0]->in_choice;
}

/* The targets of def's selects whose condition is none or `cond`: each is at least def's value. */
static void floor_add_selects(struct floor *f, const struct kconfig_definition *def,
			      const struct kconfig_expr *cond)
{
	for (size_t j = 0; j < def->nr_selects; j++)
		if (!def->selects[j].cond || (cond && same_expr(def->selects[j].cond, cond)))
			floor_add_symbol(f, def->selects[j].target);
}

static void select_floor(struct floor *f, const struct kconfig_definition *d,
			 const struct kconfig_select *sel)
{
	f->nr = f->nr_expr = 0;
	floor_add_symbol(f, d->symbol);
	floor_add_conjuncts(f, d->dep);
	floor_add_conjuncts(f, sel->cond);
	/* S && its dependency && the select's `if` selects the others S selects so too. */
	floor_add_selects(f, d, sel->cond);
	for (size_t i = 0; i < f->nr && f->nr < FLOOR_MAX; i++)
		if (bounded_by_dependency(f->sym[i])) {
			floor_add_conjuncts(f, f->sym[i]->defs[0]->dep);
			floor_add_selects(f, f->sym[i]->defs[0], NULL);
		}
}

/* Is the symbol y in every configuration of the architecture (the model folded it)? */
static int always_y(struct arch_model *am, const struct kconfig_symbol *s)
{
	char *y;
	int defined;
	formula f;

	if (s->flags & KSYM_CONST)
		return !strcmp(s->name, "y");
	y = xstrfmt("CONFIG_%s", s->name);
	f = model_config(am->model, y, &defined);
	free(y);
	return f == LOGIC_TRUE;
}

/* Is the expression y in every configuration of the architecture (`!UML` off um)? */
static int always_true(struct arch_model *am, const struct kconfig_expr *e)
{
	formula c1, c2;

	model_expr(am->model, am->kconfig, e, &c1, &c2);
	return c1 == LOGIC_TRUE && c2 == LOGIC_TRUE;
}

/*
 * Is every conjunct of `e` in the floor (some operand of an `||`), or y on
 * the whole architecture?
 */
static int implied_by(struct arch_model *am, const struct kconfig_expr *e, const struct floor *f)
{
	if (!e)
		return 1;
	if (e->type == KEXPR_AND)
		return implied_by(am, e->left, f) && implied_by(am, e->right, f);
	if (e->type == KEXPR_SYMBOL)
		return floor_has(f, e->sym) || always_y(am, e->sym);
	if (floor_has_expr(f, e))
		return 1;
	/* An `||` is at least each of its operands. */
	if (e->type == KEXPR_OR)
		return implied_by(am, e->left, f) || implied_by(am, e->right, f);
	return always_true(am, e);
}

/*
 * The selecting side's value (S && its dependency && the select's `if`):
 * ge1 and ge2; and *on, S on with its dependency, which both imply.
 */
static void select_value(struct arch_model *am, const struct kconfig_definition *d,
			 const struct kconfig_select *sel, formula *ge1, formula *ge2, formula *on)
{
	struct logic *l = am->logic;
	char *y = xstrfmt("CONFIG_%s", d->symbol->name), *m = xstrfmt("%s_MODULE", y);
	int defined;
	formula sy = model_config(am->model, y, &defined), sm = model_config(am->model, m, &defined);
	formula d1, d2, c1, c2;

	model_definition_dep(am->model, d->index, &d1, &d2);
	model_expr(am->model, am->kconfig, sel->cond, &c1, &c2);
	*on = logic_and(l, logic_or(l, sy, sm), d1);
	*ge1 = logic_and(l, *on, c1);
	*ge2 = logic_and(l, logic_and(l, sy, d2), c2);
	free(y);
	free(m);
}

/*
 * Is the select's value above the target's dependency `x` (ge1, ge2) in
 * some configuration? `on` is implied by r1 and r2 (S on, or y; ge2 implies
 * ge1): asked first, the solver propagates it once, not again in each case
 * it tries (every Linux architecture's Kconfig files: 2.1-2.5 s in refuting
 * solves against 3.1-3.5 s). One question for all of a definition's
 * selects, refuted at once: no faster (9,240 solver calls instead of 10,476).
 */
static int above(struct arch_model *am, formula on, formula r1, formula r2, formula x1, formula x2)
{
	struct logic *l = am->logic;
	formula f = logic_or(l, logic_and(l, r1, logic_not(x1)), logic_and(l, r2, logic_not(x2)));

	return arch_model_satisfiable(am, logic_and(l, on, f));
}

static int names_probe(const struct kconfig_expr *e)
{
	if (!e)
		return 0;
	if (e->type == KEXPR_SYMBOL)
		return (e->sym->flags & KSYM_PROBE) != 0;
	if (e->type == KEXPR_CONST)
		return 0;
	return names_probe(e->left) || (e->type != KEXPR_NOT && names_probe(e->right));
}

/*
 * Does the conjunct only say what the toolchain can do: a probe, or a symbol
 * without a prompt whose every default is one (CC_HAS_ENTRY_PADDING,
 * def_bool $(cc-option,...))? A select that fails only there fails with a
 * compiler the tree's other checks already refuse, not by a user's choice.
 */
static int toolchain_only(const struct kconfig_expr *e)
{
	const struct kconfig_symbol *s;

	if (e->type != KEXPR_SYMBOL)
		return names_probe(e);
	s = e->sym;
	if (s->flags & KSYM_PROBE)
		return 1;
	if (!s->nr_defs)
		return 0;
	for (size_t k = 0; k < s->nr_defs; k++) {
		const struct kconfig_definition *d = s->defs[k];

		if (d->nr_prompts || !d->nr_defaults)
			return 0;
		for (size_t j = 0; j < d->nr_defaults; j++)
			if (!names_probe(d->defaults[j].value))
				return 0;
	}
	return 1;
}

/*
 * The conjuncts of X's single dependency (its `&&` operands, nested ones
 * flattened) that are not the toolchain's, into out[]; *dropped set when
 * some were. 0 when X has no single dependency.
 */
static size_t user_conjuncts(const struct kconfig_symbol *x, const struct kconfig_expr **out,
			     size_t max, int *dropped)
{
	const struct kconfig_expr *stack[64], *e;
	size_t nr = 0, n = 0;

	*dropped = 0;
	if (x->nr_defs != 1 || !x->defs[0]->dep)
		return 0;
	stack[nr++] = x->defs[0]->dep;
	while (nr) {
		e = stack[--nr];
		if (e->type == KEXPR_AND && nr + 2 <= ARRAY_SIZE(stack)) {
			stack[nr++] = e->right;
			stack[nr++] = e->left;
		} else if (toolchain_only(e)) {
			*dropped = 1;
		} else if (n < max) {
			out[n++] = e;
		}
	}
	return n;
}

/* X's dependency without its toolchain conjuncts (ge1, ge2); 0 when it has none. */
static int dependency_without_toolchain(struct arch_model *am, const struct kconfig_symbol *x,
					formula *x1, formula *x2)
{
	const struct kconfig_expr *conj[256];
	int dropped;
	size_t n = user_conjuncts(x, conj, ARRAY_SIZE(conj), &dropped);

	*x1 = *x2 = LOGIC_TRUE;
	for (size_t i = 0; dropped && i < n; i++) {
		formula c1, c2;

		model_expr(am->model, am->kconfig, conj[i], &c1, &c2);
		*x1 = logic_and(am->logic, *x1, c1);
		*x2 = logic_and(am->logic, *x2, c2);
	}
	return dropped;
}

static int tristate_operand(const struct kconfig_expr *e)
{
	return e && e->type == KEXPR_SYMBOL &&
	       ((e->sym->flags & KSYM_CONST) || e->sym->type == KCONFIG_BOOL ||
		e->sym->type == KCONFIG_TRISTATE);
}

/*
 * Does e order tristates (A >= B), which the model only knows as a free
 * atom though it binds A and B? A select decided through one could be unmet
 * only in the model. (A string symbol against a value is free too, but
 * only two such atoms that contradict each other could mislead.)
 */
static int has_opaque(const struct kconfig_expr *e)
{
	if (!e || e->type == KEXPR_SYMBOL || e->type == KEXPR_CONST)
		return 0;
	if (e->type == KEXPR_NOT)
		return has_opaque(e->left);
	if (e->type == KEXPR_AND || e->type == KEXPR_OR)
		return has_opaque(e->left) || has_opaque(e->right);
	if (e->type == KEXPR_EQUAL || e->type == KEXPR_UNEQUAL)
		return 0;
	return tristate_operand(e->left) || tristate_operand(e->right);
}

static int select_has_opaque(const struct kconfig_definition *d, const struct kconfig_select *sel)
{
	if (has_opaque(d->dep) || has_opaque(sel->cond))
		return 1;
	for (size_t k = 0; k < sel->target->nr_defs; k++)
		if (has_opaque(sel->target->defs[k]->dep))
			return 1;
	return 0;
}

/* The first conjunct of X's dependency that the select may leave false, as Kconfig text. */
static void failing_dependency(struct arch_model *am, const struct kconfig_symbol *x,
			       formula r1, formula r2, struct strbuf *out)
{
	const struct kconfig_expr *conj[256];
	int dropped;
	size_t n = user_conjuncts(x, conj, ARRAY_SIZE(conj), &dropped);

	if (x->nr_defs != 1 || !x->defs[0]->dep) {
		for (size_t k = 0; k < x->nr_defs; k++) {
			strbuf_addstr(out, k ? " || " : "");
			if (x->defs[k]->dep)
				kconfig_expr_print(x->defs[k]->dep, out);
			else
				strbuf_addstr(out, x->defs[k]->choice ? "<choice>" : "y");
		}
		return;
	}
	for (size_t i = 0; i < n; i++) {
		formula c1, c2;

		model_expr(am->model, am->kconfig, conj[i], &c1, &c2);
		if (above(am, LOGIC_TRUE, r1, r2, c1, x->type == KCONFIG_BOOL ? c1 : c2)) {
			kconfig_expr_print(conj[i], out);
			return;
		}
	}
	kconfig_expr_print(x->defs[0]->dep, out);
}

struct kcheck_unmet_walk {
	struct tree_models *tm;
	char *path;
	size_t *scope, nr_scope;
	struct unmet_scan *per;		/* each architecture's own, by position in scope */
	char *done;
};

/*
 * Did an architecture before k in the scope, asked already, find the select
 * `key`? Then its text is that one's (kcheck_unmet_end), and k's is not
 * made: the failing dependency takes solver questions on each model. A
 * file's architectures are asked one after the other (checker-defer.c).
 */
static int found_before(const struct kcheck_unmet_walk *w, size_t k, const char *key)
{
	for (size_t j = 0; j < k; j++)
		if (w->done[j] && strmap_get(&w->per[j].found, key))
			return 1;
	return 0;
}

static void record_unmet(const struct kcheck_unmet_walk *w, size_t k, const char *arch,
			 const struct kconfig_definition *d, const struct kconfig_select *sel,
			 struct arch_model *am, formula r1, formula r2)
{
	struct unmet_scan *us = &w->per[k];
	struct strbuf key = STRBUF_INIT;
	struct unmet *u;

	strbuf_addf(&key, "%d %s %s", sel->line, sel->target->name, d->symbol->name);
	u = strmap_get(&us->found, key.buf);
	if (!u) {
		struct strbuf sb = STRBUF_INIT;

		u = xcalloc(1, sizeof(*u));
		u->line = sel->line;
		u->target = xstrdup(sel->target->name);
		u->from = xstrdup(d->symbol->name);
		strbuf_addf(&sb, "select %s", sel->target->name);
		if (sel->cond) {
			strbuf_addstr(&sb, " if ");
			kconfig_expr_print(sel->cond, &sb);
		}
		u->statement = strbuf_detach(&sb, NULL);
		if (!found_before(w, k, key.buf)) {
			failing_dependency(am, sel->target, r1, r2, &sb);
			u->failing = strbuf_detach(&sb, NULL);
		}
		strmap_put(&us->found, key.buf, u);
		strvec_push(&us->order, key.buf);
	}
	if (arch)
		strvec_push(&u->arches, arch);
	strbuf_release(&key);
}

/* The selects of `path`'s definitions on one architecture's model. */
static void unmet_on(struct arch_model *am, const char *path, const struct kcheck_unmet_walk *w,
		     size_t at)
{
	struct kconfig_definition *const *defs;
	size_t nr = kconfig_file_definitions(am->kconfig, path, &defs);

	for (size_t i = 0; i < nr; i++) {
		const struct kconfig_definition *d = defs[i];

		if (!d->symbol || !kcheck_is_tristate_logic(d->symbol))
			continue;
		for (size_t j = 0; j < d->nr_selects; j++) {
			const struct kconfig_select *sel = &d->selects[j];
			const struct kconfig_symbol *x = sel->target;
			formula r1, r2, on, x1 = LOGIC_FALSE, x2 = LOGIC_FALSE;
			int always = !x->nr_defs || !kcheck_is_tristate_logic(x);
			struct floor f;

			if (!always)
				select_floor(&f, d, sel);
			for (size_t k = 0; k < x->nr_defs && !always; k++)
				always = implied_by(am, x->defs[k]->dep, &f) &&
					 !x->defs[k]->choice;
			if (always || select_has_opaque(d, sel))
				continue;
			for (size_t k = 0; k < x->nr_defs; k++) {
				formula a, b;

				model_definition_dep(am->model, x->defs[k]->index, &a, &b);
				x1 = logic_or(am->logic, x1, a);
				x2 = logic_or(am->logic, x2, b);
			}
			select_value(am, d, sel, &r1, &r2, &on);
			/* A bool target whose dependency is m counts it as y: kconfig does not warn. */
			if (!above(am, on, r1, r2, x1, x->type == KCONFIG_BOOL ? x1 : x2))
				continue;
			if (dependency_without_toolchain(am, x, &x1, &x2) &&
			    !above(am, on, r1, r2, x1, x->type == KCONFIG_BOOL ? x1 : x2))
				continue;
			record_unmet(w, at, am->arch, d, sel, am, r1, r2);
		}
	}
}

static void unmet_free(struct unmet *u)
{
	free(u->target);
	free(u->from);
	free(u->statement);
	free(u->failing);
	strvec_clear(&u->arches);
	free(u);
}

static void add_unmet_defects(struct tree_models *tm, const char *path, struct unmet_scan *us,
			      size_t nr_scope, struct defect_list *out)
{
	for (size_t i = 0; i < us->order.nr; i++) {
		struct unmet *u = strmap_get(&us->found, us->order.v[i]);
		struct defect *d = kcheck_add_defect(out, path, u->line, DEFECT_UNMET, CAUSE_KCONFIG);

		d->global = !tm->nr_arches || u->arches.nr == nr_scope;
		if (!d->global)
			for (size_t k = 0; k < u->arches.nr; k++)
				strvec_push(&d->arches, u->arches.v[k]);
		d->directive = xstrfmt("%s (CONFIG_%s depends on %s)", u->statement, u->target,
				       u->failing);
		d->condition = xstrfmt("select %s from %s", u->target, u->from);
		strvec_pushf(&d->symbols, "CONFIG_%s", u->target);
		strvec_pushf(&d->symbols, "CONFIG_%s", u->from);
		unmet_free(u);
	}
	strmap_clear(&us->found, NULL);
	strvec_clear(&us->order);
}

struct kcheck_unmet_walk *kcheck_unmet_begin(struct tree_models *tm, const char *path,
					     const char *data, size_t size)
{
	struct kcheck_unmet_walk *w = xcalloc(1, sizeof(*w));

	w->tm = tm;
	w->path = xstrdup(path);
	w->scope = xcalloc(tm->nr_arches + 1, sizeof(*w->scope));
	w->nr_scope = kcheck_scope(tm, path, data, size, w->scope);
	w->per = xcalloc(w->nr_scope + 1, sizeof(*w->per));
	w->done = xcalloc(w->nr_scope + 1, 1);
	return w;
}

static size_t scope_position(const size_t *scope, size_t nr, size_t a)
{
	size_t k = 0;

	while (k < nr && scope[k] != a)
		k++;
	return k;
}

int kcheck_unmet_wants(const struct kcheck_unmet_walk *w, size_t a)
{
	size_t k = scope_position(w->scope, w->nr_scope, a);

	return k < w->nr_scope && !w->done[k];
}

void kcheck_unmet_on(struct kcheck_unmet_walk *w, size_t a)
{
	size_t k = scope_position(w->scope, w->nr_scope, a);
	struct tree_models *tm = w->tm;
	struct arch_model *am;

	if (k == w->nr_scope || w->done[k])
		return;
	w->done[k] = 1;
	if (tm->hold)
		tm->hold(tm->data, a);
	am = tm->get(tm->data, a);
	if (am && am->model && am->kconfig)
		unmet_on(am, w->path, w, k);
	if (tm->release)
		tm->release(tm->data, a);
}

/*
 * The architectures' findings in the order of the scope, as one walk would
 * have found them: a select's text from the first that found it, its
 * architectures in that order.
 */
void kcheck_unmet_end(struct kcheck_unmet_walk *w, struct defect_list *out)
{
	struct unmet_scan us = { 0 };

	for (size_t k = 0; k < w->nr_scope; k++) {
		struct unmet_scan *one = &w->per[k];

		kcheck_unmet_on(w, w->scope[k]);
		for (size_t i = 0; i < one->order.nr; i++) {
			struct unmet *u = strmap_get(&one->found, one->order.v[i]);
			struct unmet *was = strmap_get(&us.found, one->order.v[i]);

			if (!was) {
				strmap_put(&us.found, one->order.v[i], u);
				strvec_push(&us.order, one->order.v[i]);
				continue;
			}
			for (size_t j = 0; j < u->arches.nr; j++)
				strvec_push(&was->arches, u->arches.v[j]);
			unmet_free(u);
		}
		strmap_clear(&one->found, NULL);
		strvec_clear(&one->order);
	}
	add_unmet_defects(w->tm, w->path, &us, w->nr_scope, out);
	kcheck_unmet_free(w);
}

void kcheck_unmet_free(struct kcheck_unmet_walk *w)
{
	for (size_t k = 0; k < w->nr_scope; k++) {
		for (size_t i = 0; i < w->per[k].order.nr; i++)
			unmet_free(strmap_get(&w->per[k].found, w->per[k].order.v[i]));
		strmap_clear(&w->per[k].found, NULL);
		strvec_clear(&w->per[k].order);
	}
	free(w->per);
	free(w->done);
	free(w->scope);
	free(w->path);
	free(w);
}

void kcheck_unmet(struct tree_models *tm, const char *path, const char *data, size_t size,
		  struct defect_list *out)
{
	kcheck_unmet_end(kcheck_unmet_begin(tm, path, data, size), out);
}
