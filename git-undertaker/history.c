// SPDX-License-Identifier: GPL-2.0
#include "history.h"

#include <stdlib.h>
#include <string.h>

#include "buildfiles.h"
#include "kconfig.h"

struct walk_state {
	const char *name;
	struct repo *repo;
	int found_new;			/* the commit still defines it in a file it changed */
	char *old_path;			/* where the parent defined it */
	int old_line;
	git_oid old_blob, new_blob;	/* that file before and after the commit */
};

/*
 * A rename: the commit that removed the definition put another `config` in
 * its place, one that the file did not define before. Its name, or NULL.
 */
static char *renamed_to(struct walk_state *ws)
{
	struct blob *nb, *ob;
	char *name = NULL;

	if (git_oid_is_zero(&ws->new_blob) || repo_read_blob(ws->repo, &ws->new_blob, &nb) < 0)
		return NULL;
	name = kconfig_text_definition_near(nb->data, nb->size, ws->old_line, 3);
	blob_release(ws->repo, nb);
	if (name && !git_oid_is_zero(&ws->old_blob) &&
	    !repo_read_blob(ws->repo, &ws->old_blob, &ob)) {
		if (kconfig_text_defines(ob->data, ob->size, name)) {
			free(name);
			name = NULL;
		}
		blob_release(ws->repo, ob);
	}
	return name;
}

static int is_kconfig_path(const char *path)
{
	const char *slash = strrchr(path, '/');

	return buildfiles_is_kconfig_file(slash ? slash + 1 : path);
}

/* Skip every file but Kconfig files before the diff looks at contents. */
static int only_kconfig(const git_diff *diff, const git_diff_delta *d, const char *matched,
			void *payload)
{
	(void)diff;
	(void)matched;
	(void)payload;
	return is_kconfig_path(d->new_file.path) || is_kconfig_path(d->old_file.path) ? 0 : 1;
}

static int look(struct walk_state *ws, const git_oid *id, int *line)
{
	struct blob *b;

	*line = 0;
	if (git_oid_is_zero(id))
		return 0;
	if (repo_read_blob(ws->repo, id, &b) < 0)
		return -1;
	*line = kconfig_text_defines(b->data, b->size, ws->name);
	blob_release(ws->repo, b);
	return 0;
}

static int per_delta(const git_diff_delta *d, float progress, void *payload)
{
	struct walk_state *ws = payload;
	int line;

	(void)progress;
	if (look(ws, &d->new_file.id, &line) < 0)
		return -1;
	if (line)
		ws->found_new = 1;
	if (!ws->old_path) {
		if (look(ws, &d->old_file.id, &line) < 0)
			return -1;
		if (line) {
			ws->old_path = xstrdup(d->old_file.path);
			ws->old_line = line;
			ws->old_blob = d->old_file.id;
			ws->new_blob = d->new_file.id;
		}
	}
	return 0;
}

int kconfig_symbol_removal(struct repo *r, const git_oid *commit, const char *name,
			   struct strbuf *out)
{
	git_repository *g = repo_git_local(r);
	struct walk_state ws = { .repo = r };
	git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
	git_commit *c = NULL, *p = NULL;
	int ret = 0;

	ws.name = starts_with(name, "CONFIG_") ? name + 7 : name;
	opts.notify_cb = only_kconfig;
	if (git_commit_lookup(&c, g, commit) < 0)
		return -1;
	for (int depth = 0; depth < HISTORY_DEPTH && repo_commit_parentcount(r, c); depth++) {
		git_tree *ct = NULL, *pt = NULL;
		git_diff *diff = NULL;
		int err;

		if (git_commit_parent(&p, c, 0) < 0 || git_commit_tree(&ct, c) < 0 ||
		    git_commit_tree(&pt, p) < 0) {
			git_tree_free(ct);
			ret = -1;
			break;
		}
		err = git_diff_tree_to_tree(&diff, g, pt, ct, &opts);
		ws.found_new = 0;
		if (!err)
			err = git_diff_foreach(diff, per_delta, NULL, NULL, NULL, &ws);
		git_diff_free(diff);
		git_tree_free(ct);
		git_tree_free(pt);
		if (err < 0) {
			ret = -1;
			break;
		}
		if (ws.old_path && !ws.found_new) {
			char hex[GIT_OID_HEXSZ + 1];
			char *renamed = renamed_to(&ws);

			git_oid_tostr(hex, 13, git_commit_id(c));
			strbuf_addf(out, "%s:%d until %s (\"%s\")", ws.old_path, ws.old_line, hex,
				    git_commit_summary(c) ? git_commit_summary(c) : "");
			if (renamed)
				strbuf_addf(out, ", which renamed it CONFIG_%s", renamed);
			free(renamed);
			ret = 1;
			break;
		}
		free(ws.old_path);
		ws.old_path = NULL;
		git_commit_free(c);
		c = p;
		p = NULL;
	}
	free(ws.old_path);
	git_commit_free(p);
	git_commit_free(c);
	return ret;
}
