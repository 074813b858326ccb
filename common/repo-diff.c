// SPDX-License-Identifier: GPL-2.0
/* What a commit changed against its first parent, as `git diff -M -U0` sees it. */
#include "repo.h"

#include <stdlib.h>
#include <string.h>

/* Filters deltas before rename detection, as git limits both sides by the pathspec. */
static int skip_unmatched(const git_diff *diff, const git_diff_delta *d,
			  const char *matched, void *payload)
{
	const struct strvec *pathspec = payload;

	(void)diff;
	(void)matched;
	if (pathspec_match(pathspec, d->new_file.path) ||
	    pathspec_match(pathspec, d->old_file.path))
		return 0;
	return 1;
}

static char status_letter(git_delta_t t)
{
	switch (t) {
	case GIT_DELTA_ADDED: return 'A';
	case GIT_DELTA_DELETED: return 'D';
	case GIT_DELTA_RENAMED: return 'R';
	case GIT_DELTA_COPIED: return 'C';
	case GIT_DELTA_TYPECHANGE: return 'T';
	default: return 'M';
	}
}

static int add_hunks(git_diff *diff, size_t idx, struct file_change *fc)
{
	git_patch *patch;
	size_t n;

	if (git_patch_from_diff(&patch, diff, idx) < 0)
		return -1;
	if (!patch)	/* binary or unchanged: no text hunks, as git prints none */
		return 0;
	n = git_patch_num_hunks(patch);
	for (size_t i = 0; i < n; i++) {
		const git_diff_hunk *h;
		size_t lines;

		if (git_patch_get_hunk(&h, &lines, patch, i) < 0) {
			git_patch_free(patch);
			return -1;
		}
		ALLOC_GROW(fc->hunks, fc->nr_hunks + 1, fc->alloc_hunks);
		fc->hunks[fc->nr_hunks++] = (struct hunk){
			.old_start = h->old_start, .old_lines = h->old_lines,
			.new_start = h->new_start, .new_lines = h->new_lines,
		};
	}
	git_patch_free(patch);
	return 0;
}

static int commit_trees(struct repo *r, git_repository *g, const git_oid *commit, git_tree **old,
			git_tree **new)
{
	git_commit *c, *parent;
	int err;

	*old = *new = NULL;
	if (repo_lookup_commit(r, g, commit, &c) < 0)
		return -1;
	err = git_commit_tree(new, c);
	if (!err && repo_commit_parentcount(r, c)) {
		err = git_commit_parent(&parent, c, 0);
		if (!err) {
			err = git_commit_tree(old, parent);
			git_commit_free(parent);
		}
	}
	git_commit_free(c);
	return err;
}

static int too_many_for_renames(struct repo *r, git_diff *diff)
{
	size_t added = 0, deleted = 0;
	long limit = 1000;
	char *v = repo_config_get(r, "diff.renamelimit");

	if (v && (parse_int(v, &limit) < 0 || limit <= 0))
		limit = 32767;	/* git: 0 means no limit; keep it large but finite */
	free(v);
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		git_delta_t st = git_diff_get_delta(diff, i)->status;

		added += st == GIT_DELTA_ADDED;
		deleted += st == GIT_DELTA_DELETED;
	}
	return (double)added * (double)deleted > (double)limit * (double)limit;
}

/*
 * The paths whose entries differ between the trees `a` and `b` (either may
 * be NULL: empty), appended to `out` under `prefix`. Like git, a subtree
 * with the same id on both sides is not opened. libgit2's tree-to-tree diff
 * opens every subtree of both commits (0.09 s for a one-file U-Boot commit);
 * handed these paths as a literal path list, it opens only the subtrees on
 * the way to them (0.001 s). A name that is a file on one side and a
 * directory on the other gives both (git_tree_entry_cmp sorts "d" and "d/"
 * apart).
 */
static int changed_paths(git_repository *g, const git_oid *a, const git_oid *b,
			 struct strbuf *prefix, struct strvec *out)
{
	git_tree *ta = NULL, *tb = NULL;
	size_t na, nb, i = 0, j = 0, len = prefix->len;
	int ret = 0;

	if ((a && git_tree_lookup(&ta, g, a) < 0) || (b && git_tree_lookup(&tb, g, b) < 0)) {
		git_tree_free(ta);
		return -1;
	}
	na = ta ? git_tree_entrycount(ta) : 0;
	nb = tb ? git_tree_entrycount(tb) : 0;
	while (!ret && (i < na || j < nb)) {
		const git_tree_entry *ea = i < na ? git_tree_entry_byindex(ta, i) : NULL;
		const git_tree_entry *eb = j < nb ? git_tree_entry_byindex(tb, j) : NULL;
		int cmp = !ea ? 1 : !eb ? -1 : git_tree_entry_cmp(ea, eb);
		const git_tree_entry *e = cmp <= 0 ? ea : eb;

		i += cmp <= 0;
		j += cmp >= 0;
		if (!cmp && git_oid_equal(git_tree_entry_id(ea), git_tree_entry_id(eb)) &&
		    git_tree_entry_filemode(ea) == git_tree_entry_filemode(eb))
			continue;
		strbuf_addstr(prefix, git_tree_entry_name(e));
		if (git_tree_entry_type(e) == GIT_OBJECT_TREE) {
			strbuf_addch(prefix, '/');
			ret = changed_paths(g, cmp <= 0 ? git_tree_entry_id(ea) : NULL,
					    cmp >= 0 ? git_tree_entry_id(eb) : NULL, prefix, out);
		} else {
			strvec_push(out, prefix->buf);
		}
		prefix->len = len;
		prefix->buf[len] = '\0';
	}
	git_tree_free(ta);
	git_tree_free(tb);
	return ret;
}

/* How a first-parent diff is taken: `git diff -M` or `git diff --no-renames`. */
struct diff_how {
	git_diff_notify_cb notify;	/* skips a file before its contents are read */
	void *payload;
	int renames;			/* -M and type changes, or neither */
	int hunks;
};

static int diff_first_parent(struct repo *r, const git_oid *commit, const struct diff_how *how,
			     struct change_list *out)
{
	git_repository *g = repo_git_local(r);
	git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
	git_diff_find_options find = GIT_DIFF_FIND_OPTIONS_INIT;
	git_tree *old, *new;
	git_diff *diff = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	struct strbuf prefix = STRBUF_INIT;
	struct strvec paths = STRVEC_INIT;
	int ret = -1;

	if (commit_trees(r, g, commit, &old, &new) < 0)
		goto fail;
	if (how->renames)
		opts.flags |= GIT_DIFF_INCLUDE_TYPECHANGE;
	opts.context_lines = 0;
	opts.interhunk_lines = 0;
	opts.notify_cb = how->notify;
	opts.payload = how->payload;
	if (changed_paths(g, old ? git_tree_id(old) : NULL, git_tree_id(new), &prefix, &paths) < 0)
		goto fail;
	if (!paths.nr) {
		ret = 0;
		goto out;
	}
	opts.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
	opts.pathspec.strings = paths.v;
	opts.pathspec.count = paths.nr;
	if (git_diff_tree_to_tree(&diff, g, old, new, &opts) < 0)
		goto fail;
	/*
	 * git diff -M: renames at 50% similarity; copies are not looked for.
	 * Like git, inexact renames are only looked for when added x deleted
	 * files stay within diff.renameLimit squared (default 1000): libgit2
	 * would otherwise compare every pair (the 6.1 -> 6.12 step of Linux adds
	 * and deletes thousands of files, hours of work). Exact renames still are.
	 */
	find.flags = GIT_DIFF_FIND_RENAMES;
	if (how->renames && too_many_for_renames(r, diff))
		find.flags |= GIT_DIFF_FIND_EXACT_MATCH_ONLY;
	if (how->renames && git_diff_find_similar(diff, &find) < 0)
		goto fail;

	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		struct file_change *fc;

		ALLOC_GROW(out->files, out->nr + 1, out->alloc);
		fc = &out->files[out->nr++];
		memset(fc, 0, sizeof(*fc));
		fc->status = status_letter(d->status);
		/* Added and deleted files carry their one path in both fields. */
		fc->old_path = xstrdup(d->old_file.path);
		fc->new_path = xstrdup(d->new_file.path);
		if (d->status != GIT_DELTA_ADDED)
			git_oid_cpy(&fc->old_blob, &d->old_file.id);
		if (d->status != GIT_DELTA_DELETED)
			git_oid_cpy(&fc->new_blob, &d->new_file.id);
		if (how->hunks && add_hunks(diff, i, fc) < 0)
			goto fail;
	}
	ret = 0;
	goto out;
fail:
	error("cannot diff %s against its parent: %s", oid_hex(commit, hex),
	      git_error_last() ? git_error_last()->message : "unknown error");
out:
	strbuf_release(&prefix);
	strvec_clear(&paths);
	git_diff_free(diff);
	git_tree_free(old);
	git_tree_free(new);
	return ret;
}

int repo_diff_first_parent(struct repo *r, const git_oid *commit,
			   const struct strvec *pathspec, int hunks, struct change_list *out)
{
	struct diff_how how = { .renames = 1, .hunks = hunks };

	if (pathspec && pathspec->nr) {
		how.notify = skip_unmatched;
		how.payload = (void *)pathspec;
	}
	return diff_first_parent(r, commit, &how, out);
}

/* Filters deltas by the caller's test of their paths. */
static int skip_unwanted(const git_diff *diff, const git_diff_delta *d,
			 const char *matched, void *payload)
{
	int (**want)(const char *path) = payload;

	(void)diff;
	(void)matched;
	return (*want)(d->new_file.path) || (*want)(d->old_file.path) ? 0 : 1;
}

int repo_diff_first_parent_files(struct repo *r, const git_oid *commit,
				 int (*want)(const char *path), struct change_list *out)
{
	struct diff_how how = { .notify = skip_unwanted, .payload = &want };

	return diff_first_parent(r, commit, &how, out);
}

void change_list_clear(struct change_list *l)
{
	for (size_t i = 0; i < l->nr; i++) {
		free(l->files[i].old_path);
		free(l->files[i].new_path);
		free(l->files[i].hunks);
	}
	free(l->files);
	memset(l, 0, sizeof(*l));
}

int repo_diff_text(const char *path, const char *a, size_t alen, const char *b, size_t blen,
		   struct strbuf *patch, int *hunks)
{
	git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
	git_patch *p;
	int ret = 0;

	/* Never "Binary files differ": the texts are C sources. */
	opts.flags |= GIT_DIFF_FORCE_TEXT;
	if (git_patch_from_buffers(&p, a, alen, path, b, blen, path, &opts) < 0)
		return error("cannot diff %s: %s", path,
			     git_error_last() ? git_error_last()->message : "?");
	if (hunks)
		*hunks = (int)git_patch_num_hunks(p);
	if (patch) {
		git_buf buf = { 0 };

		if (git_patch_to_buf(&buf, p) < 0)
			ret = error("cannot diff %s: %s", path,
				    git_error_last() ? git_error_last()->message : "?");
		else
			strbuf_add(patch, buf.ptr, buf.size);
		git_buf_dispose(&buf);
	}
	git_patch_free(p);
	return ret;
}
