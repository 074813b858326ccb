// SPDX-License-Identifier: GPL-2.0
/*
 * The kbuild reader over the object store: Makefiles are blobs at a commit,
 * their ids key the parse cache. Kept apart from kbuild.c so that users of
 * the map on a plain directory (the test helper) need no repository.
 */
#include "kbuild-internal.h"
#include "repo.h"

#include <stdlib.h>
#include <string.h>

/* A path of the tree at the commit: under the Kconfig tree's directory, if any. */
static char *full_path(const struct kbuild_repo_ctx *c, const char *path)
{
	return c->srctree && *c->srctree ? xstrfmt("%s/%s", c->srctree, path) : xstrdup(path);
}

/* kbuild_repo_ctx.inputs: what the map read, "<path> <id>" or "<path> -" a line. */
static void record(struct kbuild_repo_ctx *c, const char *full, const char *id)
{
	if (c->inputs)
		strbuf_addf(c->inputs, "%s %s\n", full, id ? id : "-");
}

static int repo_read(void *ctx, const char *path, struct kbuild_text *out)
{
	struct kbuild_repo_ctx *c = ctx;
	struct blob *b;
	char *full = full_path(c, path);
	int r = repo_read_path(c->repo, c->commit, full, &b);
	char hex[GIT_OID_HEXSZ + 1];

	/* "?": read in error, never the same again. */
	record(c, full, r == GIT_ENOTFOUND ? NULL : r ? "?" : oid_hex(&b->oid, hex));
	free(full);

	if (r == GIT_ENOTFOUND)
		return 1;
	if (r < 0)
		return -1;
	out->data = b->data;
	out->len = b->size;
	oid_hex(&b->oid, out->id);
	out->handle = b;
	return 0;
}

static void repo_release(void *ctx, struct kbuild_text *t)
{
	struct kbuild_repo_ctx *c = ctx;

	blob_release(c->repo, t->handle);
}

static int repo_id(void *ctx, const char *path, char id[48])
{
	struct kbuild_repo_ctx *c = ctx;
	git_oid oid;
	char *full = full_path(c, path);
	int r = repo_path_oid(c->repo, c->commit, full, &oid);
	char hex[GIT_OID_HEXSZ + 1];

	record(c, full, r == GIT_ENOTFOUND ? NULL : r ? "?" : oid_hex(&oid, hex));
	free(full);

	if (r == GIT_ENOTFOUND)
		return 1;
	if (r < 0)
		return -1;
	oid_hex(&oid, id);
	return 0;
}

struct walk {
	int (*fn)(const char *path, void *data);
	void *data;
	size_t skip;	/* "<srctree>/" */
	struct strbuf *paths;	/* every path listed, a line each, or NULL */
};

static int repo_file(const struct tree_file *f, void *data)
{
	struct walk *w = data;

	/* a symbolic link is no source of its own (tools/ has a few) */
	if (f->mode == GIT_FILEMODE_LINK)
		return 0;
	if (w->paths)
		strbuf_addf(w->paths, "%s\n", f->path);
	return w->fn ? w->fn(f->path + w->skip, w->data) : 0;
}

/* The digest of the paths a walk lists, as kbuild_repo_files_digest gives it. */
static void paths_digest(struct strbuf *paths, char hex[GIT_OID_HEXSZ + 1])
{
	git_oid id;

	repo_hash_blob(paths->buf ? paths->buf : "", paths->len, &id);
	git_oid_tostr(hex, GIT_OID_HEXSZ + 1, &id);
}

static int repo_for_each(void *ctx, int (*fn)(const char *path, void *data), void *data)
{
	struct kbuild_repo_ctx *c = ctx;
	struct strbuf paths = STRBUF_INIT;
	struct walk w = { fn, data, c->srctree && *c->srctree ? strlen(c->srctree) + 1 : 0,
			  c->inputs ? &paths : NULL };
	char hex[GIT_OID_HEXSZ + 1];
	int ret = repo_for_each_file(c->repo, c->commit, c->srctree ? c->srctree : "", repo_file,
				     &w);

	if (c->inputs && !ret) {
		paths_digest(&paths, hex);
		strbuf_addf(c->inputs, "files %s\n", hex);
	}
	strbuf_release(&paths);
	return ret;
}

int kbuild_repo_files_digest(struct repo *r, const struct git_oid *commit, const char *srctree,
			     char hex[GIT_OID_HEXSZ + 1])
{
	struct strbuf paths = STRBUF_INIT;
	struct walk w = { NULL, NULL, 0, &paths };
	int ret = repo_for_each_file(r, commit, srctree ? srctree : "", repo_file, &w);

	if (!ret)
		paths_digest(&paths, hex);
	strbuf_release(&paths);
	return ret ? -1 : 0;
}

int kbuild_repo_inputs_same(struct repo *r, const struct git_oid *commit, const char *inputs,
			    const char *files_digest, int (*known)(const char *path))
{
	const char *p = inputs;

	while (*p) {
		const char *nl = strchr(p, '\n'), *sp;
		char *path;
		git_oid oid, want;
		int found, same;

		if (!nl)
			return 0;
		sp = nl;
		while (sp > p && *sp != ' ')
			sp--;
		if (sp == p)
			return 0;
		if (sp - p == 5 && !memcmp(p, "files", 5)) {
			if ((size_t)(nl - sp - 1) != strlen(files_digest) ||
			    memcmp(sp + 1, files_digest, nl - sp - 1))
				return 0;
			p = nl + 1;
			continue;
		}
		path = xstrndup(p, (size_t)(sp - p));
		if (known && known(path)) {
			free(path);
			p = nl + 1;
			continue;
		}
		found = !repo_path_oid(r, commit, path, &oid);
		free(path);
		if (nl - sp - 1 == 1 && sp[1] == '-')
			same = !found;
		else
			same = found && nl - sp - 1 == GIT_OID_HEXSZ &&
			       !git_oid_fromstrn(&want, sp + 1, GIT_OID_HEXSZ) && git_oid_equal(&oid, &want);
		if (!same)
			return 0;
		p = nl + 1;
	}
	return 1;
}

void kbuild_repo_reader(struct kbuild_reader *rd, struct kbuild_repo_ctx *ctx)
{
	rd->read = repo_read;
	rd->release = repo_release;
	rd->for_each_file = repo_for_each;
	rd->id = repo_id;
	rd->ctx = ctx;
}

struct kbuild_map *kbuild_map_for_commit(struct repo *r, const git_oid *commit,
					 const struct kbuild_target *target, struct kbuild_cache *cache)
{
	return kbuild_map_for_commit_inputs(r, commit, target, cache, NULL);
}

struct kbuild_map *kbuild_map_for_commit_inputs(struct repo *r, const git_oid *commit,
						const struct kbuild_target *target,
						struct kbuild_cache *cache, struct strbuf *inputs)
{
	struct kbuild_repo_ctx ctx = { r, commit, target->srctree, inputs };
	struct kbuild_reader rd;
	struct kbuild_map *m;

	kbuild_repo_reader(&rd, &ctx);
	m = kbuild_map_build_target(&rd, target, cache);
	if (target->srctree && *target->srctree) {
		char *prefix = xstrfmt("%s/", target->srctree);

		kbuild_map_prefix(m, prefix);
		free(prefix);
	}
	return m;
}
