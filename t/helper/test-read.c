// SPDX-License-Identifier: GPL-2.0
/*
 * test-read files <commit> <threads> <cache-bytes> [<dir>]: every file under
 *	dir, read by each of <threads> threads at once through the blob cache;
 *	prints "<size> <path>" once all threads agree.
 * test-read ls <commit> <dir>: repo_list_dir.
 * test-read cat <commit> <path>: repo_read_path.
 * test-read match <commit> <pathspec>...: the files that pathspec_match keeps.
 * test-read title <commit> <key>: commit_title, oid_short, then every value
 *	of config <key> (repo_config_get first, then repo_config_get_all).
 */
#include "repo.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct file_list {
	struct strvec paths;
	size_t *sizes;
};

struct worker {
	pthread_t thread;
	struct repo *repo;
	const git_oid *commit;
	const struct strvec *paths;
	size_t *sizes;
	int failed, index;
};

static int collect(const struct tree_file *f, void *data)
{
	strvec_push(data, f->path);
	return 0;
}

static void *read_all(void *arg)
{
	struct worker *w = arg;

	for (size_t i = 0; i < w->paths->nr; i++) {
		/* Different threads start at different files, to race on the cache. */
		size_t k = (i + (size_t)w->index * 7) % w->paths->nr;
		struct blob *b;

		if (repo_read_path(w->repo, w->commit, w->paths->v[k], &b)) {
			w->failed = 1;
			continue;
		}
		if (strlen(b->data) > b->size)
			w->failed = 1;
		w->sizes[k] = b->size;
		blob_release(w->repo, b);
	}
	return NULL;
}

static int files(struct repo *r, const git_oid *commit, int nthreads, const char *dir)
{
	struct strvec paths = STRVEC_INIT;
	struct worker *w = xcalloc((size_t)nthreads, sizeof(*w));
	int ret = repo_for_each_file(r, commit, dir, collect, &paths);

	for (int t = 0; !ret && t < nthreads; t++) {
		w[t].index = t;
		w[t].repo = r;
		w[t].commit = commit;
		w[t].paths = &paths;
		w[t].sizes = xcalloc(paths.nr + 1, sizeof(size_t));
		if (pthread_create(&w[t].thread, NULL, read_all, &w[t]))
			die("cannot start a thread");
	}
	for (int t = 0; !ret && t < nthreads; t++)
		pthread_join(w[t].thread, NULL);
	for (int t = 0; !ret && t < nthreads; t++) {
		if (w[t].failed)
			ret = error("thread %d failed to read", t);
		for (size_t i = 0; !ret && i < paths.nr; i++)
			if (w[t].sizes[i] != w[0].sizes[i])
				ret = error("threads disagree on %s", paths.v[i]);
	}
	for (size_t i = 0; !ret && i < paths.nr; i++)
		printf("%zu %s\n", w[0].sizes[i], paths.v[i]);
	for (int t = 0; t < nthreads; t++)
		free(w[t].sizes);
	free(w);
	strvec_clear(&paths);
	return ret;
}

int main(int argc, const char **argv)
{
	struct repo *r;
	git_oid commit;
	int ret;

	set_program_name("git undertaker");
	if (argc < 4)
		die("usage: test-read (files <commit> <threads> <cache-bytes> [<dir>] | ls <commit> <dir> | cat <commit> <path>)");
	{
		struct strbuf why = STRBUF_INIT;

		r = repo_open(&why);
		if (!r)
			die("%s", why.buf);
	}
	ret = repo_resolve_commit(r, argv[2], &commit);
	if (ret)
		;
	else if (!strcmp(argv[1], "files") && argc > 4) {
		repo_set_cache_limit(r, (size_t)strtoull(argv[4], NULL, 10));
		ret = files(r, &commit, atoi(argv[3]), argc > 5 ? argv[5] : "");
	} else if (!strcmp(argv[1], "ls")) {
		struct strvec names = STRVEC_INIT;

		ret = repo_list_dir(r, &commit, argv[3], &names);
		for (size_t i = 0; !ret && i < names.nr; i++)
			puts(names.v[i]);
		strvec_clear(&names);
	} else if (!strcmp(argv[1], "cat")) {
		struct blob *b;

		ret = repo_read_path(r, &commit, argv[3], &b);
		if (!ret) {
			fwrite(b->data, 1, b->size, stdout);
			blob_release(r, b);
		}
	} else if (!strcmp(argv[1], "title")) {
		struct strvec all = STRVEC_INIT;
		char *title = commit_title(r, &commit);
		char *one = repo_config_get(r, argv[3]);

		printf("%s\n%s\n%s\n", title, oid_short(r, &commit), one ? one : "(unset)");
		repo_config_get_all(r, argv[3], &all);
		for (size_t i = 0; i < all.nr; i++)
			puts(all.v[i]);
		strvec_clear(&all);
		free(one);
		free(title);
	} else if (!strcmp(argv[1], "match")) {
		struct strvec paths = STRVEC_INIT, pathspec = STRVEC_INIT;

		for (int i = 3; i < argc; i++)
			strvec_push(&pathspec, argv[i]);
		ret = repo_for_each_file(r, &commit, "", collect, &paths);
		for (size_t i = 0; !ret && i < paths.nr; i++)
			if (pathspec_match(&pathspec, paths.v[i]))
				puts(paths.v[i]);
		strvec_clear(&paths);
		strvec_clear(&pathspec);
	} else {
		die("unknown subcommand '%s'", argv[1]);
	}
	repo_close(r);
	if (ret == GIT_ENOTFOUND) {
		puts("(not found)");
		return 1;
	}
	return ret ? EXIT_FATAL : 0;
}
