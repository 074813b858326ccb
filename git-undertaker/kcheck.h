/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kconfig's own defects, found in the Kconfig files themselves rather than
 * in C blocks, reported at the Kconfig line as defects of that file: names
 * that no Kconfig file of the tree defines (`undefined`), selects whose
 * target's own dependencies may be off (`unmet`), options whose dependencies
 * never hold (`dead`) or that every configuration sets (`undead`), defconfig
 * lines kconfig would not keep (`dropped`).
 */
#ifndef UT_KCHECK_H
#define UT_KCHECK_H

#include "defconfig.h"
#include "defect.h"
#include "trees.h"

/* Is `path` a Kconfig file or a defconfig (trees_is_kconfig_path, trees_is_defconfig)? */
int kcheck_is_checked_path(const char *path);

struct kcheck_options {
	int explain;
	/*
	 * A defconfig's `#include` files (defconfig_read_includes) when the
	 * tree's build runs defconfigs through cpp (U-Boot), else NULL: an
	 * `#include` line is then a comment to kconfig, and a defconfig that
	 * holds one is left to the build that reads it so. Their lines count
	 * where the `#include` is: a line of an included file that another
	 * file's line sets again is overridden, not dropped, and its defects
	 * are the defconfig's, at the `#include` line, the text naming the
	 * file and line. Names no Kconfig defines in an included file are
	 * that file's own defects when it is checked itself.
	 */
	const struct defconfig_includes *includes;
};

/*
 * Appends the defects of the Kconfig file `path` (contents data, size) to
 * `out`, status new: one `undefined` defect per statement that names
 * symbols no Kconfig file of the tree defines (tm->kconfig_defined), with
 * the names in `missing`; with models (tm->get), one `unmet` per select and
 * one `dead` or `undead` per option, decided on every architecture that
 * reads the file. A defconfig gets one `undefined` defect per line that
 * sets a name no Kconfig file defines, and with models one `dropped` per
 * line whose value the tree's kconfig would not keep.
 */
void kcheck_file(struct tree_models *tm, const char *path, const char *data, size_t size,
		 const struct kcheck_options *opt, struct defect_list *out);

/*
 * kcheck_file() in steps, one architecture at a time (as analyze_begin):
 * kcheck_begin() appends what needs no model of another architecture (a
 * defconfig's defects, a Kconfig file's undefined names); kcheck_step()
 * while kcheck_next() names a model (the primary one first, then by
 * index); kcheck_finish() appends the rest, the same as kcheck_file(),
 * and frees. `out` must outlive it; `opt` is copied (its includes are
 * read by kcheck_begin() only).
 */
struct kcheck_run;
#define KCHECK_DONE ((size_t)-1)
struct kcheck_run *kcheck_begin(struct tree_models *tm, const char *path, const char *data,
				size_t size, const struct kcheck_options *opt,
				struct defect_list *out);
size_t kcheck_next(const struct kcheck_run *r);
void kcheck_step(struct kcheck_run *r);
void kcheck_finish(struct kcheck_run *r);
/* Frees the run without the defects kcheck_finish() would append (an interrupted run). */
void kcheck_abandon(struct kcheck_run *r);

#endif
