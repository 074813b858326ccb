// SPDX-License-Identifier: GPL-2.0
/*
 * test-diff <commit> [-- <pathspec>...]: repo_diff_first_parent, printed as
 * `git diff --name-status -M` lines, each followed by its hunks as
 * `git diff -U0` headers ("@@ -a,b +c,d @@").
 */
#include "repo.h"

#include <stdio.h>
#include <string.h>

static void print_range(char sign, int start, int lines)
{
	/* git omits ",1" and keeps ",0" */
	if (lines == 1)
		printf(" %c%d", sign, start);
	else
		printf(" %c%d,%d", sign, start, lines);
}

int main(int argc, const char **argv)
{
	struct strvec pathspec = STRVEC_INIT;
	struct change_list changes = { 0 };
	struct repo *r;
	git_oid commit;
	int ret;

	set_program_name("git undertaker");
	if (argc < 2)
		die("usage: test-diff <commit> [-- <pathspec>...]");
	for (int i = 2; i < argc; i++)
		if (strcmp(argv[i], "--"))
			strvec_push(&pathspec, argv[i]);
	{
		struct strbuf why = STRBUF_INIT;

		r = repo_open(&why);
		if (!r)
			die("%s", why.buf);
	}
	ret = repo_resolve_commit(r, argv[1], &commit);
	if (!ret)
		ret = repo_diff_first_parent(r, &commit, &pathspec, 1, &changes);
	for (size_t i = 0; !ret && i < changes.nr; i++) {
		const struct file_change *fc = &changes.files[i];

		if (fc->status == 'R')
			printf("R\t%s\t%s\n", fc->old_path, fc->new_path);
		else
			printf("%c\t%s\n", fc->status, fc->new_path);
		for (size_t j = 0; j < fc->nr_hunks; j++) {
			const struct hunk *h = &fc->hunks[j];

			printf("@@");
			print_range('-', h->old_start, h->old_lines);
			print_range('+', h->new_start, h->new_lines);
			printf(" @@\n");
		}
	}
	change_list_clear(&changes);
	strvec_clear(&pathspec);
	repo_close(r);
	return ret ? EXIT_FATAL : 0;
}
