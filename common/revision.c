// SPDX-License-Identifier: GPL-2.0
/* Revision arguments with the syntax of `git rev-list`, walked oldest first. */
#include "repo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rev_sets {
	struct commit_list pos, neg;
};

static void list_add(struct commit_list *l, const git_oid *oid)
{
	ALLOC_GROW(l->oid, l->nr + 1, l->alloc);
	git_oid_cpy(&l->oid[l->nr++], oid);
}

/* Like git's message, with our program name in place of "fatal". */
static int bad_revision(const char *arg)
{
	fprintf(stderr, "%s: bad revision '%s'\n", program_name(), arg);
	return -1;
}

/* Resolves `spec` (`len` bytes; empty means HEAD) to a commit, silently. */
static int resolve(git_repository *g, const char *spec, size_t len, git_oid *out)
{
	git_object *obj, *commit;
	char *s = len ? xstrndup(spec, len) : xstrdup("HEAD");
	int err = git_revparse_single(&obj, g, s);

	free(s);
	if (err < 0)
		return -1;
	err = git_object_peel(&commit, obj, GIT_OBJECT_COMMIT);
	git_object_free(obj);
	if (err < 0)
		return -1;
	git_oid_cpy(out, git_object_id(commit));
	git_object_free(commit);
	return 0;
}

int repo_resolve_commit(struct repo *r, const char *rev, git_oid *out)
{
	if (!*rev || resolve(repo_git(r), rev, strlen(rev), out) < 0)
		return bad_revision(rev);
	return 0;
}

/* Adds the parents of `oid` to `l`: all of them (nth = 0) or the nth. */
static int add_parents(git_repository *g, const git_oid *oid, unsigned nth, struct commit_list *l)
{
	git_commit *c;
	unsigned n;

	if (git_commit_lookup(&c, g, oid) < 0)
		return -1;
	n = git_commit_parentcount(c);
	if (nth && nth > n) {
		git_commit_free(c);
		return -1;
	}
	for (unsigned i = 0; i < n; i++)
		if (!nth || i + 1 == nth)
			list_add(l, git_commit_parent_id(c, i));
	git_commit_free(c);
	return 0;
}

/* "X^-" and "X^-<n>": returns n (1 when absent) and the length of X, or 0. */
static unsigned parent_shorthand(const char *arg, size_t *xlen)
{
	const char *p = strstr(arg, "^-");
	unsigned long n = 1;

	for (; p; p = strstr(p + 1, "^-")) {
		const char *q = p + 2;

		if (*q) {
			char *end;

			n = strtoul(q, &end, 10);
			if (*end || !n || *q == '+' || *q == '-')
				continue;
		}
		*xlen = (size_t)(p - arg);
		return (unsigned)n;
	}
	return 0;
}

static int parse_one(git_repository *g, const char *arg, struct rev_sets *s, int *plain)
{
	const char *dots;
	size_t len = strlen(arg), xlen;
	unsigned nth;
	git_oid a, b;

	*plain = 0;
	if ((dots = strstr(arg, "..."))) {
		git_oidarray bases = { 0 };
		int err;

		if (resolve(g, arg, (size_t)(dots - arg), &a) < 0 ||
		    resolve(g, dots + 3, strlen(dots + 3), &b) < 0)
			return bad_revision(arg);
		list_add(&s->pos, &a);
		list_add(&s->pos, &b);
		/* Symmetric difference: everything reachable from both is out. */
		err = git_merge_bases(&bases, g, &a, &b);
		if (err < 0 && err != GIT_ENOTFOUND)
			return bad_revision(arg);
		for (size_t i = 0; i < bases.count; i++)
			list_add(&s->neg, &bases.ids[i]);
		git_oidarray_dispose(&bases);
		return 0;
	}
	if ((dots = strstr(arg, ".."))) {
		if (resolve(g, arg, (size_t)(dots - arg), &a) < 0 ||
		    resolve(g, dots + 2, strlen(dots + 2), &b) < 0)
			return bad_revision(arg);
		list_add(&s->neg, &a);
		list_add(&s->pos, &b);
		return 0;
	}
	if (len > 2 && ends_with(arg, "^!")) {
		if (resolve(g, arg, len - 2, &a) < 0 || add_parents(g, &a, 0, &s->neg) < 0)
			return bad_revision(arg);
		list_add(&s->pos, &a);
		return 0;
	}
	if (len > 2 && ends_with(arg, "^@")) {
		if (resolve(g, arg, len - 2, &a) < 0 || add_parents(g, &a, 0, &s->pos) < 0)
			return bad_revision(arg);
		return 0;
	}
	if ((nth = parent_shorthand(arg, &xlen)) && xlen) {
		if (resolve(g, arg, xlen, &a) < 0 || add_parents(g, &a, nth, &s->neg) < 0)
			return bad_revision(arg);
		list_add(&s->pos, &a);
		return 0;
	}
	if (arg[0] == '^') {
		if (!arg[1] || resolve(g, arg + 1, len - 1, &a) < 0)
			return bad_revision(arg);
		list_add(&s->neg, &a);
		return 0;
	}
	if (!len || resolve(g, arg, len, &a) < 0)
		return bad_revision(arg);
	list_add(&s->pos, &a);
	*plain = 1;
	return 0;
}

static int walk(git_repository *g, struct rev_sets *s, struct commit_list *out)
{
	git_revwalk *w;
	git_oid oid;
	int err;

	if (!s->pos.nr)
		return 0;
	if (git_revwalk_new(&w, g) < 0)
		return error("cannot walk revisions: %s", git_error_last()->message);
	git_revwalk_sorting(w, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	for (size_t i = 0; i < s->pos.nr; i++)
		if (git_revwalk_push(w, &s->pos.oid[i]) < 0)
			goto fail;
	for (size_t i = 0; i < s->neg.nr; i++)
		if (git_revwalk_hide(w, &s->neg.oid[i]) < 0)
			goto fail;
	while (!(err = git_revwalk_next(&oid, w)))
		list_add(out, &oid);
	git_revwalk_free(w);
	if (err != GIT_ITEROVER)
		return error("cannot walk revisions: %s", git_error_last()->message);
	return 0;
fail:
	git_revwalk_free(w);
	return error("cannot walk revisions: %s", git_error_last()->message);
}

int repo_parse_revisions(struct repo *r, const struct strvec *args, struct commit_list *out)
{
	git_repository *g = repo_git(r);
	struct rev_sets s = { 0 };
	int plain = 0, ret = 0;

	if (!args || !args->nr) {
		git_oid head;

		if (git_repository_head_unborn(g) == 1) {
			fprintf(stderr, "%s: your current branch does not have any commits yet\n",
				program_name());
			return -1;
		}
		if (resolve(g, "HEAD", 4, &head) < 0)
			return bad_revision("HEAD");
		list_add(out, &head);
		return 0;
	}
	for (size_t i = 0; i < args->nr && !ret; i++)
		ret = parse_one(g, args->v[i], &s, &plain);
	if (!ret) {
		/* One plain revision alone means that commit, as `git show X`. */
		if (args->nr == 1 && plain)
			list_add(out, &s.pos.oid[0]);
		else
			ret = walk(g, &s, out);
	}
	commit_list_clear(&s.pos);
	commit_list_clear(&s.neg);
	return ret;
}
