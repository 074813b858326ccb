/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Defconfigs as their tree's build reads them: U-Boot's build runs a
 * defconfig through cpp (`-nostdinc -I $(srctree)`) before kconfig reads
 * it, so its `#include` lines pull in other files; the lines in that
 * order, each with the file and line it comes from; and the defconfigs
 * that include a given file. (Which paths are defconfigs:
 * buildfiles_is_defconfig, trees_is_defconfig.)
 */
#ifndef UT_DEFCONFIG_H
#define UT_DEFCONFIG_H

#include "repo.h"

/*
 * A defconfig as U-Boot's build reads it, after
 * cpp (`-nostdinc -I $(srctree)`): each `#include` line replaced by the
 * file it names, `<x>` found under the srctree, `"x"` beside the file that
 * holds the directive first. Other trees' kconfig reads a defconfig as it
 * is (an `#include` line is a comment there).
 */
/* An `#include <x>` or `#include "x"` line: 1, a new string in *name. */
int defconfig_include_directive(const char *line, size_t len, char **name, int *quoted);
/* Does the text hold an `#include` line? */
int defconfig_has_include(const char *data, size_t size);

/* One file pulled in, in the order cpp reads them. */
struct defconfig_include {
	char *path;		/* from the repository root */
	git_oid blob;
	struct blob *text;
	size_t from;		/* the file holding the directive: 0 the defconfig, k + 1 v[k] */
	int line;		/* the directive's line there */
};
struct defconfig_includes {
	struct defconfig_include *v;
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
void defconfig_read_includes(struct repo *r, const git_oid *commit, const char *srctree,
			      const char *path, const char *data, size_t size,
			      struct defconfig_includes *out);
void defconfig_includes_release(struct repo *r, struct defconfig_includes *inc);

/* A line of a defconfig after cpp, where it comes from. */
struct defconfig_line {
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
void defconfig_for_each_line(const char *path, const char *data, size_t size,
					const struct defconfig_includes *inc,
					void (*fn)(const struct defconfig_line *l, void *arg),
					void *arg);
/*
 * The defconfigs (buildfiles_is_defconfig) at `commit` that include one of
 * `files`, directly or through others, not among `files` themselves: their
 * paths and blob ids (hex) appended to `paths` and `blobs`.
 */
void defconfig_includers(struct repo *r, const git_oid *commit, const char *srctree,
			  const struct strvec *files, struct strvec *paths, struct strvec *blobs);

#endif
