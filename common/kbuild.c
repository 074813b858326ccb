// SPDX-License-Identifier: GPL-2.0
/*
 * The file -> condition map: reads the top Makefile (with the arch Makefile)
 * for the entry lists and exported variables, then every directory kbuild
 * descends into, once each, and follows scripts/Makefile.build's rules:
 *
 * - a directory is descended when listed in obj-y, obj-m (as dir/) or
 *   subdir-y/-m; it builds its built-in.a (and so its obj-y objects) only
 *   when its parent listed it in obj-y and itself builds one ("need-builtin");
 * - obj-m objects and lib-y/lib-m and extra-y objects are built whenever the
 *   directory is descended; an object in obj-y is not also in obj-m or lib-y;
 * - foo.o with foo-objs/foo-y/foo- (built in) or also foo-m (module) non-empty
 *   is a composite of those parts, else it is foo.c or foo.S.
 */
#include "kbuild-internal.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>


struct kbuild_cache *kbuild_cache_new(void)
{
	struct kbuild_cache *c = xcalloc(1, sizeof(*c));

	c->ex = kbuild_exprs_new();
	return c;
}

void kbuild_kdir_free(void *p);

void kbuild_cache_free(struct kbuild_cache *c)
{
	if (!c)
		return;
	strmap_clear(&c->dirs, kbuild_kdir_free);
	strmap_clear(&c->phases, (void (*)(void *))kbuild_cache_free);
	free(c->top_key);
	if (!c->shared_ex)
		kbuild_exprs_free(c->ex);
	free(c);
}

/* The cache of a phase's parses: each phase reads the directories with its own variables. */
static struct kbuild_cache *phase_cache(struct kbuild_cache *c, const struct kbuild_phase *ph)
{
	struct kbuild_cache *pc;

	if (!c || !*ph->name)
		return c;
	pc = strmap_get(&c->phases, ph->name);
	if (!pc) {
		pc = xcalloc(1, sizeof(*pc));
		pc->ex = c->ex;
		pc->shared_ex = 1;
		strmap_put(&c->phases, ph->name, pc);
	}
	return pc;
}

void kbuild_kdir_free(void *p)
{
	struct kdir *d = p;

	strvec_clear(&d->deps);
	for (size_t i = 0; i < d->nr_objs; i++)
		free(d->objs[i].stem);
	for (size_t i = 0; i < d->nr_pats; i++) {
		free(d->pats[i].stem);
		free(d->pats[i].free_text);
	}
	for (size_t i = 0; i < d->nr_edges; i++)
		free(d->edges[i].dir);
	free(d->objs);
	free(d->pats);
	free(d->edges);
	strvec_clear(&d->host);
	free(d->path);
	free(d);
}


char *kbuild_join(const char *dir, const char *rel)
{
	char *t = *dir ? xstrfmt("%s/%s", dir, rel) : xstrdup(rel);
	char *n = kbuild_make_normalize_path(t);

	free(t);
	return n;
}

static struct kdir *get_dir(struct builder *b, const char *path)
{
	struct kdir *d = strmap_get(&b->dirs, path);

	if (!d) {
		d = xcalloc(1, sizeof(*d));
		d->path = xstrdup(path);
		d->B = d->A = kbuild_expr_false(b->ex);
		d->incomplete = kbuild_expr_false(b->ex);
		strmap_put(&b->dirs, path, d);
		ALLOC_GROW(b->order, b->nr_dirs + 1, b->alloc_dirs);
		b->order[b->nr_dirs++] = d;
	}
	return d;
}

/* Copies what parsing found (not the conditions of this build). */
static void copy_parse(struct kdir *dst, const struct kdir *src)
{
	dst->objs = xcalloc(src->nr_objs + 1, sizeof(*dst->objs));
	dst->pats = xcalloc(src->nr_pats + 1, sizeof(*dst->pats));
	dst->edges = xcalloc(src->nr_edges + 1, sizeof(*dst->edges));
	dst->nr_objs = dst->alloc_objs = src->nr_objs;
	dst->nr_pats = dst->alloc_pats = src->nr_pats;
	dst->nr_edges = dst->alloc_edges = src->nr_edges;
	for (size_t i = 0; i < src->nr_objs; i++) {
		dst->objs[i] = src->objs[i];
		dst->objs[i].stem = xstrdup(src->objs[i].stem);
	}
	for (size_t i = 0; i < src->nr_pats; i++) {
		dst->pats[i] = src->pats[i];
		dst->pats[i].stem = xstrdup(src->pats[i].stem);
		dst->pats[i].free_text = xstrdup(src->pats[i].free_text);
	}
	for (size_t i = 0; i < src->nr_edges; i++) {
		dst->edges[i] = src->edges[i];
		dst->edges[i].dir = xstrdup(src->edges[i].dir);
	}
	for (size_t i = 0; i < src->host.nr; i++)
		strvec_push(&dst->host, src->host.v[i]);
	for (size_t i = 0; i < src->deps.nr; i++)
		strvec_push(&dst->deps, src->deps.v[i]);
	dst->incomplete = src->incomplete;
}

static int deps_unchanged(struct builder *b, const struct kdir *c)
{
	for (size_t i = 0; i < c->deps.nr; i++) {
		const char *sp = strrchr(c->deps.v[i], ' ');
		char *path = xstrndup(c->deps.v[i], (size_t)(sp - c->deps.v[i]));
		char id[48] = "-";
		int r = b->rd->id(b->rd->ctx, path, id);

		free(path);
		if (r < 0)
			return 0;
		if (r == 1)
			strcpy(id, "-");
		if (strcmp(id, sp + 1))
			return 0;
	}
	return 1;
}


static void parse_dir(struct builder *b, struct kdir *d)
{
	void (*parse)(struct builder *, struct kdir *) =
		b->subdirs_model == KBUILD_MODEL_COREBOOT ? kbuild_coreboot_parse_dir :
		b->subdirs_model == KBUILD_MODEL_CMAKE ? kbuild_cmake_parse_dir : kbuild_parse_dir;
	struct kdir *c;

	if (!b->cache) {
		parse(b, d);
		return;
	}
	c = strmap_get(&b->cache->dirs, d->path);
	if (c && deps_unchanged(b, c)) {
		copy_parse(d, c);
		b->m->stats.cached++;
		return;
	}
	parse(b, d);
	if (d->read_tree)
		return;
	c = xcalloc(1, sizeof(*c));
	c->path = xstrdup(d->path);
	copy_parse(c, d);
	c = strmap_put(&b->cache->dirs, d->path, c);
	if (c)
		kbuild_kdir_free(c);
}

/* The top Makefile: exported variables, and the entry lists of older trees. */
static void parse_top(struct builder *b, const char *srcarch)
{
	/* Xen's top Makefile lists ALL_OBJS-y, ALL_LIBS-y and (arch.mk) ARCH_LIBS-y. */
	static const char *const entry[] = {
		"init", "core", "drivers", "net", "libs", "virt", "ALL_OBJS", "ALL_LIBS", "ARCH_LIBS",
	};
	struct kmake mk;

	kbuild_make_init(&mk, b->ex, b->rd, "", NULL, 1);
	if (srcarch && *srcarch) {
		kbuild_make_set_readonly(&mk, "ARCH", b->arch && *b->arch ? b->arch : srcarch);
		kbuild_make_set_readonly(&mk, "SRCARCH", srcarch);
	}
	kbuild_make_set_readonly(&mk, "srctree", ".");
	kbuild_make_set_readonly(&mk, "objtree", ".");
	kbuild_phase_setup(&mk, b->phases, b->nr_phases, b->phase);
	kbuild_make_parse_file(&mk, kbuild_phase_top(b->rd, b->phase), kbuild_expr_true(b->ex));
	b->m->stats.makefiles += mk.makefiles;
	if (b->cache) {
		/* Every directory's parse depends on the exported variables. */
		struct strbuf key = STRBUF_INIT;

		strbuf_addf(&key, "%s\n%s\n", srcarch ? srcarch : "", b->arch ? b->arch : "");
		for (size_t i = 0; i < mk.deps.nr; i++)
			strbuf_addf(&key, "%s\n", mk.deps.v[i]);
		if (!b->cache->top_key || strcmp(b->cache->top_key, key.buf)) {
			strmap_clear(&b->cache->dirs, kbuild_kdir_free);
			free(b->cache->top_key);
			b->cache->top_key = strbuf_detach(&key, NULL);
		}
		strbuf_release(&key);
	}
	kbuild_make_export(&mk, &b->globals);
	b->subdirs_model = kbuild_coreboot_detect(&mk) ? KBUILD_MODEL_COREBOOT : 0;
	for (size_t i = 0; i < ARRAY_SIZE(entry); i++)
		for (int mod = 0; mod < 2; mod++) {
			char *name = xstrfmt("%s-%c", entry[i], mod ? 'm' : 'y');
			struct kwords w = { 0 };

			kbuild_make_words(&mk, name, &w);
			for (size_t k = 0; k < w.nr; k++) {
				const char *t = w.v[k].text;
				size_t len = strlen(t);

				/*
				 * The lists end as `libs-y := $(patsubst %/, %/built-in.o,
				 * $(libs-y))` (U-Boot, Linux before 4.x's Kbuild at the root),
				 * or name what each directory makes (Xen's common/built_in.o).
				 */
				static const char *const made[] = {
					"/built-in.o", "/built-in.a", "/lib.a", "/built_in.o",
				};

				for (size_t s = 0; s < ARRAY_SIZE(made) && len && t[len - 1] != '/'; s++)
					if (ends_with(t, made[s]))
						len -= strlen(made[s]) - 1;
				if (!len || t[len - 1] != '/' || has_unknown(t))
					continue;
				char *rel = xstrndup(t, len - 1);

				ALLOC_GROW(b->entry, b->nr_entry + 1, b->alloc_entry);
				b->entry[b->nr_entry].dir = kbuild_join("", rel);
				free(rel);
				b->entry[b->nr_entry].b = w.v[k].cond;
				b->entry[b->nr_entry].a = w.v[k].cond;
				b->entry[b->nr_entry].origin = w.v[k].origin;
				b->nr_entry++;
			}
			kbuild_words_clear(&w);
			free(name);
		}
	kbuild_make_release(&mk);
}

/* Does `dir` (no trailing slash) match the pattern? Then the condition it names, else NULL. */
static const struct kbuild_expr *named_dir_cond(struct builder *b, const struct kbuild_named_dir *nd,
						const char *dir)
{
	const struct kbuild_expr *c = kbuild_expr_true(b->ex);
	const char *p = nd->dir, *q = dir;

	while (*p && *q) {
		size_t pl = strcspn(p, "/"), ql = strcspn(q, "/");

		if (*p == '$') {
			char *sym = xstrndup(p + 1, pl - 1), *text = xstrndup(q, ql);

			c = kbuild_expr_and(b->ex, c, kbuild_expr_equals(b->ex, sym, text));
			free(sym);
			free(text);
		} else if (pl != ql || strncmp(p, q, pl)) {
			return NULL;
		}
		p += pl + (p[pl] == '/');
		q += ql + (q[ql] == '/');
	}
	if (*p || *q)
		return NULL;
	if (nd->empty)
		c = kbuild_expr_and(b->ex, c, kbuild_expr_equals(b->ex, nd->empty, ""));
	return c;
}

/* An entry for it, told as "<pattern>/ when <condition>" of the top Makefile. */
static void add_named_entry(struct builder *b, const struct kbuild_named_dir *nd, const char *dir,
			    const struct kbuild_expr *c)
{
	struct strbuf text = STRBUF_INIT;

	strbuf_addf(&text, "%s/ when ", nd->dir);
	kbuild_expr_print(c, &text);
	ALLOC_GROW(b->entry, b->nr_entry + 1, b->alloc_entry);
	b->entry[b->nr_entry].dir = xstrdup(dir);
	b->entry[b->nr_entry].b = b->entry[b->nr_entry].a = c;
	b->entry[b->nr_entry].origin = kbuild_exprs_origin(b->ex, "Makefile", 0, text.buf, text.len);
	b->nr_entry++;
	strbuf_release(&text);
}

/*
 * The target's named directories (U-Boot's board/$(VENDOR)/$(BOARD)/) as
 * entries: each directory of a source file that a pattern matches, and that
 * has a Makefile, under the condition the pattern names.
 */
static void add_named_dirs(struct builder *b)
{
	struct strmap seen = STRMAP_INIT;

	for (size_t i = 0; i < b->paths.nr; i++) {
		const char *path = b->paths.v[i];

		for (const char *s = strchr(path, '/'); s; s = strchr(s + 1, '/')) {
			char *dir = xstrndup(path, s - path);

			if (strmap_contains(&seen, dir)) {
				free(dir);
				continue;
			}
			strmap_put(&seen, dir, NULL);
			for (size_t k = 0; k < b->nr_named_dirs; k++) {
				const struct kbuild_expr *c = named_dir_cond(b, &b->named_dirs[k], dir);
				struct kbuild_text t;
				char *mk;
				int absent;

				if (!c)
					continue;
				mk = xstrfmt("%s/Makefile", dir);
				absent = b->rd->read(b->rd->ctx, mk, &t);
				free(mk);
				if (absent)
					continue;
				if (b->rd->release)
					b->rd->release(b->rd->ctx, &t);
				add_named_entry(b, &b->named_dirs[k], dir, c);
			}
			free(dir);
		}
	}
	strmap_clear(&seen, NULL);
}

static int collect_file(const char *path, void *data)
{
	struct builder *b = data;

	if (ends_with(path, ".c") || ends_with(path, ".S"))
		strvec_push(&b->paths, path);
	return 0;
}

/* The files under dir (all for the root): a range of the sorted list. */
static void files_under(struct builder *b, const char *dir, size_t *lo, size_t *hi)
{
	size_t l = 0, h = b->paths.nr, dl = strlen(dir);
	char *prefix;

	if (!dl) {
		*lo = 0;
		*hi = b->paths.nr;
		return;
	}
	prefix = xstrfmt("%s/", dir);
	while (l < h) {
		size_t mid = l + (h - l) / 2;

		if (strcmp(b->paths.v[mid], prefix) < 0)
			l = mid + 1;
		else
			h = mid;
	}
	*lo = l;
	while (l < b->paths.nr && starts_with(b->paths.v[l], prefix))
		l++;
	*hi = l;
	free(prefix);
}

static struct kbuild_file *file_of(struct builder *b, const char *path)
{
	size_t idx = (size_t)(uintptr_t)strmap_get(&b->m->index, path);

	return idx ? &b->m->files[idx - 1] : NULL;
}

/* The first listing of a file is the one kbuild_map_why tells. */
static void note_why(struct builder *b, struct kbuild_file *f, const struct kdir *d,
		     const struct kobj *o)
{
	struct kfile_why *w = &b->m->why[f - b->m->files];

	if (!o->origin)
		return;
	if (w->origin) {
		if (w->origin != o->origin)
			w->more = 1;
		return;
	}
	w->more = o->more;
	w->origin = o->origin;
	w->via_subject = o->via_subject;
	w->via = o->via;
	w->via_more = o->via_more;
	w->dir = kbuild_exprs_string(b->ex, d->path);
}

static void apply(struct builder *b, struct kbuild_file *f, const struct kdir *d,
		  const struct kobj *o, const struct kbuild_expr *extra, int listed)
{
	struct kbuild_exprs *ex = b->ex;
	const struct kbuild_expr *bi = kbuild_expr_or(ex, kbuild_expr_and(ex, d->B, o->lb), kbuild_expr_and(ex, d->A, o->la));
	const struct kbuild_expr *mo = kbuild_expr_and(ex, d->A, o->lm);

	if (extra) {
		bi = kbuild_expr_and(ex, bi, extra);
		mo = kbuild_expr_and(ex, mo, extra);
	}
	bi = kbuild_expr_and(ex, bi, b->phase_names);
	mo = kbuild_expr_and(ex, mo, b->phase_names);
	f->builtin = kbuild_expr_or(ex, f->builtin, bi);
	f->module = kbuild_expr_or(ex, f->module, mo);
	if (listed) {
		f->kind = KBUILD_OBJECT;
		note_why(b, f, d, o);
	}
}

static void compute_dir_conditions(struct builder *b)
{
	struct kdir **queue = xmalloc((b->nr_dirs + 1) * sizeof(*queue));
	size_t head = 0, tail = 0, overflows;

	for (size_t i = 0; i < b->nr_dirs; i++)
		for (size_t k = 0; k < b->order[i]->nr_edges; k++)
			get_dir(b, b->order[i]->edges[k].dir);
	/* get_dir may have grown the list: recount over the final set */
	free(queue);
	queue = xmalloc((b->nr_dirs + 1) * sizeof(*queue));
	for (size_t i = 0; i < b->nr_dirs; i++)
		for (size_t k = 0; k < b->order[i]->nr_edges; k++)
			((struct kdir *)strmap_get(&b->dirs, b->order[i]->edges[k].dir))->indeg++;
	for (size_t i = 0; i < b->nr_dirs; i++)
		if (!b->order[i]->indeg)
			queue[tail++] = b->order[i];
	for (;;) {
		struct kdir *d;

		if (head == tail) {
			/* a cycle: take the first unfinished directory as it is */
			size_t i;

			for (i = 0; i < b->nr_dirs && b->order[i]->done; i++)
				;
			if (i == b->nr_dirs)
				break;
			b->order[i]->indeg = 0;
			queue[tail++] = b->order[i];
		}
		d = queue[head++];
		if (d->done)
			continue;
		d->done = 1;
		overflows = kbuild_exprs_overflows(b->ex);
		for (size_t k = 0; k < d->nr_edges; k++) {
			struct kdir *c = strmap_get(&b->dirs, d->edges[k].dir);

			c->B = kbuild_expr_or(b->ex, c->B, kbuild_expr_and(b->ex, d->B, d->edges[k].b));
			c->A = kbuild_expr_or(b->ex, c->A, kbuild_expr_and(b->ex, d->A, d->edges[k].a));
			if (d->edges[k].origin && c != d &&
			    kbuild_expr_and(b->ex, d->A, d->edges[k].a)->op != KB_FALSE) {
				if (!c->in_origin) {
					c->in_origin = d->edges[k].origin;
					c->in_parent = d;
				} else if (c->in_origin != d->edges[k].origin) {
					c->in_more = 1;
				}
			}
			if (!c->done && c->indeg && !--c->indeg)
				queue[tail++] = c;
		}
		if (kbuild_exprs_overflows(b->ex) != overflows)
			error("%s: enters directories under more than %d conditions; taken as unknown",
			      d->path[0] ? d->path : ".", KBUILD_MAX_TERMS);
	}
	free(queue);
}

static void assign_files(struct builder *b)
{
	static const char *const exts[] = { ".c", ".S" };

	for (size_t i = 0; i < b->nr_dirs; i++) {
		struct kdir *d = b->order[i];
		size_t lo, hi;

		if (d->A->op == KB_FALSE)
			continue;
		b->m->stats.dirs++;
		for (size_t k = 0; k < d->nr_objs; k++)
			for (size_t e = 0; e < ARRAY_SIZE(exts); e++) {
				char *p = xstrfmt("%s%s", d->objs[k].stem, exts[e]);
				struct kbuild_file *f = file_of(b, p);

				if (f)
					apply(b, f, d, &d->objs[k], NULL, 1);
				free(p);
			}
		if (d->nr_pats || d->incomplete->op != KB_FALSE)
			files_under(b, d->path, &lo, &hi);
		/*
		 * coreboot's subdirectories have Makefiles of their own: what a
		 * directory cannot spell out is taken to stay in its own files.
		 */
		int flags = b->subdirs_model ? FNM_PATHNAME : 0;

		for (size_t k = 0; k < d->nr_pats; k++) {
			const struct kobj *o = &d->pats[k];
			const struct kbuild_expr *fv = kbuild_expr_free(b->ex, o->free_text);
			char *dirglob = xstrfmt("%s*", o->stem);

			for (size_t j = lo; j < hi; j++) {
				const char *rel = b->paths.v[j] + (*d->path ? strlen(d->path) + 1 : 0);
				char *obj = xstrfmt("%.*s.o", (int)strlen(rel) - 2, rel);

				if (!fnmatch(o->stem, obj, flags) ||
				    (ends_with(o->stem, "/") && !fnmatch(dirglob, obj, 0)))
					apply(b, file_of(b, b->paths.v[j]), d, o, fv, 1);
				free(obj);
			}
			free(dirglob);
		}
		if (d->incomplete->op != KB_FALSE) {
			struct kobj all = { NULL, NULL, d->incomplete, d->incomplete, d->incomplete };

			for (size_t j = lo; j < hi; j++)
				if (!flags || !strchr(b->paths.v[j] + (*d->path ? strlen(d->path) + 1 : 0), '/'))
					apply(b, file_of(b, b->paths.v[j]), d, &all, NULL, 0);
		}
	}
	/* host programs: only where nothing made them kernel objects */
	for (size_t i = 0; i < b->nr_dirs; i++) {
		struct kdir *d = b->order[i];

		if (d->A->op == KB_FALSE)
			continue;
		for (size_t k = 0; k < d->host.nr; k++) {
			char *p = xstrfmt("%s.c", d->host.v[k]);
			struct kbuild_file *f = file_of(b, p);

			if (f && f->kind == KBUILD_UNLISTED)
				f->kind = KBUILD_HOST;
			free(p);
		}
	}
}

/* One phase's walk: its entry lists, the directories it descends, its files' conditions ORed in. */
static void walk_phase(struct builder *b, const char *srcarch)
{
	struct kbuild_map *m = b->m;
	struct kbuild_text t;
	size_t next;
	int root_parsed;

	parse_top(b, srcarch);
	add_named_dirs(b);
	/* A top CMakeLists.txt and no top Makefile: CMake builds the tree (Zephyr). */
	if (!b->subdirs_model && !b->rd->read(b->rd->ctx, "CMakeLists.txt", &t)) {
		if (b->rd->release)
			b->rd->release(b->rd->ctx, &t);
		if (b->rd->read(b->rd->ctx, "Makefile", &t) == 1)
			b->subdirs_model = KBUILD_MODEL_CMAKE;
		else if (b->rd->release)
			b->rd->release(b->rd->ctx, &t);
	}
	/* The root is a kbuild directory only when it has a Kbuild file (Linux 5.x and later). */
	if (b->subdirs_model) {
		get_dir(b, "")->A = kbuild_expr_true(m->ex);
	} else if (!b->rd->read(b->rd->ctx, "Kbuild", &t)) {
		struct kdir *root = get_dir(b, "");

		if (b->rd->release)
			b->rd->release(b->rd->ctx, &t);
		root->B = root->A = kbuild_expr_true(m->ex);
	}
	/*
	 * Older trees descend into the top Makefile's lists (core-m too); from
	 * Linux 6.1 the top Kbuild does, with only what it names.
	 */
	root_parsed = b->nr_dirs > 0;
	if (root_parsed)
		parse_dir(b, b->order[0]);
	if (!b->nr_dirs || !b->order[0]->nr_edges)
		for (size_t i = 0; i < b->nr_entry; i++) {
			struct kdir *d = get_dir(b, b->entry[i].dir);

			d->B = kbuild_expr_or(m->ex, d->B, b->entry[i].b);
			d->A = kbuild_expr_or(m->ex, d->A, b->entry[i].a);
			if (!d->in_origin)
				d->in_origin = b->entry[i].origin;
			else if (b->entry[i].origin && d->in_origin != b->entry[i].origin)
				d->in_more = 1;
		}
	/* Breadth first: parse each directory once, discovering its children. */
	for (next = 0; next < b->nr_dirs; next++) {
		struct kdir *d = b->order[next];

		if (next || !root_parsed)
			parse_dir(b, d);
		for (size_t k = 0; k < d->nr_edges; k++)
			get_dir(b, d->edges[k].dir);
	}
	compute_dir_conditions(b);
	assign_files(b);
	/* How kbuild got to each directory, for kbuild_map_why: the first phase's way. */
	for (size_t i = 0; i < b->nr_dirs; i++) {
		const struct kdir *d = b->order[i];
		struct kdir_why *w;
		char *name;

		if (!d->in_origin || strmap_contains(&m->dir_why, d->path))
			continue;
		w = xcalloc(1, sizeof(*w));
		name = xstrfmt("%s/", d->path);
		w->subject = kbuild_exprs_string(b->ex, name);
		free(name);
		w->origin = d->in_origin;
		w->more = d->in_more;
		w->parent = d->in_parent ? kbuild_exprs_string(b->ex, d->in_parent->path) : NULL;
		strmap_put(&m->dir_why, d->path, w);
	}

	strmap_clear(&b->dirs, kbuild_kdir_free);
	free(b->order);
	b->order = NULL;
	b->nr_dirs = b->alloc_dirs = 0;
	strmap_clear(&b->globals, kbuild_var_free);
	for (size_t i = 0; i < b->nr_entry; i++)
		free(b->entry[i].dir);
	free(b->entry);
	b->entry = NULL;
	b->nr_entry = b->alloc_entry = 0;
}

struct kbuild_map *kbuild_map_build(const struct kbuild_reader *rd, const char *srcarch,
				    struct kbuild_cache *cache)
{
	return kbuild_map_build_arch(rd, srcarch, srcarch, cache);
}

struct kbuild_map *kbuild_map_build_arch(const struct kbuild_reader *rd, const char *arch,
					 const char *srcarch, struct kbuild_cache *cache)
{
	struct kbuild_target t = { .arch = arch, .srcarch = srcarch };

	return kbuild_map_build_target(rd, &t, cache);
}

struct kbuild_map *kbuild_map_build_target(const struct kbuild_reader *rd,
					   const struct kbuild_target *target,
					   struct kbuild_cache *cache)
{
	const char *arch = target->arch;
	const char *srcarch = target->srcarch ? target->srcarch : target->arch;
	struct builder b = { .arch = arch, .named_dirs = target->named_dirs,
			     .nr_named_dirs = target->nr_named_dirs };
	struct kbuild_map *m = xcalloc(1, sizeof(*m));
	struct kbuild_phase *phases;
	size_t nr_phases;

	m->own_ex = !cache;
	m->ex = cache ? cache->ex : kbuild_exprs_new();
	b.m = m;
	b.rd = rd;
	b.ex = m->ex;

	rd->for_each_file(rd->ctx, collect_file, &b);
	strvec_sort(&b.paths);
	m->files = xcalloc(b.paths.nr ? b.paths.nr : 1, sizeof(*m->files));
	m->why = xcalloc(b.paths.nr ? b.paths.nr : 1, sizeof(*m->why));
	for (size_t i = 0; i < b.paths.nr; i++) {
		struct kbuild_file *f = &m->files[m->nr++];

		f->path = xstrdup(b.paths.v[i]);
		f->builtin = f->module = kbuild_expr_false(m->ex);
		f->kind = KBUILD_UNLISTED;
		strmap_put(&m->index, f->path, (void *)(uintptr_t)m->nr);
	}

	/* A file is compiled when it is in some phase. */
	nr_phases = kbuild_phases(rd, &phases);
	b.phases = phases;
	b.nr_phases = nr_phases;
	for (size_t i = 0; i < nr_phases; i++) {
		b.phase = &phases[i];
		b.phase_names = kbuild_phase_names(m->ex, phases, nr_phases, b.phase);
		b.cache = cache && rd->id ? phase_cache(cache, b.phase) : NULL;
		walk_phase(&b, srcarch);
	}
	kbuild_phases_free(phases, nr_phases);
	strvec_clear(&b.tree_paths);
	strvec_clear(&b.tree_dirs);

	for (size_t i = 0; i < m->nr; i++) {
		struct kbuild_file *f = &m->files[i];

		f->cond = kbuild_expr_or(m->ex, f->builtin, f->module);
		m->stats.files++;
		if (f->cond->op != KB_FALSE)
			m->stats.compiled++;
		if (kbuild_expr_has_free(f->cond))
			m->stats.with_free++;
	}
	strvec_clear(&b.paths);
	return m;
}

void kbuild_map_prefix(struct kbuild_map *m, const char *prefix)
{
	strmap_clear(&m->index, NULL);
	for (size_t i = 0; i < m->nr; i++) {
		char *p = xstrfmt("%s%s", prefix, m->files[i].path);

		free((char *)m->files[i].path);
		m->files[i].path = p;
		strmap_put(&m->index, p, (void *)(uintptr_t)(i + 1));
	}
}

void kbuild_map_free(struct kbuild_map *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr; i++)
		free((char *)m->files[i].path);
	free(m->files);
	free(m->why);
	strmap_clear(&m->dir_why, free);
	strmap_clear(&m->index, NULL);
	if (m->own_ex)
		kbuild_exprs_free(m->ex);
	free(m);
}

struct kbuild_exprs *kbuild_map_exprs(struct kbuild_map *m)
{
	return m->ex;
}

const struct kbuild_file *kbuild_map_lookup(const struct kbuild_map *m, const char *path)
{
	size_t idx = (size_t)(uintptr_t)strmap_get(&m->index, path);

	return idx ? &m->files[idx - 1] : NULL;
}

const struct kbuild_file *kbuild_map_files(const struct kbuild_map *m, size_t *nr)
{
	*nr = m->nr;
	return m->files;
}

const struct kbuild_stats *kbuild_map_stats(const struct kbuild_map *m)
{
	return &m->stats;
}

static size_t add_why(struct kbuild_why *out, size_t nr, size_t max, const char *subject,
		      const struct kbuild_origin *origin, int more)
{
	for (size_t i = 0; i < nr; i++)
		if (out[i].origin == origin && !strcmp(out[i].subject, subject))
			return nr;
	if (nr < max) {
		out[nr].subject = subject;
		out[nr].origin = origin;
		out[nr].more = more;
		nr++;
	}
	return nr;
}

size_t kbuild_map_why(const struct kbuild_map *m, const char *path, struct kbuild_why *out,
		      size_t max)
{
	size_t idx = (size_t)(uintptr_t)strmap_get(&m->index, path);
	const struct kfile_why *fw;
	const char *dir;
	size_t nr = 0;

	if (!idx || !m->why[idx - 1].origin)
		return 0;
	fw = &m->why[idx - 1];
	nr = add_why(out, nr, max, m->files[idx - 1].path, fw->origin, fw->more);
	if (fw->via)
		nr = add_why(out, nr, max, fw->via_subject, fw->via, fw->via_more);
	/* Up the directories; a cycle of subdir-y lists ends at max. */
	for (dir = fw->dir; dir && nr < max; ) {
		const struct kdir_why *dw = strmap_get(&m->dir_why, dir);

		if (!dw)
			break;
		nr = add_why(out, nr, max, dw->subject, dw->origin, dw->more);
		if (dw->parent && !strcmp(dw->parent, dir))
			break;
		dir = dw->parent;
	}
	return nr;
}

void kbuild_map_dump(const struct kbuild_map *m, struct strbuf *out)
{
	for (size_t i = 0; i < m->nr; i++) {
		strbuf_addstr(out, m->files[i].path);
		strbuf_addch(out, '\t');
		kbuild_expr_print(m->files[i].cond, out);
		strbuf_addch(out, '\n');
	}
}
