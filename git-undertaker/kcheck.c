// SPDX-License-Identifier: GPL-2.0
/*
 * Kconfig's own defects: what a Kconfig file says that cannot be right
 * whatever the user picks. The names are found by kconfig's text scan
 * (every statement that names symbols, help text aside), not by a parse:
 * a file is checked against every architecture at once, whether or not
 * some architecture sources it.
 */
#include "kcheck-internal.h"

#include <ctype.h>
#include <string.h>

#include "model.h"

#include "analyze.h"
#include "buildfiles.h"
#include "pc.h"

int kcheck_is_kconfig_path(const char *path)
{
	const char *base = strrchr(path, '/');

	return buildfiles_is_kconfig_file(base ? base + 1 : path);
}

int kcheck_is_checked_path(const char *path)
{
	return kcheck_is_kconfig_path(path) || buildfiles_is_defconfig(path);
}

struct undefined_scan {
	struct tree_models *tm;
	const char *path;
	const struct kcheck_options *opt;
	struct defect_list *out;
	struct defect *cur;	/* the defect of the statement being scanned */
	int cur_line;
};

static int has_name(const struct strvec *sv, const char *name)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], name))
			return 1;
	return 0;
}

/* A statement as one line: a backslash-newline and the indent after it become one space. */
static char *one_line(const char *text, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\\' && i + 1 < len && text[i + 1] == '\n') {
			for (i += 2; i < len && (text[i] == ' ' || text[i] == '\t'); i++)
				;
			if (!sb.len || sb.buf[sb.len - 1] != ' ')
				strbuf_addch(&sb, ' ');
			i--;
		} else {
			strbuf_addch(&sb, text[i] == '\n' || text[i] == '\t' ? ' ' : text[i]);
		}
	}
	return strbuf_detach(&sb, NULL);
}

static void undefined_ref(const struct kconfig_text_ref *ref, void *arg)
{
	struct undefined_scan *us = arg;
	char *name = xstrfmt("CONFIG_%.*s", (int)ref->len, ref->name);
	struct defect *d = us->cur_line == ref->line ? us->cur : NULL;

	if (pc_name_defined_anywhere(us->tm->kconfig_defined, NULL, name) ||
	    (d && has_name(&d->missing, name))) {
		free(name);
		return;
	}
	if (!d) {
		d = defect_list_add(us->out);
		d->path = xstrdup(us->path);
		d->line = d->end_line = ref->line;
		d->block = DEFECT_NO_BLOCK;
		d->kind = DEFECT_UNDEFINED;
		d->cause = CAUSE_MISSING;
		d->global = 1;
		d->directive = one_line(ref->statement, ref->statement_len);
		d->condition = xstrfmt("kconfig %s", ref->keyword);
		us->cur = d;
		us->cur_line = ref->line;
	}
	strvec_push(&d->symbols, name);
	strvec_push(&d->missing, name);
	if (us->opt->explain)
		analyze_explain_missing(d, us->tm, name);
	free(name);
}

static void check_unmet(struct tree_models *tm, const char *path, const char *data, size_t size,
			struct defect_list *out);
static void check_options(struct tree_models *tm, const char *path, const char *data,
			  size_t size, const struct kcheck_options *opt, struct defect_list *out);

static void check_defconfig(struct tree_models *tm, const char *path, const char *data,
			    size_t size, const struct kcheck_options *opt, struct defect_list *out);

void kcheck_file(struct tree_models *tm, const char *path, const char *data, size_t size,
		 const struct kcheck_options *opt, struct defect_list *out)
{
	struct undefined_scan us = { .tm = tm, .path = path, .opt = opt, .out = out };

	if (!tm->kconfig_defined)
		return;
	if (!kcheck_is_kconfig_path(path)) {
		check_defconfig(tm, path, data, size, opt, out);
		kcheck_dropped(tm, path, data, size, out);
		return;
	}
	kconfig_text_for_each_reference(data, size, undefined_ref, &us);
	if (tm->get) {
		check_unmet(tm, path, data, size, out);
		check_options(tm, path, data, size, opt, out);
	}
}

/* ---- unmet selects ---- */

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

static int is_tristate_logic(const struct kconfig_symbol *s)
{
	return s->type == KCONFIG_BOOL || s->type == KCONFIG_TRISTATE;
}

/* Is every conjunct of `e` a symbol that is also a conjunct of `of`? (no question needed) */
static int conjunct_of(const struct kconfig_expr *sym, const struct kconfig_expr *of)
{
	if (!of)
		return 0;
	if (of->type == KEXPR_AND)
		return conjunct_of(sym, of->left) || conjunct_of(sym, of->right);
	return of == sym || (of->type == KEXPR_SYMBOL && of->sym == sym->sym);
}

static int implied_by(const struct kconfig_expr *e, const struct kconfig_expr *a,
		      const struct kconfig_expr *b)
{
	if (!e)
		return 1;
	if (e->type == KEXPR_AND)
		return implied_by(e->left, a, b) && implied_by(e->right, a, b);
	if (e->type != KEXPR_SYMBOL)
		return 0;
	return conjunct_of(e, a) || conjunct_of(e, b);
}

/* The selecting side's value (S && its dependency && the select's `if`): ge1 and ge2. */
static void select_value(struct arch_model *am, const struct kconfig_definition *d,
			 const struct kconfig_select *sel, formula *ge1, formula *ge2)
{
	struct logic *l = am->logic;
	char *y = xstrfmt("CONFIG_%s", d->symbol->name), *m = xstrfmt("%s_MODULE", y);
	int defined;
	formula sy = model_config(am->model, y, &defined), sm = model_config(am->model, m, &defined);
	formula d1, d2, c1, c2;

	model_definition_dep(am->model, d->index, &d1, &d2);
	model_expr(am->model, am->kconfig, sel->cond, &c1, &c2);
	*ge1 = logic_and(l, logic_and(l, logic_or(l, sy, sm), d1), c1);
	*ge2 = logic_and(l, logic_and(l, sy, d2), c2);
	free(y);
	free(m);
}

/* Is the select's value above the target's dependency `x` (ge1, ge2) in some configuration? */
static int above(struct arch_model *am, formula r1, formula r2, formula x1, formula x2)
{
	struct logic *l = am->logic;
	formula f = logic_or(l, logic_and(l, r1, logic_not(x1)), logic_and(l, r2, logic_not(x2)));

	return arch_model_satisfiable(am, f);
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

/* X's dependency without its toolchain conjuncts (ge1, ge2); 0 when it has none. */
static int dependency_without_toolchain(struct arch_model *am, const struct kconfig_symbol *x,
					formula *x1, formula *x2)
{
	const struct kconfig_expr *stack[64], *e;
	size_t nr = 0;
	int dropped = 0;

	if (x->nr_defs != 1 || !x->defs[0]->dep)
		return 0;
	*x1 = *x2 = LOGIC_TRUE;
	stack[nr++] = x->defs[0]->dep;
	while (nr) {
		formula c1, c2;

		e = stack[--nr];
		if (e->type == KEXPR_AND && nr + 2 <= ARRAY_SIZE(stack)) {
			stack[nr++] = e->right;
			stack[nr++] = e->left;
			continue;
		}
		if (toolchain_only(e)) {
			dropped = 1;
			continue;
		}
		model_expr(am->model, am->kconfig, e, &c1, &c2);
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
	const struct kconfig_expr *stack[64], *e;
	size_t nr = 0;

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
	stack[nr++] = x->defs[0]->dep;
	while (nr) {
		formula c1, c2;

		e = stack[--nr];
		if (e->type == KEXPR_AND && nr + 2 <= ARRAY_SIZE(stack)) {
			stack[nr++] = e->right;
			stack[nr++] = e->left;
			continue;
		}
		if (toolchain_only(e))
			continue;
		model_expr(am->model, am->kconfig, e, &c1, &c2);
		if (above(am, r1, r2, c1, x->type == KCONFIG_BOOL ? c1 : c2)) {
			kconfig_expr_print(e, out);
			return;
		}
	}
	kconfig_expr_print(x->defs[0]->dep, out);
}

static void record_unmet(struct unmet_scan *us, const char *arch, const struct kconfig_definition *d,
			 const struct kconfig_select *sel, struct arch_model *am, formula r1, formula r2)
{
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
		failing_dependency(am, sel->target, r1, r2, &sb);
		u->failing = strbuf_detach(&sb, NULL);
		strmap_put(&us->found, key.buf, u);
		strvec_push(&us->order, key.buf);
	}
	if (arch)
		strvec_push(&u->arches, arch);
	strbuf_release(&key);
}

/* The selects of `path`'s definitions on one architecture's model. */
static void unmet_on(struct arch_model *am, const char *path, struct unmet_scan *us)
{
	struct kconfig_definition *const *defs;
	size_t nr = kconfig_file_definitions(am->kconfig, path, &defs);

	for (size_t i = 0; i < nr; i++) {
		const struct kconfig_definition *d = defs[i];

		if (!d->symbol || !is_tristate_logic(d->symbol))
			continue;
		for (size_t j = 0; j < d->nr_selects; j++) {
			const struct kconfig_select *sel = &d->selects[j];
			const struct kconfig_symbol *x = sel->target;
			formula r1, r2, x1 = LOGIC_FALSE, x2 = LOGIC_FALSE;
			int always = !x->nr_defs || !is_tristate_logic(x);

			for (size_t k = 0; k < x->nr_defs && !always; k++)
				always = implied_by(x->defs[k]->dep, d->dep, sel->cond) &&
					 !x->defs[k]->choice;
			if (always || select_has_opaque(d, sel))
				continue;
			for (size_t k = 0; k < x->nr_defs; k++) {
				formula a, b;

				model_definition_dep(am->model, x->defs[k]->index, &a, &b);
				x1 = logic_or(am->logic, x1, a);
				x2 = logic_or(am->logic, x2, b);
			}
			select_value(am, d, sel, &r1, &r2);
			/* A bool target whose dependency is m counts it as y: kconfig does not warn. */
			if (!above(am, r1, r2, x1, x->type == KCONFIG_BOOL ? x1 : x2))
				continue;
			if (dependency_without_toolchain(am, x, &x1, &x2) &&
			    !above(am, r1, r2, x1, x->type == KCONFIG_BOOL ? x1 : x2))
				continue;
			record_unmet(us, am->arch, d, sel, am, r1, r2);
		}
	}
}

/*
 * The architectures to ask about `path`: its own (arch/<a>/...), or the
 * primary one and those whose arch/<a>/ Kconfig files name a symbol of the
 * file (elsewhere a select's verdict is the primary one's).
 */
static size_t unmet_scope(struct tree_models *tm, const char *path, const char *data, size_t size,
			  size_t *scope);

static void add_unmet_defects(struct tree_models *tm, const char *path, struct unmet_scan *us,
			      size_t nr_scope, struct defect_list *out)
{
	for (size_t i = 0; i < us->order.nr; i++) {
		struct unmet *u = strmap_get(&us->found, us->order.v[i]);
		struct defect *d = defect_list_add(out);

		d->path = xstrdup(path);
		d->line = d->end_line = u->line;
		d->block = DEFECT_NO_BLOCK;
		d->kind = DEFECT_UNMET;
		d->cause = CAUSE_KCONFIG;
		d->global = !tm->nr_arches || u->arches.nr == nr_scope;
		if (!d->global)
			for (size_t k = 0; k < u->arches.nr; k++)
				strvec_push(&d->arches, u->arches.v[k]);
		d->directive = xstrfmt("%s (CONFIG_%s depends on %s)", u->statement, u->target,
				       u->failing);
		d->condition = xstrfmt("select %s from %s", u->target, u->from);
		strvec_pushf(&d->symbols, "CONFIG_%s", u->target);
		strvec_pushf(&d->symbols, "CONFIG_%s", u->from);
		free(u->target);
		free(u->from);
		free(u->statement);
		free(u->failing);
		strvec_clear(&u->arches);
		free(u);
	}
	strmap_clear(&us->found, NULL);
	strvec_clear(&us->order);
}

static void check_unmet(struct tree_models *tm, const char *path, const char *data, size_t size,
			struct defect_list *out)
{
	size_t *scope = xcalloc(tm->nr_arches + 1, sizeof(*scope));
	size_t nr_scope = unmet_scope(tm, path, data, size, scope);
	struct unmet_scan us = { 0 };

	for (size_t k = 0; k < nr_scope; k++) {
		struct arch_model *am;

		if (tm->hold)
			tm->hold(tm->data, scope[k]);
		am = tm->get(tm->data, scope[k]);
		if (am && am->model && am->kconfig)
			unmet_on(am, path, &us);
		if (tm->release)
			tm->release(tm->data, scope[k]);
	}
	add_unmet_defects(tm, path, &us, nr_scope, out);
	free(scope);
}

struct mentions {
	struct tree_models *tm;
	size_t *scope, nr;
};

static void add_mentioned_arches(const struct kconfig_text_ref *ref, void *arg)
{
	struct mentions *mn = arg;
	char *name = xstrndup(ref->name, ref->len);
	const char *list = strmap_get(mn->tm->arch_mentions, name);

	for (size_t a = 0; list && a < mn->tm->nr_arches; a++) {
		const char *dir = mn->tm->arch_dirs ? mn->tm->arch_dirs[a] : mn->tm->arch_names[a];
		char *needle = xstrfmt(",%s,", dir);
		size_t k = 0;

		while (k < mn->nr && mn->scope[k] != a)
			k++;
		if (k == mn->nr && strstr(list, needle))
			mn->scope[mn->nr++] = a;
		free(needle);
	}
	free(name);
}

static size_t unmet_scope(struct tree_models *tm, const char *path, const char *data, size_t size,
			  size_t *scope)
{
	const char *prefix = tm->arch_prefix ? tm->arch_prefix : "arch/";
	struct mentions mn = { .tm = tm, .scope = scope };

	if (!tm->nr_arches) {
		scope[0] = 0;
		return 1;
	}
	if (starts_with(path, prefix)) {
		const char *a = path + strlen(prefix), *slash = strchr(a, '/');

		for (size_t i = 0; slash && i < tm->nr_arches; i++) {
			const char *dir = tm->arch_dirs ? tm->arch_dirs[i] : tm->arch_names[i];

			if (strlen(dir) == (size_t)(slash - a) && !strncmp(dir, a, (size_t)(slash - a)) &&
			    (!tm->only_arch || !strcmp(tm->only_arch, tm->arch_names[i])))
				scope[mn.nr++] = i;
		}
		if (mn.nr || (slash && !tm->only_arch))
			return mn.nr;
	}
	for (size_t i = 0; tm->only_arch && i < tm->nr_arches; i++)
		if (!strcmp(tm->arch_names[i], tm->only_arch))
			scope[mn.nr++] = i;
	if (tm->only_arch)
		return mn.nr;
	scope[mn.nr++] = tm->primary;
	if (tm->arch_mentions)
		kconfig_text_for_each_reference(data, size, add_mentioned_arches, &mn);
	return mn.nr;
}

/* ---- dead and undead options ---- */

/* An option of the file while architectures are asked: still dead, still undead? */
struct option_state {
	int line;
	const char *keyword;		/* "config", "menuconfig" */
	char *name, *dep;		/* its dependency as Kconfig text, or NULL */
	int seen, dead, undead;		/* on every architecture where it was seen so far */
	struct strvec missing;		/* names of its dependency that nothing defines */
};

/* The names of e that no Kconfig file of the tree defines, as CONFIG_ names. */
static void missing_names(const struct tree_models *tm, const struct kconfig_expr *e,
			  struct strvec *out)
{
	if (!e)
		return;
	if (e->type == KEXPR_SYMBOL) {
		char *name;

		if (e->sym->flags & (KSYM_CONST | KSYM_PROBE | KSYM_ENV))
			return;
		name = xstrfmt("CONFIG_%s", e->sym->name);
		if (!pc_name_defined_anywhere(tm->kconfig_defined, NULL, name) && !has_name(out, name))
			strvec_push(out, name);
		free(name);
		return;
	}
	if (e->type == KEXPR_CONST)
		return;
	missing_names(tm, e->left, out);
	if (e->type != KEXPR_NOT)
		missing_names(tm, e->right, out);
}

static int has_prompt(const struct kconfig_symbol *s)
{
	for (size_t k = 0; k < s->nr_defs; k++)
		if (s->defs[k]->nr_prompts)
			return 1;
	return 0;
}

/*
 * Is an option switched off on purpose, as `#if 0` is: a conjunct of its
 * dependency is `n` or BROKEN, or a symbol whose own dependency has one
 * (ARM64_ERRATUM_4193714 depends on ARM64_SME, which depends on BROKEN)?
 */
static int switched_off(const struct kconfig_expr *e, int depth)
{
	if (!e || depth > 3)
		return 0;
	if (e->type == KEXPR_AND)
		return switched_off(e->left, depth) || switched_off(e->right, depth);
	if (e->type != KEXPR_SYMBOL)
		return 0;
	if (!strcmp(e->sym->name, "n") || !strcmp(e->sym->name, "BROKEN"))
		return 1;
	if (e->sym->flags & KSYM_CONST)
		return 0;
	for (size_t k = 0; k < e->sym->nr_defs; k++)
		if (switched_off(e->sym->defs[k]->dep, depth + 1))
			return 1;
	return 0;
}

/* One architecture's verdicts on the options of `path` it reads. */
static void options_on(struct tree_models *tm, struct arch_model *am, const char *path,
			 struct strmap *states, struct strvec *order)
{
	struct kconfig_definition *const *defs;
	size_t nr = kconfig_file_definitions(am->kconfig, path, &defs);
	struct strbuf key = STRBUF_INIT;

	for (size_t i = 0; i < nr; i++) {
		const struct kconfig_definition *d = defs[i];
		struct option_state *os;
		formula d1, d2;

		if (!d->symbol || !is_tristate_logic(d->symbol) || switched_off(d->dep, 0))
			continue;
		strbuf_reset(&key);
		strbuf_addf(&key, "%d %s", d->loc.line, d->symbol->name);
		os = strmap_get(states, key.buf);
		if (!os) {
			struct strbuf sb = STRBUF_INIT;

			os = xcalloc(1, sizeof(*os));
			os->line = d->loc.line;
			os->keyword = d->kind == KDEF_MENUCONFIG ? "menuconfig" : "config";
			os->name = xstrdup(d->symbol->name);
			if (d->dep) {
				kconfig_expr_print(d->dep, &sb);
				os->dep = strbuf_detach(&sb, NULL);
			}
			os->dead = 1;
			os->undead = d->nr_prompts && !d->choice;
			missing_names(tm, d->dep, &os->missing);
			strmap_put(states, key.buf, os);
			strvec_push(order, key.buf);
		}
		os->seen = 1;
		if (os->dead) {
			model_definition_dep(am->model, d->index, &d1, &d2);
			os->dead = !arch_model_satisfiable(am, d1);
		}
		if (os->undead && !os->dead && has_prompt(d->symbol)) {
			char *y = xstrfmt("CONFIG_%s", d->symbol->name), *m = xstrfmt("%s_MODULE", y);
			int defined;
			formula on = logic_or(am->logic, model_config(am->model, y, &defined),
					      model_config(am->model, m, &defined));

			os->undead = !arch_model_satisfiable(am, logic_not(on));
			free(y);
			free(m);
		} else {
			os->undead = 0;
		}
	}
	strbuf_release(&key);
}

static void add_option_defects(struct tree_models *tm, const char *path, struct strmap *states,
			       struct strvec *order, const struct kcheck_options *opt,
			       struct defect_list *out)
{
	for (size_t i = 0; i < order->nr; i++) {
		struct option_state *os = strmap_get(states, order->v[i]);

		if (os->dead || os->undead) {
			struct defect *d = defect_list_add(out);

			d->path = xstrdup(path);
			d->line = d->end_line = os->line;
			d->block = DEFECT_NO_BLOCK;
			d->kind = os->dead ? DEFECT_DEAD : DEFECT_UNDEAD;
			d->cause = os->dead && os->missing.nr ? CAUSE_MISSING : CAUSE_KCONFIG;
			d->global = 1;
			if (os->dep)
				d->directive = xstrfmt("%s %s (depends on %s)", os->keyword, os->name, os->dep);
			else
				d->directive = xstrfmt("%s %s", os->keyword, os->name);
			d->condition = xstrfmt("option %s", os->name);
			strvec_pushf(&d->symbols, "CONFIG_%s", os->name);
			for (size_t k = 0; d->cause == CAUSE_MISSING && k < os->missing.nr; k++) {
				strvec_push(&d->missing, os->missing.v[k]);
				if (opt->explain)
					analyze_explain_missing(d, tm, os->missing.v[k]);
			}
		}
		free(os->name);
		free(os->dep);
		strvec_clear(&os->missing);
		free(os);
	}
	strmap_clear(states, NULL);
	strvec_clear(order);
}

/*
 * Options of `path` whose dependency no configuration meets (dead) or that
 * every configuration sets though they have a prompt (undead), on every
 * architecture that reads the file: the primary one first, then those its
 * symbols point to, then the others, stopping when none is left.
 */
static void check_options(struct tree_models *tm, const char *path, const char *data,
			  size_t size, const struct kcheck_options *opt, struct defect_list *out)
{
	size_t *scope = xcalloc(tm->nr_arches + 1, sizeof(*scope));
	size_t nr_scope = unmet_scope(tm, path, data, size, scope);
	struct strmap states = STRMAP_INIT;
	struct strvec order = STRVEC_INIT;
	int own = tm->nr_arches && !starts_with(path, tm->arch_prefix ? tm->arch_prefix : "arch/");

	/* Outside arch/, every other architecture after those of unmet_scope. */
	for (size_t a = 0; own && !tm->only_arch && a < tm->nr_arches; a++) {
		size_t k = 0;

		while (k < nr_scope && scope[k] != a)
			k++;
		if (k == nr_scope)
			scope[nr_scope++] = a;
	}
	for (size_t k = 0; k < nr_scope; k++) {
		struct arch_model *am;
		int left = 0;

		if (tm->hold)
			tm->hold(tm->data, scope[k]);
		am = tm->get(tm->data, scope[k]);
		if (am && am->model && am->kconfig)
			options_on(tm, am, path, &states, &order);
		if (tm->release)
			tm->release(tm->data, scope[k]);
		/* An architecture that does not read the file settles nothing. */
		for (size_t i = 0; i < order.nr && !left; i++) {
			const struct option_state *os = strmap_get(&states, order.v[i]);

			left = os->dead || os->undead;
		}
		if (!left && order.nr)
			break;
	}
	add_option_defects(tm, path, &states, &order, opt, out);
	free(scope);
}

/* ---- defconfigs ---- */

/* The name of a `CONFIG_X=...` or `# CONFIG_X is not set` line, or 0. */
size_t kcheck_defconfig_name(const char *line, const char *end, const char **name)
{
	const char *p = line;
	size_t len = 0;

	if (*p == '#') {
		p++;
		while (p < end && *p == ' ')
			p++;
	}
	if (end - p < 8 || strncmp(p, "CONFIG_", 7))
		return 0;
	while (p + 7 + len < end && (isalnum((unsigned char)p[7 + len]) || p[7 + len] == '_'))
		len++;
	if (!len)
		return 0;
	if (*line == '#' ? (size_t)(end - (p + 7 + len)) < 11 ||
			   strncmp(p + 7 + len, " is not set", 11) :
			   p[7 + len] != '=')
		return 0;
	*name = p;
	return 7 + len;
}

/* One `undefined` defect per line that sets a name no Kconfig file defines. */
static void check_defconfig(struct tree_models *tm, const char *path, const char *data,
			    size_t size, const struct kcheck_options *opt, struct defect_list *out)
{
	const char *p = data, *end = data + size;

	for (int line = 1; p < end; line++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *name;
		size_t len;

		if (!eol)
			eol = end;
		len = kcheck_defconfig_name(p, eol, &name);
		if (len) {
			char *full = xstrndup(name, len);

			if (!pc_name_defined_anywhere(tm->kconfig_defined, NULL, full)) {
				struct defect *d = defect_list_add(out);

				d->path = xstrdup(path);
				d->line = d->end_line = line;
				d->block = DEFECT_NO_BLOCK;
				d->kind = DEFECT_UNDEFINED;
				d->cause = CAUSE_MISSING;
				d->global = 1;
				d->directive = xstrndup(p, (size_t)(eol - p));
				d->condition = xstrfmt("defconfig %s", full);
				strvec_push(&d->symbols, full);
				strvec_push(&d->missing, full);
				if (opt->explain)
					analyze_explain_missing(d, tm, full);
			}
			free(full);
		}
		p = eol + 1;
	}
}
