// SPDX-License-Identifier: GPL-2.0
/*
 * Files of a Kconfig tree: reading them through the reader (lexed once per id
 * through the cache), following `source` (globs, rsource/osource), catching
 * recursion; the list of architectures; the entry point of a parse.
 */
#include "kconfig-internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- messages ---- */

/* The longest message printed about a Kconfig file, in bytes (then "..."). */
#define KCONFIG_MESSAGE_MAX 512

#define KCONFIG_MESSAGES_PER_FILE 100

static void report(struct parse_state *ps, int is_error, const char *path, int line,
		   const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT, raw = STRBUF_INIT;
	int seen;

	if (is_error)
		ps->kc->nr_errors++;
	if (ps->opts->quiet) {
		return;
	}
	strbuf_addf(&raw, "%s:%d: ", path, line);
	strbuf_vaddf(&raw, fmt, ap);
	/* The tree's own bytes, bounded: no raw control or non-UTF-8 byte reaches a terminal. */
	strbuf_add_printable(&sb, raw.buf, raw.len, KCONFIG_MESSAGE_MAX);
	strbuf_release(&raw);
	/*
	 * Architectures share files: say each thing once per cache. And at
	 * most KCONFIG_MESSAGES_PER_FILE things of one file (10,000 unclosed
	 * menus are one mistake), then that the rest is not shown.
	 */
	struct strbuf key = STRBUF_INIT;
	uintptr_t said;
	strbuf_addf(&key, "\001%s", path);
	pthread_mutex_lock(&ps->cache->lock);
	seen = strmap_contains(&ps->cache->printed, sb.buf);
	said = (uintptr_t)strmap_get(&ps->cache->printed, key.buf);
	if (!seen) {
		strmap_put(&ps->cache->printed, sb.buf, NULL);
		strmap_put(&ps->cache->printed, key.buf, (void *)(said + 1));
	}
	pthread_mutex_unlock(&ps->cache->lock);
	if (!seen && said < KCONFIG_MESSAGES_PER_FILE) {
		if (is_error)
			error("%s", sb.buf);
		else
			warning("%s", sb.buf);
	} else if (!seen && said == KCONFIG_MESSAGES_PER_FILE) {
		strbuf_reset(&sb);
		strbuf_add_printable(&sb, path, strlen(path), KCONFIG_MESSAGE_MAX);
		warning("%s: more than %d errors and warnings; the rest of this file's "
			"are not shown", sb.buf, KCONFIG_MESSAGES_PER_FILE);
	}
	strbuf_release(&key);
	strbuf_release(&sb);
}

void kconfig_ps_error(struct parse_state *ps, const char *path, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(ps, 1, path, line, fmt, ap);
	va_end(ap);
}

void kconfig_ps_warning(struct parse_state *ps, const char *path, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(ps, 0, path, line, fmt, ap);
	va_end(ap);
}

const char *kconfig_ps_current_path(struct parse_state *ps) { return ps->path ? ps->path : ""; }
int kconfig_ps_current_line(struct parse_state *ps) { return ps->line; }
struct kconfig *kconfig_ps_kconfig(struct parse_state *ps) { return ps->kc; }

/* ---- files ---- */

/* The most path -> id answers kept (about 100 bytes each). */
#define KCONFIG_IDS_MAX (1 << 18)


static size_t lexed_bytes(const struct kconfig_lexed *lf)
{
	size_t n = sizeof(*lf) + lf->alloc_lines * sizeof(*lf->lines) +
		   lf->alloc_toks * sizeof(*lf->toks) + lf->text.alloc +
		   lf->alloc_msgs * sizeof(*lf->msgs);

	for (size_t i = 0; i < lf->nr_msgs; i++)
		n += strlen(lf->msgs[i].msg) + 1;
	return n;
}

/* Under the lock: one more parse reads lf. */
static void cache_use(struct kconfig_cache *cache, struct kconfig_lexed *lf)
{
	lf->users++;
	lf->last_use = ++cache->clock;
}

static struct kconfig_lexed *cache_find(struct kconfig_cache *cache, const char *id)
{
	struct kconfig_lexed *lf;

	pthread_mutex_lock(&cache->lock);
	lf = strmap_get(&cache->lexed, id);
	if (lf) {
		cache->nr_reused++;
		cache_use(cache, lf);
	}
	pthread_mutex_unlock(&cache->lock);
	return lf;
}

/* Adds lf; when another thread was first, frees lf and returns theirs. */
static struct kconfig_lexed *cache_add(struct kconfig_cache *cache, const char *id,
				       struct kconfig_lexed *lf)
{
	struct kconfig_lexed *had;

	pthread_mutex_lock(&cache->lock);
	had = strmap_get(&cache->lexed, id);
	if (!had) {
		lf->bytes = lexed_bytes(lf);
		strmap_put(&cache->lexed, id, lf);
		cache->nr_lexed++;
		cache->bytes += lf->bytes;
		if (cache->bytes > cache->peak)
			cache->peak = cache->bytes;
		cache_use(cache, lf);
	} else {
		cache->nr_reused++;	/* lexed twice at once: count it as one file */
		cache_use(cache, had);
	}
	pthread_mutex_unlock(&cache->lock);
	if (had)
		kconfig_lexed_free(lf);
	return had ? had : lf;
}

static int by_last_use(const void *a, const void *b)
{
	const struct kconfig_lexed *x = *(const struct kconfig_lexed *const *)a;
	const struct kconfig_lexed *y = *(const struct kconfig_lexed *const *)b;

	return x->last_use < y->last_use ? -1 : x->last_use > y->last_use;
}

/*
 * Under the lock, past the budget: the least recently used files that no
 * parse reads go, until the cache holds 3/4 of its budget (one pass over
 * the map, not one per file).
 */
static void cache_evict(struct kconfig_cache *cache)
{
	struct strmap kept = STRMAP_INIT;
	struct strmap_entry *e;
	struct kconfig_lexed **idle = NULL;
	size_t nr = 0, alloc = 0, k = 0, freed = 0;
	size_t excess = cache->bytes - cache->budget / 4 * 3;
	uint64_t cut;

	strmap_for_each(&cache->lexed, e) {
		struct kconfig_lexed *lf = e->value;

		if (!lf->users) {
			ALLOC_GROW(idle, nr + 1, alloc);
			idle[nr++] = lf;
		}
	}
	if (nr)
		qsort(idle, nr, sizeof(*idle), by_last_use);
	while (k < nr && freed < excess)
		freed += idle[k++]->bytes;
	cut = k ? idle[k - 1]->last_use : 0;
	free(idle);
	if (!k)
		return;
	strmap_for_each(&cache->lexed, e) {
		struct kconfig_lexed *lf = e->value;

		if (lf->users || lf->last_use > cut) {
			strmap_put(&kept, e->key, lf);
			continue;
		}
		cache->bytes -= lf->bytes;
		cache->nr_evicted++;
		kconfig_lexed_free(lf);
	}
	strmap_clear(&cache->lexed, NULL);
	cache->lexed = kept;
}

/* The parse is done with lf (from cache_find or cache_add). */
static void cache_release(struct kconfig_cache *cache, struct kconfig_lexed *lf)
{
	pthread_mutex_lock(&cache->lock);
	lf->users--;
	if (cache->bytes > cache->budget)
		cache_evict(cache);
	pthread_mutex_unlock(&cache->lock);
}

/* file_id through the cache's memory of the reader's scope. */
static int scoped_file_id(const struct kconfig_reader *r, struct kconfig_cache *cache,
			  const char *path, char id[KCONFIG_ID_MAX])
{
	struct strbuf key = STRBUF_INIT;
	const char *known;
	int ret;

	if (!r->scope[0])
		return r->file_id(r->data, path, id);
	strbuf_addf(&key, "%s:%s", r->scope, path);
	pthread_mutex_lock(&cache->lock);
	known = strmap_get(&cache->ids, key.buf);
	if (known)
		strcpy(id, known);
	pthread_mutex_unlock(&cache->lock);
	if (known) {
		strbuf_release(&key);
		return *id ? 0 : 1;
	}
	ret = r->file_id(r->data, path, id);
	if (ret >= 0) {
		pthread_mutex_lock(&cache->lock);
		/* A memo of older commits' trees too: forgotten whole past its bound. */
		if (cache->ids.nr >= KCONFIG_IDS_MAX)
			strmap_clear(&cache->ids, free);
		if (!strmap_contains(&cache->ids, key.buf))
			strmap_put(&cache->ids, key.buf, xstrdup(ret ? "" : id));
		pthread_mutex_unlock(&cache->lock);
	}
	strbuf_release(&key);
	return ret;
}

/*
 * The lexed contents of `path`: 0 with *out set (*owned when the caller must
 * free it), 1 when there is no such file, -1 on error.
 */
static int get_lexed(const struct kconfig_reader *r, struct kconfig_cache *cache, const char *path,
		     struct kconfig_lexed **out, int *owned, struct strbuf *inputs)
{
	struct kconfig_file f = { 0 };
	char id[KCONFIG_ID_MAX];
	int ret;

	*owned = 0;
	if (r->file_id) {
		ret = scoped_file_id(r, cache, path, id);
		if (ret == 1)
			strbuf_addf(inputs, "- %s\n", path);
		if (ret)
			return ret;
		strbuf_addf(inputs, "%s %s\n", id, path);
		if ((*out = cache_find(cache, id)))
			return 0;
	}
	ret = r->read_file(r->data, path, &f);
	if (ret == 1 && !r->file_id)
		strbuf_addf(inputs, "- %s\n", path);
	if (ret)
		return ret;
	if (!r->file_id)
		strbuf_addf(inputs, "%s %s\n", f.id[0] ? f.id : "?", path);
	if (!f.id[0]) {
		*out = kconfig_lex(f.data, f.size);
		*owned = 1;
	} else if (r->file_id || !(*out = cache_find(cache, f.id))) {
		*out = cache_add(cache, f.id, kconfig_lex(f.data, f.size));
	}
	if (r->release_file)
		r->release_file(r->data, &f);
	return 0;
}

/* Parses one file; `path` is normalized. 0, or 1 when it does not exist, -1 on error. */
static int parse_file(struct parse_state *ps, const char *path)
{
	const char *saved_path = ps->path;
	int saved_line = ps->line;
	struct kconfig_lexed *lf;
	size_t i;
	int owned, ret;

	for (i = 0; i < ps->nr_files; i++) {
		if (!strcmp(ps->files[i].path, path)) {
			struct strbuf chain = STRBUF_INIT;

			for (; i < ps->nr_files; i++)
				strbuf_addf(&chain, "%s:%d -> ", ps->files[i].path,
					    i + 1 < ps->nr_files ? ps->files[i].line : ps->line);
			strbuf_addstr(&chain, path);
			kconfig_ps_error(ps, ps->path, ps->line, "recursive source: %s", chain.buf);
			strbuf_release(&chain);
			return 0;
		}
	}
	ret = get_lexed(ps->reader, ps->cache, path, &lf, &owned, &ps->kc->inputs);
	if (ret)
		return ret;
	if (ps->nr_files)
		ps->files[ps->nr_files - 1].line = ps->line;
	ALLOC_GROW(ps->files, ps->nr_files + 1, ps->alloc_files);
	ps->path = kconfig_tree_path(ps->kc, path);
	ps->files[ps->nr_files].path = ps->path;
	ps->files[ps->nr_files].line = 0;
	ps->nr_files++;
	ps->kc->nr_files++;

	for (i = 0; i < lf->nr_msgs; i++)
		kconfig_ps_warning(ps, ps->path, lf->msgs[i].line, "%s", lf->msgs[i].msg);
	kconfig_parse_lines(ps, lf);

	ps->nr_files--;
	ps->path = saved_path;
	ps->line = saved_line;
	if (owned)
		kconfig_lexed_free(lf);
	else
		cache_release(ps->cache, lf);
	return 0;
}

/* "./a//b" -> "a/b"; also drops "dir/.." pairs, as paths from macros may hold them. */
static char *normalize_path(const char *in)
{
	struct strvec parts = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	const char *p = in;
	size_t i;

	while (*p) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n == 2 && !strncmp(p, "..", 2) && parts.nr && strcmp(parts.v[parts.nr - 1], "..")) {
			free(parts.v[--parts.nr]);
		} else if (n && !(n == 1 && *p == '.')) {
			char *part = xstrndup(p, n);
			strvec_push(&parts, part);
			free(part);
		}
		p += n + (e != NULL);
	}
	strbuf_addstr(&sb, "");
	for (i = 0; i < parts.nr; i++)
		strbuf_addf(&sb, "%s%s", i ? "/" : "", parts.v[i]);
	strvec_clear(&parts);
	return strbuf_detach(&sb, NULL);
}

static int has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* fnmatch(3) without FNM_PATHNAME subtleties: * ? and [...] within one component. */
static int glob_match(const char *pat, const char *s)
{
	for (; *pat; pat++, s++) {
		if (*pat == '*') {
			for (;; s++) {
				if (glob_match(pat + 1, s))
					return 1;
				if (!*s)
					return 0;
			}
		}
		if (!*s)
			return 0;
		if (*pat == '[') {
			const char *q = pat + 1;
			int neg = *q == '!' || *q == '^', hit = 0;

			q += neg;
			for (; *q && (*q != ']' || q == pat + 1 + neg); q++) {
				if (q[1] == '-' && q[2] && q[2] != ']') {
					hit |= *s >= *q && *s <= q[2];
					q += 2;
				} else {
					hit |= *s == *q;
				}
			}
			if (!*q || hit == neg)
				return 0;
			pat = q;
		} else if (*pat != '?' && *pat != *s) {
			return 0;
		}
	}
	return !*s;
}

/* Expands a glob one component at a time through list_dir; appends sorted matches. */
static void glob_paths(struct parse_state *ps, const char *dir, const char *pattern, struct strvec *out)
{
	const char *slash = strchr(pattern, '/');
	char *comp = slash ? xstrndup(pattern, slash - pattern) : xstrdup(pattern);
	struct strvec names = STRVEC_INIT;
	size_t i;

	if (!has_glob(comp)) {
		char *next = *dir ? xstrfmt("%s/%s", dir, comp) : xstrdup(comp);

		if (slash)
			glob_paths(ps, next, slash + 1, out);
		else
			strvec_push(out, next);
		free(next);
		free(comp);
		return;
	}
	if (ps->reader->list_dir && !ps->reader->list_dir(ps->reader->data, dir, &names)) {
		strvec_sort(&names);
		for (i = 0; i < names.nr; i++) {
			char *next;

			if (names.v[i][0] == '.' && comp[0] != '.')
				continue;
			if (!glob_match(comp, names.v[i]))
				continue;
			next = *dir ? xstrfmt("%s/%s", dir, names.v[i]) : xstrdup(names.v[i]);
			if (slash)
				glob_paths(ps, next, slash + 1, out);
			else
				strvec_push(out, next);
			free(next);
		}
	}
	strvec_clear(&names);
	free(comp);
}

/* Old trees write `source "arch/$SRCARCH/Kconfig"`: $NAME from the environment. */
static char *expand_old_style(struct parse_state *ps, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "");
	while (*s) {
		const char *e = s + 1;
		char *name;
		const char *value;

		if (*s != '$') {
			strbuf_addch(&sb, *s++);
			continue;
		}
		while ((*e >= 'A' && *e <= 'Z') || (*e >= 'a' && *e <= 'z') ||
		       (*e >= '0' && *e <= '9') || *e == '_')
			e++;
		name = xstrndup(s + 1, e - s - 1);
		value = kconfig_preproc_get_env(ps->pp, name);
		if (!value) {
			struct kconfig_symbol *sym = kconfig_lookup(ps->kc, name);

			if (sym && sym->env)
				value = kconfig_preproc_get_env(ps->pp, sym->env);
		}
		if (value)
			strbuf_addstr(&sb, value);
		else
			strbuf_add(&sb, s, e - s);
		free(name);
		s = e;
	}
	return strbuf_detach(&sb, NULL);
}

void kconfig_parse_source(struct parse_state *ps, int kind, const char *pattern)
{
	/* coreboot's kconfig globs every source: a path that matches nothing is skipped. */
	int optional = kind == K_OSOURCE || kind == K_ORSOURCE ||
		       (ps->opts && ps->opts->source_globs);
	char *raw, *path;
	const char *here = ps->path;
	int line = ps->line;

	if (strchr(pattern, PROBE_MARK)) {
		char *text;

		/*
		 * Zephyr's osource "$(KCONFIG_BINARY_DIR)/...": a generated file
		 * that may not exist; Kconfiglib skips it quietly, so do we.
		 */
		if (optional)
			return;
		text = kconfig_preproc_unmark(ps->pp, pattern);
		kconfig_ps_error(ps, here, line, "cannot source \"%s\": its path depends on a tool or an unknown variable", text);
		free(text);
		return;
	}
	raw = strchr(pattern, '$') ? expand_old_style(ps, pattern) : xstrdup(pattern);
	if (kind == K_RSOURCE || kind == K_ORSOURCE) {
		const char *slash = strrchr(here, '/');
		char *rel = slash ? xstrfmt("%.*s/%s", (int)(slash - here), here, raw) : xstrdup(raw);
		free(raw);
		raw = rel;
	}
	path = normalize_path(raw);
	if (has_glob(path)) {
		struct strvec matches = STRVEC_INIT;
		size_t i;

		size_t read = 0;

		glob_paths(ps, "", path, &matches);
		/*
		 * glob_paths() expands a wildcard to every entry, files too:
		 * src/mainboard/<star>/Kconfig.name also gives src/mainboard/
		 * Kconfig/Kconfig.name (coreboot). A glob matches only what
		 * exists, so a path that is not there is no match.
		 */
		for (i = 0; i < matches.nr; i++)
			if (parse_file(ps, matches.v[i]) <= 0)
				read++;
		if (!read && !optional)
			kconfig_ps_error(ps, here, line, "no file matches \"%s\"", raw);
		strvec_clear(&matches);
	} else if (parse_file(ps, path) > 0 && !optional) {
		kconfig_ps_error(ps, here, line, "can't open file \"%s\"", raw);
	}
	free(path);
	free(raw);
}

/* ---- architectures ---- */

static int mentions_arch(const char *p, size_t n)
{
	static const char *const pats[] = {
		"arch/$(SRCARCH)", "arch/$SRCARCH", "arch/$(ARCH)", "arch/$ARCH",
	};
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(pats); i++)
		for (k = 0; k + strlen(pats[i]) <= n; k++)
			if (!memcmp(p + k, pats[i], strlen(pats[i])))
				return 1;
	return 0;
}

/*
 * Whether `source` lines of the file name arch/$(SRCARCH) (or the like);
 * appends the literal paths it sources to `next` (the search goes on there).
 */
static int sources_arch(const char *data, size_t size, struct strvec *next)
{
	const char *p = data, *end = data + size;

	while (p < end) {
		const char *eol = memchr(p, '\n', end - p), *q;

		if (!eol)
			eol = end;
		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		if (eol - p > 7 && !memcmp(p, "source", 6) && (p[6] == ' ' || p[6] == '\t')) {
			if (mentions_arch(p, eol - p))
				return 1;
			for (p += 7; p < eol && (*p == ' ' || *p == '\t' || *p == '"'); p++)
				;
			for (q = p; q < eol && *q != '"' && *q != ' ' && *q != '\t' && *q != '#'; q++)
				;
			if (q > p && !memchr(p, '$', q - p)) {
				char *path = xstrndup(p, q - p);
				strvec_push(next, path);
				free(path);
			}
		}
		p = eol + 1;
	}
	return 0;
}

static int file_exists(const struct kconfig_reader *r, const char *path)
{
	struct kconfig_file f = { 0 };
	char id[KCONFIG_ID_MAX];

	if (r->file_id)
		return r->file_id(r->data, path, id) == 0;
	if (r->read_file(r->data, path, &f))
		return 0;
	if (r->release_file)
		r->release_file(r->data, &f);
	return 1;
}

int kconfig_architectures(const struct kconfig_reader *r, const char *top, struct strvec *out)
{
	struct strvec level = STRVEC_INIT, next = STRVEC_INIT, names = STRVEC_INIT;
	size_t i;
	int depth, found = 0, nr = 0;

	if (!top)
		top = "Kconfig";
	/*
	 * Linux 6.x sources arch/$(SRCARCH)/Kconfig from arch/Kconfig, which
	 * init/Kconfig sources: look a few literal `source` levels deep.
	 */
	strvec_push(&level, top);
	for (depth = 0; depth < 3 && !found && level.nr; depth++) {
		for (i = 0; i < level.nr && !found; i++) {
			struct kconfig_file f = { 0 };
			int ret = r->read_file(r->data, level.v[i], &f);

			if (ret && !depth) {
				strvec_clear(&level);
				return error("cannot read %s", top);
			}
			if (ret)
				continue;
			found = sources_arch(f.data, f.size, &next);
			if (r->release_file)
				r->release_file(r->data, &f);
		}
		strvec_clear(&level);
		level = next;
		memset(&next, 0, sizeof(next));
	}
	strvec_clear(&level);
	if (!found || !r->list_dir || r->list_dir(r->data, "arch", &names))
		return 0;
	strvec_sort(&names);
	for (i = 0; i < names.nr; i++) {
		char *path = xstrfmt("arch/%s/Kconfig", names.v[i]);

		if (file_exists(r, path)) {
			strvec_push(out, names.v[i]);
			nr++;
		}
		free(path);
	}
	strvec_clear(&names);
	return nr;
}

/* ---- the entry point ---- */

static void set_env(struct parse_state *ps, const char *arch)
{
	const struct kconfig_options *o = ps->opts;
	const char *srcarch = o->srcarch ? o->srcarch : arch;
	size_t i;

	kconfig_preproc_set_env(ps->pp, "srctree", ".");
	if (arch) {
		kconfig_preproc_set_env(ps->pp, "ARCH", arch);
		kconfig_preproc_set_env(ps->pp, "SRCARCH", srcarch);
		/* User-mode Linux sources the host's arch/<host>/um/Kconfig. */
		if (!strcmp(srcarch, "um")) {
			kconfig_preproc_set_env(ps->pp, "HEADER_ARCH", "x86");
			kconfig_preproc_set_env(ps->pp, "SUBARCH", "x86");
		}
	}
	for (i = 0; o->env && i < o->env->nr; i++) {
		const char *eq = strchr(o->env->v[i], '=');
		char *name;

		if (!eq)
			continue;
		name = xstrndup(o->env->v[i], eq - o->env->v[i]);
		kconfig_preproc_set_env(ps->pp, name, eq + 1);
		free(name);
	}
}

struct kconfig *kconfig_parse(const struct kconfig_reader *r, const char *arch,
			      const struct kconfig_options *opts)
{
	static const struct kconfig_options no_options;
	struct parse_state ps = { 0 };
	const char *top;
	int ret;

	if (!opts)
		opts = &no_options;
	top = opts->top ? opts->top : "Kconfig";
	ps.kc = kconfig_tree_alloc();
	ps.reader = r;
	ps.opts = opts;
	ps.cache = opts->cache ? opts->cache : kconfig_cache_new();
	ps.pp = kconfig_preproc_new(&ps);
	if (arch) {
		ps.kc->arch = kconfig_tree_path(ps.kc, arch);
		ps.kc->srcarch = kconfig_tree_path(ps.kc, opts->srcarch ? opts->srcarch : arch);
	}
	set_env(&ps, arch);

	ret = parse_file(&ps, top);
	if (ret > 0)
		error("cannot read %s", top);
	if (!ret)
		kconfig_tree_finish(ps.kc);

	while (ps.nr_blocks)
		free(ps.blocks[--ps.nr_blocks].chain);
	for (size_t i = 0; i < NR_TMP; i++)
		free(ps.tmp[i].buf);
	free(ps.blocks);
	free(ps.files);
	free(ps.xt);
	strvec_clear(&ps.scratch);
	kconfig_preproc_free(ps.pp);
	if (!opts->cache)
		kconfig_cache_free(ps.cache);
	if (ret) {
		kconfig_free(ps.kc);
		return NULL;
	}
	if (opts->path_prefix && *opts->path_prefix)
		kconfig_tree_prefix_paths(ps.kc, opts->path_prefix);
	return ps.kc;
}
