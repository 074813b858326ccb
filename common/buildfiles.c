// SPDX-License-Identifier: GPL-2.0
#define PCRE2_CODE_UNIT_WIDTH 8
#include "buildfiles.h"
#include "diskcache.h"
#include "kconfig.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What one subtree holds, memoized by the subtree's id. */
struct subtree {
	git_oid digest;
	/* Blob ids of the Kconfig and Makefile files below, with paths relative to the subtree. */
	struct strvec kconfig_ids, makefile_ids;
};

struct commit_info {
	struct buildfiles_info info;
	struct strmap kconfig_defined, cmdline_defined, arch_mentions, cpp_suffixes;
	struct strmap kconfig_outside;	/* path → "test" or "orphan ,A,B," (owned) */
	struct strvec locations;	/* owns the values of both maps */
};

struct buildfiles {
	struct repo *repo;
	struct strmap subtrees;		/* tree id hex → struct subtree */
	struct strmap by_digest;	/* digest hex → struct commit_info */
	struct strmap by_commit;	/* commit hex → struct commit_info (not owned) */
	struct strmap blob_names;	/* blob id hex + kind → struct strvec of names */
	pcre2_code *re_cmdline, *re_word;
	pcre2_match_data *md;
	/* The names of every Makefile whose values run cpp (of the last digest scanned). */
	struct strvec cpp_markers;
	struct strmap cpp_rules;	/* blob id hex + 'c' → "suffix line" of its cpp rules */
	struct diskcache *diskcache;	/* NULL: none */
	char *srctree;			/* buildfiles_set_srctree */
	/* buildfiles_kconfig_defines: the name asked, and per tree and blob id 1 (defines) or 2. */
	char *defines_name;
	struct strmap defines_trees, defines_blobs;
};

int buildfiles_is_kconfig_file(const char *name)
{
	/* Linux, U-Boot, Xen: Kconfig*; Zephyr also *.kconfig; BusyBox/buildroot Config.in. */
	return starts_with(name, "Kconfig") || ends_with(name, ".kconfig") ||
	       !strcmp(name, "Config.in") || starts_with(name, "Config.src");
}

/*
 * Is some directory of `path` (up to `end`) a test suite's, `test` or
 * `tests` (Linux's and U-Boot's scripts/kconfig/tests/<case>/defconfig,
 * U-Boot's tools/buildman/test/configs/)? Its files are a tool's test
 * inputs, not configurations of the tree.
 */
static int in_test_directory(const char *path, const char *end)
{
	for (const char *p = path; p < end;) {
		const char *slash = memchr(p, '/', end - p);
		size_t len = (slash ? slash : end) - p;

		if ((len == 4 && !strncmp(p, "test", 4)) || (len == 5 && !strncmp(p, "tests", 5)))
			return 1;
		if (!slash)
			break;
		p = slash + 1;
	}
	return 0;
}

int buildfiles_is_defconfig(const char *path)
{
	const char *base = strrchr(path, '/'), *dir_end = base ? base : path;

	base = base ? base + 1 : path;
	if (ends_with(base, ".h") || ends_with(base, ".c") || buildfiles_is_kconfig_file(base) ||
	    buildfiles_is_makefile(base) || starts_with(base, "README") ||
	    in_test_directory(path, dir_end))
		return 0;
	/*
	 * Linux's and Zephyr's *_defconfig, U-Boot's and coreboot's configs/,
	 * Linux's arch/<a>/configs/ fragments: a file named defconfig or in a
	 * directory named configs (U-Boot's include/configs/ holds headers).
	 */
	if (ends_with(base, "defconfig"))
		return 1;
	return dir_end - path >= 7 && !strncmp(dir_end - 7, "configs", 7) &&
	       (dir_end - path == 7 || dir_end[-8] == '/');
}

int buildfiles_is_makefile(const char *name)
{
	/* Zephyr's CMakeLists.txt give its file conditions as Makefiles give Linux's. */
	return !strcmp(name, "Makefile") || !strcmp(name, "Kbuild") || starts_with(name, "Makefile.") ||
	       starts_with(name, "Kbuild.") || ends_with(name, ".mk") || !strcmp(name, "GNUmakefile") ||
	       !strcmp(name, "CMakeLists.txt");
}

static pcre2_code *compile(const char *pattern)
{
	int err;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
				       PCRE2_MULTILINE, &err, &off, NULL);

	if (!re)
		die("internal error: bad pattern %s", pattern);
	pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	return re;
}

struct buildfiles *buildfiles_new(struct repo *r)
{
	struct buildfiles *b = xcalloc(1, sizeof(*b));

	b->repo = r;
	b->re_cmdline = compile("-D[ \\t]*CONFIG_([A-Za-z0-9_]+)");
	b->re_word = compile("\\b([A-Z][A-Z0-9_]+)\\b");
	b->md = pcre2_match_data_create(4, NULL);
	return b;
}

static void free_subtree(void *p)
{
	struct subtree *s = p;

	strvec_clear(&s->kconfig_ids);
	strvec_clear(&s->makefile_ids);
	free(s);
}

static void free_commit_info(void *p)
{
	struct commit_info *ci = p;

	strmap_clear(&ci->kconfig_defined, NULL);
	strmap_clear(&ci->cmdline_defined, NULL);
	strmap_clear(&ci->arch_mentions, free);
	strmap_clear(&ci->kconfig_outside, free);
	strmap_clear(&ci->cpp_suffixes, NULL);
	strvec_clear(&ci->locations);
	free(ci);
}

static void free_strvec(void *p)
{
	strvec_clear(p);
	free(p);
}

/* buildfiles_trim(): how much of each memo a range keeps at most. */
#define TRIM_INFOS 16
#define TRIM_BLOBS 50000
#define TRIM_SUBTREES 200000

static int kept_digest(const struct commit_info *ci, const git_oid *keep, size_t nr_keep)
{
	for (size_t i = 0; i < nr_keep; i++)
		if (git_oid_equal(&ci->info.digest, &keep[i]))
			return 1;
	return 0;
}

void buildfiles_trim(struct buildfiles *b, const git_oid *keep, size_t nr_keep)
{
	if (b->by_digest.nr > TRIM_INFOS) {
		struct strmap digests = STRMAP_INIT, commits = STRMAP_INIT;
		struct strmap_entry *e;

		/* by_commit first: its values are by_digest's, still there. */
		strmap_for_each(&b->by_commit, e)
			if (kept_digest(e->value, keep, nr_keep))
				strmap_put(&commits, e->key, e->value);
		strmap_for_each(&b->by_digest, e) {
			if (kept_digest(e->value, keep, nr_keep))
				strmap_put(&digests, e->key, e->value);
			else
				free_commit_info(e->value);
		}
		strmap_clear(&b->by_commit, NULL);
		strmap_clear(&b->by_digest, NULL);
		b->by_commit = commits;
		b->by_digest = digests;
	}
	if (b->blob_names.nr > TRIM_BLOBS)
		strmap_clear(&b->blob_names, free_strvec);
	if (b->cpp_rules.nr > TRIM_BLOBS)
		strmap_clear(&b->cpp_rules, free_strvec);
	if (b->subtrees.nr > TRIM_SUBTREES)
		strmap_clear(&b->subtrees, free_subtree);
}

void buildfiles_free(struct buildfiles *b)
{
	if (!b)
		return;
	strmap_clear(&b->subtrees, free_subtree);
	strmap_clear(&b->by_digest, free_commit_info);
	strmap_clear(&b->by_commit, NULL);
	strmap_clear(&b->blob_names, free_strvec);
	strvec_clear(&b->cpp_markers);
	strmap_clear(&b->cpp_rules, free_strvec);
	free(b->defines_name);
	free(b->srctree);
	strmap_clear(&b->defines_trees, NULL);
	strmap_clear(&b->defines_blobs, NULL);
	pcre2_code_free(b->re_cmdline);
	pcre2_code_free(b->re_word);
	pcre2_match_data_free(b->md);
	free(b);
}

/* A tree that cannot be read: an error, NULL. */
static void *tree_error(const git_oid *tree_id)
{
	char hex[GIT_OID_HEXSZ + 1];
	const git_error *e = git_error_last();

	error("cannot read tree %s: %s", git_oid_tostr(hex, sizeof(hex), tree_id),
	      e && e->message ? e->message : "unknown error");
	return NULL;
}

/*
 * Entries are "<blob hex> <path>"; the digest covers them in tree order.
 * NULL after an error (a tree that cannot be read).
 */
static struct subtree *walk(struct buildfiles *b, const git_oid *tree_id)
{
	char hex[GIT_OID_HEXSZ + 1];
	struct subtree *s;
	git_tree *tree;
	struct strbuf all = STRBUF_INIT;

	git_oid_tostr(hex, sizeof(hex), tree_id);
	s = strmap_get(&b->subtrees, hex);
	if (s)
		return s;
	if (git_tree_lookup(&tree, repo_git(b->repo), tree_id) < 0)
		return tree_error(tree_id);
	s = xcalloc(1, sizeof(*s));
	for (size_t i = 0, n = git_tree_entrycount(tree); i < n; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		const char *name = git_tree_entry_name(e);
		git_object_t type = git_tree_entry_type(e);

		git_oid_tostr(hex, sizeof(hex), git_tree_entry_id(e));
		if (type == GIT_OBJECT_TREE) {
			struct subtree *sub = walk(b, git_tree_entry_id(e));
			char dhex[GIT_OID_HEXSZ + 1];

			if (!sub) {
				git_tree_free(tree);
				strbuf_release(&all);
				free_subtree(s);
				return NULL;
			}
			if (!sub->kconfig_ids.nr && !sub->makefile_ids.nr)
				continue;
			for (size_t j = 0; j < sub->kconfig_ids.nr; j++)
				strvec_pushf(&s->kconfig_ids, "%.40s %s/%s", sub->kconfig_ids.v[j], name,
					     sub->kconfig_ids.v[j] + 41);
			for (size_t j = 0; j < sub->makefile_ids.nr; j++)
				strvec_pushf(&s->makefile_ids, "%.40s %s/%s", sub->makefile_ids.v[j], name,
					     sub->makefile_ids.v[j] + 41);
			git_oid_tostr(dhex, sizeof(dhex), &sub->digest);
			strbuf_addf(&all, "T %s %s\n", dhex, name);
		} else if (type == GIT_OBJECT_BLOB) {
			if (buildfiles_is_kconfig_file(name)) {
				strvec_pushf(&s->kconfig_ids, "%s %s", hex, name);
				strbuf_addf(&all, "K %s %s\n", hex, name);
			} else if (buildfiles_is_makefile(name)) {
				strvec_pushf(&s->makefile_ids, "%s %s", hex, name);
				strbuf_addf(&all, "M %s %s\n", hex, name);
			}
		}
	}
	git_tree_free(tree);
	repo_hash_blob(all.len ? all.buf : "", all.len, &s->digest);
	strbuf_release(&all);
	git_oid_tostr(hex, sizeof(hex), tree_id);
	strmap_put(&b->subtrees, hex, s);
	return s;
}

static void push_definition(const char *name, size_t len, int line, void *arg)
{
	strvec_pushf(arg, "%.*s %d", (int)len, name, line);
}

/* Entries "s<path>", "r<path>" (relative to the file), "m" (a mainmenu). */
static void push_source(int relative, const char *path, size_t len, void *arg)
{
	strvec_pushf(arg, "%c%.*s", relative < 0 ? 'm' : relative ? 'r' : 's', (int)len, path);
}

/*
 * The names a pattern's first group captures in a blob (re NULL: the names
 * its Kconfig lines define), memoized per blob and kind.
 */
static const struct strvec *blob_names(struct buildfiles *b, const char *blob_hex,
				       pcre2_code *re, char kind)
{
	char key[GIT_OID_HEXSZ + 3];
	struct strvec *names;
	struct strmap *memo;
	struct blob *blob;
	git_oid id;
	PCRE2_SIZE start = 0, counted = 0;
	int line = 1;

	snprintf(key, sizeof(key), "%.40s%c", blob_hex, kind);
	memo = kind == 'c' ? &b->cpp_rules : &b->blob_names;
	names = strmap_get(memo, key);
	if (names)
		return names;
	names = xcalloc(1, sizeof(*names));
	strmap_put(memo, key, names);
	if (git_oid_fromstrn(&id, blob_hex, GIT_OID_HEXSZ) < 0 || repo_read_blob(b->repo, &id, &blob) < 0)
		return names;
	/* Entries are "NAME LINE". */
	if (!re && kind == 'k')
		kconfig_text_for_each_definition(blob->data, blob->size, push_definition, names);
	else if (!re && kind == 's')
		kconfig_text_for_each_source(blob->data, blob->size, push_source, names);
	else if (!re && kind == 'n')
		buildfiles_cpp_markers(blob->data, blob->size, names);
	else if (!re)
		buildfiles_cpp_suffixes(blob->data, blob->size, &b->cpp_markers, names);
	while (re && start < blob->size &&
	       pcre2_match(re, (PCRE2_SPTR)blob->data, blob->size, start, 0, b->md, NULL) > 1) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(b->md);

		for (; counted < ov[2]; counted++)
			line += blob->data[counted] == '\n';
		strvec_pushf(names, "%.*s %d", (int)(ov[3] - ov[2]), blob->data + ov[2], line);
		start = ov[1] > start ? ov[1] : start + 1;
	}
	blob_release(b->repo, blob);
	return names;
}

/* "orphan ,A,B,": the names a Kconfig file outside the model defines itself. */
static char *orphan_names(struct buildfiles *b, const char *id)
{
	const struct strvec *names = blob_names(b, id, NULL, 'k');
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "orphan ,");
	for (size_t j = 0; j < names->nr; j++)
		strbuf_addf(&sb, "%.*s,", (int)strcspn(names->v[j], " "), names->v[j]);
	return strbuf_detach(&sb, NULL);
}

/*
 * The files of `ids` ("<blob hex> <path>") that belong to the Kconfig model
 * into *out; the paths of the others into *outside, "test" for those under a
 * test directory (kconfig's test inputs), "orphan ,A,B," for the others
 * with the names they define.
 */
static void model_kconfig_ids(struct buildfiles *b, const struct strvec *ids, struct strvec *out,
			      struct strmap *outside)
{
	struct buildfiles_kconfig_file *files = xcalloc(ids->nr ? ids->nr : 1, sizeof(*files));
	char *in = xcalloc(ids->nr ? ids->nr : 1, 1);

	for (size_t i = 0; i < ids->nr; i++) {
		files[i].path = ids->v[i] + 41;
		files[i].sources = blob_names(b, ids->v[i], NULL, 's');
	}
	buildfiles_model_files(files, ids->nr, b->srctree, in);
	for (size_t i = 0; i < ids->nr; i++) {
		const char *path = ids->v[i] + 41, *slash = strrchr(path, '/');

		if (in[i])
			strvec_push(out, ids->v[i]);
		else if (in_test_directory(path, slash ? slash : path))
			free(strmap_put(outside, path, xstrdup("test")));
		else
			free(strmap_put(outside, path, orphan_names(b, ids->v[i])));
	}
	free(files);
	free(in);
}

/* Fills `map` with NAME → "path:line" over the files `ids` ("<blob hex> <path>"). */
static void collect(struct buildfiles *b, struct commit_info *ci, const struct strvec *ids,
		    pcre2_code *re, char kind, struct strmap *map)
{
	/* The locations strvec grows: remember indexes, point into it at the end. */
	size_t first = ci->locations.nr;

	for (size_t i = 0; i < ids->nr; i++) {
		const struct strvec *names = blob_names(b, ids->v[i], re, kind);

		for (size_t j = 0; j < names->nr; j++) {
			const char *sp = strchr(names->v[j], ' ');
			char *name = xstrndup(names->v[j], (size_t)(sp - names->v[j]));

			if (!strmap_get(map, name)) {
				strvec_pushf(&ci->locations, "%s:%s", ids->v[i] + 41, sp + 1);
				strmap_put(map, name, (void *)(uintptr_t)(ci->locations.nr - first));
			}
			free(name);
		}
	}
	{
		struct strmap_entry *e;

		strmap_for_each(map, e)
			e->value = ci->locations.v[first + (uintptr_t)e->value - 1];
	}
}

/*
 * For each name an arch/<a>/ (or <dir>/arch/<a>/) Kconfig file mentions, the architectures that
 * do: where to look first for a configuration that keeps a block alive.
 */
static void collect_arch_mentions(struct buildfiles *b, struct commit_info *ci,
				  const struct strvec *ids)
{
	for (size_t i = 0; i < ids->nr; i++) {
		const char *path = ids->v[i] + 41, *a, *slash;
		const struct strvec *names;
		char *arch;

		/* Xen's are under xen/arch/: one directory down. */
		a = starts_with(path, "arch/") ? path : strchr(path, '/');
		if (a && a != path)
			a++;
		if (!a || !starts_with(a, "arch/"))
			continue;
		a += 5;
		slash = strchr(a, '/');
		if (!slash)
			continue;
		arch = xstrndup(a, (size_t)(slash - a));
		names = blob_names(b, ids->v[i], b->re_word, 'w');
		for (size_t j = 0; j < names->nr; j++) {
			const char *sp = strchr(names->v[j], ' ');
			char *name = xstrndup(names->v[j], (size_t)(sp - names->v[j]));
			char *list = strmap_get(&ci->arch_mentions, name);

			if (!list) {
				strmap_put(&ci->arch_mentions, name, xstrfmt(",%s,", arch));
			} else {
				char *needle = xstrfmt(",%s,", arch);

				if (!strstr(list, needle)) {
					strmap_put(&ci->arch_mentions, name, xstrfmt("%s%s,", list, arch));
					free(list);
				}
				free(needle);
			}
			free(name);
		}
		free(arch);
	}
}

/*
 * The suffixes the Makefiles run through cpp. A rule may call cpp through a
 * name another Makefile defines (coreboot's PREPROCESS_ONLY): the names of
 * all come first, and each Makefile's rules are read again when they change.
 */
static void collect_cpp(struct buildfiles *b, struct commit_info *ci, const struct strvec *ids)
{
	struct strmap seen = STRMAP_INIT;
	struct strvec markers = STRVEC_INIT;
	int same;

	for (size_t i = 0; i < ids->nr; i++) {
		const struct strvec *names = blob_names(b, ids->v[i], NULL, 'n');

		for (size_t j = 0; j < names->nr; j++)
			if (!strmap_contains(&seen, names->v[j])) {
				strmap_put(&seen, names->v[j], NULL);
				strvec_push(&markers, names->v[j]);
			}
	}
	strmap_clear(&seen, NULL);
	strvec_sort(&markers);
	same = markers.nr == b->cpp_markers.nr;
	for (size_t i = 0; same && i < markers.nr; i++)
		same = !strcmp(markers.v[i], b->cpp_markers.v[i]);
	if (!same) {
		/* The rules' answers depend on the names: forget them. */
		strmap_clear(&b->cpp_rules, free_strvec);
		strvec_clear(&b->cpp_markers);
		b->cpp_markers = markers;
		memset(&markers, 0, sizeof(markers));
	}
	strvec_clear(&markers);
	collect(b, ci, ids, NULL, 'c', &ci->cpp_suffixes);
}

void buildfiles_set_diskcache(struct buildfiles *b, struct diskcache *dc)
{
	b->diskcache = dc;
}

void buildfiles_set_srctree(struct buildfiles *b, const char *srctree)
{
	free(b->srctree);
	b->srctree = srctree ? xstrdup(srctree) : NULL;
}

/* A scan's key in the disk cache: its digest, and the srctree its Kconfig model starts from. */
static char *info_key(const struct buildfiles *b, const char *digest)
{
	return b->srctree ? xstrfmt("%s srctree=%s", digest, b->srctree) : xstrdup(digest);
}

/* Entries of the disk cache: a map's size, then name and value of each, sorted by name. */
static void put_map(struct strbuf *sb, const struct strmap *map)
{
	struct strvec names = STRVEC_INIT;
	const struct strmap_entry *e;

	strmap_for_each(map, e)
		strvec_push(&names, e->key);
	strvec_sort(&names);
	diskcache_put_u64(sb, names.nr);
	for (size_t i = 0; i < names.nr; i++) {
		diskcache_put_str(sb, names.v[i]);
		diskcache_put_str(sb, strmap_get(map, names.v[i]));
	}
	strvec_clear(&names);
}

/* Values go to ci->locations (`owned`: the map's own strings instead). */
static void get_map(struct diskcache_reader *rd, struct commit_info *ci, struct strmap *map,
		    int owned)
{
	uint64_t nr = diskcache_get_u64(rd);

	for (uint64_t i = 0; i < nr && !rd->bad; i++) {
		char *name = diskcache_get_str(rd), *value = diskcache_get_str(rd);

		if (!name || !value) {
			rd->bad = 1;
		} else if (owned) {
			free(strmap_put(map, name, value));
			value = NULL;
		} else {
			/* strvec_push copies: the copy stays where it is as the vector grows. */
			strvec_push(&ci->locations, value);
			strmap_put(map, name, ci->locations.v[ci->locations.nr - 1]);
		}
		free(name);
		free(value);
	}
}

static void save_info(struct buildfiles *b, const struct commit_info *ci, const char *digest)
{
	struct strbuf sb = STRBUF_INIT;
	char *key;

	diskcache_put_u64(&sb, ci->info.nr_kconfig);
	diskcache_put_u64(&sb, ci->info.nr_makefiles);
	put_map(&sb, &ci->kconfig_defined);
	put_map(&sb, &ci->cmdline_defined);
	put_map(&sb, &ci->arch_mentions);
	put_map(&sb, &ci->kconfig_outside);
	put_map(&sb, &ci->cpp_suffixes);
	key = info_key(b, digest);
	diskcache_write(b->diskcache, "buildfiles", key, sb.buf, sb.len);
	free(key);
	strbuf_release(&sb);
}

/* What an earlier run found for the same build files, or NULL. */
static struct commit_info *load_info(struct buildfiles *b, const char *digest)
{
	struct strbuf sb = STRBUF_INIT;
	struct diskcache_reader rd;
	struct commit_info *ci;
	char *key = info_key(b, digest);
	int found = diskcache_read(b->diskcache, "buildfiles", key, &sb) > 0;

	free(key);
	if (!found) {
		strbuf_release(&sb);
		return NULL;
	}
	ci = xcalloc(1, sizeof(*ci));
	diskcache_reader_init(&rd, &sb);
	ci->info.nr_kconfig = diskcache_get_u64(&rd);
	ci->info.nr_makefiles = diskcache_get_u64(&rd);
	get_map(&rd, ci, &ci->kconfig_defined, 0);
	get_map(&rd, ci, &ci->cmdline_defined, 0);
	get_map(&rd, ci, &ci->arch_mentions, 1);
	get_map(&rd, ci, &ci->kconfig_outside, 1);
	get_map(&rd, ci, &ci->cpp_suffixes, 0);
	strbuf_release(&sb);
	if (!diskcache_reader_done(&rd)) {
		warning("the cache entry of build files %s does not decode: computing it again",
			digest);
		free_commit_info(ci);
		return NULL;
	}
	return ci;
}

/*
 * 1 when a Kconfig file under the tree defines b->defines_name, else 2;
 * memoized per tree. 0 after an error (a tree that cannot be read).
 */
static uintptr_t tree_defines(struct buildfiles *b, const git_oid *tree_id)
{
	char hex[GIT_OID_HEXSZ + 1];
	uintptr_t found = 2;
	git_tree *tree;

	git_oid_tostr(hex, sizeof(hex), tree_id);
	if ((found = (uintptr_t)strmap_get(&b->defines_trees, hex)))
		return found;
	found = 2;
	if (git_tree_lookup(&tree, repo_git(b->repo), tree_id) < 0) {
		tree_error(tree_id);
		return 0;
	}
	for (size_t i = 0, n = git_tree_entrycount(tree); i < n && found == 2; i++) {
		const git_tree_entry *e = git_tree_entry_byindex(tree, i);
		git_object_t type = git_tree_entry_type(e);
		struct blob *blob;

		if (type == GIT_OBJECT_TREE) {
			found = tree_defines(b, git_tree_entry_id(e));
			if (!found) {
				git_tree_free(tree);
				return 0;
			}
		} else if (type == GIT_OBJECT_BLOB && buildfiles_is_kconfig_file(git_tree_entry_name(e))) {
			git_oid_tostr(hex, sizeof(hex), git_tree_entry_id(e));
			found = (uintptr_t)strmap_get(&b->defines_blobs, hex);
			if (found)
				continue;
			found = 2;
			if (!repo_read_blob(b->repo, git_tree_entry_id(e), &blob)) {
				if (kconfig_text_defines(blob->data, blob->size, b->defines_name))
					found = 1;
				blob_release(b->repo, blob);
			}
			strmap_put(&b->defines_blobs, hex, (void *)found);
		}
	}
	git_tree_free(tree);
	git_oid_tostr(hex, sizeof(hex), tree_id);
	strmap_put(&b->defines_trees, hex, (void *)found);
	return found;
}

int buildfiles_kconfig_defines(struct buildfiles *b, const git_oid *commit, const char *name)
{
	char hex[GIT_OID_HEXSZ + 1];
	uintptr_t found;
	git_commit *c;

	if (!b->defines_name || strcmp(b->defines_name, name)) {
		free(b->defines_name);
		b->defines_name = xstrdup(name);
		strmap_clear(&b->defines_trees, NULL);
		strmap_clear(&b->defines_blobs, NULL);
	}
	if (repo_lookup_commit(b->repo, repo_git(b->repo), commit, &c) < 0)
		return error("cannot read commit %s", oid_hex(commit, hex));
	found = tree_defines(b, git_commit_tree_id(c));
	git_commit_free(c);
	return found ? found == 1 : -1;
}

/* The scan of the build files whose digest is `hex`: in memory, from the disk cache, or NULL. */
static struct commit_info *known_info(struct buildfiles *b, const char *hex)
{
	struct commit_info *ci = strmap_get(&b->by_digest, hex);

	if (ci || !(ci = load_info(b, hex)))
		return ci;
	if (git_oid_fromstrn(&ci->info.digest, hex, GIT_OID_HEXSZ) < 0) {
		free_commit_info(ci);
		return NULL;
	}
	ci->info.cpp_suffixes = &ci->cpp_suffixes;
	ci->info.kconfig_defined = &ci->kconfig_defined;
	ci->info.arch_mentions = &ci->arch_mentions;
	ci->info.kconfig_outside = &ci->kconfig_outside;
	ci->info.cmdline_defined = &ci->cmdline_defined;
	strmap_put(&b->by_digest, hex, ci);
	return ci;
}

/*
 * The digest of a root tree's build files as an earlier run found it (the
 * disk cache's "buildtree" entries): no walk over the tree's thousands of
 * subtrees. 0 and *digest filled, or -1.
 */
static int known_digest(struct buildfiles *b, const char *tree_hex, char digest[GIT_OID_HEXSZ + 1])
{
	struct strbuf sb = STRBUF_INIT;
	int ok = diskcache_read(b->diskcache, "buildtree", tree_hex, &sb) > 0 &&
		 sb.len == GIT_OID_HEXSZ && strspn(sb.buf, "0123456789abcdef") == GIT_OID_HEXSZ;

	if (ok)
		memcpy(digest, sb.buf, GIT_OID_HEXSZ + 1);
	else if (sb.len)
		warning("the cache entry of tree %s holds no digest: computing it again", tree_hex);
	strbuf_release(&sb);
	return ok ? 0 : -1;
}

int buildfiles_get(struct buildfiles *b, const git_oid *commit, const struct buildfiles_info **out)
{
	char hex[GIT_OID_HEXSZ + 1], tree_hex[GIT_OID_HEXSZ + 1];
	struct commit_info *ci = NULL;
	struct strvec model_ids = STRVEC_INIT;
	struct subtree *root;
	git_commit *c;

	git_oid_tostr(hex, sizeof(hex), commit);
	ci = strmap_get(&b->by_commit, hex);
	if (ci) {
		*out = &ci->info;
		return 0;
	}
	if (repo_lookup_commit(b->repo, repo_git(b->repo), commit, &c) < 0)
		return error("cannot read commit %s", hex);
	git_oid_tostr(tree_hex, sizeof(tree_hex), git_commit_tree_id(c));
	if (b->diskcache && !strmap_get(&b->subtrees, tree_hex) && !known_digest(b, tree_hex, hex))
		ci = known_info(b, hex);
	if (ci) {
		git_commit_free(c);
		goto found;
	}
	root = walk(b, git_commit_tree_id(c));
	git_commit_free(c);
	if (!root)
		return -1;

	git_oid_tostr(hex, sizeof(hex), &root->digest);
	diskcache_write(b->diskcache, "buildtree", tree_hex, hex, GIT_OID_HEXSZ);
	ci = known_info(b, hex);
	if (!ci) {
		ci = xcalloc(1, sizeof(*ci));
		ci->info.digest = root->digest;
		model_kconfig_ids(b, &root->kconfig_ids, &model_ids, &ci->kconfig_outside);
		collect(b, ci, &model_ids, NULL, 'k', &ci->kconfig_defined);
		strvec_clear(&model_ids);
		collect(b, ci, &root->makefile_ids, b->re_cmdline, 'm', &ci->cmdline_defined);
		collect_arch_mentions(b, ci, &root->kconfig_ids);
		collect_cpp(b, ci, &root->makefile_ids);
		ci->info.cpp_suffixes = &ci->cpp_suffixes;
		ci->info.kconfig_defined = &ci->kconfig_defined;
		ci->info.arch_mentions = &ci->arch_mentions;
		ci->info.kconfig_outside = &ci->kconfig_outside;
		ci->info.cmdline_defined = &ci->cmdline_defined;
		ci->info.nr_kconfig = root->kconfig_ids.nr;
		ci->info.nr_makefiles = root->makefile_ids.nr;
		strmap_put(&b->by_digest, hex, ci);
		save_info(b, ci, hex);
	}
found:
	git_oid_tostr(hex, sizeof(hex), commit);
	strmap_put(&b->by_commit, hex, ci);
	*out = &ci->info;
	return 0;
}
