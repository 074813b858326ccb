// SPDX-License-Identifier: GPL-2.0
/*
 * The result cache, under $GIT_DIR/backport/cache/: one small file per key,
 * fanned out like loose objects. A key hashes everything spatch's answer
 * depends on: its version, the -D names, the rule's blob id, the input's blob
 * id and the blob ids of the local headers it reads beside the input. Outputs
 * themselves are blobs in the object store, so an entry is a line or two.
 *
 * An entry starts with a header line, "git-backport cache 2 <hash>", the
 * hash being that of the rest as a git blob: a truncated or damaged entry
 * (a full disk, a crash before the rename, a stray edit) reads as no entry,
 * with a warning, and is computed again, never taken for "unchanged".
 */
#include "backport.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Part of every key too: entries of an older format are never looked at.
 * 3: a message of the form `error in <path>;` is the file's it names (2
 * gave it to the first file of the batch). 4: a rule that declares
 * `virtual patch` runs with -D patch, and a failure is spatch's fatal line.
 */
#define CACHE_FORMAT 4
#define CACHE_MAGIC "git-backport cache "

struct cache {
	char *dir;
	struct strbuf prefix;	/* the part of every key that is the same in a run */
	int empty;		/* no cache when the run began: nothing to look up */
	unsigned char made[256];	/* fan-out directories known to exist */
};

struct cache *cache_open(struct repo *r, const struct spatch_info *sp, const struct bp_options *o)
{
	const struct strvec *defines = &o->defines;
	struct cache *c = xcalloc(1, sizeof(*c));
	struct strvec sorted = STRVEC_INIT;
	struct stat st;

	c->dir = xstrfmt("%sbackport/cache", repo_gitdir(r));
	/* A run never asks twice for what it answers itself. */
	c->empty = stat(c->dir, &st) < 0;
	strbuf_addf(&c->prefix, "git-backport cache %d\nspatch %s\n", CACHE_FORMAT, sp->version);
	for (size_t i = 0; i < defines->nr; i++)
		strvec_push(&sorted, defines->v[i]);
	strvec_sort(&sorted);
	for (size_t i = 0; i < sorted.nr; i++)
		strbuf_addf(&c->prefix, "define %s\n", sorted.v[i]);
	strvec_clear(&sorted);
	if (o->macro_path) {
		char hex[GIT_OID_HEXSZ + 1];

		strbuf_addf(&c->prefix, "macros %s\n", oid_hex(&o->macro_id, hex));
	}
	return c;
}

void cache_close(struct cache *c)
{
	if (!c)
		return;
	free(c->dir);
	strbuf_release(&c->prefix);
	free(c);
}

static void hash_key(struct strbuf *sb, git_oid *key)
{
	repo_hash_blob(sb->buf, sb->len, key);
}

void cache_key_query(struct cache *c, const struct rule *rule, git_oid *key)
{
	struct strbuf sb = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];

	strbuf_add(&sb, c->prefix.buf, c->prefix.len);
	strbuf_addf(&sb, "query %s\n", oid_hex(&rule->blob, hex));
	hash_key(&sb, key);
	strbuf_release(&sb);
}

void cache_key_result(struct cache *c, const struct rule *rule, const git_oid *input,
		      const struct header_dep *deps, size_t nr_deps, git_oid *key)
{
	struct strbuf sb = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];

	strbuf_add(&sb, c->prefix.buf, c->prefix.len);
	strbuf_addf(&sb, "rule %s\n", oid_hex(&rule->blob, hex));
	strbuf_addf(&sb, "input %s\n", oid_hex(input, hex));
	/* Paths matter too: spatch finds a header by its name. */
	for (size_t i = 0; i < nr_deps; i++)
		strbuf_addf(&sb, "header %s %s\n", oid_hex(&deps[i].blob, hex), deps[i].path);
	hash_key(&sb, key);
	strbuf_release(&sb);
}

static char *entry_path(struct cache *c, const git_oid *key)
{
	char hex[GIT_OID_HEXSZ + 1];

	oid_hex(key, hex);
	return xstrfmt("%s/%.2s/%s", c->dir, hex, hex + 2);
}

/* The body of an entry whose header is right, or NULL with `why` set. */
static char *check_entry(char *data, size_t size, const char **why)
{
	char *nl = memchr(data, '\n', size), *end;
	git_oid want, got;
	long format;

	if (!nl || !starts_with(data, CACHE_MAGIC)) {
		*why = "no header";
		return NULL;
	}
	format = strtol(data + strlen(CACHE_MAGIC), &end, 10);
	if (format != CACHE_FORMAT || *end != ' ' || nl - (end + 1) != GIT_OID_HEXSZ ||
	    git_oid_fromstrn(&want, end + 1, GIT_OID_HEXSZ) < 0) {
		*why = "bad header";
		return NULL;
	}
	repo_hash_blob(nl + 1, size - (size_t)(nl + 1 - data), &got);
	if (!git_oid_equal(&want, &got)) {
		*why = "checksum mismatch";
		return NULL;
	}
	return nl + 1;
}

char *cache_get(struct cache *c, const git_oid *key)
{
	char *path, *data = NULL, *body = NULL;
	const char *why = NULL;
	size_t size;

	if (c->empty)
		return NULL;
	path = entry_path(c, key);

	if (read_file(path, &data, &size) == 0) {
		body = check_entry(data, size, &why);
		if (body) {
			body = xstrdup(body);
		} else {
			warning("cache entry %s is damaged (%s): computing it again", path, why);
			unlink(path);
		}
		free(data);
	}
	free(path);
	return body;
}

void cache_put(struct cache *c, const git_oid *key, const char *value)
{
	char *path = entry_path(c, key);
	char *slash = strrchr(path, '/');
	struct strbuf entry = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid sum;

	repo_hash_blob(value, strlen(value), &sum);
	*slash = '\0';
	if (!c->made[key->id[0]]) {
		if (mkdir(c->dir, 0777) < 0 && errno != EEXIST) {
			char *parent = xstrndup(c->dir, strrchr(c->dir, '/') - c->dir);

			mkdir(parent, 0777);
			free(parent);
			mkdir(c->dir, 0777);
		}
		mkdir(path, 0777);
		c->made[key->id[0]] = 1;
	}
	*slash = '/';
	/* Written aside and renamed: a reader never sees half an entry. */
	oid_hex(&sum, hex);
	strbuf_addf(&entry, CACHE_MAGIC "%d %s\n%s", CACHE_FORMAT, hex, value);
	/* A cache that cannot be written only costs time. */
	if (write_file_atomic(path, entry.buf, entry.len) < 0)
		warning("cannot write the cache entry %s: %s", path, strerror(errno));
	strbuf_release(&entry);
	free(path);
}
