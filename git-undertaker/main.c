// SPDX-License-Identifier: GPL-2.0
/*
 * git undertaker: dead and undead #if blocks, commit by commit, as notes.
 * main parses options, walks the range, prints, writes notes and picks the
 * exit code; the analysis lives in checker.c.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "accept.h"
#include "checker.h"
#include "email.h"
#include "mbox.h"
#include "notes.h"
#include "process.h"
#include "report.h"
#include "sarif.h"
#include "trees.h"
#include "unote.h"

static const char *const usage_lines[] = {
	"git undertaker [<options>] [<revision-range>] [-- <pathspec>...]",
	"git undertaker --all [<options>] [<commit>] [-- <pathspec>...]",
	"git undertaker --mbox=<file>|<dir>|- [--base=<rev>] [<options>] [<file>...] [-- <pathspec>...]",
	"git undertaker --dump-model[=dimacs|symbols|files] [--arch=<arch>] [<commit>]",
	"git undertaker --gc-cache",
	NULL,
};

/* --arch names an architecture of the tree at `commit`, or the run ends here (129). */
static void check_arch(struct repo *r, const git_oid *commit, const char *arch)
{
	struct strbuf why = STRBUF_INIT;

	if (!trees_check_arch(r, commit, arch, &why))
		return;
	fprintf(stderr, "error: %s\n", why.buf);
	exit(EXIT_USAGE);
}

/* What is checked: a commit, or the commit a mailed patch would become. */
struct checked {
	git_oid commit;
	const struct mbox_patch *patch;	/* NULL for a commit */
};

static void print_heading(struct repo *r, const struct checked *ck, int *printed)
{
	char *title;

	if (*printed)
		return;
	/* A patch is named by its subject: its commit is nowhere but here. */
	title = ck->patch ? xstrdup(ck->patch->subject) : commit_title(r, &ck->commit);
	/* As git log colours its commit line. */
	printf("%s%s%s\n", color(COLOR_YELLOW), title, color(COLOR_RESET));
	free(title);
	*printed = 1;
}

/*
 * A defect line on a terminal: its kind ("dead", "undead") in red, as a
 * compiler colours "error". Notes and pipes get the plain line.
 */
static void print_defect_line(const char *line, size_t len)
{
	static const char *const kinds[] = { " undead ", " dead " };

	if (color_enabled()) {
		for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
			const char *p = strstr(line, kinds[k]);

			if (!p || (size_t)(p - line) >= len)
				continue;
			p++;
			printf("%.*s%s%.*s%s%.*s\n", (int)(p - line), line, color(COLOR_RED),
			       (int)strlen(kinds[k]) - 2, p, color(COLOR_RESET),
			       (int)(len - (size_t)(p - line) - (strlen(kinds[k]) - 2)),
			       p + strlen(kinds[k]) - 2);
			return;
		}
	}
	printf("%.*s\n", (int)len, line);
}

static void print_text(struct repo *r, const struct checked *ck, const struct defect_list *l,
		       const struct undertaker_options *o)
{
	struct strbuf sb = STRBUF_INIT;
	int heading = 0;

	for (size_t i = 0; i < l->nr; i++) {
		const struct defect *d = &l->v[i];

		if (d->status != STATUS_NEW && !o->show_all)
			continue;
		print_heading(r, ck, &heading);
		strbuf_reset(&sb);
		defect_format_text(&sb, d, 1);
		print_defect_line(sb.buf, sb.len);
		for (size_t j = 0; j < d->explanation.nr; j++)
			printf("    %s\n", d->explanation.v[j]);
	}
	strbuf_release(&sb);
}

/* --format=sarif: the run's one log, written at its end. */
static struct sarif_log *sarif_out;

static void add_sarif(const struct checked *ck, const struct defect_list *l,
		      const struct undertaker_options *o)
{
	char hex[GIT_OID_HEXSZ + 1];

	oid_hex(&ck->commit, hex);
	for (size_t i = 0; i < l->nr; i++)
		if (l->v[i].status == STATUS_NEW || o->show_all)
			sarif_add(sarif_out, &l->v[i], hex, ck->patch ? ck->patch->subject : NULL);
}

/* --format=email: who reports, and the Closes: link's prefix (read once). */
static int email_out;
static char *reported_by, *closes_url;

static void print_email(struct repo *r, const struct checked *ck, const struct defect_list *l)
{
	struct email_reply e = { .what = ck->patch ? "patch" : "commit" };
	char hex[GIT_OID_HEXSZ + 1];
	char *subject = NULL, *to = repo_commit_author(r, &ck->commit);
	struct strbuf sb = STRBUF_INIT;

	if (!reported_by) {
		char *name = repo_config_get(r, "user.name"), *mail = repo_config_get(r, "user.email");

		reported_by = repo_config_get(r, "undertaker.reportedBy");
		if (!reported_by)
			reported_by = xstrfmt("%s <%s>", name ? name : "git undertaker",
					      mail ? mail : "undertaker@localhost");
		free(name);
		free(mail);
		closes_url = repo_config_get(r, "undertaker.closesUrl");
		if (!closes_url)
			closes_url = xstrdup("https://lore.kernel.org/r/");
	}
	e.commit = oid_hex(&ck->commit, hex);
	e.subject = ck->patch ? ck->patch->subject : (subject = repo_commit_summary(r, &ck->commit));
	e.to = to;
	e.in_reply_to = ck->patch ? ck->patch->message_id : NULL;
	e.references = ck->patch ? ck->patch->references : NULL;
	e.cc = ck->patch ? ck->patch->recipients : NULL;
	e.reported_by = reported_by;
	e.closes_url = closes_url;
	if (!e.subject)
		e.subject = "";
	email_format(&sb, &e, l);
	fputs(strbuf_str(&sb), stdout);
	strbuf_release(&sb);
	free(subject);
	free(to);
}

static void print_json(const struct checked *ck, const struct defect_list *l,
		       const struct undertaker_options *o)
{
	struct strbuf sb = STRBUF_INIT;
	struct json_writer w;
	char hex[GIT_OID_HEXSZ + 1];

	json_init(&w, &sb);
	json_object_begin(&w, NULL);
	json_add_str(&w, "commit", oid_hex(&ck->commit, hex));
	if (ck->patch) {
		json_add_str(&w, "patch", ck->patch->subject);
		if (ck->patch->message_id)
			json_add_str(&w, "message_id", ck->patch->message_id);
	}
	json_array_begin(&w, "defects");
	for (size_t i = 0; i < l->nr; i++)
		if (l->v[i].status == STATUS_NEW || o->show_all)
			defect_format_json(&w, NULL, &l->v[i]);
	json_array_end(&w);
	json_object_end(&w);
	strbuf_addch(&sb, '\n');
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
}

/*
 * Prints what checking the commit again would print (new defects, or with
 * --show=all the fixed, accepted and unchanged ones too) from its current
 * note: the text lines, or for --format=json `json`, its JSON lines.
 */
static void replay_note(struct repo *r, const struct checked *ck, const char *note,
			const char *json, const struct undertaker_options *o)
{
	struct strbuf sb = STRBUF_INIT, raw = STRBUF_INIT;
	struct json_writer w;
	char hex[GIT_OID_HEXSZ + 1];
	enum defect_status status;
	int heading = 0;

	if (o->common.json) {
		json_init(&w, &sb);
		json_object_begin(&w, NULL);
		json_add_str(&w, "commit", oid_hex(&ck->commit, hex));
		json_array_begin(&w, "defects");
	}
	for (const char *p = o->common.json ? json : note; *p; ) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);

		eol = p + len;

		if (o->common.json) {
			/* The note's object as it was written. */
			if (len && (o->show_all ||
				    (unote_json_line(p, len, &status) && status == STATUS_NEW))) {
				strbuf_reset(&raw);
				strbuf_add(&raw, p, len);
				json_add_raw(&w, NULL, raw.buf);
			}
		} else if (unote_text_line(p, len, &status) &&
			   (status == STATUS_NEW || o->show_all)) {
			print_heading(r, ck, &heading);
			print_defect_line(p, len);
		}
		p = *eol ? eol + 1 : eol;
	}
	if (o->common.json) {
		json_array_end(&w);
		json_object_end(&w);
		strbuf_addch(&sb, '\n');
		fputs(sb.buf, stdout);
	}
	strbuf_release(&sb);
	strbuf_release(&raw);
}

/*
 * Freeing the models of Linux (millions of small allocations) costs a tenth
 * of a typical run, just before the process ends and the kernel frees it
 * all at once. The leak checkers of `make test SANITIZE=1` want it freed.
 */
#if defined(__SANITIZE_ADDRESS__)
#define FREE_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FREE_AT_EXIT 1
#endif
#endif
#ifndef FREE_AT_EXIT
#define FREE_AT_EXIT 0
#endif

/*
 * The notes ref of the data notes (full name): --data-notes-ref, spelt as
 * --notes-ref is, else the notes ref with "-data" added, as
 * refs/notes/undertaker-data beside refs/notes/undertaker: both under
 * refs/notes/, so the refspec that fetches one fetches the other.
 */
static char *data_notes_ref(const struct undertaker_options *o)
{
	const char *d = o->data_notes_ref;
	char *ref;

	if (d && starts_with(d, "refs/"))
		return xstrdup(d);
	if (d && starts_with(d, "notes/"))
		return xstrfmt("refs/%s", d);
	if (d)
		return xstrfmt("refs/notes/%s", d);
	ref = common_notes_ref(&o->common, "undertaker");
	d = xstrfmt("%s-data", ref);
	free(ref);
	return (char *)d;
}

/* The two notes refs of a run, and a batch for each (NULL with --no-notes). */
struct note_refs {
	char *ref, *data_ref;
	struct notes_batch *batch, *data_batch;
};

#define FREE_NOTE(p) do { free(p); (p) = NULL; } while (0)

static void add_notes(const struct note_refs *nr, const git_oid *commit,
		      const struct defect_list *l, const char *note, int show_all)
{
	char *data = unote_format_data(l, note, show_all);

	notes_batch_add(nr->batch, commit, note);
	notes_batch_add(nr->data_batch, commit, data);
	free(data);
}

/*
 * Writes both batches: the data notes first, then the readable notes. A run
 * that dies between the two leaves data notes whose readable note is not
 * there (or is an older one): they name another blob, so no reader pairs them.
 * When the data notes cannot be written, neither are the readable ones.
 */
static int commit_notes(struct note_refs *nr)
{
	int ret = 0;

	if (!notes_batch_count(nr->batch)) {
		notes_batch_abort(nr->batch);
		notes_batch_abort(nr->data_batch);
	} else if (notes_batch_commit(nr->data_batch, "Notes added by 'git undertaker' (data)") < 0) {
		notes_batch_abort(nr->batch);
		ret = -1;
	} else if (notes_batch_commit(nr->batch, "Notes added by 'git undertaker'") < 0) {
		ret = -1;
	}
	nr->batch = nr->data_batch = NULL;
	return ret;
}

/*
 * One commit of a range: its note replayed when it is current, else checked,
 * printed and noted. Returns -1 on an error, else adds its new defects to
 * *total_new.
 */
static int range_commit(struct repo *r, struct undertaker_options *o, struct checker *c,
			const struct note_refs *nr, const struct checked *ck, size_t *total_new)
{
	const git_oid *commit = &ck->commit;
	struct defect_list defects = { 0 };
	struct strbuf key = STRBUF_INIT;
	size_t nr_new = 0, nr_fixed = 0, unread = repo_read_failures(r);
	char *old_note = NULL, *json = NULL;
	git_oid old_id;
	int ret = 0;

	checker_model_key(c, commit, &key);
	/*
	 * --explain (and so email) needs the analysis: a note keeps no
	 * explanations; nor does it keep what SARIF needs (the defects whole).
	 */
	if (!o->force && !o->explain && !o->pathspec.nr && nr->ref && !sarif_out)
		old_note = notes_read_blob(r, nr->ref, commit, &old_id);
	if (old_note && !unote_is_current(old_note, key.buf, o->show_all, &nr_new))
		FREE_NOTE(old_note);
	/* JSON needs the data note; text and the summary do not. */
	if (old_note && o->common.json &&
	    !(json = unote_json_lines(r, nr->data_ref, commit, old_note, &old_id)))
		FREE_NOTE(old_note);
	if (old_note) {
		*total_new += nr_new;
		if (!o->common.quiet || o->common.json)
			replay_note(r, ck, old_note, json, o);
	} else if (checker_check_commit(c, commit, &defects) < 0) {
		ret = -1;
	} else if (process_interrupted()) {
		/* Cut short: neither printed nor noted, as if never begun. */
	} else {
		char *note = unote_format(&defects, key.buf, o->show_all, &nr_new, &nr_fixed);

		*total_new += nr_new;
		if (sarif_out)
			add_sarif(ck, &defects, o);
		else if (email_out)
			print_email(r, ck, &defects);
		else if (o->common.json)
			print_json(ck, &defects, o);
		else if (!o->common.quiet)
			print_text(r, ck, &defects, o);
		/*
		 * A pathspec-limited check is partial: it must not pose as the
		 * commit's note. Nor may one that read less than the commit holds.
		 */
		if (repo_read_failures(r) != unread)
			error("%s: not noted: some of its files could not be read",
			      oid_short(r, commit));
		else if (nr->batch && !o->pathspec.nr)
			add_notes(nr, commit, &defects, note, o->show_all);
		free(note);
	}
	process_flush_stdout();
	free(old_note);
	free(json);
	strbuf_release(&key);
	defect_list_clear(&defects);
	return ret;
}

static int run_range(struct repo *r, struct undertaker_options *o, const struct strvec *revs)
{
	struct commit_list commits = { 0 };
	struct checker *c;
	struct note_refs nr = { common_notes_ref(&o->common, "undertaker"), data_notes_ref(o) };
	struct progress *progress = NULL;
	size_t total_new = 0, noted;
	int ret = 0;

	if (repo_parse_revisions(r, revs, &commits) < 0) {
		free(nr.ref);
		free(nr.data_ref);
		return -1;
	}
	if (o->shard_n) {
		/* Every N-th commit in topological order: shards of like cost, any N. */
		size_t kept = 0;

		for (size_t i = 0; i < commits.nr; i++)
			if (i % o->shard_n == o->shard_k - 1)
				commits.oid[kept++] = commits.oid[i];
		commits.nr = kept;
	}
	if (commits.nr)
		check_arch(r, &commits.oid[0], o->arch);
	if (commits.nr && !o->common.quiet) {
		const git_oid *ends[2] = { &commits.oid[commits.nr - 1], &commits.oid[0] };

		repo_pathspec_warn_unmatched(r, ends, 2, &o->pathspec);
	}
	c = checker_new(r, o);
	checker_set_file_progress(c, commits.nr == 1);
	if (o->common.notes) {
		nr.batch = notes_batch_begin(r, nr.ref);
		nr.data_batch = notes_batch_begin(r, nr.data_ref);
	}
	if (!o->common.quiet && commits.nr > 1)
		progress = progress_start("Checking commits", commits.nr);

	for (size_t i = 0; i < commits.nr && !process_interrupted(); i++) {
		struct checked ck = { .commit = commits.oid[i] };

		ret = range_commit(r, o, c, &nr, &ck, &total_new);
		checker_trim(c);
		progress_update(progress, i + 1);
		if (ret < 0)
			break;
	}
	progress_stop(&progress);
	noted = nr.batch ? notes_batch_count(nr.batch) : 0;
	/* Notes of the commits finished so far, also after an interrupt. */
	if (nr.batch && commit_notes(&nr) < 0)
		ret = -1;
	if (process_interrupted() == SIGPIPE) {
		ret = -1;	/* the reader left: end as git does, silently */
	} else if (process_interrupted()) {
		error("interrupted; notes of the %zu finished commits were written", noted);
		ret = -1;
	}
	checker_save(c);
	if (FREE_AT_EXIT)
		checker_free(c);
	commit_list_clear(&commits);
	free(nr.ref);
	free(nr.data_ref);
	if (ret < 0)
		return -1;
	return total_new ? 1 : 0;
}

/*
 * --write-accept-file: every defect of a census as an accept-file line
 * (path:line of its block, its text line as a comment), for
 * undertaker.acceptFile. Written under a temporary name and renamed.
 */
static int write_accept_file(const char *path, struct repo *r, const git_oid *commit,
			     const struct defect_list *l)
{
	struct strbuf sb = STRBUF_INIT;
	char *tmp = xstrfmt("%s.tmp", path);
	FILE *f;
	int ret = 0;

	strbuf_addf(&sb, "# Accepted defects (undertaker.acceptFile), from the census of %s\n"
		    "# by git undertaker --all --write-accept-file; one path:line or CONFIG name a line.\n",
		    oid_short(r, commit));
	for (size_t i = 0; i < l->nr; i++) {
		accept_file_line(&sb, &l->v[i]);
		strbuf_addstr(&sb, "  # ");
		defect_format_text(&sb, &l->v[i], 0);
		strbuf_addch(&sb, '\n');
	}
	f = fopen(tmp, "w");
	if (!f || fwrite(sb.buf, 1, sb.len, f) != sb.len || fclose(f) != 0 || rename(tmp, path) < 0) {
		ret = error("cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	strbuf_release(&sb);
	return ret;
}

static int run_census(struct repo *r, struct undertaker_options *o, const struct strvec *revs)
{
	struct defect_list defects = { 0 };
	struct checker *c;
	git_oid commit;
	int ret;

	if (revs->nr > 1)
		usage_error(usage_lines, "--all takes at most one commit");
	if (repo_resolve_commit(r, revs->nr ? revs->v[0] : "HEAD", &commit) < 0)
		return -1;
	check_arch(r, &commit, o->arch);
	c = checker_new(r, o);
	if (!o->common.quiet) {
		const git_oid *at = &commit;

		repo_pathspec_warn_unmatched(r, &at, 1, &o->pathspec);
	}
	ret = checker_census(c, &commit, &defects);
	if (!ret && !process_interrupted()) {
		struct checked ck = { .commit = commit };

		if (sarif_out)
			add_sarif(&ck, &defects, o);
		else if (email_out)
			print_email(r, &ck, &defects);
		else if (o->common.json)
			print_json(&ck, &defects, o);
		else if (!o->common.quiet)
			print_text(r, &ck, &defects, o);
		ret = defects.nr ? 1 : 0;
		if (o->write_accept_file &&
		    write_accept_file(o->write_accept_file, r, &commit, &defects) < 0)
			ret = -1;
	}
	defect_list_clear(&defects);
	checker_save(c);
	if (FREE_AT_EXIT)
		checker_free(c);
	return ret;
}

/*
 * --mbox: the series applied in memory on its base, each patch checked as the
 * commit it would become, in order; no note is read or written. A patch that
 * does not apply ends the series there (those before it are checked).
 */
static int run_mbox(struct repo *r, struct undertaker_options *o, const struct strvec *files)
{
	struct mbox_series s = { 0 };
	struct checker *c;
	size_t total_new = 0;
	int ret = 0, applied;

	for (size_t i = 0; i < files->nr; i++)
		if (mbox_read(&s, files->v[i]) < 0)
			ret = -1;
	if (!ret && !s.nr)
		ret = error("no patch in the series");
	if (ret < 0) {
		mbox_series_clear(&s);
		return -1;
	}
	applied = mbox_apply(r, &s, o->base);
	if (!s.applied) {
		mbox_series_clear(&s);
		return -1;
	}
	check_arch(r, &s.v[0].commit, o->arch);
	c = checker_new(r, o);
	checker_set_file_progress(c, s.applied == 1);
	for (size_t i = 0; i < s.applied && !process_interrupted(); i++) {
		struct checked ck = { .commit = s.v[i].commit, .patch = &s.v[i] };
		struct note_refs none = { 0 };

		if ((ret = range_commit(r, o, c, &none, &ck, &total_new)) < 0)
			break;
	}
	checker_save(c);
	if (FREE_AT_EXIT)
		checker_free(c);
	mbox_series_clear(&s);
	if (ret < 0 || applied < 0 || process_interrupted())
		return -1;
	return total_new ? 1 : 0;
}

static int run_dump(struct repo *r, struct undertaker_options *o, const struct strvec *revs)
{
	struct checker *c;
	git_oid commit;
	const char *what = *o->dump_model ? o->dump_model : "dimacs";
	int ret;

	if (strcmp(what, "dimacs") && strcmp(what, "symbols") && strcmp(what, "files"))
		usage_error(usage_lines, "--dump-model takes dimacs, symbols or files, not '%s'", what);
	if (revs->nr > 1)
		usage_error(usage_lines, "--dump-model takes at most one commit");
	if (repo_resolve_commit(r, revs->nr ? revs->v[0] : "HEAD", &commit) < 0)
		return -1;
	check_arch(r, &commit, o->arch);
	c = checker_new(r, o);
	ret = checker_dump_model(c, &commit, what);
	checker_save(c);
	checker_free(c);
	return ret;
}

/* The data notes ref: under refs/notes/, valid, and not the notes ref itself. */
static void check_data_notes_ref(const struct undertaker_options *o)
{
	char *ref = common_notes_ref(&o->common, "undertaker"), *data = data_notes_ref(o);
	int valid = 0;

	if (!starts_with(data, "refs/notes/"))
		usage_error(usage_lines, "refusing to write notes in %s (outside of refs/notes/)", data);
	git_libgit2_init();
	if (git_reference_name_is_valid(&valid, data) < 0)
		valid = 0;
	git_libgit2_shutdown();
	if (!valid)
		usage_error(usage_lines, "--data-notes-ref: '%s' is not a valid ref name", data);
	if (!strcmp(ref, data))
		usage_error(usage_lines, "--data-notes-ref must differ from the notes ref (%s)", ref);
	free(ref);
	free(data);
}

/*
 * --mbox, --base and the formats that collect a whole run (sarif): checked,
 * the files after --mbox added to it.
 */
static void check_output_options(struct undertaker_options *o, struct strvec *mbox,
				 const struct strvec *revopts, const char *shard,
				 const struct parsed_args *pa)
{
	if (o->gc_cache && (o->all || o->dump_model || mbox->nr || revopts->nr || shard ||
			    pa->args.nr || pa->paths.nr))
		usage_error(usage_lines, "--gc-cache takes no other option and no argument");
	if (mbox->nr && (o->all || o->dump_model || revopts->nr || shard))
		usage_error(usage_lines, "--mbox checks a series: not with --all, --dump-model, "
			    "--shard or commit limiting options");
	if (o->base && !mbox->nr)
		usage_error(usage_lines, "--base is the base of an --mbox series");
	/* After --mbox, the other arguments are more patch files. */
	for (size_t i = 0; mbox->nr && i < pa->args.nr; i++)
		strvec_push(mbox, pa->args.v[i]);
	if (o->dump_model && strcmp(o->common.format, "text") && !o->common.json)
		usage_error(usage_lines, "--dump-model prints no defects: not --format=%s",
			    o->common.format);
	if (o->data_notes_ref || o->common.notes_ref)
		check_data_notes_ref(o);
	if (!strcmp(o->common.format, "sarif"))
		sarif_out = sarif_new();
	/* A reply says why: the reasons of --explain. */
	if (!strcmp(o->common.format, "email"))
		email_out = o->explain = 1;
}

/* What a run prints at its end: the SARIF log (not of an interrupted run). */
static void finish_output(int ret)
{
	if (sarif_out && !process_interrupted()) {
		struct strbuf sb = STRBUF_INIT;

		sarif_write(sarif_out, &sb, ret >= 0);
		fputs(sb.buf, stdout);
		strbuf_release(&sb);
	}
	sarif_free(sarif_out);
	sarif_out = NULL;
	free(reported_by);
	free(closes_url);
}

/* The repository, or the reason there is none and exit 128 (as git). */
static struct repo *open_repo(void)
{
	struct strbuf why = STRBUF_INIT;
	struct repo *r = repo_open(&why);

	if (!r)
		die("%s", why.buf);
	return r;
}

int main(int argc, const char **argv)
{
	struct undertaker_options o = { 0 };
	const char *shard = NULL;
	struct strvec revopts = STRVEC_INIT, mbox = STRVEC_INIT;
	struct parsed_args pa;
	struct option opts[] = {
		OPT_BOOL(0, "all", &o.all, "check every block of every file at one commit"),
		OPT_BOOL(0, "explain", &o.explain, "say why each defect is one"),
		OPT_BOOL('v', "verbose", &o.verbose, "with --all: also the errors of files no Makefile builds"),
		OPT_STRING(0, "show", &o.show, "new|all", "which defects to print (default: new)"),
		OPT_BOOL(0, "force", &o.force, "check commits again that already have a current note"),
		OPT_STRING(0, "arch", &o.arch, "arch", "only this architecture's model"),
		OPT_BOOL(0, "no-kbuild", &o.no_kbuild, "ignore which files Kbuild compiles"),
		OPT_OPTSTRING(0, "dump-model", &o.dump_model, "dimacs|symbols|files",
			      "print the Kconfig model of a commit"),
		OPT_BOOL(0, "gc-cache", &o.gc_cache, "trim $GIT_DIR/undertaker/cache to undertaker.cacheSize and exit"),
		OPT_STRING(0, "shard", &shard, "k/n",
			   "only the k-th of n shares of the commits (or of the files with --all)"),
		OPT_LIST(0, "mbox", &mbox, "file",
			 "check a patch series (mbox, patch files, their directory; - for stdin) without applying it"),
		OPT_STRING(0, "write-accept-file", &o.write_accept_file, "file",
			   "with --all: write the defects found to <file>, for undertaker.acceptFile"),
		OPT_STRING(0, "data-notes-ref", &o.data_notes_ref, "ref",
			   "notes ref of the defects' JSON (default: the notes ref + \"-data\")"),
		OPT_STRING(0, "base", &o.base, "rev",
			   "where the series applies (default: its base-commit: line, else HEAD)"),
		OPT_REV_LIMITS(&revopts),
		OPT_COMMON(&o.common),
		OPT_END(),
	};
	static const char *const formats[] = { "sarif", "email", NULL };
	struct repo *r;
	int ret;

	set_program_name("git undertaker");
	common_options_init(&o.common);
	o.common.formats = formats;
	parse_options(argc, argv, opts, usage_lines, "undertaker", &pa);
	common_options_finish(&o.common, "undertaker");
	if (!o.show || !strcmp(o.show, "new"))
		o.show_all = 0;
	else if (!strcmp(o.show, "all"))
		o.show_all = 1;
	else
		usage_error(usage_lines, "--show takes 'new' or 'all', not '%s'", o.show);
	if (shard) {
		char *slash;

		/* Digits only (strtoul takes "-1"), and nothing past what a size holds. */
		errno = 0;
		o.shard_k = isdigit((unsigned char)*shard) ? strtoul(shard, &slash, 10) : 0;
		if (o.shard_k && *slash == '/' && isdigit((unsigned char)slash[1]))
			o.shard_n = strtoul(slash + 1, &slash, 10);
		if (errno == ERANGE)
			o.shard_n = 0;
		if (!o.shard_k || *slash || !o.shard_n || !o.shard_k || o.shard_k > o.shard_n || o.dump_model)
			usage_error(usage_lines, "--shard takes K/N with 1 <= K <= N, not '%s'%s", shard,
				    o.dump_model ? " (and not with --dump-model)" : "");
	}
	if (o.write_accept_file && !o.all)
		usage_error(usage_lines, "--write-accept-file writes a census: it needs --all");
	if (o.all && o.dump_model)
		usage_error(usage_lines, "--all and --dump-model cannot be used together");
	if ((o.all || o.dump_model) && revopts.nr)
		usage_error(usage_lines, "%s takes one commit, not commit limiting options",
			    o.all ? "--all" : "--dump-model");
	check_output_options(&o, &mbox, &revopts, shard, &pa);
	parsed_args_add_revopts(&pa, &revopts);
	o.pathspec = pa.paths;
	memset(&pa.paths, 0, sizeof(pa.paths));

	process_catch_interrupts();

	r = open_repo();
	color_init(r, "undertaker", 1);
	if (repo_pathspec_from_cwd(r, &o.pathspec) < 0)
		ret = -1;
	else if (o.gc_cache)
		ret = trees_diskcache_gc(r);
	else if (mbox.nr)
		ret = run_mbox(r, &o, &mbox);
	else if (o.dump_model)
		ret = run_dump(r, &o, &pa.args);
	else if (o.all)
		ret = run_census(r, &o, &pa.args);
	else
		ret = run_range(r, &o, &pa.args);
	repo_close(r);
	parsed_args_clear(&pa);
	strvec_clear(&o.pathspec);
	strvec_clear(&mbox);
	finish_output(ret);
	if (process_flush_stdout() < 0 && process_interrupted() != SIGPIPE)
		ret = ret < 0 ? ret : error("could not write to standard output");
	process_end_if_pipe_closed();
	process_die_if_interrupted();
	if (!ret && error_count())
		ret = 1;
	return ret < 0 ? EXIT_FATAL : ret;
}
