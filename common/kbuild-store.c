// SPDX-License-Identifier: GPL-2.0
/*
 * A Kbuild map as bytes and back (kbuild_map_save, kbuild_map_load), for the
 * disk cache: its files with their conditions (the hash-consed nodes once
 * each, children first), what kbuild_map_why tells of each file and
 * directory, its statistics. The map read back owns its nodes.
 */
#include "kbuild-internal.h"

#include <stdlib.h>
#include <string.h>

#include "diskcache.h"
#include "u64map.h"

/* The layout below; a new one makes an older entry a miss. */
#define STORE_LAYOUT 2

struct saver {
	struct strbuf nodes_sb, origins_sb;
	struct u64map nodes, origins;	/* pointer -> index + 1 */
	size_t nr_nodes, nr_origins;
};

static uint64_t save_node(struct saver *s, const struct kbuild_expr *e)
{
	uint64_t idx;

	if (u64map_get(&s->nodes, (uint64_t)(uintptr_t)e, &idx))
		return idx - 1;
	for (unsigned i = 0; i < e->nr; i++)
		save_node(s, e->sub[i]);
	diskcache_put_u64(&s->nodes_sb, (uint64_t)e->op);
	diskcache_put_str(&s->nodes_sb, e->name);
	diskcache_put_u64(&s->nodes_sb, e->nr);
	for (unsigned i = 0; i < e->nr; i++) {
		u64map_get(&s->nodes, (uint64_t)(uintptr_t)e->sub[i], &idx);
		diskcache_put_u64(&s->nodes_sb, idx - 1);
	}
	u64map_put(&s->nodes, (uint64_t)(uintptr_t)e, ++s->nr_nodes);
	return s->nr_nodes - 1;
}

/* An origin's index + 1, 0 for none. */
static uint64_t save_origin(struct saver *s, const struct kbuild_origin *o)
{
	uint64_t idx;

	if (!o)
		return 0;
	if (u64map_get(&s->origins, (uint64_t)(uintptr_t)o, &idx))
		return idx;
	diskcache_put_str(&s->origins_sb, o->path);
	diskcache_put_u64(&s->origins_sb, (uint64_t)(int64_t)o->line);
	diskcache_put_str(&s->origins_sb, o->text);
	u64map_put(&s->origins, (uint64_t)(uintptr_t)o, ++s->nr_origins);
	return s->nr_origins;
}

void kbuild_map_save(const struct kbuild_map *m, struct strbuf *out)
{
	struct saver s = { STRBUF_INIT, STRBUF_INIT, U64MAP_INIT, U64MAP_INIT, 0, 0 };
	struct strbuf body = STRBUF_INIT;
	struct strvec dirs = STRVEC_INIT;
	const struct strmap_entry *e;

	for (size_t i = 0; i < m->nr; i++) {
		const struct kbuild_file *f = &m->files[i];
		const struct kfile_why *w = &m->why[i];

		diskcache_put_str(&body, f->path);
		diskcache_put_u64(&body, (uint64_t)f->kind);
		diskcache_put_u64(&body, save_node(&s, f->cond));
		diskcache_put_u64(&body, save_node(&s, f->builtin));
		diskcache_put_u64(&body, save_node(&s, f->module));
		diskcache_put_u64(&body, save_origin(&s, w->origin));
		diskcache_put_str(&body, w->via_subject);
		diskcache_put_u64(&body, save_origin(&s, w->via));
		diskcache_put_u64(&body, (uint64_t)w->via_more);
		diskcache_put_str(&body, w->dir);
		diskcache_put_u64(&body, (uint64_t)w->more);
	}
	strmap_for_each(&m->dir_why, e)
		strvec_push(&dirs, e->key);
	strvec_sort(&dirs);
	diskcache_put_u64(&body, dirs.nr);
	for (size_t i = 0; i < dirs.nr; i++) {
		const struct kdir_why *w = strmap_get(&m->dir_why, dirs.v[i]);

		diskcache_put_str(&body, dirs.v[i]);
		diskcache_put_str(&body, w->subject);
		diskcache_put_u64(&body, save_origin(&s, w->origin));
		diskcache_put_u64(&body, (uint64_t)w->more);
		diskcache_put_str(&body, w->parent);
	}
	diskcache_put_u64(out, STORE_LAYOUT);
	diskcache_put_u64(out, m->stats.makefiles);
	diskcache_put_u64(out, m->stats.dirs);
	diskcache_put_u64(out, m->stats.files);
	diskcache_put_u64(out, m->stats.compiled);
	diskcache_put_u64(out, m->stats.with_free);
	diskcache_put_u64(out, m->stats.cached);
	/* Binary: strbuf_add, never a string function; an empty part has no buffer. */
	diskcache_put_u64(out, s.nr_nodes);
	if (s.nodes_sb.len)
		strbuf_add(out, s.nodes_sb.buf, s.nodes_sb.len);
	diskcache_put_u64(out, s.nr_origins);
	if (s.origins_sb.len)
		strbuf_add(out, s.origins_sb.buf, s.origins_sb.len);
	diskcache_put_u64(out, m->nr);
	if (body.len)
		strbuf_add(out, body.buf, body.len);
	strvec_clear(&dirs);
	strbuf_release(&body);
	strbuf_release(&s.nodes_sb);
	strbuf_release(&s.origins_sb);
	u64map_release(&s.nodes);
	u64map_release(&s.origins);
}

struct loader {
	struct diskcache_reader rd;
	struct kbuild_exprs *ex;
	const struct kbuild_expr **nodes;
	const struct kbuild_origin **origins;
	uint64_t nr_nodes, nr_origins;
};

static int load_nodes(struct loader *l)
{
	const struct kbuild_expr *stack[64], **sub;

	l->nr_nodes = diskcache_get_u64(&l->rd);
	if (l->rd.bad || l->nr_nodes > (uint64_t)(l->rd.end - l->rd.p))
		return -1;
	l->nodes = xcalloc(l->nr_nodes ? l->nr_nodes : 1, sizeof(*l->nodes));
	for (uint64_t i = 0; i < l->nr_nodes; i++) {
		uint64_t op = diskcache_get_u64(&l->rd), nr;
		char *name = diskcache_get_str(&l->rd);

		nr = diskcache_get_u64(&l->rd);
		if (l->rd.bad || op > KB_OR || nr > (uint64_t)(l->rd.end - l->rd.p) / 8) {
			free(name);
			return -1;
		}
		sub = nr <= 64 ? stack : xmalloc(nr * sizeof(*sub));
		for (uint64_t k = 0; k < nr; k++) {
			uint64_t idx = diskcache_get_u64(&l->rd);

			sub[k] = idx < i ? l->nodes[idx] : NULL;
			if (!sub[k])
				l->rd.bad = 1;
		}
		if (!l->rd.bad)
			l->nodes[i] = kbuild_exprs_node(l->ex, (enum kbuild_op)op, name, sub,
							(unsigned)nr);
		if (sub != stack)
			free(sub);
		free(name);
		if (l->rd.bad)
			return -1;
	}
	return 0;
}

static int load_origins(struct loader *l)
{
	l->nr_origins = diskcache_get_u64(&l->rd);
	if (l->rd.bad || l->nr_origins > (uint64_t)(l->rd.end - l->rd.p))
		return -1;
	l->origins = xcalloc(l->nr_origins + 1, sizeof(*l->origins));
	for (uint64_t i = 1; i <= l->nr_origins && !l->rd.bad; i++) {
		char *path = diskcache_get_str(&l->rd), *text;
		int line = (int)(int64_t)diskcache_get_u64(&l->rd);

		text = diskcache_get_str(&l->rd);
		if (path && text)
			l->origins[i] = kbuild_exprs_origin(l->ex, path, line, text, strlen(text));
		else
			l->rd.bad = 1;
		free(path);
		free(text);
	}
	return l->rd.bad ? -1 : 0;
}

static const struct kbuild_expr *get_node(struct loader *l)
{
	uint64_t idx = diskcache_get_u64(&l->rd);

	if (idx >= l->nr_nodes) {
		l->rd.bad = 1;
		return kbuild_expr_false(l->ex);
	}
	return l->nodes[idx];
}

static const struct kbuild_origin *get_origin(struct loader *l)
{
	uint64_t idx = diskcache_get_u64(&l->rd);

	if (idx > l->nr_origins) {
		l->rd.bad = 1;
		return NULL;
	}
	return l->origins[idx];
}

/* A string of the map's arena (NULL stays NULL). */
static const char *get_string(struct loader *l)
{
	char *s = diskcache_get_str(&l->rd);
	const char *interned = s ? kbuild_exprs_string(l->ex, s) : NULL;

	free(s);
	return interned;
}

static int load_files(struct loader *l, struct kbuild_map *m)
{
	uint64_t nr = diskcache_get_u64(&l->rd);

	if (l->rd.bad || nr > (uint64_t)(l->rd.end - l->rd.p))
		return -1;
	m->files = xcalloc(nr ? nr : 1, sizeof(*m->files));
	m->why = xcalloc(nr ? nr : 1, sizeof(*m->why));
	for (uint64_t i = 0; i < nr && !l->rd.bad; i++) {
		struct kbuild_file *f = &m->files[i];
		struct kfile_why *w = &m->why[i];
		char *path = diskcache_get_str(&l->rd);
		uint64_t kind = diskcache_get_u64(&l->rd);

		if (!path || kind > KBUILD_UNLISTED) {
			free(path);
			l->rd.bad = 1;
			break;
		}
		f->path = path;
		m->nr++;
		f->kind = (enum kbuild_file_kind)kind;
		f->cond = get_node(l);
		f->builtin = get_node(l);
		f->module = get_node(l);
		w->origin = get_origin(l);
		w->via_subject = get_string(l);
		w->via = get_origin(l);
		w->via_more = (int)diskcache_get_u64(&l->rd);
		w->dir = get_string(l);
		w->more = (int)diskcache_get_u64(&l->rd);
		strmap_put(&m->index, f->path, (void *)(uintptr_t)m->nr);
	}
	return l->rd.bad ? -1 : 0;
}

static int load_dirs(struct loader *l, struct kbuild_map *m)
{
	uint64_t nr = diskcache_get_u64(&l->rd);

	for (uint64_t i = 0; i < nr && !l->rd.bad; i++) {
		char *dir = diskcache_get_str(&l->rd);
		struct kdir_why *w = xcalloc(1, sizeof(*w));

		w->subject = get_string(l);
		w->origin = get_origin(l);
		w->more = (int)diskcache_get_u64(&l->rd);
		w->parent = get_string(l);
		if (!dir || !w->subject)
			l->rd.bad = 1;
		if (dir)
			free(strmap_put(&m->dir_why, dir, w));
		else
			free(w);
		free(dir);
	}
	return l->rd.bad ? -1 : 0;
}

struct kbuild_map *kbuild_map_load(const struct strbuf *in)
{
	struct kbuild_map *m = xcalloc(1, sizeof(*m));
	struct loader l = { .ex = kbuild_exprs_new() };
	int ok;

	m->ex = l.ex;
	m->own_ex = 1;
	diskcache_reader_init(&l.rd, in);
	ok = diskcache_get_u64(&l.rd) == STORE_LAYOUT;
	m->stats.makefiles = diskcache_get_u64(&l.rd);
	m->stats.dirs = diskcache_get_u64(&l.rd);
	m->stats.files = diskcache_get_u64(&l.rd);
	m->stats.compiled = diskcache_get_u64(&l.rd);
	m->stats.with_free = diskcache_get_u64(&l.rd);
	m->stats.cached = diskcache_get_u64(&l.rd);
	ok = ok && !load_nodes(&l) && !load_origins(&l) && !load_files(&l, m) &&
	     !load_dirs(&l, m) && diskcache_reader_done(&l.rd);
	free(l.nodes);
	free(l.origins);
	if (!ok) {
		kbuild_map_free(m);
		return NULL;
	}
	return m;
}
