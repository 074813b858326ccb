/* SPDX-License-Identifier: GPL-2.0 */
/* What model.c (building) and model-query.c (asking) share; not an interface. */
#ifndef UT_MODEL_INTERNAL_H
#define UT_MODEL_INTERNAL_H

#include "model.h"
#include "u64map.h"

enum msym_kind {
	MSYM_UNDEFINED,	/* named by expressions, defined nowhere: n */
	MSYM_UNTYPED,	/* defined without a type: n */
	MSYM_BOOL,
	MSYM_TRISTATE,
	MSYM_VALUE,	/* int/hex/string: y is "has a value" */
	MSYM_FREE,	/* a toolchain probe: a free variable */
};

struct msym {
	const char *name;	/* interned, without CONFIG_ */
	enum msym_kind kind;
	int y, m;		/* variables; m only for a tristate */
	formula ge1;		/* y || m, made once */
	const char *display;	/* interned "CONFIG_FOO" */
};

struct model_group {
	formula f;
	struct model_reason reason;
};

struct model {
	struct logic *l;
	struct sat *sat;
	char *arch;
	struct msym *syms;	/* indexed like kconfig->symbols */
	size_t nr_syms;
	struct strmap by_name;	/* name -> index + 1 */
	formula modules;	/* the MODULES symbol's value, or false */
	struct model_group *groups;
	size_t nr_groups, alloc_groups;
	struct strmap strings;	/* interned paths and names */
	const char *last_path, *last_interned;	/* the path of the previous constraint */
	/* Built on the first explanation: each group guarded by its own variable. */
	struct sat *explain;
	int first_guard;
	const struct model_reason **reasons;
	size_t alloc_reasons;
	/* model_definition_dep: per definition index, the dependency's ge1 and ge2 */
	formula *dep_ge1, *dep_ge2;
	size_t nr_deps;
	struct mchoice *choices;	/* per choice index: its mode's variables */
	size_t nr_choices;
	/* model-defconfig.c: its builder, and its rules' literals (a symbol's per value, a choice's per pick) */
	struct builder *dc_builder;
	struct u64map dc_lits;
	/* Per symbol index: the symbols its value may depend on, dc_reach[dc_first[i]..dc_first[i + 1]). */
	uint32_t *dc_first, *dc_reach;
	const struct kconfig *dc_reach_kc;	/* the kconfig they index */
	/*
	 * model_defconfig_settled's evaluation: by rule key, the offset in
	 * dc_forms of the rule's formulas (a symbol's model_range, a choice's
	 * mode then each member's "visible" and "picked"), and the evaluator.
	 */
	struct u64map dc_form_at;
	formula *dc_forms;
	size_t nr_dc_forms, alloc_dc_forms;
	struct logic_eval *dc_eval;
};

/* A tristate value: (value >= m, value == y). */
struct tv {
	formula ge1, ge2;
};

struct mchoice {
	const char *name;
	int y, m;		/* the choice's mode; m only for a tristate choice */
};

struct builder {
	struct model *m;
	const struct kconfig *kc;
	struct mchoice *choices;
	struct u64map memo;	/* model_tv_expr() by expression (low bit: rewrite_m) */
	struct tv *dep;		/* per definition index, once computed */
	uint8_t *has_dep;
	uint8_t *strings;	/* per symbol index: tie its "S=text" variables (model_string_values) */
};

/* The symbols' names and kinds, no store yet (model_new's first half, model_load's). */
struct model *model_alloc(const struct kconfig *kc);
struct model *model_new(const struct kconfig *kc);
const char *model_intern_path(struct model *m, const char *s);
struct tv model_tv_expr(struct builder *b, const struct kconfig_expr *e, int rewrite_m);
struct tv model_reverse_one(struct builder *b, const struct kconfig_reverse *r);
void model_add(struct builder *b, formula f, const struct kconfig_location *loc,
	       const char *symbol, const char *what);

/* What kconfig computes a bool/tristate symbol's value from (model.c). */
struct model_bounds {
	struct tv V, P, Ph, R, Rh;
};
void model_tristate_bounds(struct builder *b, const struct kconfig_symbol *s, int is_bool,
			   struct model_bounds *out);
formula model_value_between(struct builder *b, const struct msym *ms, struct tv lo, struct tv hi,
			    const struct model_bounds *bd);
/* The same as bounds: low1 implies the value is at least m, it is so only if high1; likewise y. */
struct model_range {
	formula low1, high1, low2, high2;
};
void model_value_bounds(struct builder *b, const struct msym *ms, struct tv lo, struct tv hi,
			const struct model_bounds *bd, struct model_range *out);
struct tv model_visibility(struct builder *b, struct kconfig_definition *const *defs, size_t nr);
struct tv model_def_dep(struct builder *b, const struct kconfig_definition *d);
struct tv model_choice_mode(struct builder *b, const struct kconfig_choice *c);
struct tv model_first_default(struct builder *b, const struct kconfig_symbol *s);
/*
 * An enumerable string option's "S=text" variables that the model has
 * (*vars), each with what it equals while the user typed no value (*forms),
 * both allocated; *typed its "S=*" variable, or 0. Returns how many.
 */
size_t model_string_atoms(struct builder *b, const struct kconfig_symbol *s, int *typed,
			  int **vars, formula **forms);
void model_defconfig_release(struct model *m);

#endif
