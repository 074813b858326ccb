// SPDX-License-Identifier: GPL-2.0
/*
 * git backport: what would a set of Coccinelle backport rules do to the files
 * a range touches? Files come from the object store; spatch runs on private
 * copies; the answer is one diff that `git apply` takes on a checkout of the
 * range's tip, notes on the range's commits, and optionally a commit.
 */
#include "backport.h"
#include "options.h"
#include "parallel.h"
#include "process.h"
#include "report.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const usage_lines[] = {
	"git backport --rules=<dir> [<options>] [<range>] [-- <pathspec>...]",
	"git backport --rules=<dir> [<options>] --at=<commit> [-- <pathspec>...]",
	NULL,
};

struct load_job {
	struct repo *r;
	const git_oid *tip;
	struct subject_set *set;
	const char *const *paths;
	size_t nr, nr_rules;
	int threads;
};

static void load_subjects(size_t j, void *arg)
{
	struct load_job *lj = arg;

	subjects_load(lj->r, lj->tip, lj->set, lj->paths, lj->nr, lj->nr_rules, lj->threads);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct collect {
	struct strmap *paths;
	const struct strvec *pathspec;
};

static int collect_file(const struct tree_file *f, void *data)
{
	struct collect *c = data;

	if (subject_is_source(f->path) && pathspec_match(c->pathspec, f->path))
		strmap_put(c->paths, f->path, NULL);
	return 0;
}

/* --at: every C file under the pathspec at that commit; -1 with an error. */
static int files_at(struct repo *r, const git_oid *commit, const struct strvec *pathspec,
		    struct strmap *paths)
{
	struct collect c = { paths, pathspec };
	int plain = pathspec->nr > 0, ret = 0;

	for (size_t i = 0; i < pathspec->nr; i++)
		if (strpbrk(pathspec->v[i], "*?[\\:"))
			plain = 0;
	if (!plain) {
		if (repo_for_each_file(r, commit, "", collect_file, &c) < 0)
			return error("cannot list the files of %s", oid_short(r, commit));
		return 0;
	}
	/* Plain paths: walk only those directories, not the whole tree. */
	for (size_t i = 0; !ret && i < pathspec->nr; i++) {
		char *p = xstrdup(pathspec->v[i]);
		size_t len = strlen(p);
		git_oid oid;

		while (len && p[len - 1] == '/')
			p[--len] = '\0';
		if (repo_path_oid(r, commit, p, &oid) == 0) {
			if (subject_is_source(p))
				strmap_put(paths, p, NULL);
		} else if (repo_for_each_file(r, commit, p, collect_file, &c) < 0) {
			ret = error("cannot list the files of %s under %s", oid_short(r, commit), p);
		}
		free(p);
	}
	return ret;
}

/* A range: the files its commits add or modify, as they are at the tip; -1 with an error. */
static int files_of_range(struct repo *r, const struct commit_list *commits,
			  const struct strvec *pathspec, struct strmap *paths)
{
	for (size_t i = 0; i < commits->nr; i++) {
		struct change_list changes = { 0 };

		if (repo_diff_first_parent(r, &commits->oid[i], pathspec->nr ? pathspec : NULL, 0,
					   &changes) < 0)
			return -1;	/* it named the commit and why */
		for (size_t k = 0; k < changes.nr; k++)
			if (changes.files[k].status != 'D' && changes.files[k].new_path)
				strmap_put(paths, changes.files[k].new_path, NULL);
		change_list_clear(&changes);
	}
	return 0;
}

/* "parse error: File "./x.c", line 4, column 30, charpos = 68, around = 'y'": where, briefly. */
static char *parse_place(const char *msg)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = msg;

	if (starts_with(p, "parse error: "))
		p += strlen("parse error: ");
	if (starts_with(p, "File \"") && (p = strstr(p + 6, "\", ")))
		p += 3;
	else
		p = starts_with(msg, "parse error: ") ? msg + strlen("parse error: ") : msg;
	while (*p) {
		if (starts_with(p, "charpos = ")) {
			p += strcspn(p, ",");
			p += strspn(p, ", ");
			continue;
		}
		if (starts_with(p, "around = ")) {
			strbuf_addstr(&sb, "around ");
			p += strlen("around = ");
			continue;
		}
		strbuf_addch(&sb, *p++);
	}
	return strbuf_detach(&sb, NULL);
}

static void push_once(struct strvec *v, const char *s)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i], s))
			return;
	strvec_push(v, s);
}

static char *joined(const struct strvec *v)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < v->nr; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : "", v->v[i]);
	return strbuf_detach(&sb, NULL);
}

/*
 * What spatch could not do, each file named once: a file it could not parse
 * (in part: spatch skips what it cannot parse, and every rule meets the same
 * places) with the rules that met it and the first place, or with -v every
 * place; other failures (an exception, a timeout, spatch's exit) once per
 * rule and message; a file spatch was not given, and the headers it was not
 * given to read. Paths are quoted as git quotes them. -q leaves the summary
 * only. Returns how many rules and files failed.
 */
/*
 * Code spatch could not parse is skipped, by plain spatch as by us: a
 * warning, and a failure (an error, exit 1) only with --strict-parsing.
 */
__attribute__((format(printf, 2, 3)))
static void parse_report(int strict, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (strict)
		error("%s", sb.buf);
	else
		warning("%s", sb.buf);
	strbuf_release(&sb);
}

static size_t report_failures(struct run_context *ctx, int details, int verbose, int strict)
{
	size_t nr_rules = 0, nr_parse = 0, nr_other = 0, nr_refused = 0;

	for (size_t i = 0; i < ctx->rules->nr; i++)
		if (ctx->rules->v[i].failure) {
			error("%s: %s", ctx->rules->v[i].name, ctx->rules->v[i].failure);
			nr_rules++;
		}
	for (size_t j = 0; j < ctx->subjects->nr; j++) {
		struct subject *s = &ctx->subjects->v[j];
		struct strvec rules = STRVEC_INIT, places = STRVEC_INIT, other = STRVEC_INIT;
		char *shown = xquote_path(s->path);

		if (s->refused) {
			nr_refused++;
			if (details)
				error("%s: not given to spatch: %s", shown, s->refused);
		}
		for (size_t k = 0; k < s->nr_fails; k++) {
			const char *name = ctx->rules->v[s->fails[k].rule].name;
			const char *msg = s->fails[k].message;

			if (starts_with(msg, "parse error")) {
				char *place = parse_place(msg);

				push_once(&rules, name);
				push_once(&places, place);
				free(place);
			} else {
				char *line = xstrfmt("%s: %s", name, msg);

				push_once(&other, line);
				free(line);
			}
		}
		if (places.nr) {
			char *names = joined(&rules);

			nr_parse++;
			if (details && verbose) {
				for (size_t k = 0; k < places.nr; k++)
					parse_report(strict, "%s: cannot parse %s (%s)", shown,
						     places.v[k], names);
			} else if (details) {
				parse_report(strict, "%s: cannot parse %s%s (%s)", shown, places.v[0],
					     places.nr > 1 ? " and more" : "", names);
			}
			free(names);
		}
		if (other.nr)
			nr_other++;
		for (size_t k = 0; details && k < other.nr; k++)
			error("%s: %s", shown, other.v[k]);
		free(shown);
		strvec_clear(&rules);
		strvec_clear(&places);
		strvec_clear(&other);
	}
	if (nr_parse)
		parse_report(strict, "%zu file%s could not be parsed in part (spatch skips what it "
			     "cannot parse, with or without git backport)%s", nr_parse,
			     nr_parse > 1 ? "s" : "", verbose ? "" : "; see --verbose");
	if (nr_other && !details)
		error("spatch failed on %zu file%s; see --verbose", nr_other, nr_other > 1 ? "s" : "");
	if (nr_refused && !details)
		error("%zu file%s not given to spatch; see --verbose", nr_refused,
		      nr_refused > 1 ? "s were" : " was");
	for (size_t k = 0; details && k < ctx->subjects->unread.nr; k++) {
		char *shown = xquote_path(ctx->subjects->unread.v[k]);

		warning("%s: not given to spatch to read beside the files that include it: "
			"%s", shown, spatch_path_refusal(ctx->subjects->unread.v[k]));
		free(shown);
	}
	return nr_rules + (strict ? nr_parse : 0) + nr_other + nr_refused;
}

/* The diff as `git diff` colours it: headers bold, hunk lines cyan, - red, + green. */
static void add_colored_diff(struct strbuf *out, const char *diff)
{
	int in_header = 0;

	for (const char *p = diff; *p;) {
		size_t len = strcspn(p, "\n");
		enum color_slot slot = COLOR_NR;

		if (starts_with(p, "diff --git "))
			in_header = 1;
		else if (starts_with(p, "@@"))
			in_header = 0;
		if (in_header)
			slot = COLOR_BOLD;
		else if (*p == '@')
			slot = COLOR_CYAN;
		else if (*p == '-')
			slot = COLOR_RED;
		else if (*p == '+')
			slot = COLOR_GREEN;
		if (slot != COLOR_NR && len)
			strbuf_addf(out, "%s%.*s%s", color(slot), (int)len, p, color(COLOR_RESET));
		else
			strbuf_add(out, p, len);
		p += len;
		if (*p)
			strbuf_addch(out, *p++);
	}
}

/* What one invocation holds, from the command line to the exit status. */
struct invocation {
	struct common_options common;
	struct bp_options o;
	struct parsed_args pa;
	struct repo *r;
	struct spatch_info sp;
	struct commit_list commits;
	git_oid tip;
	struct strmap paths;		/* the files to preview */
	char *tmpdir;
	struct rule_set rules;
	struct subject_set subjects;
	struct run_context ctx;
	struct strbuf diff;
};

/* The options, checked; usage errors exit 129 before any work. */
static void parse_command_line(struct invocation *in, int argc, const char **argv)
{
	struct bp_options *o = &in->o;
	struct strvec revopts = STRVEC_INIT;
	struct option opts[] = {
		OPT_GROUP("Rules"),
		OPT_STRING(0, "rules", &o->rules, "dir", "the rules: a directory or <rev>:<path>"),
		OPT_STRING(0, "target", &o->target, "version", "run only rules for kernels newer than this"),
		OPT_LIST('D', "define", &o->defines, "name", "define a virtual rule name for spatch"),
		OPT_INT(0, "timeout", &o->timeout, "seconds", "kill a spatch run after this long"),
		OPT_STRING(0, "macro-file", &o->macro_file, "file",
			   "macros for spatch's parser: a file or <rev>:<path>"),
		OPT_GROUP("Files"),
		OPT_STRING(0, "at", &o->at, "commit", "whole paths at one commit instead of a range"),
		OPT_GROUP("Output"),
		OPT_BOOL(0, "stat", &o->stat, "per-rule statistics instead of the diff"),
		OPT_BOOL(0, "exit-code", &o->exit_code, "exit 1 also when the rules change something"),
		OPT_BOOL(0, "strict-parsing", &o->strict_parsing,
			 "exit 1 also when spatch could not parse part of a file"),
		OPT_BOOL(0, "ignore-failures", &o->ignore_failures,
			 "exit 0 though spatch failed on a rule or a file"),
		OPT_BOOL('v', "verbose", &o->verbose, "every place spatch cannot parse"),
		OPT_STRING(0, "commit-to", &o->commit_to, "branch", "also commit the result on top of the tip"),
		OPT_REV_LIMITS(&revopts),
		OPT_COMMON(&in->common),
		OPT_END(),
	};

	common_options_init(&in->common);
	parse_options(argc, argv, opts, usage_lines, "backport", &in->pa);
	common_options_finish(&in->common, "backport");
	o->jobs = in->common.jobs;
	o->json = in->common.json;
	if (o->target) {
		long parts[4], rc;

		if (kernel_version_parse(o->target, parts, 4, &rc) < 0)
			usage_error(usage_lines, "--target: '%s' is not a kernel version (like 5.10)", o->target);
	}
	if (o->at && (in->pa.args.nr || revopts.nr))
		usage_error(usage_lines, "--at and a range cannot be used together");
	parsed_args_add_revopts(&in->pa, &revopts);
	strvec_clear(&revopts);
}

/*
 * The repository, spatch, the tip and the files to preview (none for an
 * empty range). Returns -1 (said why) when it cannot.
 */
static int find_files(struct invocation *in)
{
	struct strbuf why = STRBUF_INIT;

	/* Outside a repository that is the first thing to say. */
	in->r = repo_open(&why);
	if (!in->r) {
		die_message("%s", why.buf);
		strbuf_release(&why);
		return -1;
	}
	color_init(in->r, "backport", 1);
	if (!in->o.rules)
		usage_error(usage_lines, "--rules=<dir> is required");
	if (repo_pathspec_from_cwd(in->r, &in->pa.paths) < 0)
		return -1;
	if (spatch_find(in->r, &in->sp) < 0)
		return -1;
	if (in->o.at) {
		if (repo_resolve_commit(in->r, in->o.at, &in->tip) < 0 ||
		    files_at(in->r, &in->tip, &in->pa.paths, &in->paths) < 0)
			return -1;
	} else {
		if (repo_parse_revisions(in->r, &in->pa.args, &in->commits) < 0)
			return -1;
		if (!in->commits.nr)
			return 0;
		in->tip = in->commits.oid[in->commits.nr - 1];
		if (files_of_range(in->r, &in->commits, &in->pa.paths, &in->paths) < 0)
			return -1;
	}
	if (!in->common.quiet) {
		const git_oid *ends[2] = { &in->tip, in->commits.nr ? &in->commits.oid[0] : &in->tip };

		repo_pathspec_warn_unmatched(in->r, ends, 2, &in->pa.paths);
	}
	return 0;
}

/*
 * The rules, then the files, then each rule over the files: the diff in
 * in->diff. -1 (said why) when the run cannot go on.
 */
static int preview(struct invocation *in)
{
	struct run_context *ctx = &in->ctx;
	struct bp_options *o = &in->o;
	struct strmap_entry *e;
	char **sorted;
	size_t nr_paths = 0;
	int ret = 0;

	in->tmpdir = process_tmpdir("git-backport");
	if (!in->tmpdir)
		return -1;
	if (rules_load(in->r, o->rules, in->tmpdir, &in->rules) < 0 ||
	    (o->macro_file &&
	     rules_macro_file(in->r, o->macro_file, in->tmpdir, &o->macro_path, &o->macro_id) < 0))
		return -1;
	rules_select(&in->rules, o->target);
	for (size_t i = 0; i < in->rules.nr; i++)
		if (in->rules.v[i].no_patch_mode)
			note("%s: no patch mode (virtual %s only): not run; a preview shows "
			     "what rules change", in->rules.v[i].name, in->rules.v[i].no_patch_mode);

	sorted = xcalloc(in->paths.nr + 1, sizeof(*sorted));
	strmap_for_each(&in->paths, e)
		sorted[nr_paths++] = e->key;
	qsort(sorted, nr_paths, sizeof(*sorted), cmp_str);
	memset(ctx, 0, sizeof(*ctx));
	ctx->repo = in->r;
	ctx->opts = o;
	ctx->spatch = &in->sp;
	ctx->rules = &in->rules;
	ctx->subjects = &in->subjects;
	ctx->tip = &in->tip;
	ctx->tmpdir = in->tmpdir;
	ctx->cache = cache_open(in->r, &in->sp, o);
	/*
	 * No file, no question for spatch. Otherwise spatch parses each rule
	 * (its tokens) while the files are read from the object store: for a
	 * rule that matches few files, those two are all the run costs.
	 */
	if (nr_paths) {
		struct load_job lj = { in->r, &in->tip, &in->subjects, (const char *const *)sorted,
				       nr_paths, in->rules.nr, o->jobs };
		struct parallel_task *loader = parallel_start(load_subjects, &lj);

		ret = run_queries(ctx);
		parallel_join(loader);
	}
	free(sorted);
	if (!ret && in->subjects.nr)
		ret = run_rules(ctx);
	/* A preview of part of the rules would pass for the whole: none. */
	if (!ret && process_interrupted())
		ret = -1;
	if (!ret)
		ret = print_diff(ctx, &in->diff);
	return ret;
}

/*
 * The failures on standard error, the preview on standard output; the exit
 * status, or -1 (said why) when the preview cannot be printed.
 */
static int print_preview(struct invocation *in)
{
	struct bp_options *o = &in->o;
	struct strbuf out = STRBUF_INIT;
	size_t nr_failed = report_failures(&in->ctx, !in->common.quiet || o->verbose, o->verbose,
					   o->strict_parsing);

	if (o->json) {
		struct strbuf preview = STRBUF_INIT;
		struct commit_list at = { &in->tip, 1, 1 };
		int ret;

		print_json(&in->ctx, strbuf_str(&in->diff), &preview);
		ret = print_json_commits(&in->ctx, o->at ? &at : &in->commits, preview.buf, &out);
		strbuf_release(&preview);
		if (ret < 0) {
			strbuf_release(&out);
			return -1;
		}
	} else if (o->stat) {
		print_stat(&in->ctx, &out);
	} else if (color_enabled()) {
		add_colored_diff(&out, strbuf_str(&in->diff));
	} else {
		strbuf_add(&out, strbuf_str(&in->diff), in->diff.len);
	}
	fwrite(strbuf_str(&out), 1, out.len, stdout);
	strbuf_release(&out);
	if (fflush(stdout) != 0)
		return error("cannot write the output: %s", strerror(errno));
	return (o->exit_code && in->diff.len) || (nr_failed && !o->ignore_failures) ?
		EXIT_FINDINGS : EXIT_CLEAN;
}

/* --commit-to's commit and the notes on the range; -1 when either failed. */
static int record(struct invocation *in)
{
	int ret = 0;

	if (in->o.commit_to && commit_to_branch(&in->ctx, in->o.commit_to) < 0)
		ret = -1;
	if (!in->o.at && in->common.notes) {
		char *ref = common_notes_ref(&in->common, "backport");

		if (write_notes(&in->ctx, &in->commits, ref) < 0)
			ret = -1;
		free(ref);
	}
	return ret;
}

static void invocation_clear(struct invocation *in)
{
	if (in->ctx.cache)
		cache_close(in->ctx.cache);
	rules_clear(&in->rules);
	subjects_clear(&in->subjects);
	strbuf_release(&in->diff);
	strmap_clear(&in->paths, NULL);
	commit_list_clear(&in->commits);
	spatch_info_clear(&in->sp);
	free(in->o.macro_path);
	strvec_clear(&in->o.defines);
	parsed_args_clear(&in->pa);
	if (in->r)
		repo_close(in->r);
	process_tmpdir_remove(in->tmpdir);
}

int main(int argc, const char **argv)
{
	struct invocation in = { .paths = STRMAP_INIT, .diff = STRBUF_INIT };
	int ret = EXIT_CLEAN;

	set_program_name("git backport");
	process_catch_interrupts();
	parse_command_line(&in, argc, argv);
	if (find_files(&in) < 0)
		ret = EXIT_FATAL;
	else if (in.o.at || in.commits.nr) {
		if (preview(&in) < 0)
			ret = EXIT_FATAL;
		else if ((ret = print_preview(&in)) < 0 || record(&in) < 0)
			ret = EXIT_FATAL;
	}
	invocation_clear(&in);
	/* Interrupted: nothing was printed or noted; exit 128 + the signal. */
	process_exit_if_interrupted();
	return ret;
}
