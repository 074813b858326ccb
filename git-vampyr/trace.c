// SPDX-License-Identifier: GPL-2.0
/*
 * Why expansion lost a block. The solver's model wanted some symbol of the
 * block's condition at one value; the tree's kconfig set it to another. From
 * that symbol down: which conjunct of its dependencies (or prompt condition)
 * is false on the expanded .config, which selector turned it on, which
 * default decided it, until a symbol a user can set and the fragment did not
 * pin (pinning it is the fix), or a toolchain probe ($(cc-option,...),
 * $(success,...), `PAHOLE_VERSION >= 116` whose value is a $(shell,...)):
 * no fragment can change what the compiler answers. A block whose condition
 * differs only in names that are not CONFIG symbols is outside Kconfig.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vampyr.h"

struct trace {
	const struct vampyr_source *src;
	const int8_t *want;		/* the solver's values */
	struct strmap *cfg;		/* the expanded .config */
	unsigned char *seen;		/* by symbol index */
	struct strbuf *chain;
	struct strvec *pins;		/* symbols a user can set, to pin */
	const struct vconfig *c;
	char *probe;			/* the first toolchain probe met */
	int depth;
};

static int level_of(int val)
{
	return val == 'y' ? 2 : val == 'm' ? 1 : 0;
}

/* The symbol's value in the expanded .config, as 'y', 'm' or 'n'. */
static int got_value(struct trace *t, const struct kconfig_symbol *sym)
{
	const char *val = strmap_get(t->cfg, sym->name);

	if (!val)
		return 'n';
	if (sym->type == KCONFIG_BOOL || sym->type == KCONFIG_TRISTATE)
		return !strcmp(val, "y") ? 'y' : !strcmp(val, "m") ? 'm' : 'n';
	return 'y';
}

static int differs(struct trace *t, const struct kconfig_symbol *sym)
{
	int want;

	if (!sym->nr_defs || (sym->flags & KSYM_CONST))
		return 0;
	want = symbol_value(t->src, t->want, sym);
	return want && want != got_value(t, sym);
}

/*
 * The probe behind a symbol that only the toolchain decides: the symbol
 * itself, or one in its defaults when it has no prompt (PAHOLE_VERSION,
 * CC_IS_CLANG). NULL when a user or the rest of Kconfig has a say.
 */
static const struct kconfig_symbol *probe_behind_expr(const struct kconfig_expr *e, int depth);

static const struct kconfig_symbol *probe_behind(const struct kconfig_symbol *sym, int depth)
{
	if (sym->flags & KSYM_PROBE)
		return sym;
	if (!sym->nr_defs || depth > 8 || sym->nr_selected_by)
		return NULL;
	for (size_t d = 0; d < sym->nr_defs; d++) {
		const struct kconfig_definition *def = sym->defs[d];

		if (def->nr_prompts)
			return NULL;
		for (size_t i = 0; i < def->nr_defaults; i++) {
			const struct kconfig_symbol *p = probe_behind_expr(def->defaults[i].value, depth + 1);

			if (!p)
				p = probe_behind_expr(def->defaults[i].cond, depth + 1);
			if (p)
				return p;
		}
	}
	return NULL;
}

static const struct kconfig_symbol *probe_behind_expr(const struct kconfig_expr *e, int depth)
{
	const struct kconfig_symbol *p;

	if (!e)
		return NULL;
	switch (e->type) {
	case KEXPR_SYMBOL:
		return probe_behind(e->sym, depth);
	case KEXPR_CONST:
		return NULL;
	case KEXPR_NOT:
		return probe_behind_expr(e->left, depth);
	default:
		p = probe_behind_expr(e->left, depth);
		return p ? p : probe_behind_expr(e->right, depth);
	}
}

static void trace_symbol(struct trace *t, const struct kconfig_symbol *sym);

static void symbols_of(const struct kconfig_expr *e, const struct kconfig_symbol ***out, size_t *nr,
		       size_t *alloc)
{
	if (!e || e->type == KEXPR_CONST)
		return;
	if (e->type == KEXPR_SYMBOL) {
		ALLOC_GROW(*out, *nr + 1, *alloc);
		(*out)[(*nr)++] = e->sym;
		return;
	}
	symbols_of(e->left, out, nr, alloc);
	if (e->type != KEXPR_NOT)
		symbols_of(e->right, out, nr, alloc);
}

/* An expression that decided a symbol: a probe in it, or its symbols that differ. */
static void trace_expr(struct trace *t, const struct kconfig_expr *e)
{
	const struct kconfig_symbol *probe = probe_behind_expr(e, 0), **syms = NULL;
	size_t nr = 0, alloc = 0;
	int any = 0;

	if (probe) {
		strbuf_addstr(t->chain, " <- ");
		kconfig_expr_print(e, t->chain);
		strbuf_addf(t->chain, " [toolchain: %s]", probe->name);
		if (!t->probe)
			t->probe = xstrdup(probe->name);
		return;
	}
	symbols_of(e, &syms, &nr, &alloc);
	for (size_t i = 0; i < nr; i++)
		if (differs(t, syms[i]) && !t->seen[syms[i]->index]) {
			trace_symbol(t, syms[i]);
			any = 1;
		}
	if (!any) {
		strbuf_addstr(t->chain, " <- ");
		kconfig_expr_print(e, t->chain);
	}
	free(syms);
}

static int pinned(const struct trace *t, const struct kconfig_symbol *sym)
{
	char *line = xstrfmt("CONFIG_%s=", sym->name), *off = xstrfmt("# CONFIG_%s is not set", sym->name);
	int found = 0;

	for (size_t i = 0; i < t->c->assignments.nr && !found; i++)
		found = starts_with(t->c->assignments.v[i], line) || !strcmp(t->c->assignments.v[i], off);
	free(line);
	free(off);
	return found;
}

/* Off (or m) though wanted higher: a dependency or prompt condition lower than wanted. */
static int trace_condition(struct trace *t, const struct kconfig_symbol *sym, int w)
{
	const struct kconfig_expr **parts = NULL;
	size_t nr = 0, alloc = 0;
	int explained = 0;

	for (size_t d = 0; d < sym->nr_defs && !explained; d++) {
		const struct kconfig_definition *def = sym->defs[d];

		nr = 0;
		config_conjuncts(def->dep, &parts, &nr, &alloc);
		for (size_t i = 0; i < def->nr_prompts; i++)
			config_conjuncts(def->prompts[i].cond, &parts, &nr, &alloc);
		for (size_t i = 0; i < nr && !explained; i++) {
			int val = config_eval(t->src->kconfig, parts[i], t->cfg);

			if (val >= 0 && val < w) {
				trace_expr(t, parts[i]);
				explained = 1;
			}
		}
	}
	free(parts);
	return explained;
}

/*
 * A selector (or, with `implied`, an implier) that differs: lower than wanted,
 * a selector the model had on and the .config has off; higher, one on in the
 * .config with its condition true.
 */
static int trace_reverse(struct trace *t, const struct kconfig_symbol *sym, int w, int lower,
			 int implied)
{
	const struct kconfig_reverse *rev = implied ? sym->implied_by : sym->selected_by;
	size_t nr = implied ? sym->nr_implied_by : sym->nr_selected_by;
	const char *by = implied ? " <- implied by" : " <- selected by";

	for (size_t i = 0; i < nr; i++) {
		const struct kconfig_symbol *from = rev[i].from->symbol;

		if (!from || t->seen[from->index])
			continue;
		if (lower ? level_of(symbol_value(t->src, t->want,
		    from)) >= w && level_of(got_value(t, from)) < w
			  : level_of(got_value(t, from)) > w && config_eval(t->src->kconfig, rev[i].cond, t->cfg) > w) {
			strbuf_addstr(t->chain, by);
			if (lower || differs(t, from))
				trace_symbol(t, from);
			else if (implied)
				strbuf_addf(t->chain, " %s=%c", from->name, got_value(t, from));
			else
				strbuf_addf(t->chain, " %s", from->name);
			return 1;
		}
	}
	return 0;
}

/* No prompt: the first active default decided. */
static int trace_default(struct trace *t, const struct kconfig_symbol *sym)
{
	for (size_t d = 0; d < sym->nr_defs; d++)
		for (size_t i = 0; i < sym->defs[d]->nr_defaults; i++) {
			const struct kconfig_default *df = &sym->defs[d]->defaults[i];

			if (config_eval(t->src->kconfig, df->cond, t->cfg) <= 0)
				continue;
			trace_expr(t, df->cond ? df->cond : df->value);
			return 1;
		}
	return 0;
}

static void trace_symbol(struct trace *t, const struct kconfig_symbol *sym)
{
	int want = symbol_value(t->src, t->want, sym), got = got_value(t, sym);
	int w = level_of(want), g = level_of(got), explained;

	t->seen[sym->index] = 1;
	if (t->chain->len && ends_with(strbuf_str(t->chain), " by"))
		strbuf_addch(t->chain, ' ');
	else if (t->chain->len)
		strbuf_addstr(t->chain, " <- ");
	strbuf_addf(t->chain, "%s=%c (wanted %c)", sym->name, got, want);
	if (t->depth++ > 16)
		return;
	if (g < w)
		explained = trace_condition(t, sym, w) || trace_reverse(t, sym, w, 1, 0);
	else
		explained = trace_reverse(t, sym, w, 0, 0);
	if (!explained && user_settable(sym) && !pinned(t, sym)) {
		strbuf_addstr(t->chain, " [not pinned]");
		strvec_push(t->pins, sym->name);
		explained = 1;
	}
	if (!explained && user_settable(sym)) {
		strbuf_addstr(t->chain, " [set otherwise despite the fragment]");
		explained = 1;
	}
	/*
	 * Without a prompt, an implier raises it as a select would (FUTEX's
	 * `imply RT_MUTEXES`): the implier on in the .config, its condition true.
	 */
	if (!explained && g > w)
		explained = trace_reverse(t, sym, w, 0, 1);
	if (!explained)
		trace_default(t, sym);
	t->depth--;
}

char *vampyr_outside_names(const struct vampyr_source *src, const struct vblock *b)
{
	struct strbuf sb = STRBUF_INIT;
	struct strmap seen = STRMAP_INIT;
	int *vars = NULL;
	size_t nr = 0, alloc = 0;

	logic_vars_of(src->logic, b->pc, &vars, &nr, &alloc);
	for (size_t i = 0; i < nr; i++) {
		const char *name = logic_var_name(src->logic, vars[i]), *base;

		/* Kconfig's own, kbuild's MODULE, and unknown CONFIG_ names (always n) aside. */
		if (!name || symbol_of_var(src, name) || starts_with(name, "CONFIG_") ||
		    starts_with(name, "missing:") || !strcmp(name, "cpp:MODULE"))
			continue;
		base = strchr(name, ':') ? strchr(name, ':') + 1 : name;
		if (starts_with(base, "CONFIG_") || strmap_contains(&seen, base))
			continue;
		strmap_put(&seen, base, NULL);
		strbuf_addf(&sb, "%s%s", sb.len ? ", " : "", base);
	}
	free(vars);
	strmap_clear(&seen, NULL);
	return sb.len ? strbuf_detach(&sb, NULL) : (strbuf_release(&sb), NULL);
}

int vampyr_trace_lost(const struct vampyr_source *src, const struct vampyr_cover *cv,
		      const struct vconfig *c, struct strmap *cfg, size_t block,
		      struct strvec *pins, struct vlost *out)
{
	const struct vblock *b = &cv->blocks[block];
	struct strbuf chain = STRBUF_INIT;
	struct trace t = { .src = src, .want = c->values, .cfg = cfg, .chain = &chain, .pins = pins,
			   .c = c };
	int *vars = NULL;
	size_t nr = 0, alloc = 0;
	char *outside;

	t.seen = xcalloc(src->kconfig->nr_symbols + 1, 1);
	logic_vars_of(src->logic, b->pc, &vars, &nr, &alloc);
	for (size_t i = 0; i < nr; i++) {
		const char *name = logic_var_name(src->logic, vars[i]);
		struct kconfig_symbol *sym = symbol_of_var(src, name);

		if (sym && differs(&t, sym) && !t.seen[sym->index]) {
			if (chain.len)
				strbuf_addstr(&chain, "; ");
			t.depth = 0;
			trace_symbol(&t, sym);
		}
	}
	out->block = block;
	out->probe = t.probe;
	outside = vampyr_outside_names(src, b);
	if (t.probe) {
		out->kind = LOST_TOOLCHAIN;
	} else if (!chain.len && outside) {
		out->kind = LOST_OUTSIDE;
		strbuf_addf(&chain, "outside Kconfig: %s", outside);
	} else {
		out->kind = LOST_KCONFIG;
	}
	out->chain = strbuf_detach(&chain, NULL);
	free(outside);
	free(vars);
	free(t.seen);
	return 0;
}

/* The symbol a fragment line assigns: "CONFIG_X=v" or "# CONFIG_X is not set". */
static struct kconfig_symbol *assigned_symbol(const struct vampyr_source *src, const char *line)
{
	const char *name = starts_with(line, "# CONFIG_") ? line + 9 :
			   starts_with(line, "CONFIG_") ? line + 7 : NULL;
	char *copy;
	struct kconfig_symbol *sym;

	if (!name)
		return NULL;
	copy = xstrndup(name, strcspn(name, "= "));
	sym = kconfig_lookup(src->kconfig, copy);
	free(copy);
	return sym;
}

void vampyr_trace_changed(const struct vampyr_source *src, const struct vconfig *c,
			  struct strmap *cfg,
			  struct strvec *out)
{
	struct strbuf chain = STRBUF_INIT;
	struct strvec pins = STRVEC_INIT;
	struct trace t = { .src = src, .want = c->values, .cfg = cfg, .chain = &chain,
			   .pins = &pins,
			   .c = c };

	t.seen = xcalloc(src->kconfig->nr_symbols + 1, 1);
	for (size_t i = 0; i < c->assignments.nr; i++) {
		struct kconfig_symbol *sym = assigned_symbol(src, c->assignments.v[i]);

		if (!sym || !differs(&t, sym))
			continue;
		memset(t.seen, 0, src->kconfig->nr_symbols + 1);
		strbuf_reset(&chain);
		t.depth = 0;
		trace_symbol(&t, sym);
		strvec_pushf(out, "%s: %s", c->assignments.v[i], chain.buf);
	}
	free(t.probe);
	free(t.seen);
	strvec_clear(&pins);
	strbuf_release(&chain);
}

void vlost_release(struct vlost *l)
{
	free(l->chain);
	free(l->probe);
}
