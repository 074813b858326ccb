/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The build-configuration files of a commit's tree (Kconfig and Makefile
 * files), found by a walk memoized per subtree id so that consecutive commits
 * cost only the subtrees they changed; and what a quick scan of them tells:
 * every CONFIG name that any Kconfig file defines (all architectures at
 * once), and every CONFIG name the build system passes with -D.
 */
#ifndef UT_BUILDFILES_H
#define UT_BUILDFILES_H

#include "repo.h"

struct buildfiles;

struct buildfiles_info {
	git_oid digest;		/* over the paths and blob ids of those files */
	/* name without CONFIG_ → "path:line" of its first definition (const char *) */
	const struct strmap *kconfig_defined;
	/* name without CONFIG_ → "path:line" of a -DCONFIG_X in a Makefile */
	const struct strmap *cmdline_defined;
	/* name → ",arm,arm64," : the architectures whose arch/<a>/ Kconfig files name it */
	const struct strmap *arch_mentions;
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
/* Is the file at `path` a defconfig or config fragment (CONFIG_X=y lines)? */
int buildfiles_is_defconfig(const char *path);

/*
 * buildfiles-defconfig.c: a defconfig as U-Boot's build reads it, after
 * cpp (`-nostdinc -I $(srctree)`): each `#include` line replaced by the
 * file it names, `<x>` found under the srctree, `"x"` beside the file that
 * holds the directive first. Other trees' kconfig reads a defconfig as it
 * is (an `#include` line is a comment there).
 */
/* An `#include <x>` or `#include "x"` line: 1, a new string in *name. */
int buildfiles_include_directive(const char *line, size_t len, char **name, int *quoted);
/* Does the text hold an `#include` line? */
int buildfiles_has_include(const char *data, size_t size);

/* One file pulled in, in the order cpp reads them. */
struct buildfiles_include {
	char *path;		/* from the repository root */
	git_oid blob;
	struct blob *text;
	size_t from;		/* the file holding the directive: 0 the defconfig, k + 1 v[k] */
	int line;		/* the directive's line there */
};
struct buildfiles_includes {
	struct buildfiles_include *v;
	size_t nr, alloc;
	/* "path:line: cannot include <x>: ..." for each directive not followed */
	struct strvec errors;
	int missing;		/* some were not: cpp would fail, kconfig read nothing */
};
/*
 * The files the defconfig at `path` (its text data, size) includes at
 * `commit`, recursively, appended to `out`; those not found in `errors`.
 * srctree: "" for the repository root, else a directory without slash.
 */
void buildfiles_read_includes(struct repo *r, const git_oid *commit, const char *srctree,
			      const char *path, const char *data, size_t size,
			      struct buildfiles_includes *out);
void buildfiles_includes_release(struct repo *r, struct buildfiles_includes *inc);

/* A line of a defconfig after cpp, where it comes from. */
struct buildfiles_line {
	const char *path;	/* the file that holds it: the defconfig or an included one */
	int line;		/* its line there */
	int top_line;		/* the defconfig's line: this one, or its #include's */
	const char *text;	/* without the newline */
	size_t len;
};
/*
 * fn for each line of the defconfig in the order cpp gives them: an
 * `#include` line followed (in `inc`, which may be NULL) stands for the
 * lines of its file; one not followed is passed as it is.
 */
void buildfiles_for_each_defconfig_line(const char *path, const char *data, size_t size,
					const struct buildfiles_includes *inc,
					void (*fn)(const struct buildfiles_line *l, void *arg),
					void *arg);
/*
 * The defconfigs (buildfiles_is_defconfig) at `commit` that include one of
 * `files`, directly or through others, not among `files` themselves: their
 * paths and blob ids (hex) appended to `paths` and `blobs`.
 */
void buildfiles_includers(struct repo *r, const git_oid *commit, const char *srctree,
			  const struct strvec *files, struct strvec *paths, struct strvec *blobs);

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
