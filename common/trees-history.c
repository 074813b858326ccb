// SPDX-License-Identifier: GPL-2.0
/*
 * Where a Kconfig symbol went: the commit that removed its last definition,
 * found by walking first parents and diffing only the Kconfig files, as
 * `git log -S` would (--explain of a missing symbol).
 */
#include "trees.h"

#include <stdlib.h>
#include <string.h>

#include "buildfiles.h"
#include "kconfig.h"

/* How many first-parent commits are looked at before giving up. */
#define HISTORY_DEPTH 1000

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

static int per_change(struct walk_state *ws, const struct file_change *fc)
{
	int line;

	if (look(ws, &fc->new_blob, &line) < 0)
		return -1;
	if (line)
		ws->found_new = 1;
	if (!ws->old_path) {
		if (look(ws, &fc->old_blob, &line) < 0)
			return -1;
		if (line) {
			ws->old_path = xstrdup(fc->old_path);
			ws->old_line = line;
			ws->old_blob = fc->old_blob;
			ws->new_blob = fc->new_blob;
		}
	}
	return 0;
}

/* Did `commit` remove the definition from a Kconfig file it changed? 1: said so in `out`. */
static int removed_by(struct walk_state *ws, const git_oid *commit, struct strbuf *out)
{
	struct change_list changes = { 0 };
	int ret = 0;

	/* Only Kconfig files: the diff never reads another file's contents. */
	if (repo_diff_first_parent_files(ws->repo, commit, trees_is_kconfig_path, &changes) < 0)
		return -1;
	ws->found_new = 0;
	for (size_t k = 0; k < changes.nr && ret == 0; k++)
		ret = per_change(ws, &changes.files[k]);
	change_list_clear(&changes);
	if (ret == 0 && ws->old_path && !ws->found_new) {
		char hex[GIT_OID_HEXSZ + 1];
		char *renamed = renamed_to(ws);
		char *summary = repo_commit_summary(ws->repo, commit);

		git_oid_tostr(hex, 13, commit);
		strbuf_addf(out, "%s:%d until %s (\"%s\")", ws->old_path, ws->old_line, hex,
			    summary ? summary : "");
		if (renamed)
			strbuf_addf(out, ", which renamed it CONFIG_%s", renamed);
		free(renamed);
		free(summary);
		ret = 1;
	}
	free(ws->old_path);
	ws->old_path = NULL;
	return ret;
}

static int symbol_removal(struct repo *r, struct buildfiles *bf, const git_oid *commit,
			   const char *name, struct strbuf *out)
{
	struct walk_state ws = { .repo = r };
	git_oid cur = *commit;
	int ret = 0;

	ws.name = starts_with(name, "CONFIG_") ? name + 7 : name;
	/*
	 * The first parent whose Kconfig files define it is the parent of the
	 * commit that removed it: only that commit's diff is read.
	 */
	for (int depth = 0; depth < HISTORY_DEPTH && ret == 0; depth++) {
		struct commit_list parents = { 0 };
		git_oid parent;
		int defines;

		if (repo_commit_parents(r, &cur, &parents) < 0)
			return -1;
		if (!parents.nr)
			break;
		parent = parents.oid[0];
		commit_list_clear(&parents);
		defines = buildfiles_kconfig_defines(bf, &parent, ws.name);
		if (defines < 0)
			return -1;
		if (defines)
			ret = removed_by(&ws, &cur, out);
		cur = parent;
	}
	return ret;
}

int trees_cache_removal(struct trees_cache *tc, const git_oid *commit, const char *name,
			struct strbuf *out)
{
	if (!tc->history)
		tc->history = buildfiles_new(tc->env.repo);
	return symbol_removal(tc->env.repo, tc->history, commit, name, out);
}
