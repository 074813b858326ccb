// SPDX-License-Identifier: GPL-2.0
/* A kconfig_reader over a commit: blobs from the object store, ids are blob ids. */
#include "kconfig-git.h"

#include <stdlib.h>
#include <string.h>

struct git_reader {
	struct repo *repo;
	git_oid commit;
	/*
	 * path -> blob id in hex ("" when absent): every architecture asks for
	 * the same ~1,500 paths, and a tree walk costs more than a lookup here.
	 */
	struct strmap ids;
	/* "xen/": where the Kconfig tree starts (Xen); "" for the repository root. */
	char *prefix;
};

/* The repository path of a tree path: the prefix, then the path. */
static const char *full_path(struct git_reader *gr, const char *path, struct strbuf *sb)
{
	if (!gr->prefix)
		return path;
	strbuf_reset(sb);
	strbuf_addf(sb, "%s%s", gr->prefix, path);
	return sb->buf;
}

static int git_file_id(void *data, const char *path, char id[KCONFIG_ID_MAX])
{
	struct git_reader *gr = data;
	char *known = strmap_get(&gr->ids, path);
	struct strbuf sb = STRBUF_INIT;
	git_oid oid;
	int ret;

	if (known) {
		if (!*known)
			return 1;
		strcpy(id, known);
		return 0;
	}
	ret = repo_path_oid(gr->repo, &gr->commit, full_path(gr, path, &sb), &oid);
	strbuf_release(&sb);
	if (ret && ret != GIT_ENOTFOUND)
		return -1;
	if (ret)
		id[0] = '\0';
	else
		oid_hex(&oid, id);
	strmap_put(&gr->ids, path, xstrdup(id));
	return ret ? 1 : 0;
}

static int git_read_file(void *data, const char *path, struct kconfig_file *out)
{
	struct git_reader *gr = data;
	char id[KCONFIG_ID_MAX];
	struct blob *b;
	git_oid oid;
	int ret = git_file_id(data, path, id);

	/* By id: the path was walked once already (file_id), and the blob cache is by id. */
	if (ret)
		return ret;
	if (git_oid_fromstr(&oid, id) || repo_read_blob(gr->repo, &oid, &b))
		return -1;
	out->data = b->data;
	out->size = b->size;
	out->handle = b;
	memcpy(out->id, id, sizeof(out->id));
	return 0;
}

static void git_release_file(void *data, struct kconfig_file *f)
{
	struct git_reader *gr = data;

	if (f->handle)
		blob_release(gr->repo, f->handle);
	f->handle = NULL;
}

static int git_list_dir(void *data, const char *dir, struct strvec *names)
{
	struct git_reader *gr = data;
	struct strbuf sb = STRBUF_INIT;
	int ret;

	/* The root of a prefixed tree is the prefix without its slash. */
	if (gr->prefix && !*dir) {
		strbuf_add(&sb, gr->prefix, strlen(gr->prefix) - 1);
		ret = repo_list_dir(gr->repo, &gr->commit, sb.buf, names);
	} else {
		ret = repo_list_dir(gr->repo, &gr->commit, full_path(gr, dir, &sb), names);
	}
	strbuf_release(&sb);

	if (ret == GIT_ENOTFOUND)
		return 1;
	return ret ? -1 : 0;
}

static const struct kconfig_reader git_reader_ops = {
	.read_file = git_read_file,
	.release_file = git_release_file,
	.file_id = git_file_id,
	.list_dir = git_list_dir,
};

void kconfig_git_reader_init(struct kconfig_reader *r, struct repo *repo, const git_oid *commit)
{
	struct git_reader *gr = xcalloc(1, sizeof(*gr));

	gr->repo = repo;
	git_oid_cpy(&gr->commit, commit);
	*r = git_reader_ops;
	r->data = gr;
	oid_hex(commit, r->scope);
}

void kconfig_git_reader_init_prefix(struct kconfig_reader *r, struct repo *repo,
				    const git_oid *commit, const char *srctree)
{
	struct git_reader *gr;

	kconfig_git_reader_init(r, repo, commit);
	gr = r->data;
	if (srctree && *srctree)
		gr->prefix = ends_with(srctree, "/") ? xstrdup(srctree) : xstrfmt("%s/", srctree);
}

void kconfig_git_reader_release(struct kconfig_reader *r)
{
	struct git_reader *gr = r->data;

	if (gr)
		strmap_clear(&gr->ids, free);
	if (gr)
		free(gr->prefix);
	free(gr);
	r->data = NULL;
}
