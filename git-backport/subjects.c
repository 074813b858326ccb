// SPDX-License-Identifier: GPL-2.0
/*
 * The files a run previews (its subjects): C files and headers read from the
 * object store at the range's tip. Reading and inflating them is most of what
 * a rule that matches few files costs, so they are read on several threads
 * (parallel.h; each through its own repository handle, see repo.h).
 */
#include "backport.h"
#include "parallel.h"

#include <stdlib.h>
#include <string.h>

int subject_is_source(const char *path)
{
	return ends_with(path, ".c") || ends_with(path, ".h");
}

/* What one path gives: read on any thread, added to the set on the caller's. */
struct loaded {
	const char *path;
	git_oid oid;
	unsigned mode;
	struct blob *blob;	/* NULL: not a subject */
	int failed;
};

static void load_one(struct repo *r, const git_oid *tip, struct loaded *l)
{
	l->blob = NULL;
	l->mode = GIT_FILEMODE_BLOB;
	if (!subject_is_source(l->path) || repo_path_entry(r, tip, l->path, &l->oid, &l->mode) != 0)
		return;
	if (repo_read_blob(r, &l->oid, &l->blob) < 0)
		l->failed = 1;
}

static long add_loaded(struct repo *r, struct subject_set *set, struct loaded *l, size_t nr_rules)
{
	struct subject *s;
	struct blob *b = l->blob;

	if (!b && !l->failed)
		return -1;
	ALLOC_GROW(set->v, set->nr + 1, set->alloc);
	s = &set->v[set->nr++];
	memset(s, 0, sizeof(*s));
	s->path = xstrdup(l->path);
	s->refused = l->failed ? "its blob cannot be read from the object store" :
		     spatch_path_refusal(s->path);
	s->tip = l->oid;
	s->cur = l->oid;
	s->mode = l->mode;
	s->tip_size = s->size = b ? b->size : 0;
	s->tip_data = xmalloc(s->size + 1);
	memcpy(s->tip_data, b ? b->data : "", s->size + 1);	/* its NUL too */
	s->data = xmalloc(s->size + 1);
	memcpy(s->data, s->tip_data, s->size + 1);
	if (b)
		blob_release(r, b);
	l->blob = NULL;
	s->changed_by = xcalloc(nr_rules ? nr_rules : 1, 1);
	return (long)(set->nr - 1);
}

long subject_add(struct repo *r, const git_oid *tip, struct subject_set *set,
		 const char *path, size_t nr_rules)
{
	struct loaded l = { .path = path };

	load_one(r, tip, &l);
	return add_loaded(r, set, &l, nr_rules);
}

struct loader {
	struct repo *r;
	const git_oid *tip;
	struct loaded *v;
	struct parallel_queue queue;
};

static void load_worker(size_t j, void *arg)
{
	struct loader *ld = arg;
	size_t i;

	while ((i = parallel_queue_next(&ld->queue)) < ld->queue.nr)
		load_one(ld->r, ld->tip, &ld->v[i]);
}

void subjects_load(struct repo *r, const git_oid *tip, struct subject_set *set,
		   const char *const *paths, size_t nr, size_t nr_rules, int threads)
{
	struct loader ld = { r, tip, xcalloc(nr + 1, sizeof(*ld.v)) };
	size_t nr_threads = threads > 1 ? (size_t)threads : 1;

	if (nr_threads > 8)
		nr_threads = 8;
	if (nr_threads > nr / 16 + 1)
		nr_threads = nr / 16 + 1;
	parallel_queue_init(&ld.queue, nr);
	for (size_t i = 0; i < nr; i++)
		ld.v[i].path = paths[i];
	/* The calling thread works too: worker 0 is this one. */
	parallel_run(nr_threads, load_worker, &ld);
	for (size_t i = 0; i < nr; i++)
		add_loaded(r, set, &ld.v[i], nr_rules);
	parallel_queue_release(&ld.queue);
	free(ld.v);
}

void subjects_clear(struct subject_set *set)
{
	for (size_t i = 0; i < set->nr; i++) {
		struct subject *s = &set->v[i];

		free(s->path);
		free(s->tip_data);
		free(s->data);
		free(s->changed_by);
		for (size_t k = 0; k < s->nr_fails; k++)
			free(s->fails[k].message);
		free(s->fails);
		free(s->via);
	}
	free(set->v);
	strvec_clear(&set->unread);
}
