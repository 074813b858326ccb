// SPDX-License-Identifier: GPL-2.0
/*
 * git backport: what would a set of Coccinelle backport rules do to the files
 * a range touches? Files come from the object store; spatch runs on private
 * copies; the answer is one diff that `git apply` takes on a checkout of the
 * range's tip, notes on the range's commits, and optionally a commit.
 */
#include "backport.h"
#include "options.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const usage_lines[] = {
	"git backport --rules=<dir> [<options>] [<range>] [-- <pathspec>...]",
	"git backport --rules=<dir> [<options>] --at=<commit> [-- <pathspec>...]",
	NULL,
};

static char *tmpdir;

static void remove_tmpdir(void)
{
	if (tmpdir) {
		remove_tree(tmpdir);
		free(tmpdir);
		tmpdir = NULL;
	}
}

static void make_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *templ = xstrfmt("%s/git-backport-XXXXXX", base && *base ? base : "/tmp");

	if (!mkdtemp(templ))
		die("cannot create a temporary directory %s: %s", templ, strerror(errno));
	tmpdir = templ;
	atexit(remove_tmpdir);
}

struct load_job {
	struct repo *r;
	const git_oid *tip;
	struct subject_set *set;
	const char *const *paths;
	size_t nr, nr_rules;
	int threads;
};

static void *load_subjects(void *arg)
{
	struct load_job *lj = arg;

	subjects_load(lj->r, lj->tip, lj->set, lj->paths, lj->nr, lj->nr_rules, lj->threads);
	return NULL;
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

/* --at: every C file under the pathspec at that commit. */
static void files_at(struct repo *r, const git_oid *commit, const struct strvec *pathspec,
		     struct strmap *paths)
{
	struct collect c = { paths, pathspec };
	int plain = pathspec->nr > 0;

	for (size_t i = 0; i < pathspec->nr; i++)
		if (strpbrk(pathspec->v[i], "*?[\\:"))
			plain = 0;
	if (!plain) {
		if (repo_for_each_file(r, commit, "", collect_file, &c) < 0)
			die("cannot list the files of %s", oid_short(r, commit));
		return;
	}
	/* Plain paths: walk only those directories, not the whole tree. */
	for (size_t i = 0; i < pathspec->nr; i++) {
		char *p = xstrdup(pathspec->v[i]);
		size_t len = strlen(p);
		git_oid oid;

		while (len && p[len - 1] == '/')
			p[--len] = '\0';
		if (repo_path_oid(r, commit, p, &oid) == 0) {
			if (subject_is_source(p))
				strmap_put(paths, p, NULL);
		} else if (repo_for_each_file(r, commit, p, collect_file, &c) < 0) {
			die("cannot list the files of %s under %s", oid_short(r, commit), p);
		}
		free(p);
	}
}

/* A range: the files its commits add or modify, as they are at the tip. */
static void files_of_range(struct repo *r, const struct commit_list *commits,
			   const struct strvec *pathspec, struct strmap *paths)
{
	for (size_t i = 0; i < commits->nr; i++) {
		struct change_list changes = { 0 };

		if (repo_diff_first_parent(r, &commits->oid[i], pathspec->nr ? pathspec : NULL, 0,
					   &changes) < 0)
			die("cannot diff %s", oid_short(r, &commits->oid[i]));
		for (size_t k = 0; k < changes.nr; k++)
			if (changes.files[k].status != 'D' && changes.files[k].new_path)
				strmap_put(paths, changes.files[k].new_path, NULL);
		change_list_clear(&changes);
	}
}

static void report_failures(struct run_context *ctx)
{
	for (size_t i = 0; i < ctx->rules->nr; i++)
		if (ctx->rules->v[i].failure)
			error("%s: %s", ctx->rules->v[i].name, ctx->rules->v[i].failure);
	for (size_t j = 0; j < ctx->subjects->nr; j++) {
		struct subject *s = &ctx->subjects->v[j];

		for (size_t k = 0; k < s->nr_fails; k++)
			error("%s: %s: %s", s->path, ctx->rules->v[s->fails[k].rule].name,
			      s->fails[k].message);
	}
}

int main(int argc, const char **argv)
{
	struct common_options common;
	struct bp_options o = { 0 };
	struct strvec revopts = STRVEC_INIT;
	struct parsed_args pa;
	struct option opts[] = {
		OPT_GROUP("Rules"),
		OPT_STRING(0, "rules", &o.rules, "dir", "the rules: a directory or <rev>:<path>"),
		OPT_STRING(0, "target", &o.target, "version", "run only rules for kernels newer than this"),
		OPT_LIST('D', "define", &o.defines, "name", "define a virtual rule name for spatch"),
		OPT_INT(0, "timeout", &o.timeout, "seconds", "kill a spatch run after this long"),
		OPT_GROUP("Files"),
		OPT_STRING(0, "at", &o.at, "commit", "whole paths at one commit instead of a range"),
		OPT_GROUP("Output"),
		OPT_BOOL(0, "stat", &o.stat, "per-rule statistics instead of the diff"),
		OPT_BOOL(0, "exit-code", &o.exit_code, "exit 1 when the rules change something"),
		OPT_STRING(0, "commit-to", &o.commit_to, "branch", "also commit the result on top of the tip"),
		OPT_REV_LIMITS(&revopts),
		OPT_COMMON(&common),
		OPT_END(),
	};
	struct repo *r;
	struct spatch_info sp;
	struct rule_set rules;
	struct subject_set subjects = { 0 };
	struct commit_list commits = { 0 };
	struct strmap paths = STRMAP_INIT;
	struct strmap_entry *e;
	struct run_context ctx;
	struct strbuf out = STRBUF_INIT, diff = STRBUF_INIT;
	git_oid tip;
	char **sorted;
	size_t nr_paths = 0;
	int ret = EXIT_CLEAN;

	set_program_name("git backport");
	common_options_init(&common);
	parse_options(argc, argv, opts, usage_lines, "backport", &pa);
	common_options_finish(&common, "backport");
	o.jobs = common.jobs;
	o.json = common.json;
	if (o.target) {
		long parts[4], rc;

		if (kernel_version_parse(o.target, parts, 4, &rc) < 0)
			usage_error(usage_lines, "--target: '%s' is not a kernel version (like 5.10)", o.target);
	}
	if (o.at && (pa.args.nr || revopts.nr))
		usage_error(usage_lines, "--at and a range cannot be used together");
	parsed_args_add_revopts(&pa, &revopts);
	/* Outside a repository that is the first thing to say. */
	r = repo_open();
	if (!o.rules)
		usage_error(usage_lines, "--rules=<dir> is required");
	if (repo_pathspec_from_cwd(r, &pa.paths) < 0)
		exit(EXIT_FATAL);
	spatch_find(r, &sp);

	if (o.at) {
		if (repo_resolve_commit(r, o.at, &tip) < 0)
			exit(EXIT_FATAL);
		files_at(r, &tip, &pa.paths, &paths);
	} else {
		if (repo_parse_revisions(r, &pa.args, &commits) < 0)
			exit(EXIT_FATAL);
		if (!commits.nr)
			goto done;
		tip = commits.oid[commits.nr - 1];
		files_of_range(r, &commits, &pa.paths, &paths);
	}
	if (!common.quiet) {
		const git_oid *ends[2] = { &tip, commits.nr ? &commits.oid[0] : &tip };

		repo_pathspec_warn_unmatched(r, ends, 2, &pa.paths);
	}

	make_tmpdir();
	rules_load(r, o.rules, tmpdir, &rules);
	rules_select(&rules, o.target);

	sorted = xcalloc(paths.nr + 1, sizeof(*sorted));
	strmap_for_each(&paths, e)
		sorted[nr_paths++] = e->key;
	qsort(sorted, nr_paths, sizeof(*sorted), cmp_str);
	memset(&ctx, 0, sizeof(ctx));
	ctx.repo = r;
	ctx.opts = &o;
	ctx.spatch = &sp;
	ctx.rules = &rules;
	ctx.subjects = &subjects;
	ctx.tip = &tip;
	ctx.tmpdir = tmpdir;
	ctx.cache = cache_open(r, &sp, &o.defines);
	/*
	 * No file, no question for spatch. Otherwise spatch parses each rule
	 * (its tokens) while the files are read from the object store: for a
	 * rule that matches few files, those two are all the run costs.
	 */
	if (nr_paths) {
		struct load_job lj = { r, &tip, &subjects, (const char *const *)sorted, nr_paths,
				       rules.nr, o.jobs };
		pthread_t loader;
		int threaded = !pthread_create(&loader, NULL, load_subjects, &lj);

		if (!threaded)
			load_subjects(&lj);
		run_queries(&ctx);
		if (threaded)
			pthread_join(loader, NULL);
	}
	free(sorted);
	if (subjects.nr)
		run_rules(&ctx);
	report_failures(&ctx);

	print_diff(&ctx, &diff);
	if (o.json)
		print_json(&ctx, strbuf_str(&diff), &out);
	else if (o.stat)
		print_stat(&ctx, &out);
	else
		strbuf_add(&out, strbuf_str(&diff), diff.len);
	fwrite(strbuf_str(&out), 1, out.len, stdout);
	if (fflush(stdout) != 0)
		die("cannot write the output: %s", strerror(errno));

	if (o.commit_to && commit_to_branch(&ctx, o.commit_to) < 0)
		ret = EXIT_FATAL;
	if (!o.at && common.notes) {
		char *ref = common_notes_ref(&common, "backport");

		write_notes(&ctx, &commits, ref);
		free(ref);
	}
	if (ret == EXIT_CLEAN && o.exit_code && diff.len)
		ret = EXIT_FINDINGS;

	cache_close(ctx.cache);
	rules_clear(&rules);
	subjects_clear(&subjects);
	strbuf_release(&out);
	strbuf_release(&diff);
done:
	strmap_clear(&paths, NULL);
	commit_list_clear(&commits);
	spatch_info_clear(&sp);
	strvec_clear(&o.defines);
	parsed_args_clear(&pa);
	repo_close(r);
	remove_tmpdir();
	return ret;
}
