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

struct kobj {
	char *stem;	/* full path without extension; a glob for patterns */
	char *free_text;	/* patterns only */
	const struct kbuild_expr *lb;	/* needs the directory's built-in.a */
	const struct kbuild_expr *la;	/* built whenever the directory is descended */
	const struct kbuild_expr *lm;	/* as a module, whenever descended */
};

struct kedge {
	char *dir;
	const struct kbuild_expr *b, *a;
};

struct kdir {
	char *path;
	struct kobj *objs, *pats;
	size_t nr_objs, alloc_objs, nr_pats, alloc_pats;
	struct kedge *edges;
	size_t nr_edges, alloc_edges;
	struct strvec host;
	const struct kbuild_expr *incomplete;
	struct strvec deps;	/* "path id" of the files its parse read */
	const struct kbuild_expr *B, *A;
	int indeg, done;
};

struct kbuild_cache {
	struct kbuild_exprs *ex;
	char *top_key;		/* the top-level inputs the cached parses assume */
	struct strmap dirs;	/* path -> struct kdir * (parse only) */
};

struct kbuild_map {
	struct kbuild_exprs *ex;
	int own_ex;
	struct kbuild_file *files;
	size_t nr;
	struct strmap index;	/* path -> index + 1 */
	struct kbuild_stats stats;
};

struct kbuild_cache *kbuild_cache_new(void)
{
	struct kbuild_cache *c = xcalloc(1, sizeof(*c));

	c->ex = kbuild_exprs_new();
	return c;
}

static void kdir_free(void *p);

void kbuild_cache_free(struct kbuild_cache *c)
{
	if (!c)
		return;
	strmap_clear(&c->dirs, kdir_free);
	free(c->top_key);
	kbuild_exprs_free(c->ex);
	free(c);
}

static void kdir_free(void *p)
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

/* The state of one build. */
struct builder {
	struct kbuild_map *m;
	struct kbuild_cache *cache;	/* NULL when not caching */
	const struct kbuild_reader *rd;
	struct kbuild_exprs *ex;
	struct strmap dirs;		/* path -> struct kdir * */
	struct kdir **order;
	size_t nr_dirs, alloc_dirs;
	struct strmap globals;
	struct kedge *entry;
	size_t nr_entry, alloc_entry;
	struct strvec paths;		/* .c and .S files, sorted */
};

static char *join(const char *dir, const char *rel)
{
	char *t = *dir ? xstrfmt("%s/%s", dir, rel) : xstrdup(rel);
	char *n = kmake_normalize_path(t);

	free(t);
	return n;
}

static struct kdir *get_dir(struct builder *b, const char *path)
{
	struct kdir *d = strmap_get(&b->dirs, path);

	if (!d) {
		d = xcalloc(1, sizeof(*d));
		d->path = xstrdup(path);
		d->B = d->A = kb_false(b->ex);
		d->incomplete = kb_false(b->ex);
		strmap_put(&b->dirs, path, d);
		ALLOC_GROW(b->order, b->nr_dirs + 1, b->alloc_dirs);
		b->order[b->nr_dirs++] = d;
	}
	return d;
}

static void add_edge(struct builder *b, struct kdir *d, const char *word, size_t len,
		     const struct kbuild_expr *bc, const struct kbuild_expr *ac)
{
	char *rel = xstrndup(word, len);
	char *path = join(d->path, rel);

	free(rel);
	if (!strcmp(path, d->path) || starts_with(path, "..")) {
		free(path);
		return;
	}
	ALLOC_GROW(d->edges, d->nr_edges + 1, d->alloc_edges);
	d->edges[d->nr_edges].dir = path;
	d->edges[d->nr_edges].b = bc;
	d->edges[d->nr_edges].a = ac;
	d->nr_edges++;
}

static int has_unknown(const char *s)
{
	return strchr(s, KMAKE_UNKNOWN) != NULL;
}

static struct kobj *add_obj(struct builder *b, struct kdir *d, const char *stem_rel, int pattern)
{
	struct kobj *o;
	char *stem;

	if (pattern) {
		char *g = xstrdup(stem_rel);

		for (char *q = g; *q; q++)
			if (*q == KMAKE_UNKNOWN)
				*q = '*';
		ALLOC_GROW(d->pats, d->nr_pats + 1, d->alloc_pats);
		o = &d->pats[d->nr_pats++];
		o->stem = g;
		o->free_text = *d->path ? xstrfmt("%s/%s", d->path, g) : xstrdup(g);
	} else {
		stem = join(d->path, stem_rel);
		ALLOC_GROW(d->objs, d->nr_objs + 1, d->alloc_objs);
		o = &d->objs[d->nr_objs++];
		o->stem = stem;
		o->free_text = NULL;
	}
	o->lb = o->la = o->lm = kb_false(b->ex);
	return o;
}

/* Per object word of a directory: under which conditions each list holds it. */
struct acc {
	const struct kbuild_expr *y, *m, *l, *x;
};

static struct acc *acc_get(struct builder *b, struct strmap *objs, const char *word)
{
	struct acc *a = strmap_get(objs, word);

	if (!a) {
		a = xmalloc(sizeof(*a));
		a->y = a->m = a->l = a->x = kb_false(b->ex);
		strmap_put(objs, word, a);
	}
	return a;
}

enum list_kind { L_Y, L_M, L_LIB, L_EXTRA, L_SUBDIR };

static void read_list(struct builder *b, struct kmake *mk, struct kdir *d, const char *name,
		      enum list_kind kind, struct strmap *objs, struct strvec *order)
{
	struct kwords w = { 0 };

	kmake_words(mk, name, &w);
	for (size_t i = 0; i < w.nr; i++) {
		const char *t = w.v[i].text;
		const struct kbuild_expr *c = w.v[i].cond;
		size_t len = strlen(t);
		struct acc *a;

		if (kind == L_SUBDIR) {
			if (!has_unknown(t))
				add_edge(b, d, t, len, kb_false(b->ex), c);
			continue;
		}
		if (len && t[len - 1] == '/' && !has_unknown(t)) {
			if (kind == L_Y || kind == L_M)
				add_edge(b, d, t, len - 1, kind == L_Y ? c : kb_false(b->ex), c);
			continue;
		}
		if (!has_unknown(t) && !ends_with(t, ".o"))
			continue;
		if (!strmap_contains(objs, t))
			strvec_push(order, t);
		a = acc_get(b, objs, t);
		switch (kind) {
		case L_Y: a->y = kb_or(b->ex, a->y, c); break;
		case L_M: a->m = kb_or(b->ex, a->m, c); break;
		case L_LIB: a->l = kb_or(b->ex, a->l, c); break;
		default: a->x = kb_or(b->ex, a->x, c); break;
		}
	}
	kwords_clear(&w);
}

static const struct kbuild_expr *any_cond(struct builder *b, const struct kwords *w)
{
	const struct kbuild_expr *c = kb_false(b->ex);

	for (size_t i = 0; i < w->nr; i++)
		c = kb_or(b->ex, c, w->v[i].cond);
	return c;
}

static void add_part(struct builder *b, struct kdir *d, const char *word,
		     const struct kbuild_expr *lb, const struct kbuild_expr *lm)
{
	struct kobj *o;
	char *stem;

	if (!has_unknown(word) && !ends_with(word, ".o"))
		return;
	/* a pattern keeps its .o: it is matched against object names */
	stem = has_unknown(word) ? xstrdup(word) : xstrndup(word, strlen(word) - 2);
	o = add_obj(b, d, stem, has_unknown(word));
	o->lb = lb;
	o->lm = lm;
	free(stem);
}

static void composite_words(struct kmake *mk, const char *base, const char *suffix, struct kwords *out)
{
	char *name = xstrfmt("%s%s", base, suffix);

	kmake_words(mk, name, out);
	free(name);
}

static int composite_mentioned(struct kmake *mk, const char *base)
{
	static const char *const sfx[] = { "-objs", "-y", "-m", "-" };
	int r = 0;

	for (size_t i = 0; i < ARRAY_SIZE(sfx) && !r; i++) {
		char *name = xstrfmt("%s%s", base, sfx[i]);

		r = kmake_mentions(mk, name);
		free(name);
	}
	return r;
}

static void object(struct builder *b, struct kmake *mk, struct kdir *d, const char *word,
		   const struct acc *a)
{
	struct kbuild_exprs *ex = b->ex;
	const struct kbuild_expr *y = a->y;
	const struct kbuild_expr *m = kb_and(ex, a->m, kb_not(ex, y));
	const struct kbuild_expr *l = kb_and(ex, a->l, kb_not(ex, y));
	char *base = xstrndup(word, strlen(word) - (ends_with(word, ".o") ? 2 : 0));
	int pattern = has_unknown(word);
	struct kobj *o;

	if (pattern || !composite_mentioned(mk, base)) {
		o = add_obj(b, d, pattern ? word : base, pattern);
		o->lb = y;
		o->lm = m;
		o->la = kb_or(ex, l, a->x);
		free(base);
		return;
	}
	struct kwords parts = { 0 }, mparts = { 0 }, empty = { 0 };
	const struct kbuild_expr *ney, *nem;

	composite_words(mk, base, "-objs", &parts);
	composite_words(mk, base, "-y", &parts);
	composite_words(mk, base, "-", &empty);
	composite_words(mk, base, "-m", &mparts);
	ney = kb_or(ex, any_cond(b, &parts), any_cond(b, &empty));
	nem = kb_or(ex, ney, any_cond(b, &mparts));
	/* Where no part list is non-empty, kbuild compiles foo.c itself. */
	o = add_obj(b, d, base, 0);
	o->lb = kb_and(ex, y, kb_not(ex, ney));
	o->lm = kb_and(ex, m, kb_not(ex, nem));
	o->la = kb_or(ex, l, a->x);
	for (size_t i = 0; i < parts.nr; i++)
		add_part(b, d, parts.v[i].text, kb_and(ex, y, parts.v[i].cond),
			 kb_and(ex, m, parts.v[i].cond));
	for (size_t i = 0; i < mparts.nr; i++)
		add_part(b, d, mparts.v[i].text, kb_false(ex), kb_and(ex, m, mparts.v[i].cond));
	kwords_clear(&parts);
	kwords_clear(&mparts);
	kwords_clear(&empty);
	free(base);
}

static void host_programs(struct builder *b, struct kmake *mk, struct kdir *d)
{
	static const char *const lists[] = {
		"hostprogs", "hostprogs-y", "hostprogs-m", "host-progs", "hostprogs-always-y",
		"hostprogs-always-m", "userprogs", "userprogs-always-y", "userprogs-always-m",
	};

	for (size_t k = 0; k < ARRAY_SIZE(lists); k++) {
		struct kwords w = { 0 };

		kmake_words(mk, lists[k], &w);
		for (size_t i = 0; i < w.nr; i++) {
			struct kwords parts = { 0 };
			const char *h = w.v[i].text;

			if (has_unknown(h))
				continue;
			composite_words(mk, h, "-objs", &parts);
			if (!parts.nr)
				strvec_push(&d->host, h);
			for (size_t j = 0; j < parts.nr; j++)
				if (!has_unknown(parts.v[j].text) && ends_with(parts.v[j].text, ".o"))
					strvec_pushf(&d->host, "%.*s", (int)strlen(parts.v[j].text) - 2,
						     parts.v[j].text);
			kwords_clear(&parts);
		}
		kwords_clear(&w);
	}
	for (size_t i = 0; i < d->host.nr; i++) {
		char *p = join(d->path, d->host.v[i]);

		free(d->host.v[i]);
		d->host.v[i] = p;
	}
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

static void parse_dir_uncached(struct builder *b, struct kdir *d);

static void parse_dir(struct builder *b, struct kdir *d)
{
	struct kdir *c;

	if (!b->cache) {
		parse_dir_uncached(b, d);
		return;
	}
	c = strmap_get(&b->cache->dirs, d->path);
	if (c && deps_unchanged(b, c)) {
		copy_parse(d, c);
		b->m->stats.cached++;
		return;
	}
	parse_dir_uncached(b, d);
	c = xcalloc(1, sizeof(*c));
	c->path = xstrdup(d->path);
	copy_parse(c, d);
	c = strmap_put(&b->cache->dirs, d->path, c);
	if (c)
		kdir_free(c);
}

static void parse_dir_uncached(struct builder *b, struct kdir *d)
{
	static const char *const preset[] = {
		"obj-y", "obj-m", "lib-y", "lib-m", "always-y", "always-m", "targets",
		"subdir-y", "subdir-m",
	};
	struct kmake mk;
	char *file = join(d->path, "Kbuild");
	struct strmap objs = STRMAP_INIT;
	struct strvec order = STRVEC_INIT;
	int r;

	kmake_init(&mk, b->ex, b->rd, d->path, &b->globals, 0);
	for (size_t i = 0; i < ARRAY_SIZE(preset); i++)
		kmake_set_empty(&mk, preset[i]);
	r = kmake_parse_file(&mk, file, kb_true(b->ex));
	if (r == 1) {
		free(file);
		file = join(d->path, "Makefile");
		r = kmake_parse_file(&mk, file, kb_true(b->ex));
	}
	free(file);
	b->m->stats.makefiles += mk.makefiles;
	for (size_t i = 0; i < mk.deps.nr; i++)
		strvec_push(&d->deps, mk.deps.v[i]);
	if (r) {
		kmake_release(&mk);
		return;
	}
	read_list(b, &mk, d, "obj-y", L_Y, &objs, &order);
	read_list(b, &mk, d, "obj-m", L_M, &objs, &order);
	read_list(b, &mk, d, "lib-y", L_LIB, &objs, &order);
	read_list(b, &mk, d, "lib-m", L_LIB, &objs, &order);
	read_list(b, &mk, d, "extra-y", L_EXTRA, &objs, &order);
	read_list(b, &mk, d, "subdir-y", L_SUBDIR, &objs, &order);
	read_list(b, &mk, d, "subdir-m", L_SUBDIR, &objs, &order);
	for (size_t i = 0; i < order.nr; i++)
		object(b, &mk, d, order.v[i], strmap_get(&objs, order.v[i]));
	host_programs(b, &mk, d);
	d->incomplete = mk.incomplete;
	strmap_clear(&objs, free);
	strvec_clear(&order);
	kmake_release(&mk);
}

/* The top Makefile: exported variables, and the entry lists of older trees. */
static void parse_top(struct builder *b, const char *srcarch)
{
	static const char *const entry[] = { "init", "core", "drivers", "net", "libs", "virt" };
	struct kmake mk;

	kmake_init(&mk, b->ex, b->rd, "", NULL, 1);
	if (srcarch && *srcarch) {
		kmake_set_readonly(&mk, "ARCH", srcarch);
		kmake_set_readonly(&mk, "SRCARCH", srcarch);
	}
	kmake_set_readonly(&mk, "srctree", ".");
	kmake_set_readonly(&mk, "objtree", ".");
	kmake_parse_file(&mk, "Makefile", kb_true(b->ex));
	b->m->stats.makefiles += mk.makefiles;
	if (b->cache) {
		/* Every directory's parse depends on the exported variables. */
		struct strbuf key = STRBUF_INIT;

		strbuf_addf(&key, "%s\n", srcarch ? srcarch : "");
		for (size_t i = 0; i < mk.deps.nr; i++)
			strbuf_addf(&key, "%s\n", mk.deps.v[i]);
		if (!b->cache->top_key || strcmp(b->cache->top_key, key.buf)) {
			strmap_clear(&b->cache->dirs, kdir_free);
			free(b->cache->top_key);
			b->cache->top_key = strbuf_detach(&key, NULL);
		}
		strbuf_release(&key);
	}
	kmake_export(&mk, &b->globals);
	for (size_t i = 0; i < ARRAY_SIZE(entry); i++)
		for (int mod = 0; mod < 2; mod++) {
			char *name = xstrfmt("%s-%c", entry[i], mod ? 'm' : 'y');
			struct kwords w = { 0 };

			kmake_words(&mk, name, &w);
			for (size_t k = 0; k < w.nr; k++) {
				const char *t = w.v[k].text;
				size_t len = strlen(t);

				if (!len || t[len - 1] != '/' || has_unknown(t))
					continue;
				char *rel = xstrndup(t, len - 1);

				ALLOC_GROW(b->entry, b->nr_entry + 1, b->alloc_entry);
				b->entry[b->nr_entry].dir = join("", rel);
				free(rel);
				b->entry[b->nr_entry].b = w.v[k].cond;
				b->entry[b->nr_entry].a = w.v[k].cond;
				b->nr_entry++;
			}
			kwords_clear(&w);
			free(name);
		}
	kmake_release(&mk);
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

static void apply(struct builder *b, struct kbuild_file *f, const struct kdir *d,
		  const struct kobj *o, const struct kbuild_expr *extra, int listed)
{
	struct kbuild_exprs *ex = b->ex;
	const struct kbuild_expr *bi = kb_or(ex, kb_and(ex, d->B, o->lb), kb_and(ex, d->A, o->la));
	const struct kbuild_expr *mo = kb_and(ex, d->A, o->lm);

	if (extra) {
		bi = kb_and(ex, bi, extra);
		mo = kb_and(ex, mo, extra);
	}
	f->builtin = kb_or(ex, f->builtin, bi);
	f->module = kb_or(ex, f->module, mo);
	if (listed)
		f->kind = KBUILD_OBJECT;
}

static void compute_dir_conditions(struct builder *b)
{
	struct kdir **queue = xmalloc((b->nr_dirs + 1) * sizeof(*queue));
	size_t head = 0, tail = 0;

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
		for (size_t k = 0; k < d->nr_edges; k++) {
			struct kdir *c = strmap_get(&b->dirs, d->edges[k].dir);

			c->B = kb_or(b->ex, c->B, kb_and(b->ex, d->B, d->edges[k].b));
			c->A = kb_or(b->ex, c->A, kb_and(b->ex, d->A, d->edges[k].a));
			if (!c->done && c->indeg && !--c->indeg)
				queue[tail++] = c;
		}
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
		for (size_t k = 0; k < d->nr_pats; k++) {
			const struct kobj *o = &d->pats[k];
			const struct kbuild_expr *fv = kb_free(b->ex, o->free_text);
			char *dirglob = xstrfmt("%s*", o->stem);

			for (size_t j = lo; j < hi; j++) {
				const char *rel = b->paths.v[j] + (*d->path ? strlen(d->path) + 1 : 0);
				char *obj = xstrfmt("%.*s.o", (int)strlen(rel) - 2, rel);

				if (!fnmatch(o->stem, obj, 0) ||
				    (ends_with(o->stem, "/") && !fnmatch(dirglob, obj, 0)))
					apply(b, file_of(b, b->paths.v[j]), d, o, fv, 1);
				free(obj);
			}
			free(dirglob);
		}
		if (d->incomplete->op != KB_FALSE) {
			struct kobj all = { NULL, NULL, d->incomplete, d->incomplete, d->incomplete };

			for (size_t j = lo; j < hi; j++)
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

struct kbuild_map *kbuild_map_build(const struct kbuild_reader *rd, const char *srcarch,
				    struct kbuild_cache *cache)
{
	struct builder b = { 0 };
	struct kbuild_map *m = xcalloc(1, sizeof(*m));
	struct kbuild_text t;
	size_t next;
	int root_parsed;

	m->own_ex = !cache;
	m->ex = cache ? cache->ex : kbuild_exprs_new();
	b.m = m;
	b.rd = rd;
	b.cache = cache && rd->id ? cache : NULL;
	b.ex = m->ex;

	rd->for_each_file(rd->ctx, collect_file, &b);
	strvec_sort(&b.paths);
	m->files = xcalloc(b.paths.nr ? b.paths.nr : 1, sizeof(*m->files));
	for (size_t i = 0; i < b.paths.nr; i++) {
		struct kbuild_file *f = &m->files[m->nr++];

		f->path = xstrdup(b.paths.v[i]);
		f->builtin = f->module = kb_false(m->ex);
		f->kind = KBUILD_UNLISTED;
		strmap_put(&m->index, f->path, (void *)(uintptr_t)m->nr);
	}

	parse_top(&b, srcarch);
	/* The root is a kbuild directory only when it has a Kbuild file (Linux 5.x and later). */
	if (!rd->read(rd->ctx, "Kbuild", &t)) {
		struct kdir *root = get_dir(&b, "");

		if (rd->release)
			rd->release(rd->ctx, &t);
		root->B = root->A = kb_true(m->ex);
	}
	/*
	 * Older trees descend into the top Makefile's lists (core-m too); from
	 * Linux 6.1 the top Kbuild does, with only what it names.
	 */
	root_parsed = b.nr_dirs > 0;
	if (root_parsed)
		parse_dir(&b, b.order[0]);
	if (!b.nr_dirs || !b.order[0]->nr_edges)
		for (size_t i = 0; i < b.nr_entry; i++) {
			struct kdir *d = get_dir(&b, b.entry[i].dir);

			d->B = kb_or(m->ex, d->B, b.entry[i].b);
			d->A = kb_or(m->ex, d->A, b.entry[i].a);
		}
	/* Breadth first: parse each directory once, discovering its children. */
	for (next = 0; next < b.nr_dirs; next++) {
		struct kdir *d = b.order[next];

		if (next || !root_parsed)
			parse_dir(&b, d);
		for (size_t k = 0; k < d->nr_edges; k++)
			get_dir(&b, d->edges[k].dir);
	}
	compute_dir_conditions(&b);
	assign_files(&b);

	for (size_t i = 0; i < m->nr; i++) {
		struct kbuild_file *f = &m->files[i];

		f->cond = kb_or(m->ex, f->builtin, f->module);
		m->stats.files++;
		if (f->cond->op != KB_FALSE)
			m->stats.compiled++;
		if (kbuild_expr_has_free(f->cond))
			m->stats.with_free++;
	}

	strmap_clear(&b.dirs, kdir_free);
	free(b.order);
	strmap_clear(&b.globals, kvar_free);
	for (size_t i = 0; i < b.nr_entry; i++)
		free(b.entry[i].dir);
	free(b.entry);
	strvec_clear(&b.paths);
	return m;
}

void kbuild_map_free(struct kbuild_map *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr; i++)
		free((char *)m->files[i].path);
	free(m->files);
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

void kbuild_map_dump(const struct kbuild_map *m, struct strbuf *out)
{
	for (size_t i = 0; i < m->nr; i++) {
		strbuf_addstr(out, m->files[i].path);
		strbuf_addch(out, '\t');
		kbuild_expr_print(m->files[i].cond, out);
		strbuf_addch(out, '\n');
	}
}
