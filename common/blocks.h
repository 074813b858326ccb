/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The face between the commands and the library for C blocks: a file's #if
 * blocks at a commit, scanned with the project's macros (which its trees
 * own: the commit's own kind of tree and undertaker.macro), and their
 * presence conditions on one architecture's model, with Kconfig (each
 * block's #if condition as a formula over the model's variables) and with
 * the build (Kbuild's condition of the file itself). git undertaker and
 * git vampyr both take a file's blocks from here; neither reads Kconfig,
 * Kbuild or the project's layout itself (design.adoc, "The blocks face").
 *
 * One `struct blocks` is the formulas of one model: one thread uses it (the
 * model held, tree_models.hold, while it does).
 */
#ifndef UT_BLOCKS_H
#define UT_BLOCKS_H

#include "cpp.h"
#include "logic.h"
#include "trees.h"

/*
 * Scans `data` as the file `path` with the macros of `tm`'s trees (asm for
 * every suffix but .c and .h); cpp_file_free() it. print_errors: cpp says
 * its errors (path:line) itself, else they are left in the result.
 */
struct cpp_file *blocks_scan(const struct tree_models *tm, const char *path, const char *data,
			     size_t size, int print_errors);

/* The formulas of blocks on model `am` of `tm` (with the model's solver for facts). */
struct blocks;
struct blocks *blocks_new(const struct tree_models *tm, struct arch_model *am);
void blocks_free(struct blocks *b);

/* The formula of a block's condition (cpp_block.pc, .local or .expr). */
formula blocks_formula(struct blocks *b, const struct cpp_expr *e);

/* Which of the build's conditions of a file. */
enum blocks_build {
	BLOCKS_COMPILED,	/* compiled at all (built in or as a module) */
	BLOCKS_BUILTIN,		/* built in */
	BLOCKS_MODULE,		/* part of a module (kbuild defines MODULE) */
};
/*
 * The build's condition `which` of a file the build compiles (`kf`, the
 * build's entry for it, tree_models.file_condition); LOGIC_TRUE when kf is
 * NULL or not an object the build compiles (a header, an unlisted file).
 */
formula blocks_build_formula(struct blocks *b, const struct kbuild_file *kf,
			     enum blocks_build which);
/* Is `kf` an object the build compiles (one that blocks_build_formula conditions)? */
int blocks_build_known(const struct kbuild_file *kf);
/* Does the build list the file nowhere (a .c #included by another, a tool's)? */
int blocks_build_unlisted(const struct kbuild_file *kf);

/* The cpp expressions given so far are about to be freed: forget them. */
void blocks_forget_exprs(struct blocks *b);
/*
 * Adds to the model's solver that every name no Kconfig defines, met so far
 * in the blocks' formulas, is off: the configurations the tree can build.
 */
void blocks_rule_out_missing(struct blocks *b);

/*
 * The entry point: the file `path` at the commit of `t`, its blocks scanned
 * (cpp's errors said) and the build's entry for it on architecture `arch`
 * (kbuild's map, unless the trees have none: no_kbuild). 0, or -1 after
 * an error naming the file was said (out->f NULL). blocks_file_release() it
 * either way.
 */
struct blocks_file {
	struct cpp_file *f;		/* the blocks, their lines and directives */
	struct blob *blob;		/* the text they were scanned from */
	struct repo *repo;
	const struct kbuild_file *kf;	/* the build's entry, or NULL */
	formula compiled;		/* blocks_build_formula(kf, BLOCKS_COMPILED) */
};
int blocks_of_file(struct trees *t, size_t arch, struct blocks *b, const char *path,
		   struct blocks_file *out);
void blocks_file_release(struct blocks_file *bf);

#endif
