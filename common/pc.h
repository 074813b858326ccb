/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Presence conditions of C blocks as formulas over a Kconfig model's
 * variables: the bridge between cpp (which knows nothing of Kconfig) and
 * logic. Shared by the undertaker and vampyr.
 *
 * A CONFIG_FOO reference becomes the model's variables (CONFIG_FOO for y,
 * CONFIG_FOO_MODULE for m) when this architecture's Kconfig defines FOO;
 * false when only another architecture's Kconfig does (FOO is n here); a
 * free variable when the build system defines it (-DCONFIG_FOO) or the file
 * #defines it; and, when no Kconfig anywhere defines it, a free "missing"
 * variable that the analysis forces off to tell the `missing` cause. A
 * missing variant produced by a project macro (CONFIG_IS_ENABLED's SPL_
 * variants in a tree without SPL) drops out as false.
 */
#ifndef UT_PC_H
#define UT_PC_H

#include "cpp.h"
#include "kbuild.h"
#include "kconfig.h"
#include "logic.h"
#include "sat.h"
#include "u64map.h"

struct pc_context {
	struct logic *logic;
	const struct kconfig *kconfig;	/* this architecture's parse; NULL: none */
	/* Names (without CONFIG_) any Kconfig file of the tree defines, any arch. */
	const struct strmap *kconfig_defined;
	/* Names (without CONFIG_) the build system passes with -D. */
	const struct strmap *cmdline_defined;
	/*
	 * The model's solver, where facts of Kconfig that the model has no
	 * variable for yet are added (a bool's m variable is false); may be NULL.
	 */
	struct sat *facts;
	/* Out: variables of missing symbols met so far (name without CONFIG_ → var). */
	struct strmap missing;
	/*
	 * Formulas of the expression nodes met so far, by address: blocks share
	 * their parent's pc and the earlier arms of their chain, so each node is
	 * converted once (linear in the file, however deep or long the chains).
	 */
	struct u64map memo;
};

void pc_context_init(struct pc_context *ctx, struct logic *l, const struct kconfig *kc,
		     const struct strmap *kconfig_defined, const struct strmap *cmdline_defined);
void pc_context_release(struct pc_context *ctx);
/* The cpp expressions given so far are about to be freed: forget them. */
void pc_context_forget_exprs(struct pc_context *ctx);

/* The formula of a cpp expression (a block's pc, local or expr). */
formula pc_formula(struct pc_context *ctx, const struct cpp_expr *e);

/*
 * The formula of a Kbuild file condition: CONFIG_X enabled is X || X_MODULE,
 * a symbol this architecture lacks is n (kbuild sees an empty variable),
 * what kbuild decides at build time is a free variable, and a build phase's
 * -D name (defined(CONFIG_SPL_BUILD)) is the variable of that name in the
 * file's #if lines: a block of an SPL-only file sees it defined.
 */
formula pc_kbuild_formula(struct pc_context *ctx, const struct kbuild_expr *e);

/* How a CONFIG_ name (with the prefix) of an #if line relates to the Kconfig tree. */
enum pc_symbol_state {
	PC_SYMBOL_KCONFIG,	/* defined by this architecture's Kconfig */
	PC_SYMBOL_OTHER_ARCH,	/* defined by some Kconfig, not this architecture's */
	PC_SYMBOL_CMDLINE,	/* passed by the build system with -D */
	PC_SYMBOL_MISSING,	/* defined nowhere: a typo or a removed symbol */
};
enum pc_symbol_state pc_symbol_state(const struct pc_context *ctx, const char *name);
/* Is the name (with CONFIG_) defined by some Kconfig or the build system? */
int pc_name_defined_anywhere(const struct strmap *kconfig_defined,
			     const struct strmap *cmdline_defined, const char *name);

#endif
