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

static int repo_read(void *ctx, const char *path, struct kbuild_text *out)
{
	struct kbuild_repo_ctx *c = ctx;
	struct blob *b;
	char *full = full_path(c, path);
	int r = repo_read_path(c->repo, c->commit, full, &b);

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
};

static int repo_file(const struct tree_file *f, void *data)
{
	struct walk *w = data;

	/* a symbolic link is no source of its own (tools/ has a few) */
	if (f->mode == GIT_FILEMODE_LINK)
		return 0;
	return w->fn(f->path + w->skip, w->data);
}

static int repo_for_each(void *ctx, int (*fn)(const char *path, void *data), void *data)
{
	struct kbuild_repo_ctx *c = ctx;
	struct walk w = { fn, data, c->srctree && *c->srctree ? strlen(c->srctree) + 1 : 0 };

	return repo_for_each_file(c->repo, c->commit, c->srctree ? c->srctree : "", repo_file, &w);
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
	struct kbuild_repo_ctx ctx = { r, commit, target->srctree };
	struct kbuild_reader rd;
	struct kbuild_map *m;

	kbuild_repo_reader(&rd, &ctx);
	m = kbuild_map_build_arch(&rd, target->arch,
				  target->srcarch ? target->srcarch : target->arch, cache);
	if (target->srctree && *target->srctree) {
		char *prefix = xstrfmt("%s/", target->srctree);

		kbuild_map_prefix(m, prefix);
		free(prefix);
	}
	return m;
}
