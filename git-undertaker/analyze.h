/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The analysis of one file's blocks against the Kconfig models of one tree:
 * dead, undead and undefined, with cause and scope.
 */
#ifndef UT_ANALYZE_H
#define UT_ANALYZE_H

#include "blocks.h"
#include "cpp.h"
#include "defect.h"
#include "logic.h"
#include "sat.h"
#include "trees.h"

/* Is f satisfiable with the model? (sat_satisfiable: witnesses first, then the solver) */
int arch_model_satisfiable(struct arch_model *am, formula f);
/* Each f[i] at once (sat_satisfiable_each): yes[i] as arch_model_satisfiable(am, f[i]) says. */
void arch_model_satisfiable_each(struct arch_model *am, const formula *f, size_t n, char *yes);

struct analyze_options {
	int explain;
	/*
	 * Block keys (analyze_block_keys) whose blocks are not analysed: blocks
	 * the other version of the file holds alike, whose verdicts cannot
	 * differ under the same models. NULL: every block.
	 */
	const struct strmap *skip;
	/*
	 * The file's own errors (an unterminated comment) where kbuild never
	 * compiles it (a .c or .S no Makefile lists) are warnings, not input
	 * errors; with this set (a census without --verbose) they are not
	 * printed at all.
	 */
	int quiet_unbuilt;
};

struct cpp_file;

/*
 * Scans `data` as file `path` with the macros of tm's trees (blocks_scan);
 * cpp_file_free() it.
 */
struct cpp_file *analyze_scan(const struct tree_models *tm, const char *path, const char *data,
			      size_t size);

/*
 * Counts the blocks of a scanned file per key into `counts` (key -> count
 * cast to a pointer). A block's key is a hash of its context (the directives
 * from the file down to it, blanks collapsed) with which of their CONFIG
 * names the file #defines before them: under the same models and path,
 * blocks with equal keys have equal verdicts. Linear in the file.
 */
void analyze_block_keys(const struct cpp_file *f, struct strmap *counts);

/*
 * Appends the defects of the scanned file `path` to `out` (status new). Its
 * cpp errors are printed (path:line) and counted in *input_errors.
 */
void analyze_scanned(struct tree_models *tm, const char *path, const struct cpp_file *f,
		     const struct analyze_options *opt, struct defect_list *out,
		     size_t *input_errors);

/*
 * analyze_scanned() in steps, one architecture of the file's scope at a
 * time, so that a caller with many files asks each model of them all
 * before the next is built (and frees it): analyze_begin(), then
 * analyze_step() while analyze_next() names a model, then
 * analyze_finish(), which appends the defects to `out` (the same as
 * analyze_scanned()) and frees the analysis. `f` and `out` must outlive
 * it; `opt` is copied. The steps go in the order of the file's scope: the
 * primary architecture first (or the file's own), then the others by
 * index. analyze_finish() takes the steps left itself.
 */
struct analysis;
#define ANALYZE_DONE ((size_t)-1)
struct analysis *analyze_begin(struct tree_models *tm, const char *path, const struct cpp_file *f,
			       const struct analyze_options *opt, struct defect_list *out,
			       size_t *input_errors);
/* The model the next step asks (tree_models.get's index), or ANALYZE_DONE. */
size_t analyze_next(const struct analysis *an);
void analyze_step(struct analysis *an);
void analyze_finish(struct analysis *an);
/* Frees the analysis without its defects (an interrupted run). */
void analyze_abandon(struct analysis *an);

/* analyze_scan() and analyze_scanned() of `data`. */
void analyze_file(struct tree_models *tm, const char *path, const char *data, size_t size,
		  const struct analyze_options *opt, struct defect_list *out, size_t *input_errors);

/*
 * --explain of a name no Kconfig file defines: where it was defined before it
 * disappeared and the defined names nearest to it, as lines of
 * d->explanation. Where it was defined takes a walk of the history, which
 * most defects of a commit (those it does not introduce) never print: with
 * tm->explain_removals the line is left as a placeholder that
 * analyze_resolve_removals() fills in for the defects reported.
 */
void analyze_explain_missing(struct defect *d, const struct tree_models *tm, const char *name);

/*
 * Fills in the placeholders of the defects that are printed (new ones, all
 * with show_all): `removed` appends where `name` was defined ("path:line until
 * <commit> (<title>)") and returns 1, or returns 0 and the line goes. The
 * placeholders of the other defects go too.
 */
void analyze_resolve_removals(struct defect_list *l, int show_all,
			      int (*removed)(void *data, const char *name, struct strbuf *out),
			      void *data);

#endif
