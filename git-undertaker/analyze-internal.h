/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What analyze.c, analyze-names.c and analyze-explain.c share; not an
 * interface (see analyze.h). analyze.c walks a file's blocks over the
 * architectures of its scope and decides their verdicts; analyze-names.c
 * finds the names a block's directive uses that nothing defines;
 * analyze-explain.c writes --explain's lines.
 */
#ifndef UT_ANALYZE_INTERNAL_H
#define UT_ANALYZE_INTERNAL_H

#include "analyze.h"

/*
 * What a defect lists of its chain and nesting (names, --explain lines) comes
 * from this many arms or enclosing blocks at most, nearest first: a chain of
 * 10k #elifs costs no more per defect than a short one.
 */
#define MAX_DEFECT_SYMBOLS 64

/* PARENT_DEAD: the enclosing block is dead here, so this one says nothing of its own. */
enum verdict { NONE, ALIVE, DEAD, UNDEAD, PARENT_DEAD };

/* A block's identity across versions of its file (analyze.c). */
struct block_id;

/* A file's formulas on one architecture, built as blocks need them. */
struct file_arch {
	struct arch_model *am;
	struct blocks *conditions;	/* the blocks' formulas on am (common/blocks) */
	formula *pc, *local;
	formula file;		/* kbuild's condition for the file, true when unknown */
	signed char *alive;	/* -1 unknown, 0 dead, 1 alive */
	int file_alive;		/* -1 unknown */
	int kbuild_done;	/* file holds kbuild's condition (or there is none) */
	int ready;
};

struct file_state {
	const char *path;
	const struct cpp_file *f;
	struct tree_models *tm;
	struct file_arch *arches;	/* nr_models entries */
	size_t nr_models;
	struct block_id *ids;		/* f->nr_blocks entries */
};

/*
 * Models shared between threads (tree_models.hold): model i, its formulas
 * and its solver are this thread's between analyze_hold_model(i) and
 * analyze_release_model(i).
 */
void analyze_hold_model(struct file_state *fs, size_t i);
void analyze_release_model(struct file_state *fs, size_t i);
/* The file's formulas on model i, or NULL when it cannot be built; under analyze_hold_model(i). */
struct file_arch *analyze_file_arch(struct file_state *fs, size_t i);
/* Adds kbuild's condition for the file on architecture i (once). */
void analyze_ensure_kbuild(struct file_state *fs, struct file_arch *fa, size_t i);
/* The presence condition of b's parent (true at the top). */
formula analyze_parent_pc(struct file_arch *fa, const struct cpp_block *b);
/* A new defect of block i of f (status new, no cause yet). */
struct defect *analyze_add_defect(struct defect_list *out, const char *path,
				  const struct cpp_file *f, const struct block_id *id, size_t i,
				  enum defect_kind kind);

/* analyze-names.c. Is `name` in sv? */
/*
 * The names of block i's condition and of the earlier arms of its chain,
 * nearest first, into d->symbols: at most MAX_DEFECT_SYMBOLS names from as
 * many arms.
 */
void analyze_set_symbols(struct defect *d, const struct cpp_file *f, size_t i);
/*
 * The names of block i's own directive that nothing defines, into `names`.
 * Returns 1 when one came from a project macro (CONFIG_IS_ENABLED(TYPO)):
 * the presence condition has it false, so the block looks dead in C alone.
 */
int analyze_undefined_names(struct file_state *fs, size_t i, const struct analyze_options *opt,
			    struct strvec *names);
/* A block neither dead nor undead whose directive names something undefined: a line of its own. */
void analyze_add_undefined(struct file_state *fs, const char *path, size_t i,
			   const struct analyze_options *opt, const struct strvec *names,
			   struct defect_list *out);

/* analyze-explain.c. --explain: why block i of defect d is dead or undead (v). */
void analyze_explain_block(struct defect *d, struct file_state *fs, size_t i, enum verdict v,
			   const size_t *scope);
/* --explain of a file no configuration builds, on model a: the Makefile and Kconfig lines. */
void analyze_explain_file(struct defect *d, struct file_state *fs, size_t a);

#endif
