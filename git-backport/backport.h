/* SPDX-License-Identifier: GPL-2.0 */
/*
 * git backport: runs Coccinelle rules (spatch) over the files a range touches,
 * from the object store, and previews the result as one diff.
 */
#ifndef BACKPORT_H
#define BACKPORT_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include "repo.h"

struct bp_options {
	const char *rules;		/* --rules: a directory or <rev>:<path> */
	const char *target;		/* --target=<version> */
	const char *at;			/* --at=<commit> */
	const char *commit_to;		/* --commit-to=<branch> */
	int stat;
	int exit_code;
	int timeout;			/* seconds per spatch run, 0: none */
	int jobs;
	int json;
	struct strvec defines;		/* -D names, passed on to spatch */
	const char *macro_file;		/* --macro-file: a file or <rev>:<path> */
	char *macro_path;		/* ... as spatch reads it, NULL: none */
	git_oid macro_id;		/* its blob id, in every cache key */
	int verbose;			/* -v: every message of spatch's, per file */
	int ignore_failures;		/* failures do not make the exit status 1 */
	int strict_parsing;		/* code spatch could not parse is a failure */
};

/* What spatch is: found once per run. */
struct spatch_info {
	char *path;			/* absolute path of the executable */
	char *version;			/* first line of `spatch --version` */
};

struct rule {
	char *name;			/* path inside the rules directory, e.g. 0001-irq.cocci */
	char *file;			/* the file spatch reads (absolute) */
	git_oid blob;			/* id of its contents, as git would hash them */
	char *version;			/* from "// Backport: <version>", NULL when none */
	int selected;			/* runs with this --target */
	char *failure;			/* the rule itself failed: spatch's message */
	/*
	 * Its `virtual` declarations: `patch` among them, spatch gets -D patch
	 * (as make coccicheck MODE=patch runs such rules); others only (report,
	 * context, org): their names, and the rule has no patch mode to preview.
	 */
	int virtual_patch;
	char *no_patch_mode;
	int no_filter;			/* spatch gave no grep query: every file is tried */
	pcre2_code *filter;		/* the rule's tokens; a file with none is skipped */

	/* Statistics of this run. */
	int files_changed, hunks, failures;
	int considered, runs, cached, filtered;
	int processes;			/* spatch processes started for it */
	int alone_failed;		/* files run alone: their batch failed */
	int alone_header;		/* files run alone: a header changed in a batch that read it */
	double seconds;
};

struct rule_set {
	struct rule *v;
	size_t nr, alloc;
};

struct file_failure {
	size_t rule;
	char *message;
};

/* One local header spatch would read beside the file (its #include "..."). */
struct header_dep {
	char *path;
	git_oid blob;
};

/* A file the rules run over, as it goes through them one after the other. */
struct subject {
	char *path;
	git_oid tip;			/* blob at the tip */
	unsigned mode;
	char *tip_data;
	size_t tip_size;
	char *data;			/* after the rules so far */
	size_t size;
	git_oid cur;			/* id of data */
	unsigned char *changed_by;	/* per rule: 1 when it changed this file */
	struct file_failure *fails;
	size_t nr_fails, alloc_fails;
	int touched;			/* scratch flag for notes */
	/*
	 * A header outside the files previewed that spatch changed while it
	 * read it for a C file (its "local includes"): never run alone.
	 */
	int include_only;
	/* Why spatch is not given this file at all (its name: spatch_path_refusal; a blob that cannot be read), or NULL. */
	const char *refused;
	/* The C files (subject indices) through which rules changed it. */
	struct via { size_t from, rule; } *via;
	size_t nr_via, alloc_via;
};

struct subject_set {
	struct subject *v;
	size_t nr, alloc;
	/* Headers a file includes that spatch was not given to read (spatch_path_refusal). */
	struct strvec unread;
};

/* subjects.c */
/* A file the rules run on: a C source or header (*.c, *.h). */
int subject_is_source(const char *path);
/*
 * Adds the C file or header at `path` of commit `tip` to `set`; returns its
 * index, or -1 when it is neither or is not in that commit.
 */
long subject_add(struct repo *r, const git_oid *tip, struct subject_set *set,
		 const char *path, size_t nr_rules);
/*
 * subject_add() of each of `paths` (nr of them), in that order, the blobs
 * read on up to `threads` threads.
 */
void subjects_load(struct repo *r, const git_oid *tip, struct subject_set *set,
		   const char *const *paths, size_t nr, size_t nr_rules, int threads);
void subjects_clear(struct subject_set *set);

/* version.c */
/* Kernel version order: 4.9 < 4.10 < 5.0 < 6.1 < 6.12; "v" prefix and -rcN allowed. */
int kernel_version_parse(const char *s, long *parts, int max_parts, long *rc);
int kernel_version_compare(const char *a, const char *b);

/* rules.c */
/*
 * Loads every *.cocci under `spec` (a work-tree directory or <rev>:<path>)
 * in name order; -1 with an error message when it cannot.
 */
int rules_load(struct repo *r, const char *spec, const char *tmpdir, struct rule_set *out);
/*
 * The macro file for spatch (--macro-file): a file, or <rev>:<path> written
 * into tmpdir. Its absolute path (to be freed) and its blob id (for the
 * cache); -1 with an error message when it cannot. A regular file or a
 * blob of RULES_MACRO_FILE_MAX bytes at most (the kernel's are about 100 KB).
 */
#define RULES_MACRO_FILE_MAX (16 << 20)
int rules_macro_file(struct repo *r, const char *spec, const char *tmpdir, char **path,
		     git_oid *id);
/* Marks the rules that run for `target` (NULL: all). */
void rules_select(struct rule_set *rs, const char *target);
void rules_clear(struct rule_set *rs);
/* Does `data` contain one of the rule's tokens (or has it no filter)? */
int rule_may_apply(const struct rule *rule, const char *data, size_t size);
/* Turns a "Grep query" line into the rule's filter; 0 or -1 (bad pattern). */
int rule_set_tokens(struct rule *rule, const char *query_line);

/* cache.c: results under $GIT_DIR/backport/, keyed by what spatch saw. */
struct cache;
struct cache *cache_open(struct repo *r, const struct spatch_info *sp, const struct bp_options *o);
void cache_close(struct cache *c);
/* The key of a rule run on one input (with the headers spatch reads beside it). */
void cache_key_result(struct cache *c, const struct rule *rule, const git_oid *input,
		      const struct header_dep *deps, size_t nr_deps, git_oid *key);
void cache_key_query(struct cache *c, const struct rule *rule, git_oid *key);
/* Reads an entry; NULL when absent. */
char *cache_get(struct cache *c, const git_oid *key);
void cache_put(struct cache *c, const git_oid *key, const char *value);

/* spatch.c */
/* Finds spatch on PATH and its version; -1 with an error naming the Debian package when absent. */
int spatch_find(struct repo *r, struct spatch_info *out);
void spatch_info_clear(struct spatch_info *sp);
/*
 * Why spatch must not be given the file `path` (NULL: it may). spatch runs
 * diff, cp and mkdir through /bin/sh with the file's name unquoted, so a
 * name with a blank, a quote or a shell character splits into other words
 * or runs as a command: `a;touch x;.c` runs `touch x`.
 */
const char *spatch_path_refusal(const char *path);

/* run.c */
struct run_context {
	struct repo *repo;
	struct bp_options *opts;
	struct spatch_info *spatch;
	struct cache *cache;
	struct rule_set *rules;
	struct subject_set *subjects;
	const git_oid *tip;
	char *tmpdir;
	int spatch_runs;		/* processes started */
	struct strmap index;		/* subject path -> its index + 1 */
};
/*
 * Asks spatch for each selected rule's tokens (or its parse error); -1 with
 * an error when spatch cannot be run or watched, or its directory made, and
 * without one when the run is interrupted.
 */
int run_queries(struct run_context *ctx);
/*
 * Runs the rules over every subject, in order, in parallel across files. A
 * file that cannot be given to spatch or kept is a failure of that file;
 * -1 with an error when the run cannot go on (spatch cannot be run or
 * watched, a job's directory or file list cannot be written), and without
 * one when it is interrupted.
 */
int run_rules(struct run_context *ctx);
/* Records a failure of a rule on a file; 0 when it was known already. */
int subject_add_failure(struct subject *s, size_t rule, const char *message);

/* output.c */
/* The hunks between two texts of `path`; -1 with an error. */
int count_hunks(const char *path, const char *a, size_t alen, const char *b, size_t blen);
/* The preview as one diff; -1 with an error when a file's diff cannot be made. */
int print_diff(struct run_context *ctx, struct strbuf *out);
void print_stat(struct run_context *ctx, struct strbuf *out);
/* The preview of the run as one JSON object (no newline). */
void print_json(struct run_context *ctx, const char *diff, struct strbuf *out);
/*
 * JSON Lines: one object per commit (`commit`, the files it touches that the
 * rules change, what failed on them); the last also holds `preview`. -1
 * with an error when a commit cannot be diffed.
 */
int print_json_commits(struct run_context *ctx, const struct commit_list *commits,
		       const char *preview, struct strbuf *out);
/* --commit-to: 0, or -1 with an error. */
int commit_to_branch(struct run_context *ctx, const char *branch);
/* One note per commit, all written or none; -1 with an error. */
int write_notes(struct run_context *ctx, const struct commit_list *commits, const char *ref);

#endif
