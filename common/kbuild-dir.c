// SPDX-License-Identifier: GPL-2.0
/*
 * One kbuild directory: its Kbuild (or Makefile) read as scripts/Makefile.build
 * would, then its lists turned into objects, composite parts, subdirectories
 * and host programs, with the condition each holds under within the directory.
 */
#include "kbuild-internal.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

void kbuild_dir_add_edge(struct builder *b, struct kdir *d, const char *word, size_t len,
			 const struct kbuild_expr *bc, const struct kbuild_expr *ac,
			 const struct kbuild_origin *origin)
{
	char *rel = xstrndup(word, len);
	char *path = kbuild_join(d->path, rel);

	(void)b;
	free(rel);
	if (!strcmp(path, d->path) || starts_with(path, "..")) {
		free(path);
		return;
	}
	ALLOC_GROW(d->edges, d->nr_edges + 1, d->alloc_edges);
	d->edges[d->nr_edges].dir = path;
	d->edges[d->nr_edges].b = bc;
	d->edges[d->nr_edges].a = ac;
	d->edges[d->nr_edges].origin = origin;
	d->nr_edges++;
}


struct kobj *kbuild_dir_add_obj(struct builder *b, struct kdir *d, const char *stem_rel, int pattern)
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
		stem = kbuild_join(d->path, stem_rel);
		ALLOC_GROW(d->objs, d->nr_objs + 1, d->alloc_objs);
		o = &d->objs[d->nr_objs++];
		o->stem = stem;
		o->free_text = NULL;
	}
	o->lb = o->la = o->lm = kbuild_expr_false(b->ex);
	o->origin = o->via = NULL;
	o->via_subject = NULL;
	o->more = o->via_more = 0;
	return o;
}

/* Per object word of a directory: under which conditions each list holds it. */
struct acc {
	const struct kbuild_expr *y, *m, *l, *x;
	const struct kbuild_origin *origin;	/* the first statement that lists it */
	int more;				/* another one lists it too */
};

static struct acc *acc_get(struct builder *b, struct strmap *objs, const char *word)
{
	struct acc *a = strmap_get(objs, word);

	if (!a) {
		a = xmalloc(sizeof(*a));
		a->y = a->m = a->l = a->x = kbuild_expr_false(b->ex);
		a->origin = NULL;
		a->more = 0;
		strmap_put(objs, word, a);
	}
	return a;
}

enum list_kind { L_Y, L_M, L_LIB, L_EXTRA, L_SUBDIR };

static void read_list(struct builder *b, struct kmake *mk, struct kdir *d, const char *name,
		      enum list_kind kind, struct strmap *objs, struct strvec *order)
{
	struct kwords w = { 0 };
	struct strbuf init = STRBUF_INIT;

	kbuild_make_words(mk, name, &w);
	for (size_t i = 0; i < w.nr; i++) {
		const char *t = w.v[i].text;
		const struct kbuild_expr *c = w.v[i].cond;
		size_t len = strlen(t);
		struct acc *a;

		if (kind == L_SUBDIR) {
			if (!has_unknown(t))
				kbuild_dir_add_edge(b, d, t, len, kbuild_expr_false(b->ex), c, w.v[i].origin);
			continue;
		}
		if (len && t[len - 1] == '/' && !has_unknown(t)) {
			if (kind == L_Y || kind == L_M)
				kbuild_dir_add_edge(b, d, t, len - 1, kind == L_Y ? c : kbuild_expr_false(b->ex), c,
					 w.v[i].origin);
			continue;
		}
		if (!has_unknown(t) && !ends_with(t, ".o"))
			continue;
		/* Xen's foo.init.o is foo.o with its sections renamed: compiled from foo.c. */
		if (!has_unknown(t) && ends_with(t, ".init.o") && len > 7) {
			strbuf_reset(&init);
			strbuf_addf(&init, "%.*s.o", (int)(len - 7), t);
			t = init.buf;
		}
		if (!strmap_contains(objs, t))
			strvec_push(order, t);
		a = acc_get(b, objs, t);
		if (!a->origin)
			a->origin = w.v[i].origin;
		else if (w.v[i].origin && w.v[i].origin != a->origin)
			a->more = 1;
		switch (kind) {
		case L_Y: a->y = kbuild_expr_or(b->ex, a->y, c); break;
		case L_M: a->m = kbuild_expr_or(b->ex, a->m, c); break;
		case L_LIB: a->l = kbuild_expr_or(b->ex, a->l, c); break;
		default: a->x = kbuild_expr_or(b->ex, a->x, c); break;
		}
	}
	strbuf_release(&init);
	kbuild_words_clear(&w);
}

static const struct kbuild_expr *any_cond(struct builder *b, const struct kwords *w)
{
	const struct kbuild_expr *c = kbuild_expr_false(b->ex);

	for (size_t i = 0; i < w->nr; i++)
		c = kbuild_expr_or(b->ex, c, w->v[i].cond);
	return c;
}

static void add_part(struct builder *b, struct kdir *d, const struct kword *word,
		     const struct kbuild_expr *lb, const struct kbuild_expr *lm,
		     const char *composite, const struct kbuild_origin *via, int via_more)
{
	const char *text = word->text;
	struct kobj *o;
	char *stem;

	if (!has_unknown(text) && !ends_with(text, ".o"))
		return;
	/* a pattern keeps its .o: it is matched against object names */
	stem = has_unknown(text) ? xstrdup(text) : xstrndup(text, strlen(text) - 2);
	o = kbuild_dir_add_obj(b, d, stem, has_unknown(text));
	o->lb = lb;
	o->lm = lm;
	o->origin = word->origin;
	o->via_subject = composite;
	o->via = via;
	o->via_more = via_more;
	free(stem);
}

static void composite_words(struct kmake *mk, const char *base, const char *suffix, struct kwords *out)
{
	char *name = xstrfmt("%s%s", base, suffix);

	kbuild_make_words(mk, name, out);
	free(name);
}

static int composite_mentioned(struct kmake *mk, const char *base)
{
	static const char *const sfx[] = { "-objs", "-y", "-m", "-" };
	int r = 0;

	for (size_t i = 0; i < ARRAY_SIZE(sfx) && !r; i++) {
		char *name = xstrfmt("%s%s", base, sfx[i]);

		r = kbuild_make_mentions(mk, name);
		free(name);
	}
	return r;
}

static void object(struct builder *b, struct kmake *mk, struct kdir *d, const char *word,
		   const struct acc *a)
{
	struct kbuild_exprs *ex = b->ex;
	const struct kbuild_expr *y = a->y;
	const struct kbuild_expr *m = kbuild_expr_and(ex, a->m, kbuild_expr_not(ex, y));
	const struct kbuild_expr *l = kbuild_expr_and(ex, a->l, kbuild_expr_not(ex, y));
	char *base = xstrndup(word, strlen(word) - (ends_with(word, ".o") ? 2 : 0));
	int pattern = has_unknown(word);
	struct kobj *o;

	if (pattern || !composite_mentioned(mk, base)) {
		o = kbuild_dir_add_obj(b, d, pattern ? word : base, pattern);
		o->lb = y;
		o->lm = m;
		o->la = kbuild_expr_or(ex, l, a->x);
		o->origin = a->origin;
		o->more = a->more;
		free(base);
		return;
	}
	struct kwords parts = { 0 }, mparts = { 0 }, empty = { 0 };
	const struct kbuild_expr *ney, *nem;
	const char *composite;
	char *name;

	composite_words(mk, base, "-objs", &parts);
	composite_words(mk, base, "-y", &parts);
	composite_words(mk, base, "-", &empty);
	composite_words(mk, base, "-m", &mparts);
	ney = kbuild_expr_or(ex, any_cond(b, &parts), any_cond(b, &empty));
	nem = kbuild_expr_or(ex, ney, any_cond(b, &mparts));
	/* Where no part list is non-empty, kbuild compiles foo.c itself. */
	o = kbuild_dir_add_obj(b, d, base, 0);
	o->lb = kbuild_expr_and(ex, y, kbuild_expr_not(ex, ney));
	o->lm = kbuild_expr_and(ex, m, kbuild_expr_not(ex, nem));
	o->la = kbuild_expr_or(ex, l, a->x);
	o->origin = a->origin;
	o->more = a->more;
	/* o moves as parts are added: the composite's name first. */
	name = xstrfmt("%s.o", o->stem);
	composite = kbuild_exprs_string(ex, name);
	free(name);
	for (size_t i = 0; i < parts.nr; i++)
		add_part(b, d, &parts.v[i], kbuild_expr_and(ex, y, parts.v[i].cond),
			 kbuild_expr_and(ex, m, parts.v[i].cond), composite, a->origin, a->more);
	for (size_t i = 0; i < mparts.nr; i++)
		add_part(b, d, &mparts.v[i], kbuild_expr_false(ex), kbuild_expr_and(ex, m, mparts.v[i].cond),
			 composite, a->origin, a->more);
	kbuild_words_clear(&parts);
	kbuild_words_clear(&mparts);
	kbuild_words_clear(&empty);
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

		kbuild_make_words(mk, lists[k], &w);
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
			kbuild_words_clear(&parts);
		}
		kbuild_words_clear(&w);
	}
	for (size_t i = 0; i < d->host.nr; i++) {
		char *p = kbuild_join(d->path, d->host.v[i]);

		free(d->host.v[i]);
		d->host.v[i] = p;
	}
}


void kbuild_parse_dir(struct builder *b, struct kdir *d)
{
	static const char *const preset[] = {
		"obj-y", "obj-m", "lib-y", "lib-m", "always-y", "always-m", "targets",
		"subdir-y", "subdir-m", "obj-bin-y",
	};
	struct kmake mk;
	char *file = kbuild_join(d->path, "Kbuild");
	struct strmap objs = STRMAP_INIT;
	struct strvec order = STRVEC_INIT;
	size_t overflows = kbuild_exprs_overflows(b->ex);
	int r;

	kbuild_make_init(&mk, b->ex, b->rd, d->path, &b->globals, 0);
	mk.phase_prefixes = b->nr_phases > 1;
	for (size_t i = 0; i < ARRAY_SIZE(preset); i++)
		kbuild_make_set_empty(&mk, preset[i]);
	r = kbuild_make_parse_file(&mk, file, kbuild_expr_true(b->ex));
	if (r == 1) {
		free(file);
		file = kbuild_join(d->path, "Makefile");
		r = kbuild_make_parse_file(&mk, file, kbuild_expr_true(b->ex));
	}
	free(file);
	b->m->stats.makefiles += mk.makefiles;
	for (size_t i = 0; i < mk.deps.nr; i++)
		strvec_push(&d->deps, mk.deps.v[i]);
	if (r) {
		kbuild_make_release(&mk);
		return;
	}
	read_list(b, &mk, d, "obj-y", L_Y, &objs, &order);
	/* Xen: linked into built_in_bin.o, beside built_in.o. */
	read_list(b, &mk, d, "obj-bin-y", L_Y, &objs, &order);
	read_list(b, &mk, d, "obj-m", L_M, &objs, &order);
	read_list(b, &mk, d, "lib-y", L_LIB, &objs, &order);
	read_list(b, &mk, d, "lib-m", L_LIB, &objs, &order);
	read_list(b, &mk, d, "extra-y", L_EXTRA, &objs, &order);
	read_list(b, &mk, d, "subdir-y", L_SUBDIR, &objs, &order);
	read_list(b, &mk, d, "subdir-m", L_SUBDIR, &objs, &order);
	for (size_t i = 0; i < order.nr; i++)
		object(b, &mk, d, order.v[i], strmap_get(&objs, order.v[i]));
	host_programs(b, &mk, d);
	if (kbuild_exprs_overflows(b->ex) != overflows)
		error("%s: a condition of more than %d terms; taken as unknown",
		      d->path[0] ? d->path : ".", KBUILD_MAX_TERMS);
	d->incomplete = mk.incomplete;
	strmap_clear(&objs, free);
	strvec_clear(&order);
	kbuild_make_release(&mk);
}

const struct kbuild_expr *kbuild_list_condition(const struct kbuild_reader *rd,
						struct kbuild_exprs *ex, const char *dir,
						const char *list, const char *name)
{
	struct kmake mk;
	struct kwords w = { 0 };
	const struct kbuild_expr *cond = NULL;
	char *file = kbuild_join(dir, "Makefile");
	char *lists[2];

	lists[0] = xstrfmt("%s-y", list);
	lists[1] = xstrfmt("%s-m", list);
	kbuild_make_init(&mk, ex, rd, dir, NULL, 0);
	kbuild_make_set_empty(&mk, lists[0]);
	kbuild_make_set_empty(&mk, lists[1]);
	if (!kbuild_make_parse_file(&mk, file, kbuild_expr_true(ex)))
		for (int l = 0; l < 2; l++) {
			kbuild_make_words(&mk, lists[l], &w);
			for (size_t i = 0; i < w.nr; i++) {
				const char *t = w.v[i].text;
				const struct kbuild_expr *c = w.v[i].cond;

				if (has_unknown(t)) {
					char *g = xstrdup(t);

					for (char *q = g; *q; q++)
						if (*q == KMAKE_UNKNOWN)
							*q = '*';
					if (fnmatch(g, name, 0)) {
						free(g);
						continue;
					}
					c = kbuild_expr_and(ex, c, kbuild_expr_free(ex, g));
					free(g);
				} else if (strcmp(t, name)) {
					continue;
				}
				cond = cond ? kbuild_expr_or(ex, cond, c) : c;
			}
			kbuild_words_clear(&w);
		}
	if (mk.incomplete->op != KB_FALSE)
		cond = cond ? kbuild_expr_or(ex, cond, mk.incomplete) : mk.incomplete;
	kbuild_make_release(&mk);
	free(lists[0]);
	free(lists[1]);
	free(file);
	return cond;
}
