// SPDX-License-Identifier: GPL-2.0
/*
 * Commits: what one says (its parents, subject and trailers), and a new one
 * made in the object store (a tree updated, the commit, the branch moved)
 * without an index or a work tree.
 */
#include "repo.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *git_why(void)
{
	const git_error *e = git_error_last();

	return e && e->message ? e->message : "unknown error";
}

static int lookup_commit(struct repo *r, const git_oid *commit, git_commit **out)
{
	if (repo_lookup_commit(r, NULL, commit, out) == 0)
		return 0;
	return error("cannot read commit %s: %s", oid_short(r, commit), git_why());
}

int repo_commit_parents(struct repo *r, const git_oid *commit, struct commit_list *out)
{
	git_commit *c;
	unsigned n, recorded;

	if (lookup_commit(r, commit, &c) < 0)
		return -1;
	n = repo_commit_parentcount(r, c);
	recorded = git_commit_parentcount(c);
	for (unsigned i = 0; i < n; i++) {
		ALLOC_GROW(out->oid, out->nr + 1, out->alloc);
		git_oid_cpy(&out->oid[out->nr++], git_commit_parent_id(c, i));
	}
	git_commit_free(c);
	return (int)recorded;
}

char *repo_commit_summary(struct repo *r, const git_oid *commit)
{
	git_commit *c;
	char *ret;

	if (lookup_commit(r, commit, &c) < 0)
		return NULL;
	ret = xstrdup(git_commit_summary(c) ? git_commit_summary(c) : "");
	git_commit_free(c);
	return ret;
}

char *repo_commit_author(struct repo *r, const git_oid *commit)
{
	git_commit *c;
	const git_signature *a;
	char *ret;

	if (lookup_commit(r, commit, &c) < 0)
		return NULL;
	a = git_commit_author(c);
	ret = xstrfmt("%s <%s>", a && a->name ? a->name : "", a && a->email ? a->email : "");
	git_commit_free(c);
	return ret;
}

int repo_commit_trailers(struct repo *r, const git_oid *commit, const char *key,
			 struct strvec *out)
{
	git_commit *c;
	git_message_trailer_array arr = { 0 };

	if (lookup_commit(r, commit, &c) < 0)
		return -1;
	if (!git_message_trailers(&arr, git_commit_message(c))) {
		for (size_t i = 0; i < arr.count; i++)
			if (!strcasecmp(arr.trailers[i].key, key) && *arr.trailers[i].value)
				strvec_push(out, arr.trailers[i].value);
		git_message_trailer_array_free(&arr);
	}
	git_commit_free(c);
	return 0;
}

int repo_resolve_object(struct repo *r, const char *spec, git_object_t type, git_oid *out)
{
	git_object *obj, *peeled;
	int ret = 0;

	if (git_revparse_single(&obj, repo_git(r), spec) < 0)
		return -1;
	if (git_object_peel(&peeled, obj, type) < 0) {
		ret = -2;
	} else {
		git_oid_cpy(out, git_object_id(peeled));
		git_object_free(peeled);
	}
	git_object_free(obj);
	return ret;
}

int repo_tree_update(struct repo *r, const git_oid *base, const struct tree_update *v, size_t nr,
		     git_oid *out)
{
	git_repository *g = repo_git(r);
	git_tree_update *ups = xcalloc(nr + 1, sizeof(*ups));
	git_commit *c = NULL;
	git_tree *tree = NULL;
	int ret = 0;

	for (size_t i = 0; i < nr; i++) {
		ups[i].action = GIT_TREE_UPDATE_UPSERT;
		ups[i].id = v[i].blob;
		ups[i].filemode = v[i].mode ? (git_filemode_t)v[i].mode : GIT_FILEMODE_BLOB;
		ups[i].path = v[i].path;
	}
	if (repo_lookup_commit(r, g, base, &c) < 0 || git_commit_tree(&tree, c) < 0 ||
	    git_tree_create_updated(out, g, tree, nr, ups) < 0)
		ret = error("cannot build the tree: %s", git_why());
	git_tree_free(tree);
	git_commit_free(c);
	free(ups);
	return ret;
}

int repo_commit_write(struct repo *r, const git_oid *tree_id, const git_oid *parent,
		      const char *message, const char *fallback_name, const char *fallback_email,
		      git_oid *out)
{
	git_repository *g = repo_git(r);
	git_signature *sig = NULL;
	git_commit *p = NULL;
	git_tree *tree = NULL;
	int ret = 0;

	if (git_signature_default(&sig, g) < 0 &&
	    git_signature_now(&sig, fallback_name, fallback_email) < 0)
		return error("cannot make a signature: %s", git_why());
	if (git_tree_lookup(&tree, g, tree_id) < 0 || git_commit_lookup(&p, g, parent) < 0 ||
	    git_commit_create(out, g, NULL, sig, sig, NULL, message, tree, 1,
			      (const git_commit **)&p) < 0)
		ret = error("cannot write the commit: %s", git_why());
	git_commit_free(p);
	git_tree_free(tree);
	git_signature_free(sig);
	return ret;
}

int repo_branch_name_ok(const char *branch)
{
	char *refname = xstrfmt("refs/heads/%s", branch);
	int valid = 0;

	if (git_reference_name_is_valid(&valid, refname) < 0)
		valid = 0;
	free(refname);
	return valid;
}

int repo_branch_checked_out(struct repo *r, const char *branch)
{
	git_repository *g = repo_git(r);
	git_reference *head = NULL;
	char *refname = xstrfmt("refs/heads/%s", branch);
	int ret = !git_repository_is_bare(g) && git_repository_head(&head, g) == 0 &&
		  !strcmp(git_reference_name(head), refname);

	git_reference_free(head);
	free(refname);
	return ret;
}

int repo_branch_set(struct repo *r, const char *branch, const git_oid *commit, const char *reflog)
{
	git_reference *ref = NULL;
	char *refname = xstrfmt("refs/heads/%s", branch);
	int ret = 0;

	if (git_reference_create(&ref, repo_git(r), refname, commit, 1, reflog) < 0)
		ret = error("cannot update %s: %s", refname, git_why());
	git_reference_free(ref);
	free(refname);
	return ret;
}

/*
 * What git apply checks and libgit2 1.5 does not: a file the patch creates
 * must not exist yet (libgit2 would add its lines to the one there), one it
 * changes, renames or deletes must.
 */
static int check_paths(git_tree *base, git_diff *diff, struct strbuf *why)
{
	for (size_t i = 0; i < git_diff_num_deltas(diff); i++) {
		const git_diff_delta *d = git_diff_get_delta(diff, i);
		git_tree_entry *e = NULL;
		int creates = d->status == GIT_DELTA_ADDED, exists;
		const char *path = creates ? d->new_file.path : d->old_file.path;

		exists = !git_tree_entry_bypath(&e, base, path);
		git_tree_entry_free(e);
		if (creates && exists) {
			strbuf_addf(why, "%s: already exists", path);
			return -1;
		}
		if (!creates && !exists) {
			strbuf_addf(why, "%s: does not exist", path);
			return -1;
		}
	}
	return 0;
}

int repo_apply_patch(struct repo *r, const git_oid *parent, const struct patch_commit *p,
		     git_oid *out, struct strbuf *why)
{
	git_repository *g = repo_git(r);
	git_diff *diff = NULL;
	git_commit *pc = NULL;
	git_tree *base = NULL, *tree = NULL;
	git_index *index = NULL;
	git_signature *sig = NULL;
	git_oid tree_id;
	int ret = -1;

	if (git_commit_lookup(&pc, g, parent) < 0 || git_commit_tree(&base, pc) < 0)
		strbuf_addf(why, "cannot read %s: %s", oid_short(r, parent), git_why());
	else if (git_diff_from_buffer(&diff, p->diff, p->diff_len) < 0)
		strbuf_addf(why, "cannot parse the patch: %s", git_why());
	else if (check_paths(base, diff, why) < 0)
		;
	else if (git_apply_to_tree(&index, g, base, diff, NULL) < 0)
		strbuf_addstr(why, git_why());
	else if (git_index_write_tree_to(&tree_id, index, g) < 0 ||
		 git_tree_lookup(&tree, g, &tree_id) < 0)
		strbuf_addf(why, "cannot write its tree: %s", git_why());
	else if (git_signature_new(&sig, p->author_name, p->author_email, p->when,
				   p->tz_offset) < 0 &&
		 git_signature_new(&sig, "unknown", "unknown", p->when, p->tz_offset) < 0)
		strbuf_addf(why, "cannot make its author: %s", git_why());
	else if (git_commit_create(out, g, NULL, sig, sig, NULL, p->message, tree, 1,
				   (const git_commit **)&pc) < 0)
		strbuf_addf(why, "cannot write its commit: %s", git_why());
	else
		ret = 0;
	git_signature_free(sig);
	git_tree_free(tree);
	git_index_free(index);
	git_tree_free(base);
	git_commit_free(pc);
	git_diff_free(diff);
	return ret;
}
