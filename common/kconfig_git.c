// SPDX-License-Identifier: GPL-2.0
/* A kconfig_reader over a commit: blobs from the object store, ids are blob ids. */
#include "kconfig_git.h"

#include <string.h>

struct git_reader {
	struct repo *repo;
	git_oid commit;
};

static int git_file_id(void *data, const char *path, char id[KCONFIG_ID_MAX])
{
	struct git_reader *gr = data;
	git_oid oid;
	int ret = repo_path_oid(gr->repo, &gr->commit, path, &oid);

	if (ret == GIT_ENOTFOUND)
		return 1;
	if (ret)
		return -1;
	oid_hex(&oid, id);
	return 0;
}

static int git_read_file(void *data, const char *path, struct kconfig_file *out)
{
	struct git_reader *gr = data;
	struct blob *b;
	int ret = repo_read_path(gr->repo, &gr->commit, path, &b);

	if (ret == GIT_ENOTFOUND)
		return 1;
	if (ret)
		return -1;
	out->data = b->data;
	out->size = b->size;
	out->handle = b;
	oid_hex(&b->oid, out->id);
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
	int ret = repo_list_dir(gr->repo, &gr->commit, dir, names);

	if (ret == GIT_ENOTFOUND)
		return 1;
	return ret ? -1 : 0;
}

void kconfig_git_reader_init(struct kconfig_reader *r, struct repo *repo, const git_oid *commit)
{
	struct git_reader *gr = xcalloc(1, sizeof(*gr));

	gr->repo = repo;
	git_oid_cpy(&gr->commit, commit);
	memset(r, 0, sizeof(*r));
	r->data = gr;
	r->read_file = git_read_file;
	r->release_file = git_release_file;
	r->file_id = git_file_id;
	r->list_dir = git_list_dir;
}

void kconfig_git_reader_release(struct kconfig_reader *r)
{
	free(r->data);
	r->data = NULL;
}
