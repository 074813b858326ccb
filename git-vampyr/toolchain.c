// SPDX-License-Identifier: GPL-2.0
/*
 * What the toolchain decides. The model leaves every $(cc-option,...),
 * $(success,...) and $(shell,...) free, so it happily claims blocks that only
 * another compiler can configure (Linux 6.1 on gcc: KMSAN needs clang, and
 * `select DCACHE_WORD_ACCESS if !KMSAN` makes "#ifndef
 * CONFIG_DCACHE_WORD_ACCESS" one of them). No fragment can keep such a block,
 * so --expand asks the tree's own kconfig once, with an empty fragment, and
 * pins the symbols whose value only probes decide to what it found; the
 * blocks this rules out are named apart and the cover spends no
 * configuration on them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vampyr.h"

/*
 * Does e depend on nothing but probes, constants and symbols already known
 * to be toolchain symbols (tc)? *probe is set when it names a probe or one
 * of those.
 */
static int toolchain_expr(const struct kconfig_expr *e, const unsigned char *tc, int *probe)
{
	if (!e)
		return 1;
	switch (e->type) {
	case KEXPR_CONST:
		return 1;
	case KEXPR_SYMBOL:
		if (e->sym->flags & KSYM_CONST)
			return 1;
		if ((e->sym->flags & KSYM_PROBE) || tc[e->sym->index]) {
			*probe = 1;
			return 1;
		}
		return 0;
	case KEXPR_NOT:
		return toolchain_expr(e->left, tc, probe);
	default:
		return toolchain_expr(e->left, tc, probe) && toolchain_expr(e->right, tc, probe);
	}
}

/* No prompt, no select or imply onto it, every property decided by the toolchain. */
static int toolchain_symbol(const struct kconfig_symbol *sym, const unsigned char *tc)
{
	int probe = 0;

	if (!sym->nr_defs || sym->nr_selected_by || sym->nr_implied_by ||
	    (sym->flags & (KSYM_CHOICE_MEMBER | KSYM_ENV)))
		return 0;
	for (size_t d = 0; d < sym->nr_defs; d++) {
		const struct kconfig_definition *def = sym->defs[d];

		if (def->nr_prompts || !toolchain_expr(def->dep, tc, &probe))
			return 0;
		for (size_t i = 0; i < def->nr_defaults; i++)
			if (!toolchain_expr(def->defaults[i].value, tc, &probe) ||
			    !toolchain_expr(def->defaults[i].cond, tc, &probe))
				return 0;
	}
	return probe;
}

/* Pushes the unit literals that pin sym to its value in `values`. */
static void pin(struct vampyr *v, const struct kconfig_symbol *sym, const int8_t *values,
		int **lits, size_t *nr, size_t *alloc)
{
	int y = model_var_y(v->model, sym->name), m = model_var_m(v->model, sym->name);
	int val;

	if (y <= 0)
		return;
	ALLOC_GROW(*lits, *nr + 2, *alloc);
	(*lits)[(*nr)++] = values[y] > 0 ? y : -y;
	if (m > 0)
		(*lits)[(*nr)++] = values[m] > 0 ? m : -m;
	val = symbol_value(v, values, sym);
	if (sym->type == KCONFIG_BOOL || sym->type == KCONFIG_TRISTATE)
		strvec_pushf(&v->toolchain_facts, "%s=%c", sym->name, val);
	else
		strvec_pushf(&v->toolchain_facts, "%s=%s", sym->name, val == 'y' ? "set" : "unset");
}

static int write_empty(const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f || fclose(f))
		return error("cannot write %s: %m", path);
	return 0;
}

int vampyr_toolchain(struct vampyr *v, const struct expand_options *o)
{
	struct kconfig *kc = v->kconfig;
	unsigned char *tc = xcalloc(kc->nr_symbols + 1, 1);
	int nr_vars = logic_nr_vars(v->logic), *lits = NULL, changed = 1;
	int8_t *zero, *values;
	size_t nr_lits = 0, alloc_lits = 0;
	char *empty, *config, *text;

	if (!v->tree && !(v->tree = tree_checkout(v->repo, &v->commit, v->arch ? v->arch : ""))) {
		free(tc);
		return -1;
	}
	empty = xstrfmt("%s/.vampyr-empty.config", v->tree);
	config = xstrfmt("%s/.vampyr-toolchain.config", v->tree);
	text = write_empty(empty) ? NULL : run_kconfig(v, "an empty fragment", kconfig_command(o), empty, config);
	free(empty);
	free(config);
	if (!text) {
		free(tc);
		return -1;
	}
	/* Toolchain symbols build on each other (CC_IS_CLANG, then HAVE_KMSAN_COMPILER). */
	while (changed) {
		changed = 0;
		for (size_t i = 0; i < kc->nr_defined; i++) {
			const struct kconfig_symbol *sym = kc->symbols[i];

			if (!tc[sym->index] && toolchain_symbol(sym, tc))
				changed = tc[sym->index] = 1;
		}
	}
	zero = xcalloc((size_t)nr_vars + 1, 1);
	values = config_values(v, text, zero, nr_vars);
	for (size_t i = 0; i < kc->nr_defined; i++)
		if (tc[kc->symbols[i]->index])
			pin(v, kc->symbols[i], values, &lits, &nr_lits, &alloc_lits);
	/* A model that disagrees with the tree's kconfig is worth a warning, not a failure. */
	if (nr_lits && sat_solve(v->sat, lits, nr_lits) != SAT_SAT) {
		warning("the toolchain's values contradict the model: not pinned");
		strvec_clear(&v->toolchain_facts);
	} else {
		for (size_t i = 0; i < nr_lits; i++)
			sat_add_clause(v->sat, &lits[i], 1);
		for (size_t i = 0; i < v->nr_blocks; i++) {
			struct vblock *b = &v->blocks[i];

			if (b->target && !b->dead && b->lit && sat_solve(v->sat, &b->lit, 1) != SAT_SAT) {
				b->toolchain = 1;
				v->nr_toolchain++;
			}
		}
	}
	v->toolchain_done = 1;
	free(lits);
	free(values);
	free(zero);
	free(text);
	free(tc);
	return 0;
}
