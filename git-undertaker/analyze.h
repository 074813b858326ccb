/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The analysis of one file's blocks against the Kconfig models of one tree:
 * dead, undead and undefined, with cause and scope.
 */
#ifndef UT_ANALYZE_H
#define UT_ANALYZE_H

#include "cpp.h"
#include "defect.h"
#include "kbuild.h"
#include "kconfig.h"
#include "logic.h"
#include "sat.h"

struct model;

/* One architecture's model (or the tree's only one: arch NULL). */
struct arch_model {
	const char *arch;
	struct kconfig *kconfig;
	struct model *model;
	struct logic *logic;
	struct sat *sat;	/* the model's solver */
	struct sat *code_sat;	/* the same store, no Kconfig: the `code` cause */
	int base_vars;		/* the model's own variables, 1..base_vars */
	char *samples_path;	/* where its solver's witnesses are kept between runs, or NULL */
	int stats_printed;	/* UNDERTAKER_STATS */
};

/* Is f satisfiable with the model? (sat_satisfiable: witnesses first, then the solver) */
int arch_model_satisfiable(struct arch_model *am, formula f);
/*
 * Sets the model's solver up to keep MODEL_WITNESSES witnesses, which
 * sat_load_witnesses()/sat_save_witnesses() over its base_vars keep between
 * runs (a file per model).
 */
void arch_model_init_samples(struct arch_model *am);

/* What the analysis needs of a tree: its models, built on demand. */
struct tree_models {
	void *data;
	size_t nr_arches;		/* 0 for a tree with a single model */
	const char *const *arch_names;
	/*
	 * The directory of architecture i's own files: "<arch_prefix><arch_dirs[i]>/"
	 * ("arch/x86/"; Xen's "xen/arch/arm/" for both arm32 and arm64).
	 * NULL arch_dirs: the names; NULL arch_prefix: "arch/".
	 */
	const char *const *arch_dirs;
	const char *arch_prefix;
	/* Builds or returns model `i` (0 when nr_arches is 0); NULL when it failed. */
	struct arch_model *(*get)(void *data, size_t i);
	const struct strmap *kconfig_defined;	/* buildfiles_info */
	const struct strmap *cmdline_defined;
	const struct strmap *arch_mentions;	/* buildfiles_info */
	/*
	 * Kbuild's condition for a .c/.S file on architecture i (NULL when kbuild
	 * says nothing of it: headers, trees without Kbuild, unlisted files).
	 */
	const struct kbuild_file *(*file_condition)(void *data, size_t i, const char *path);
	/*
	 * --explain of a missing name: appends where it was defined before it
	 * disappeared ("path:line until <commit> (<title>)") and returns 1, or
	 * returns 0. May be NULL.
	 */
	int (*removed)(void *data, const char *name, struct strbuf *out);
	size_t primary;			/* the architecture to try first */
	const char *only_arch;		/* --arch */
};

struct analyze_options {
	int explain;
	int asm_file;
	const struct cpp_macros *macros;
	const struct strvec *macro_defs;	/* their definitions, as cpp_macros_add() took them */
	/*
	 * Block keys (analyze_block_keys) whose blocks are not analysed: blocks
	 * the other version of the file holds alike, whose verdicts cannot
	 * differ under the same models. NULL: every block.
	 */
	const struct strmap *skip;
};

struct cpp_file;

/* Scans `data` as file `path` (cpp_scan with the options' macros); cpp_file_free() it. */
struct cpp_file *analyze_scan(const char *path, const char *data, size_t size,
			      const struct analyze_options *opt);

/*
 * Counts the blocks of a scanned file per key into `counts` (key -> count
 * cast to a pointer). A block's key is its context (the directives from the
 * file down to it, as defects are matched) with which of their CONFIG names
 * the file #defines before them: under the same models and path, blocks
 * with equal keys have equal verdicts.
 */
void analyze_block_keys(const struct cpp_file *f, struct strmap *counts);

/*
 * Appends the defects of the scanned file `path` to `out` (status new). Its
 * cpp errors are printed (path:line) and counted in *input_errors.
 */
void analyze_scanned(struct tree_models *tm, const char *path, const struct cpp_file *f,
		     const struct analyze_options *opt, struct defect_list *out,
		     size_t *input_errors);

/* analyze_scan() and analyze_scanned() of `data`. */
void analyze_file(struct tree_models *tm, const char *path, const char *data, size_t size,
		  const struct analyze_options *opt, struct defect_list *out, size_t *input_errors);

#endif
