/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The build-configuration files of a commit's tree (Kconfig and Makefile
 * files), found by a walk memoized per subtree id so that consecutive commits
 * cost only the subtrees they changed; and what a quick scan of them tells:
 * every CONFIG name that a Kconfig file of the tree's Kconfig model defines
 * (all architectures at once; buildfiles_model_files), and every CONFIG
 * name the build system passes with -D.
 */
#ifndef UT_BUILDFILES_H
#define UT_BUILDFILES_H

#include "repo.h"

struct buildfiles;

struct buildfiles_info {
	git_oid digest;		/* over the paths and blob ids of those files */
	/*
	 * name without CONFIG_ → "path:line" of its first definition (const
	 * char *) in a Kconfig file of the model (buildfiles_model_files)
	 */
	const struct strmap *kconfig_defined;
	/* name without CONFIG_ → "path:line" of a -DCONFIG_X in a Makefile */
	const struct strmap *cmdline_defined;
	/* name → ",arm,arm64," : the architectures whose arch/<a>/ Kconfig files name it */
	const struct strmap *arch_mentions;
	/*
	 * path → "test" or "orphan ,A,B,": the Kconfig files outside the Kconfig
	 * model (buildfiles_model_files), "test" under a directory named test
	 * or tests (a tool's test inputs: kconfig's scripts/kconfig/tests/),
	 * "orphan" elsewhere (a board's Kconfig that no source line names, a
	 * document's example such as Linux's Documentation/kbuild/Kconfig.*),
	 * with the names (without CONFIG_) that the file defines itself
	 */
	const struct strmap *kconfig_outside;
	/*
	 * suffix ("dts", "lds", "asl", "env") → "path:line" of a Makefile rule
	 * that runs files of that suffix through cpp (buildfiles_cpp_suffixes);
	 * C's own (c, h, S) are left out.
	 */
	const struct strmap *cpp_suffixes;
	size_t nr_kconfig, nr_makefiles;
};

struct buildfiles *buildfiles_new(struct repo *r);
void buildfiles_free(struct buildfiles *b);
/*
 * Keeps each set of build files' scan in `dc` (diskcache.h), keyed by their
 * digest, and reads it back there: a fresh process meeting the same build
 * files reads no Kconfig file and no Makefile for it. dc outlives b.
 */
struct diskcache;
void buildfiles_set_diskcache(struct buildfiles *b, struct diskcache *dc);
/* undertaker.srctree (copied), where the Kconfig model starts; NULL: guessed per commit. */
void buildfiles_set_srctree(struct buildfiles *b, const char *srctree);
/* Info for the tree of `commit`; valid until buildfiles_free or buildfiles_trim. */
int buildfiles_get(struct buildfiles *b, const git_oid *commit, const struct buildfiles_info **out);
/*
 * Forgets what a long range no longer needs, once its memos pass their
 * bounds: the info of every set of build files but the `nr_keep` digests
 * `keep` (those still in use: their buildfiles_info stays valid), and the
 * per-blob and per-tree memos whole. Called between commits; a memory bound,
 * not a cost: what is forgotten is read again (or from the disk cache).
 */
void buildfiles_trim(struct buildfiles *b, const git_oid *keep, size_t nr_keep);
/*
 * Does a Kconfig file of the tree of `commit` define `name` (without
 * CONFIG_)? Memoized per subtree and blob for the same name, so that a walk
 * back over many commits reads each changed subtree once (--explain's search
 * for where a missing name went). 1 or 0; -1 after an error was said.
 */
int buildfiles_kconfig_defines(struct buildfiles *b, const git_oid *commit, const char *name);
int buildfiles_is_kconfig_file(const char *name);
int buildfiles_is_makefile(const char *name);
/*
 * Is the file at `path` a defconfig or config fragment (CONFIG_X=y lines)?
 * Not under a directory named `test` or `tests` (kconfig's own test cases).
 */
int buildfiles_is_defconfig(const char *path);

/*
 * buildfiles-model.c: which Kconfig files belong to the tree's Kconfig
 * model, read from their `source` lines (kconfig_text_for_each_source, one
 * entry per line: 's' or 'r' (relative to the file) and the path as
 * written; 'm' for a mainmenu): those a top Kconfig reaches (`srctree`'s
 * Kconfig, or when NULL as project_detect() guesses it: the root's
 * Kconfig, else the one <dir>/Kconfig with a mainmenu), a macro or variable
 * in a path standing for any path, and the roots of their own that reach
 * those (a Zephyr application's Kconfig). in[i] is set to 1 for each, 0
 * for the others (kconfig's test inputs: trees that reach nothing of the
 * tree's). Every file is in when the tree has no top.
 */
struct buildfiles_kconfig_file {
	const char *path;
	const struct strvec *sources;
};
void buildfiles_model_files(const struct buildfiles_kconfig_file *files, size_t nr,
			    const char *srctree, char *in);

/*
 * buildfiles-cpp.c: the names of a Makefile text whose values run the C
 * preprocessor (`cmd_cpp_lds`, coreboot's PREPROCESS_ONLY), pushed to out;
 * and the suffixes of the prerequisites of its rules whose recipes run it
 * (directly or through those names or `markers`, the other Makefiles'),
 * each pushed to `out` as "suffix line".
 */
void buildfiles_cpp_markers(const char *text, size_t len, struct strvec *out);
void buildfiles_cpp_suffixes(const char *text, size_t len, const struct strvec *markers,
			     struct strvec *out);

#endif
