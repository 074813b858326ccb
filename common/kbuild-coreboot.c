// SPDX-License-Identifier: GPL-2.0
/*
 * coreboot's build model, for a tree whose top Makefile walks directories
 * with includemakefiles and evaluate_subdirs instead of kbuild's obj-y: from
 * the root down, each directory's Makefile.mk, then its Makefile.inc, is read
 * alone with its lists empty (as includemakefiles empties them); its lists
 * `<class>-y` (bootblock-y, romstage-$(CONFIG_X), ramstage-y, smm-y, all-y,
 * and whatever class the tree adds with add-class or classes-y) name sources
 * relative to the directory ($(top)/... from the root), and subdirs-y the
 * directories read next. A source is built when some class's list names it
 * in a directory that is read: the stages are not told apart. Every list
 * ending in -y but subdirs-y and classes-y counts as a class; only the words
 * that name .c and .S files of the tree matter.
 */
#include "kbuild-internal.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

int kbuild_coreboot_detect(struct kmake *top)
{
	return kbuild_make_var(top, "includemakefiles", 0) &&
		kbuild_make_var(top, "evaluate_subdirs", 0);
}

struct paths {
	struct strvec *all, *dirs;
	struct strmap seen;
};

static int add_path(const char *path, void *data)
{
	struct paths *p = data;
	const char *slash;

	strvec_push(p->all, path);
	/* each directory above it, once */
	for (slash = strrchr(path, '/'); slash; ) {
		char *dir = xstrndup(path, (size_t)(slash - path));

		if (strmap_contains(&p->seen, dir)) {
			free(dir);
			break;
		}
		strmap_put(&p->seen, dir, NULL);
		strvec_push(p->all, dir);
		strvec_push(p->dirs, dir);
		free(dir);
		while (slash > path && slash[-1] != '/')
			slash--;
		slash = slash > path ? slash - 1 : NULL;
	}
	return 0;
}

void kbuild_coreboot_paths(struct builder *b)
{
	struct paths p = { &b->tree_paths, &b->tree_dirs, STRMAP_INIT };

	if (b->tree_paths.nr)
		return;
	b->rd->for_each_file(b->rd->ctx, add_path, &p);
	strvec_sort(&b->tree_paths);
	strvec_sort(&b->tree_dirs);
	strmap_clear(&p.seen, NULL);
}

static int is_source(const char *t)
{
	return ends_with(t, ".c") || ends_with(t, ".S");
}

/*
 * A word of a class list: a source relative to the directory, one from the
 * root ($(top)/src/...), or one the Makefile cannot spell out
 * (variants/$(VARIANT_DIR)/gpio.c): a pattern over the directory's files.
 * A class's <class>-srcs list (romstage-srcs += $(wildcard src/mainboard/
 * $(MAINBOARDDIR)/romstage.c)) is from the root.
 */
static void list_sources(struct builder *b, struct kmake *mk, struct kdir *d, const char *name,
			 int from_root)
{
	struct kwords w = { 0 };

	kbuild_make_words(mk, name, &w);
	for (size_t i = 0; i < w.nr; i++) {
		const char *t = w.v[i].text;
		size_t len = strlen(t);
		struct kobj *o;
		char *stem;

		if (has_unknown(t)) {
			if (from_root || t[0] == '/' || !(is_source(t) || t[len - 1] == KMAKE_UNKNOWN))
				continue;
			stem = is_source(t) ? xstrfmt("%.*s.o", (int)len - 2, t) : xstrdup(t);
			o = kbuild_dir_add_obj(b, d, stem, 1);
		} else if (is_source(t)) {
			int root = t[0] == '/';

			stem = xstrndup(t + root, len - 2 - root);
			o = kbuild_dir_add_obj(b, d, stem, 0);
			if (root || from_root) {
				free(o->stem);
				o->stem = kbuild_join("", stem);
			}
		} else {
			continue;
		}
		free(stem);
		o->la = w.v[i].cond;
		o->origin = w.v[i].origin;
	}
	kbuild_words_clear(&w);
}

static void edge_to(struct builder *b, struct kdir *d, const char *path,
		    const struct kbuild_expr *cond, const struct kbuild_origin *origin)
{
	if (!strcmp(path, d->path) || !*path)
		return;
	ALLOC_GROW(d->edges, d->nr_edges + 1, d->alloc_edges);
	d->edges[d->nr_edges].dir = xstrdup(path);
	d->edges[d->nr_edges].b = kbuild_expr_false(b->ex);
	d->edges[d->nr_edges].a = cond;
	d->edges[d->nr_edges].origin = origin;
	d->nr_edges++;
}

/*
 * subdirs-y: directories relative to this one, or from the root; a word the
 * Makefile cannot spell out (src/mainboard/$(MAINBOARDDIR)) may be any
 * directory of the tree it matches, each under a free variable.
 */
static void list_subdirs(struct builder *b, struct kmake *mk, struct kdir *d)
{
	struct kwords w = { 0 };

	kbuild_make_words(mk, "subdirs-y", &w);
	for (size_t i = 0; i < w.nr; i++) {
		const char *t = w.v[i].text;
		int root = t[0] == '/';
		char *path = kbuild_join(root ? "" : d->path, t + root);
		size_t len = strlen(path), lo, hi;

		while (len && path[len - 1] == '/')
			path[--len] = '\0';
		if (starts_with(path, "..")) {
			free(path);
			continue;
		}
		if (!has_unknown(path) && !strpbrk(path, "*?[")) {
			edge_to(b, d, path, w.v[i].cond, w.v[i].origin);
			free(path);
			continue;
		}
		/* includemakefiles takes $(wildcard) of each word: subdirs-y += ./(star) */
		if (!has_unknown(path)) {
			kbuild_paths_with_prefix(&b->tree_dirs, path, strcspn(path, "*?[\\"), &lo, &hi);
			for (size_t k = lo; k < hi; k++)
				if (!fnmatch(path, b->tree_dirs.v[k], FNM_PATHNAME | FNM_PERIOD))
					edge_to(b, d, b->tree_dirs.v[k], w.v[i].cond, w.v[i].origin);
			free(path);
			continue;
		}
		for (char *q = path; *q; q++)
			if (*q == KMAKE_UNKNOWN)
				*q = '*';
		const struct kbuild_expr *c = kbuild_expr_and(b->ex, w.v[i].cond,
							       kbuild_expr_free(b->ex, path));

		kbuild_paths_with_prefix(&b->tree_dirs, path, strcspn(path, "*?[\\"), &lo, &hi);
		for (size_t k = lo; k < hi; k++)
			if (!fnmatch(path, b->tree_dirs.v[k], 0))
				edge_to(b, d, b->tree_dirs.v[k], c, w.v[i].origin);
		free(path);
	}
	kbuild_words_clear(&w);
}

void kbuild_coreboot_parse_dir(struct builder *b, struct kdir *d)
{
	static const char *const files[] = { "Makefile.mk", "Makefile.inc" };

	kbuild_coreboot_paths(b);
	for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
		struct kmake mk;
		struct strmap_entry *e;
		struct strvec lists = STRVEC_INIT;
		char *file = kbuild_join(d->path, files[f]);
		int r;

		kbuild_make_init(&mk, b->ex, b->rd, d->path, NULL, 0);
		mk.tree_paths = &b->tree_paths;
		/* Paths are the top directory's: $(top)/src/x.c is /src/x.c, from the root. */
		kbuild_make_set_readonly(&mk, "top", "");
		kbuild_make_set_readonly(&mk, "src", "src");
		kbuild_make_set_readonly(&mk, "obj", "build");
		kbuild_make_set_empty(&mk, "subdirs-y");
		kbuild_make_set_empty(&mk, "classes-y");
		r = kbuild_make_parse_file(&mk, file, kbuild_expr_true(b->ex));
		free(file);
		b->m->stats.makefiles += mk.makefiles;
		for (size_t i = 0; i < mk.deps.nr; i++)
			strvec_push(&d->deps, mk.deps.v[i]);
		if (mk.read_tree)
			d->read_tree = 1;
		if (!r) {
			/* names first: expanding a list may add variables */
			strmap_for_each(&mk.vars, e)
				if ((ends_with(e->key, "-y") && strcmp(e->key, "subdirs-y") &&
				     strcmp(e->key, "classes-y")) || ends_with(e->key, "-srcs"))
					strvec_push(&lists, e->key);
			strvec_sort(&lists);
			for (size_t i = 0; i < lists.nr; i++)
				list_sources(b, &mk, d, lists.v[i], ends_with(lists.v[i], "-srcs"));
			strvec_clear(&lists);
			list_subdirs(b, &mk, d);
			d->incomplete = kbuild_expr_or(b->ex, d->incomplete, mk.incomplete);
		}
		kbuild_make_release(&mk);
	}
}
