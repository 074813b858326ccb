// SPDX-License-Identifier: GPL-2.0
#include "repo.h"

#include <stdlib.h>
#include <string.h>

struct repo {
	git_repository *git;
};

void die_git(const char *what)
{
	const git_error *e = git_error_last();

	die("%s: %s", what, e && e->message ? e->message : "unknown error");
}

struct repo *repo_open(void)
{
	struct repo *r = xcalloc(1, sizeof(*r));
	int err;

	git_libgit2_init();
	/*
	 * We never touch the work tree, and libgit2 before 1.7 refuses
	 * GIT_WORK_TREE: drop it, keep GIT_DIR, GIT_CEILING_DIRECTORIES & co.
	 */
	unsetenv("GIT_WORK_TREE");
	err = git_repository_open_ext(&r->git, NULL, GIT_REPOSITORY_OPEN_FROM_ENV, NULL);
	if (err < 0)
		die("not a git repository (or any of the parent directories): .git");
	return r;
}

void repo_close(struct repo *r)
{
	if (!r)
		return;
	git_repository_free(r->git);
	free(r);
	git_libgit2_shutdown();
}

git_repository *repo_git(struct repo *r)
{
	return r->git;
}

const char *repo_gitdir(struct repo *r)
{
	return git_repository_path(r->git);
}
