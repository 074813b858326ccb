// SPDX-License-Identifier: GPL-2.0
/*
 * The file conditions of the sources that the build runs through cpp other
 * than C's (buildfiles_info.cpp_suffixes): a device tree is built when a
 * `dtb-$(CONFIG_X) += board.dtb` of its directory's Makefile lists it; a file
 * that others #include (a .dtsi, an .env of include/env/) when one of them
 * is. Where the build says nothing (U-Boot's *-u-boot.dtsi overlays, board
 * .env files, linker scripts), there is no condition: the blocks are checked
 * alone, and a warning says so once per suffix.
 */
#include "trees.h"

#include <pthread.h>
#include <string.h>

#include "diskcache.h"
#include "process.h"

struct trees_sources {
	struct strmap conds;		/* "<i> <path>" → struct kbuild_file * (NULL: none) */
	struct strmap includers;	/* a basename → struct strvec * of the files including it */
	int scanned;
};

static void free_strvec(void *p)
{
	strvec_clear(p);
	free(p);
}

static void free_file(void *p)
{
	struct kbuild_file *kf = p;

	if (kf)
		free((char *)kf->path);
	free(kf);
}

void trees_sources_free(struct trees_sources *s)
{
	if (!s)
		return;
	strmap_clear(&s->conds, free_file);
	strmap_clear(&s->includers, free_strvec);
	free(s);
}

void trees_sources_forget(struct trees_sources *s, size_t i)
{
	struct strmap kept = STRMAP_INIT;
	struct strmap_entry *e;
	char *prefix;

	if (!s)
		return;
	prefix = xstrfmt("%zu ", i);
	strmap_for_each(&s->conds, e) {
		if (starts_with(e->key, prefix))
			free_file(e->value);
		else
			strmap_put(&kept, e->key, e->value);
	}
	strmap_clear(&s->conds, NULL);
	s->conds = kept;
	free(prefix);
}

struct include_scan {
	struct trees *t;
	struct trees_sources *s;
};

/* Each `#include "name"`, `#include <name>` and `/include/ "name"` line of a blob. */
static void scan_includes(struct include_scan *is, const char *path, const struct blob *b)
{
	const char *p = b->data, *end = b->data + b->size;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *q = p;

		if (!eol)
			eol = end;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if ((eol - q > 8 && !memcmp(q, "#include", 8)) ||
		    (eol - q > 9 && !memcmp(q, "/include/", 9))) {
			const char *open = q + 8, *close, *base;

			while (open < eol && *open != '"' && *open != '<')
				open++;
			close = open < eol ? memchr(open + 1, *open == '<' ? '>' : '"',
						    (size_t)(eol - open - 1)) : NULL;
			if (close) {
				struct strvec *v;
				char *name;

				for (base = close; base > open + 1 && base[-1] != '/'; base--)
					;
				name = xstrndup(base, (size_t)(close - base));
				v = strmap_get(&is->s->includers, name);
				if (!v) {
					v = xcalloc(1, sizeof(*v));
					strmap_put(&is->s->includers, name, v);
				}
				strvec_push(v, path);
				free(name);
			}
		}
		p = eol + 1;
	}
}

static int include_file(const struct tree_file *f, void *data)
{
	struct include_scan *is = data;
	struct blob *b;

	if (trees_is_c_file(f->path) || !trees_is_source(is->t, f->path))
		return 0;
	if (repo_read_blob(is->t->env.repo, f->blob, &b) < 0)
		return 0;
	scan_includes(is, f->path, b);
	blob_release(is->t->env.repo, b);
	return 0;
}

struct listing {
	const struct trees *t;
	struct strbuf *out;
};

static int list_source(const struct tree_file *f, void *data)
{
	struct listing *l = data;
	char hex[GIT_OID_HEXSZ + 1];

	if (!trees_is_c_file(f->path) && trees_is_source(l->t, f->path))
		strbuf_addf(l->out, "%s %s\n", git_oid_tostr(hex, sizeof(hex), f->blob), f->path);
	return 0;
}

/*
 * The key of the includers' scan in the disk cache: the digest of the
 * sources it reads, paths and blobs (an earlier run's walk for the same root
 * tree is kept too, "sourcelist"). NULL when there is no cache.
 */
static char *includers_key(struct trees *t)
{
	struct diskcache *dc = t->env.diskcache;
	struct strbuf sb = STRBUF_INIT, suffixes = STRBUF_INIT;
	struct listing l = { t, &sb };
	const struct strmap_entry *e;
	char hex[GIT_OID_HEXSZ + 1], *tree_key = NULL, *key;
	git_commit *c;
	git_oid id;

	if (!dc || !t->bf || !t->bf->cpp_suffixes)
		return NULL;
	{
		/* Sorted: the map's order is not the same once read back from the cache. */
		struct strvec names = STRVEC_INIT;

		strmap_for_each(t->bf->cpp_suffixes, e)
			strvec_push(&names, e->key);
		strvec_sort(&names);
		for (size_t i = 0; i < names.nr; i++)
			strbuf_addf(&suffixes, " %s", names.v[i]);
		strvec_clear(&names);
	}
	if (!repo_lookup_commit(t->env.repo, repo_git(t->env.repo), &t->commit, &c)) {
		tree_key = xstrfmt("%s%s", git_oid_tostr(hex, sizeof(hex), git_commit_tree_id(c)),
				   strbuf_str(&suffixes));
		git_commit_free(c);
		if (diskcache_read(dc, "sourcelist", tree_key, &sb) > 0 && sb.len == GIT_OID_HEXSZ) {
			free(tree_key);
			strbuf_release(&suffixes);
			return strbuf_detach(&sb, NULL);
		}
		strbuf_reset(&sb);
	}
	repo_for_each_file(t->env.repo, &t->commit, "", list_source, &l);
	if (suffixes.len)
		strbuf_add(&sb, suffixes.buf, suffixes.len);
	repo_hash_blob(sb.buf ? sb.buf : "", sb.len, &id);
	key = xstrdup(git_oid_tostr(hex, sizeof(hex), &id));
	if (tree_key)
		diskcache_write(dc, "sourcelist", tree_key, key, GIT_OID_HEXSZ);
	free(tree_key);
	strbuf_release(&sb);
	strbuf_release(&suffixes);
	return key;
}

static int includers_from_cache(struct trees *t, const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	struct diskcache_reader rd;
	uint64_t nr;

	if (diskcache_read(t->env.diskcache, "includers", key, &sb) <= 0) {
		strbuf_release(&sb);
		return 0;
	}
	diskcache_reader_init(&rd, &sb);
	nr = diskcache_get_u64(&rd);
	for (uint64_t i = 0; i < nr && !rd.bad; i++) {
		char *name = diskcache_get_str(&rd);
		uint64_t n = diskcache_get_u64(&rd);
		struct strvec *v = xcalloc(1, sizeof(*v));

		for (uint64_t k = 0; k < n && !rd.bad; k++) {
			char *path = diskcache_get_str(&rd);

			if (path)
				strvec_push(v, path);
			else
				rd.bad = 1;
			free(path);
		}
		if (name && !rd.bad && !strmap_get(&t->sources->includers, name))
			strmap_put(&t->sources->includers, name, v);
		else
			free_strvec(v);
		rd.bad |= !name;
		free(name);
	}
	strbuf_release(&sb);
	if (diskcache_reader_done(&rd))
		return 1;
	warning("the cache entry of the sources' includes %s does not decode: reading them again",
		key);
	strmap_clear(&t->sources->includers, free_strvec);
	return 0;
}

static void includers_to_cache(struct trees *t, const char *key)
{
	struct strbuf sb = STRBUF_INIT;
	struct strvec names = STRVEC_INIT;
	const struct strmap_entry *e;

	strmap_for_each(&t->sources->includers, e)
		strvec_push(&names, e->key);
	strvec_sort(&names);
	diskcache_put_u64(&sb, names.nr);
	for (size_t i = 0; i < names.nr; i++) {
		const struct strvec *v = strmap_get(&t->sources->includers, names.v[i]);

		diskcache_put_str(&sb, names.v[i]);
		diskcache_put_u64(&sb, v->nr);
		for (size_t k = 0; k < v->nr; k++)
			diskcache_put_str(&sb, v->v[k]);
	}
	diskcache_write(t->env.diskcache, "includers", key, sb.buf, sb.len);
	strvec_clear(&names);
	strbuf_release(&sb);
}

/* Every source's includes, read once (or from the disk cache). */
static void scan_all_includes(struct trees *t)
{
	struct include_scan is = { t, t->sources };
	char *key = includers_key(t);

	if (key && includers_from_cache(t, key)) {
		free(key);
		return;
	}
	repo_for_each_file(t->env.repo, &t->commit, "", include_file, &is);
	if (key && !process_interrupted())
		includers_to_cache(t, key);
	free(key);
}

/* A device tree's output ("board.dts" → "board.dtb"), or NULL. */
static char *dtb_name(const char *base)
{
	if (ends_with(base, ".dts"))
		return xstrfmt("%.*sdtb", (int)strlen(base) - 3, base);
	if (ends_with(base, ".dtso"))
		return xstrfmt("%.*sdtbo", (int)strlen(base) - 4, base);
	return NULL;
}

static const struct kbuild_expr *condition(struct trees *t, struct kbuild_exprs *ex,
					   const char *path, int depth, int *none);

/* The OR of the conditions of the files that include `path`; *none when one has none. */
static const struct kbuild_expr *included(struct trees *t, struct kbuild_exprs *ex,
					  const char *path, int depth, int *none)
{
	struct trees_sources *s = t->sources;
	const char *base = strrchr(path, '/');
	const struct strvec *by;
	const struct kbuild_expr *c = NULL;

	if (!s->scanned) {
		s->scanned = 1;
		scan_all_includes(t);
	}
	by = strmap_get(&s->includers, base ? base + 1 : path);
	for (size_t i = 0; by && i < by->nr && !*none; i++) {
		const struct kbuild_expr *e;

		if (!strcmp(by->v[i], path))
			continue;
		e = condition(t, ex, by->v[i], depth + 1, none);
		if (e)
			c = c ? kbuild_expr_or(ex, c, e) : e;
		else
			*none = 1;
	}
	return *none ? NULL : c;
}

/* The file's condition, or NULL (with *none set) when the build gives it none. */
static const struct kbuild_expr *condition(struct trees *t, struct kbuild_exprs *ex,
					   const char *path, int depth, int *none)
{
	const char *slash = strrchr(path, '/');
	char *dtb = dtb_name(slash ? slash + 1 : path);
	const struct kbuild_expr *own = NULL, *inc;

	if (depth > 8) {
		*none = 1;
		free(dtb);
		return NULL;
	}
	if (dtb) {
		struct kbuild_repo_ctx ctx = { t->env.repo, &t->commit, NULL };
		struct kbuild_reader rd;
		char *dir = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup("");

		kbuild_repo_reader(&rd, &ctx);
		own = kbuild_list_condition(&rd, ex, dir, "dtb", dtb);
		free(dir);
		free(dtb);
	}
	inc = included(t, ex, path, depth, none);
	if (*none)
		return NULL;
	if (inc)
		own = own ? kbuild_expr_or(ex, own, inc) : inc;
	if (!own)
		*none = 1;
	return own;
}

/* Said once per suffix and run: the build gives these files no condition. */
static void say_none(struct trees *t, const char *path)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static struct strmap said = STRMAP_INIT;
	const char *dot = strrchr(path, '.');

	if (t->env.quiet || t->env.quiet_unbuilt || !dot)
		return;
	pthread_mutex_lock(&lock);
	if (!strmap_contains(&said, dot)) {
		strmap_put(&said, dot, NULL);
		warning("%s: the build gives it no condition (no list names it, no listed file"
			" includes it): %s files without one are checked alone", path, dot);
	}
	pthread_mutex_unlock(&lock);
}

const struct kbuild_file *trees_source_condition(struct trees *t, size_t i, const char *path)
{
	struct trees *o = t->owner ? t->owner : t;
	struct kbuild_map *map = trees_kbuild(t, i);
	pthread_mutex_t *lock = o->locks ? &o->locks[trees_nr_models(o)] : NULL;
	struct kbuild_file *kf = NULL;
	char *key;

	if (!map)
		return NULL;
	key = xstrfmt("%zu %s", i, path);
	if (lock)
		pthread_mutex_lock(lock);
	if (!o->sources)
		o->sources = xcalloc(1, sizeof(*o->sources));
	if (strmap_contains(&o->sources->conds, key)) {
		kf = strmap_get(&o->sources->conds, key);
	} else {
		struct kbuild_exprs *ex = kbuild_map_exprs(map);
		int none = 0;
		const struct kbuild_expr *c = condition(o, ex, path, 0, &none);

		if (c && !none) {
			kf = xcalloc(1, sizeof(*kf));
			kf->path = xstrdup(path);
			kf->cond = kf->builtin = c;
			kf->module = kbuild_expr_false(ex);
			kf->kind = KBUILD_OBJECT;
		}
		strmap_put(&o->sources->conds, key, kf);
		if (!kf)
			say_none(o, path);
	}
	if (lock)
		pthread_mutex_unlock(lock);
	free(key);
	return kf;
}
