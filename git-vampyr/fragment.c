// SPDX-License-Identifier: GPL-2.0
/*
 * Configuration fragments in the format KCONFIG_ALLCONFIG and merge_config.sh
 * read. A fragment holds the solver's values of the symbols the claimed
 * blocks depend on, closed over the Kconfig dependencies (the cone of
 * influence), not the whole assignment: the rest is left to the tree's own
 * defaults, so the fragment reads as what the blocks need. A choice is its
 * chosen member, one line; "# CONFIG_X is not set" only where the tree's
 * defaults, a selector or an implier on could turn X on. When expansion
 * loses a block, its trace (trace.c) names the few symbols to pin as well,
 * never the whole assignment.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vampyr.h"

int symbol_value(const struct vampyr_source *src, const int8_t *values,
		 const struct kconfig_symbol *sym)
{
	int y = model_var_y(src->model, sym->name), m = model_var_m(src->model, sym->name);

	if (!y)
		return 0;
	if (values[y] > 0)
		return 'y';
	if (m && values[m] > 0)
		return 'm';
	return 'n';
}

struct cone {
	const struct vampyr_source *src;
	const int8_t *values;
	unsigned char *in;	/* by symbol index */
	struct kconfig_symbol **queue;
	size_t nr, alloc;
};

static void cone_add(struct cone *c, struct kconfig_symbol *sym)
{
	if (!sym || (sym->flags & KSYM_CONST) || !sym->nr_defs || c->in[sym->index])
		return;
	c->in[sym->index] = 1;
	ALLOC_GROW(c->queue, c->nr + 1, c->alloc);
	c->queue[c->nr++] = sym;
}

static void cone_add_expr(struct cone *c, const struct kconfig_expr *e)
{
	if (!e)
		return;
	switch (e->type) {
	case KEXPR_SYMBOL:
		cone_add(c, e->sym);
		break;
	case KEXPR_CONST:
		break;
	case KEXPR_NOT:
		cone_add_expr(c, e->left);
		break;
	default:
		cone_add_expr(c, e->left);
		cone_add_expr(c, e->right);
		break;
	}
}

static int symbol_on(struct cone *c, const struct kconfig_symbol *sym)
{
	int val = symbol_value(c->src, c->values, sym);

	return val == 'y' || val == 'm';
}

static void cone_add_each(void *data, const struct kconfig_expr *e)
{
	cone_add_expr(data, e);
}

/* What decides the value of sym: its dependencies, prompts, defaults, choice, selectors. */
static void cone_follow(struct cone *c, struct kconfig_symbol *sym)
{
	int on = symbol_on(c, sym), has_prompt = 0;

	for (size_t d = 0; d < sym->nr_defs; d++) {
		const struct kconfig_definition *def = sym->defs[d];

		has_prompt |= def->nr_prompts > 0;
		kconfig_definition_each_expr(def, cone_add_each, c);
		if (def->choice) {
			const struct kconfig_choice *ch = def->choice;

			/* The chosen member is what counts: pin every member. */
			for (size_t i = 0; i < ch->nr_members; i++)
				cone_add(c, ch->members[i]);
			for (size_t i = 0; i < ch->nr_defs; i++)
				cone_add_expr(c, ch->defs[i]->dep);
		}
	}
	if (symbol_value(c->src, c->values, sym) == 'm')
		cone_add(c, c->src->kconfig->modules);
	/*
	 * A symbol the user cannot set is on because something selects it, and
	 * any symbol is off only while each selector that is on has a false `if`
	 * (x86's `select DCACHE_WORD_ACCESS if !KMSAN`): the selectors that are
	 * on and their conditions belong to the cone.
	 */
	for (size_t i = 0; i < sym->nr_selected_by; i++) {
		const struct kconfig_reverse *r = &sym->selected_by[i];
		struct kconfig_symbol *from = r->from->symbol;

		if ((!on || !has_prompt) && from && symbol_on(c, from)) {
			cone_add(c, from);
			cone_add_expr(c, r->cond);
		}
	}
	for (size_t i = 0; i < sym->nr_implied_by; i++) {
		const struct kconfig_reverse *r = &sym->implied_by[i];
		struct kconfig_symbol *from = r->from->symbol;

		if (from && symbol_on(c, from)) {
			cone_add(c, from);
			cone_add_expr(c, r->cond);
		}
	}
}

/*
 * The Kconfig symbol behind a model variable name: CONFIG_FOO or
 * CONFIG_FOO_MODULE, or FOO=text, a string option's value (model.h's
 * model_string_values: U-Boot's SYS_BOARD, whose defaults the cone follows).
 */
struct kconfig_symbol *symbol_of_var(const struct vampyr_source *src, const char *name)
{
	struct kconfig_symbol *sym;
	size_t len;

	if (name && !starts_with(name, "CONFIG_") && strchr(name, '=') && !strchr(name, ':')) {
		char *base = xstrndup(name, strchr(name, '=') - name);

		sym = kconfig_lookup(src->kconfig, base);
		free(base);
		return sym && sym->nr_defs && sym->type == KCONFIG_STRING ? sym : NULL;
	}
	if (!name || !starts_with(name, "CONFIG_"))
		return NULL;
	name += 7;
	sym = kconfig_lookup(src->kconfig, name);
	if (sym && sym->nr_defs)
		return sym;
	len = strlen(name);
	if (len > 7 && !strcmp(name + len - 7, "_MODULE")) {
		char *base = xstrndup(name, len - 7);

		sym = kconfig_lookup(src->kconfig, base);
		free(base);
		if (sym && sym->nr_defs)
			return sym;
	}
	return NULL;
}

int user_settable(const struct kconfig_symbol *sym)
{
	if (sym->type != KCONFIG_BOOL && sym->type != KCONFIG_TRISTATE)
		return 0;
	for (size_t d = 0; d < sym->nr_defs; d++)
		if (sym->defs[d]->nr_prompts)
			return 1;
	return 0;
}

static const struct kconfig_choice *choice_of(const struct kconfig_symbol *sym)
{
	for (size_t d = 0; d < sym->nr_defs; d++)
		if (sym->defs[d]->choice)
			return sym->defs[d]->choice;
	return NULL;
}

/* Is e (a dependency) off, n, on the solver's values? Unknown is not off. */
static int off_in(const struct vampyr_source *src, const struct kconfig_expr *e,
		  struct strmap *vals)
{
	return e && config_eval(src->kconfig, e, vals) == 0;
}

/* Does something on in the solver's values select or imply sym? */
static int raised(const struct vampyr_source *src, const int8_t *values,
		  const struct kconfig_symbol *sym)
{
	for (size_t i = 0; i < sym->nr_selected_by; i++)
		if (!sym->selected_by[i].from->symbol ||
		    symbol_value(src, values, sym->selected_by[i].from->symbol) != 'n')
			return 1;
	for (size_t i = 0; i < sym->nr_implied_by; i++)
		if (!sym->implied_by[i].from->symbol ||
		    symbol_value(src, values, sym->implied_by[i].from->symbol) != 'n')
			return 1;
	return 0;
}

/*
 * Does a symbol the solver has off need its "# CONFIG_X is not set" line?
 * Not when the tree's kconfig leaves it off anyway: a member of a choice
 * whose chosen member is y (the choice is written as that member, one
 * line) or whose dependencies are off (another architecture's choice), a
 * symbol with no default, or whose dependencies are off, that nothing on
 * selects or implies.
 */
static int must_say_off(const struct vampyr_source *src, const int8_t *values,
			const struct kconfig_symbol *sym,
			struct strmap *vals)
{
	const struct kconfig_choice *ch = choice_of(sym);
	int deps_off = sym->nr_defs > 0, has_default = 0;

	if (ch) {
		int choice_off = ch->nr_defs > 0;

		for (size_t i = 0; i < ch->nr_members; i++)
			if (symbol_value(src, values, ch->members[i]) == 'y')
				return 0;
		for (size_t i = 0; i < ch->nr_defs; i++)
			choice_off &= off_in(src, ch->defs[i]->dep, vals);
		return !choice_off;
	}
	if (raised(src, values, sym))
		return 1;
	for (size_t d = 0; d < sym->nr_defs; d++) {
		has_default |= sym->defs[d]->nr_defaults > 0;
		deps_off &= off_in(src, sym->defs[d]->dep, vals);
	}
	return has_default && !deps_off;
}

/* The solver's values of the bool and tristate symbols, as a .config has them (n: absent). */
static void solver_config(const struct vampyr_source *src, const int8_t *values,
			  struct strmap *vals)
{
	for (size_t i = 0; i < src->kconfig->nr_defined; i++) {
		const struct kconfig_symbol *sym = src->kconfig->symbols[i];
		int val;

		if (sym->type != KCONFIG_BOOL && sym->type != KCONFIG_TRISTATE)
			continue;
		val = symbol_value(src, values, sym);
		if (val == 'y' || val == 'm')
			strmap_put(vals, sym->name, xstrfmt("%c", val));
	}
}

void fragment_assignments(const struct vampyr_source *src, const struct vampyr_cover *cv,
			  struct vconfig *cfg)
{
	struct kconfig *kc = src->kconfig;
	struct cone c = { .src = src, .values = cfg->values };
	int *vars = NULL;
	size_t nr_vars = 0, alloc_vars = 0;
	struct strmap vals = STRMAP_INIT;
	unsigned char *direct;	/* named by a claimed block's condition: always written */

	strvec_clear(&cfg->assignments);
	solver_config(src, cfg->values, &vals);
	c.in = xcalloc(kc->nr_symbols + 1, 1);
	for (size_t i = 0; i < cfg->nr_claims; i++)
		logic_vars_of(src->logic, cv->blocks[cfg->claims[i]].pc, &vars, &nr_vars, &alloc_vars);
	direct = xcalloc(kc->nr_symbols + 1, 1);
	for (size_t i = 0; i < nr_vars; i++) {
		struct kconfig_symbol *sym = symbol_of_var(src, logic_var_name(src->logic, vars[i]));

		cone_add(&c, sym);
		if (sym)
			direct[sym->index] = 1;
	}
	for (size_t i = 0; i < c.nr; i++)
		cone_follow(&c, c.queue[i]);
	/* What a lost block's trace asked for, without its own cone: only what is needed. */
	for (size_t i = 0; i < cfg->pins.nr; i++) {
		struct kconfig_symbol *sym = kconfig_lookup(kc, cfg->pins.v[i]);

		if (sym)
			c.in[sym->index] = 1;
	}
	for (size_t i = 0; i < kc->nr_defined; i++) {
		const struct kconfig_symbol *sym = kc->symbols[i];
		int val;

		if (!c.in[sym->index] || !user_settable(sym))
			continue;
		val = symbol_value(src, cfg->values, sym);
		if (val == 'y' || val == 'm')
			strvec_pushf(&cfg->assignments, "CONFIG_%s=%c", sym->name, val);
		else if (val == 'n' && (direct[sym->index] || must_say_off(src, cfg->values, sym, &vals)))
			strvec_pushf(&cfg->assignments, "# CONFIG_%s is not set", sym->name);
	}
	free(vars);
	free(c.in);
	free(c.queue);
	strmap_clear(&vals, free);
	free(direct);
}

int fragment_write(const struct vconfig *c)
{
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < c->assignments.nr; i++)
		strbuf_addf(&sb, "%s\n", c->assignments.v[i]);
	if (write_file_atomic(c->path, strbuf_str(&sb), sb.len) < 0)
		ret = error("cannot write %s: %s", c->path, strerror(errno));
	strbuf_release(&sb);
	return ret;
}
