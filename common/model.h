/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The propositional model of one parsed Kconfig tree (one architecture), as
 * DESIGN.md's "Kconfig to logic" says: a sound over-approximation of what the
 * tree's own kconfig can produce, made as tight as the kernel's semantics
 * allow (exact values for symbols without a visible prompt, choices, select
 * overriding depends on).
 *
 * Variables: a bool symbol FOO is the variable CONFIG_FOO; a tristate FOO is
 * CONFIG_FOO (=y) and CONFIG_FOO_MODULE (=m); an int/hex/string FOO is
 * CONFIG_FOO meaning "has a value" (written to .config). Toolchain probes and
 * comparisons on int/hex/string values are free variables.
 *
 * Each constraint remembers the Kconfig location of what it encodes, so an
 * unsatisfiable query can be explained as Kconfig lines.
 *
 * Where it is looser than kconfig (never tighter, as far as tested): a visible
 * symbol is only bounded (at least its reverse dependency, at most its
 * visibility, default or reverse dependency), not tied to the user's choices;
 * int/hex/string values and their comparisons are free (but for the
 * enumerable string options of model_string_values); `transitional`,
 * `option env` and probe symbols are free. Choices follow Linux 6.1 (a mode
 * y/m/n, select of a member ignored, members of an invisible choice take their
 * defaults), which also accepts what 6.11+ kconfig makes of bool choices.
 * Symbols nested under a choice member without being members do not depend on
 * the choice's mode here.
 *
 * Threads: a model, its logic store and its solvers belong to one thread at a
 * time. The model keeps no pointer into the kconfig it was built from.
 */
#ifndef UT_MODEL_H
#define UT_MODEL_H

#include <stdio.h>
#include "kconfig.h"
#include "logic.h"
#include "sat.h"

struct model;

struct model *model_build(const struct kconfig *kc);
/*
 * The same, with the value of each string option named in `strings`
 * (without CONFIG_, NULL-terminated; U-Boot's SYS_BOARD) tied to its
 * defaults where model_string_values enumerates it.
 */
struct model *model_build_strings(const struct kconfig *kc, const char *const *strings);

/*
 * A string option whose defaults are all constants (U-Boot's SYS_BOARD,
 * `default "b"` under each `if TARGET_B`) takes one of those constants, or
 * "" when no default is active: the first active default's, unless the user
 * types a value where a prompt is visible (model_string_typed). For such an
 * option (at most MODEL_STRING_MAX constants), the variable named
 * "<S>=<text>" is "S is text" in the model, and "<S>=*" is "the user typed a
 * value": no text a default gives then, whatever the user typed (a board
 * directory with its own default is built through its own target), and a
 * text no default gives only then. The model ties them to the defaults when
 * a Kconfig comparison names S or model_build_strings was given S. Returns
 * 1 and, when `values` is not NULL, appends the distinct constants; 0 for
 * any other symbol.
 */
#define MODEL_STRING_MAX 4096
int model_string_values(const struct kconfig_symbol *s, struct strvec *values);
/* Has the option a prompt (somewhere)? */
int model_string_typed(const struct kconfig_symbol *s);
/*
 * A built model written with diskcache's encoding (before any question is
 * asked of it), and read back for the Kconfig tree `kc` it was built from
 * (the same files, parsed again): NULL when the entry does not fit `kc` or
 * its own store, which is then never trusted. Reading back costs a few
 * milliseconds where building costs a tenth of a second (U-Boot).
 */
void model_save(const struct model *m, struct strbuf *sb);
struct model *model_load(const struct kconfig *kc, const struct strbuf *entry);
void model_free(struct model *m);

struct logic *model_logic(struct model *m);
/* The incremental solver holding the model. */
struct sat *model_sat(struct model *m);
const char *model_arch(const struct model *m);	/* NULL for a tree without architectures */

/* Variables of a symbol (name without CONFIG_): the y var and the m var; 0 when none. */
int model_var_y(const struct model *m, const char *symbol);
int model_var_m(const struct model *m, const char *symbol);
/* Does some Kconfig file of the tree define this symbol (name without CONFIG_)? */
int model_symbol_defined(const struct model *m, const char *symbol);

/*
 * The formula for a C macro name: CONFIG_FOO (y, or "has a value"),
 * CONFIG_FOO_MODULE (m; false for a bool). For a name no Kconfig defines,
 * *defined is set to 0 and the result is a variable of that name: n in the
 * model's solver when this architecture's Kconfig names the symbol without
 * defining it (as pc.c's symbols of other architectures), else free (the
 * caller decides whether to force it off). Names without CONFIG_ are free
 * variables too.
 */
formula model_config(struct model *m, const char *name, int *defined);

/*
 * The dependency of definition `index` (kconfig_definition.index of the
 * kconfig the model was built from) as kconfig propagates it (its own
 * `depends on`, those of enclosing if/menu/choice, a choice member's
 * choice): *ge1 "at least m", *ge2 "y".
 */
void model_definition_dep(const struct model *m, size_t index, formula *ge1, formula *ge2);
/* An expression of the kconfig the model was built from, over its variables (as *ge1, *ge2). */
void model_expr(struct model *m, const struct kconfig *kc, const struct kconfig_expr *e,
		formula *ge1, formula *ge2);

/* Is f satisfiable together with the model? (cached by formula) */
int model_satisfiable(struct model *m, formula f);

/* A constraint of the model, as Kconfig lines. */
struct model_reason {
	const char *path;
	int line;
	const char *symbol;	/* CONFIG_FOO, or "<choice>" / "<choice NAME>" */
	const char *what;	/* "select", "depends on", "default", "choice", ... */
};
/*
 * When f is unsatisfiable with the model: the constraints that make it so (a
 * minimal set when cheap). Returns how many, 0 when f is satisfiable or
 * unsatisfiable on its own. The reasons point into the model.
 */
size_t model_explain(struct model *m, formula f, const struct model_reason ***out);

/*
 * Checks a full configuration (the text of a .config). Returns 0 when it
 * satisfies the model; 1 when not, with the violated constraints described
 * in `why` ("path:line: CONFIG_FOO: what" lines).
 */
int model_check_config(struct model *m, const char *config, struct strbuf *why);

/*
 * A defconfig as Linux 6.1's `conf --olddefconfig` reads it: a symbol it
 * sets takes the user's value capped by its visibility (then raised by
 * selects), every other its default; a bool choice takes its last member
 * set to y when visible, else its default (an optional one none unless the
 * defconfig sets one). What kconfig versions disagree on, values of probes
 * and comparisons of numbers stay free, as tristate choices do: the
 * configurations allowed are at least those that conf can write.
 */
struct model_defconfig;
struct model_defconfig *model_defconfig_new(struct model *m, const struct kconfig *kc);
void model_defconfig_free(struct model_defconfig *dc);
/*
 * The user's value of a bool/tristate symbol of kc: 0 n, 1 m, 2 y (the last
 * set wins); 3 for an int/hex/string the defconfig sets. Only what these
 * symbols' values may depend on is asked of the solver.
 */
void model_defconfig_set(struct model_defconfig *dc, const struct kconfig_symbol *s, int value);
/*
 * Finds one configuration: 1, and model_defconfig_value() then gives a
 * symbol's value in it (0 n, 1 m, 2 y; an int/hex/string: 2 when it has a
 * value; -1 for a free or unknown symbol); 0 when none (the model and the
 * defconfig's rules contradict each other: nothing can be said). The
 * configuration found joins the model's witnesses (sat_keep_model).
 */
int model_defconfig_solve(struct model_defconfig *dc);
/*
 * Before any solve: has s `value` (3: is it visible) in every configuration,
 * by propagating the rules alone (sat_refuted)? 1 when so, or when
 * model_defconfig_value() would not know s; 0 when propagation does not
 * say, which is no answer. A defconfig whose every line is settled so
 * needs no solve: it has nothing to report whether or not its rules hold.
 */
int model_defconfig_settled(struct model_defconfig *dc, const struct kconfig_symbol *s, int value);
/*
 * s's value (0 n, 1 m, 2 y) in every configuration by evaluation alone:
 * each rule's value computed from those it reads, unknown where the model
 * leaves it free (what settled() tries before propagation, and possible()
 * before the solver); -1 when not known so.
 */
int model_defconfig_forced(struct model_defconfig *dc, const struct kconfig_symbol *s);
int model_defconfig_value(const struct model_defconfig *dc, const struct kconfig_symbol *s);
/* Is s visible (its prompt shown, so a user's value counts) in that configuration? */
int model_defconfig_visible(struct model_defconfig *dc, const struct kconfig_symbol *s);
/*
 * Can s end with `value` (as above) in some configuration? `visible` asks
 * instead whether s can be visible (its prompt shown, so the user's value counts).
 */
int model_defconfig_possible(struct model_defconfig *dc, const struct kconfig_symbol *s,
			     int value, int visible);
/* A possible() question; model_defconfig_possible_each() answers many at once. */
struct model_defconfig_question {
	const struct kconfig_symbol *sym;
	int value, visible;
};
/* yes[i] 1 when possible() would say 1 for q[i], else 0; usually one solver call. */
void model_defconfig_possible_each(struct model_defconfig *dc,
				   const struct model_defconfig_question *q, size_t n, char *yes);

/* DIMACS CNF with "c CONFIG_FOO <var>" / "c CONFIG_FOO_MODULE <var>" lines first. */
void model_dump_dimacs(struct model *m, FILE *out);

/* Statistics for benchmarks. */
struct model_stats {
	size_t symbols, constraints, vars, clauses, nodes;
};
void model_get_stats(struct model *m, struct model_stats *st);

#endif
