/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The analysis of one file's blocks against the Kconfig models of one tree:
 * dead, undead and undefined, with cause and scope.
 */
#ifndef UT_ANALYZE_H
#define UT_ANALYZE_H

#include "cpp.h"
#include "defect.h"
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
};

/* What the analysis needs of a tree: its models, built on demand. */
struct tree_models {
	void *data;
	size_t nr_arches;		/* 0 for a tree with a single model */
	const char *const *arch_names;
	/* Builds or returns model `i` (0 when nr_arches is 0); NULL when it failed. */
	struct arch_model *(*get)(void *data, size_t i);
	const struct strmap *kconfig_defined;	/* buildfiles_info */
	const struct strmap *cmdline_defined;
	size_t primary;			/* the architecture to try first */
	const char *only_arch;		/* --arch */
};

struct analyze_options {
	int explain;
	int asm_file;
	const struct cpp_macros *macros;
};

/*
 * Scans `data` as file `path` and appends its defects to `out` (status new).
 * cpp errors are printed (path:line) and counted in *input_errors.
 */
void analyze_file(struct tree_models *tm, const char *path, const char *data, size_t size,
		  const struct analyze_options *opt, struct defect_list *out, size_t *input_errors);

#endif
