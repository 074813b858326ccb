// SPDX-License-Identifier: GPL-2.0
/* What a run gives back: the diff, --stat, JSON, notes and --commit-to. */
#include "backport.h"
#include "notes.h"
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int count_hunks(const char *path, const char *a, size_t alen, const char *b, size_t blen)
{
	int n;

	if (repo_diff_text(path, a, alen, b, blen, NULL, &n) < 0)
		return -1;
	return n;
}

static int subject_changed(const struct subject *s)
{
	return s->size != s->tip_size || memcmp(s->data, s->tip_data, s->size);
}

static const struct subject_set *sort_set;

static int cmp_subject(const void *a, const void *b)
{
	return strcmp(sort_set->v[*(const size_t *)a].path, sort_set->v[*(const size_t *)b].path);
}

/* The subjects in path order: headers that joined the run come last in the set. */
static size_t *path_order(const struct subject_set *set)
{
	size_t *order = xcalloc(set->nr + 1, sizeof(*order));

	for (size_t i = 0; i < set->nr; i++)
		order[i] = i;
	sort_set = set;
	if (set->nr)
		qsort(order, set->nr, sizeof(*order), cmp_subject);
	return order;
}

/*
 * repo_diff_text gives git's own format ("diff --git a/x b/x", "--- a/x",
 * "+++ b/x"), which `git apply` takes from the top of a checkout. Its index
 * line carries the real blob ids, as `git diff` would print.
 */
int print_diff(struct run_context *ctx, struct strbuf *out)
{
	size_t *order = path_order(ctx->subjects);
	int ret = 0;

	for (size_t i = 0; !ret && i < ctx->subjects->nr; i++) {
		struct subject *s = &ctx->subjects->v[order[i]];

		/* A preview without one of its files would pass for the whole: none. */
		if (subject_changed(s))
			ret = repo_diff_text(s->path, s->tip_data, s->tip_size, s->data, s->size,
					     out, NULL);
	}
	free(order);
	return ret < 0 ? -1 : 0;
}

static size_t changed_files(struct run_context *ctx)
{
	size_t n = 0;

	for (size_t i = 0; i < ctx->subjects->nr; i++)
		n += subject_changed(&ctx->subjects->v[i]);
	return n;
}

void print_stat(struct run_context *ctx, struct strbuf *out)
{
	int considered = 0, filtered = 0, cached = 0, runs = 0, used = 0;

	strbuf_addf(out, "%-40s %6s %6s %7s %6s %6s %8s %8s\n", "rule", "files", "hunks",
		    "failed", "runs", "cached", "skipped", "seconds");
	for (size_t i = 0; i < ctx->rules->nr; i++) {
		struct rule *rule = &ctx->rules->v[i];

		if (!rule->selected) {
			strbuf_addf(out, "%-40s  (not for target: backports %s)\n", rule->name, rule->version);
			continue;
		}
		strbuf_addf(out, "%-40s %6d %6d %7d %6d %6d %8d %8.2f\n", rule->name,
			    rule->files_changed, rule->hunks, rule->failures + !!rule->failure,
			    rule->runs, rule->cached, rule->filtered, rule->seconds);
		considered += rule->considered;
		filtered += rule->filtered;
		cached += rule->cached;
		runs += rule->runs;
		used += rule->files_changed > 0;
	}
	strbuf_addf(out, "%zu of %zu files changed by %d rules; spatch ran on %d files in %d processes, "
		    "%d results from the cache; token filter skipped %d of %d (%.1f%%)\n",
		    changed_files(ctx), ctx->subjects->nr, used, runs, ctx->spatch_runs, cached,
		    filtered, considered,
		    considered ? 100.0 * filtered / considered : 0.0);
}

/* A rule's failures: its own (file null), then each file's, in subject order. */
static void json_rule_failures(struct run_context *ctx, size_t i, struct json_writer *w)
{
	const struct rule *rule = &ctx->rules->v[i];

	json_array_begin(w, "failures");
	if (rule->failure) {
		json_object_begin(w, NULL);
		json_add_null(w, "file");
		json_add_str(w, "message", rule->failure);
		json_object_end(w);
	}
	for (size_t j = 0; j < ctx->subjects->nr; j++) {
		const struct subject *s = &ctx->subjects->v[j];

		for (size_t k = 0; k < s->nr_fails; k++) {
			if (s->fails[k].rule != i)
				continue;
			json_object_begin(w, NULL);
			json_add_str(w, "file", s->path);
			json_add_str(w, "message", s->fails[k].message);
			json_object_end(w);
		}
	}
	json_array_end(w);
}

static void json_rule(struct run_context *ctx, size_t i, struct json_writer *w)
{
	const struct rule *rule = &ctx->rules->v[i];

	json_object_begin(w, NULL);
	json_add_str(w, "name", rule->name);
	json_add_str(w, "version", rule->version);
	json_add_bool(w, "selected", rule->selected);
	json_add_int(w, "files_changed", rule->files_changed);
	json_add_int(w, "hunks", rule->hunks);
	json_add_int(w, "spatch_runs", rule->runs);
	json_add_int(w, "cached", rule->cached);
	json_add_int(w, "filtered", rule->filtered);
	json_add_fixed(w, "seconds", rule->seconds, 3);
	json_add_int(w, "processes", rule->processes);
	json_object_begin(w, "alone");
	json_add_int(w, "batch_failed", rule->alone_failed);
	json_add_int(w, "header_changed", rule->alone_header);
	json_object_end(w);
	json_rule_failures(ctx, i, w);
	json_object_end(w);
}

void print_json(struct run_context *ctx, const char *diff, struct strbuf *out)
{
	char hex[GIT_OID_HEXSZ + 1];
	struct json_writer w;
	size_t *order;

	json_init(&w, out);
	json_object_begin(&w, NULL);
	json_add_str(&w, "tip", oid_hex(ctx->tip, hex));
	json_add_str(&w, "target", ctx->opts->target);
	json_add_str(&w, "spatch", ctx->spatch->version);
	json_array_begin(&w, "rules");
	for (size_t i = 0; i < ctx->rules->nr; i++)
		json_rule(ctx, i, &w);
	json_array_end(&w);
	json_array_begin(&w, "files");
	order = path_order(ctx->subjects);
	for (size_t j = 0; j < ctx->subjects->nr; j++) {
		const struct subject *s = &ctx->subjects->v[order[j]];

		if (!subject_changed(s))
			continue;
		json_object_begin(&w, NULL);
		json_add_str(&w, "path", s->path);
		json_array_begin(&w, "rules");
		for (size_t i = 0; i < ctx->rules->nr; i++)
			if (s->changed_by[i])
				json_add_str(&w, NULL, ctx->rules->v[i].name);
		json_array_end(&w);
		json_object_end(&w);
	}
	free(order);
	json_array_end(&w);
	json_add_int(&w, "files_considered", (long long)ctx->subjects->nr);
	json_add_str(&w, "diff", diff);
	json_object_end(&w);
}

/*
 * The transformed tree, built in the object store from the tip's tree with
 * the changed blobs in place, committed on top of the tip; the work tree and
 * the index are never read or written.
 */
int commit_to_branch(struct run_context *ctx, const char *branch)
{
	struct tree_update *ups = xcalloc(ctx->subjects->nr + 1, sizeof(*ups));
	size_t nr = 0;
	git_oid tree_id, commit_id;
	struct strbuf msg = STRBUF_INIT;
	int ret = -1;
	char *title = NULL;

	if (!repo_branch_name_ok(branch)) {
		error("--commit-to: '%s' is not a valid branch name", branch);
		goto out;
	}
	if (repo_branch_checked_out(ctx->repo, branch)) {
		error("--commit-to: refusing to move the checked-out branch '%s'", branch);
		goto out;
	}
	for (size_t i = 0; i < ctx->subjects->nr; i++) {
		struct subject *s = &ctx->subjects->v[i];

		if (!subject_changed(s))
			continue;
		ups[nr].path = s->path;
		ups[nr].blob = s->cur;
		ups[nr].mode = s->mode;
		nr++;
	}
	if (repo_tree_update(ctx->repo, ctx->tip, ups, nr, &tree_id) < 0)
		goto out;
	title = commit_title(ctx->repo, ctx->tip);
	strbuf_addf(&msg, "backport preview of %s\n\n", title);
	if (ctx->opts->target)
		strbuf_addf(&msg, "Target: %s\n", ctx->opts->target);
	strbuf_addf(&msg, "Rules: %s\n", ctx->opts->rules);
	for (size_t i = 0; i < ctx->rules->nr; i++) {
		struct rule *rule = &ctx->rules->v[i];

		if (rule->selected && rule->files_changed)
			strbuf_addf(&msg, "  %s: %d files, %d hunks\n", rule->name,
				    rule->files_changed, rule->hunks);
	}
	if (repo_commit_write(ctx->repo, &tree_id, ctx->tip, msg.buf, "git backport",
			      "git-backport@localhost", &commit_id) < 0 ||
	    repo_branch_set(ctx->repo, branch, &commit_id, "backport: preview") < 0)
		goto out;
	ret = 0;
out:
	free(title);
	strbuf_release(&msg);
	free(ups);
	return ret;
}

static char *one_line(const char *s)
{
	char *r = xstrdup(s);

	for (char *p = r; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	return r;
}

/* The rules that changed the header hs through the C file `from`, in order (out: hs->nr_via). */
static size_t rules_through(const struct subject *hs, size_t from, size_t *out)
{
	size_t n = 0;

	for (size_t i = 0; i < hs->nr_via; i++)
		if (hs->via[i].from == from)
			out[n++] = hs->via[i].rule;
	return n;
}

/*
 * The headers that rules changed while spatch read them for the C file
 * `from` (the commit may not touch them itself): "changed include/x.h
 * through drivers/x.c: rule, rule".
 */
static void note_headers_via(struct run_context *ctx, size_t from, struct strbuf *note)
{
	for (size_t h = 0; h < ctx->subjects->nr; h++) {
		const struct subject *hs = &ctx->subjects->v[h];
		size_t *rules = xcalloc(hs->nr_via + 1, sizeof(*rules));
		size_t n = rules_through(hs, from, rules);

		for (size_t k = 0; k < n; k++) {
			if (!k) {
				strbuf_addstr(note, "changed ");
				strbuf_add_path(note, hs->path);
				strbuf_addstr(note, " through ");
				strbuf_add_path(note, ctx->subjects->v[from].path);
				strbuf_addstr(note, ": ");
			}
			strbuf_addf(note, "%s%s", k ? ", " : "", ctx->rules->v[rules[k]].name);
		}
		if (n)
			strbuf_addch(note, '\n');
		free(rules);
	}
}

/*
 * The subjects a commit of the range touches (added or modified, as they are
 * at the tip), each once, in the commit's diff order; -1 with an error.
 */
static long commit_subjects(struct run_context *ctx, const struct strmap *index,
			    const git_oid *commit, struct subject ***out)
{
	struct change_list changes = { 0 };
	size_t nr = 0;

	*out = NULL;
	if (repo_diff_first_parent(ctx->repo, commit, NULL, 0, &changes) < 0)
		return -1;
	*out = xcalloc(changes.nr + 1, sizeof(**out));
	for (size_t k = 0; k < changes.nr; k++) {
		struct subject *s;

		if (!changes.files[k].new_path || changes.files[k].status == 'D')
			continue;
		s = strmap_get(index, changes.files[k].new_path);
		if (!s || s->touched)
			continue;
		s->touched = 1;
		(*out)[nr++] = s;
	}
	for (size_t k = 0; k < nr; k++)
		(*out)[k]->touched = 0;
	change_list_clear(&changes);
	return (long)nr;
}

static void index_subjects(struct run_context *ctx, struct strmap *index)
{
	for (size_t i = 0; i < ctx->subjects->nr; i++)
		strmap_put(index, ctx->subjects->v[i].path, &ctx->subjects->v[i]);
}

/*
 * One note per commit of the range: the target, which rules change which of
 * the files that commit touches (as they are at the tip), and what failed.
 */
int write_notes(struct run_context *ctx, const struct commit_list *commits, const char *ref)
{
	struct notes_batch *batch = notes_batch_begin(ctx->repo, ref);
	struct strmap index = STRMAP_INIT;
	char *spatch_short;
	int ret = 0;

	if (!batch)
		return error("cannot write notes to %s", ref);
	/* "spatch version 1.1.1 compiled with ..." → "spatch 1.1.1" */
	if (starts_with(ctx->spatch->version, "spatch version "))
		spatch_short = xstrfmt("spatch %.*s", (int)strcspn(ctx->spatch->version + 15, " "),
				       ctx->spatch->version + 15);
	else
		spatch_short = xstrdup(ctx->spatch->version);
	index_subjects(ctx, &index);
	for (size_t c = 0; !ret && c < commits->nr; c++) {
		struct strbuf note = STRBUF_INIT;
		struct subject **touched;
		long nr = commit_subjects(ctx, &index, &commits->oid[c], &touched);
		size_t lines;

		if (nr < 0) {
			ret = -1;
			break;
		}
		strbuf_addf(&note, "backport: target %s, rules %s, %s\n",
			    ctx->opts->target ? ctx->opts->target : "none", ctx->opts->rules,
			    spatch_short);
		lines = note.len;
		for (size_t i = 0; i < ctx->rules->nr; i++) {
			if (ctx->rules->v[i].failure) {
				char *m = one_line(ctx->rules->v[i].failure);

				strbuf_addf(&note, "failed %s: %s\n", ctx->rules->v[i].name, m);
				free(m);
			}
		}
		for (size_t k = 0; k < (size_t)nr; k++) {
			struct subject *s = touched[k];
			int any = 0;

			for (size_t i = 0; i < ctx->rules->nr; i++) {
				if (!s->changed_by[i])
					continue;
				strbuf_addstr(&note, any ? ", " : "changed ");
				if (!any) {
					strbuf_add_path(&note, s->path);
					strbuf_addstr(&note, ": ");
				}
				strbuf_addstr(&note, ctx->rules->v[i].name);
				any = 1;
			}
			if (any)
				strbuf_addch(&note, '\n');
			if (s->refused) {
				strbuf_addstr(&note, "failed ");
				strbuf_add_path(&note, s->path);
				strbuf_addf(&note, ": not given to spatch: %s\n", s->refused);
			}
			for (size_t f = 0; f < s->nr_fails; f++) {
				char *m = one_line(s->fails[f].message);

				strbuf_addstr(&note, "failed ");
				strbuf_add_path(&note, s->path);
				strbuf_addf(&note, ": %s: %s\n", ctx->rules->v[s->fails[f].rule].name, m);
				free(m);
			}
			note_headers_via(ctx, s - ctx->subjects->v, &note);
		}
		if (note.len == lines)
			strbuf_addstr(&note, "no changes\n");
		notes_batch_add(batch, &commits->oid[c], note.buf);
		strbuf_release(&note);
		free(touched);
	}
	strmap_clear(&index, NULL);
	free(spatch_short);
	/* All of them or none: no note of a run that could not say everything. */
	if (ret < 0) {
		notes_batch_abort(batch);
		return error("no notes written to %s", ref);
	}
	if (notes_batch_commit(batch, "git backport: notes") < 0)
		return error("cannot write notes to %s", ref);
	return 0;
}

/* A file a commit touches that the rules change: its rules, and the headers changed through it. */
static void json_changed(struct run_context *ctx, const struct subject *s, struct json_writer *w)
{
	size_t from = (size_t)(s - ctx->subjects->v);

	json_object_begin(w, NULL);
	json_add_str(w, "path", s->path);
	json_array_begin(w, "rules");
	for (size_t i = 0; i < ctx->rules->nr; i++)
		if (s->changed_by[i])
			json_add_str(w, NULL, ctx->rules->v[i].name);
	json_array_end(w);
	json_array_begin(w, "headers");
	for (size_t h = 0; h < ctx->subjects->nr; h++) {
		const struct subject *hs = &ctx->subjects->v[h];
		size_t *rules = xcalloc(hs->nr_via + 1, sizeof(*rules));
		size_t n = rules_through(hs, from, rules);

		if (n) {
			json_object_begin(w, NULL);
			json_add_str(w, "path", hs->path);
			json_array_begin(w, "rules");
			for (size_t k = 0; k < n; k++)
				json_add_str(w, NULL, ctx->rules->v[rules[k]].name);
			json_array_end(w);
			json_object_end(w);
		}
		free(rules);
	}
	json_array_end(w);
	json_object_end(w);
}

int print_json_commits(struct run_context *ctx, const struct commit_list *commits,
		       const char *preview, struct strbuf *out)
{
	struct strmap index = STRMAP_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	int ret = 0;

	index_subjects(ctx, &index);
	for (size_t c = 0; c < commits->nr; c++) {
		struct json_writer w;
		struct subject **touched;
		long got = commit_subjects(ctx, &index, &commits->oid[c], &touched);
		size_t nr = got > 0 ? (size_t)got : 0;

		if (got < 0) {
			ret = -1;
			break;
		}
		json_init(&w, out);
		json_object_begin(&w, NULL);
		json_add_str(&w, "commit", oid_hex(&commits->oid[c], hex));
		json_array_begin(&w, "changed");
		for (size_t k = 0; k < nr; k++) {
			int any = 0;

			for (size_t i = 0; i < ctx->rules->nr && !any; i++)
				any = touched[k]->changed_by[i];
			if (any)
				json_changed(ctx, touched[k], &w);
		}
		json_array_end(&w);
		json_array_begin(&w, "failed");
		for (size_t k = 0; k < nr; k++) {
			if (touched[k]->refused) {
				json_object_begin(&w, NULL);
				json_add_str(&w, "file", touched[k]->path);
				json_add_null(&w, "rule");
				json_add_str(&w, "message", touched[k]->refused);
				json_object_end(&w);
			}
			for (size_t f = 0; f < touched[k]->nr_fails; f++) {
				json_object_begin(&w, NULL);
				json_add_str(&w, "file", touched[k]->path);
				json_add_str(&w, "rule", ctx->rules->v[touched[k]->fails[f].rule].name);
				json_add_str(&w, "message", touched[k]->fails[f].message);
				json_object_end(&w);
			}
		}
		json_array_end(&w);
		/* The preview of the whole range rides on its last commit, the tip. */
		if (c + 1 == commits->nr && preview)
			json_add_raw(&w, "preview", preview);
		json_object_end(&w);
		strbuf_addch(out, '\n');
		free(touched);
	}
	strmap_clear(&index, NULL);
	return ret;
}
