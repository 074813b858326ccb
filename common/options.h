/* SPDX-License-Identifier: GPL-2.0 */
/* Command-line parsing with git's conventions (a small parse-options). */
#ifndef UT_OPTIONS_H
#define UT_OPTIONS_H

#include "util.h"

enum option_type {
	OPTION_END,
	OPTION_BOOL,	/* int *: 1 with --foo, 0 with --no-foo */
	OPTION_INT,	/* int *: --foo=N, --foo N, -fN, -f N */
	OPTION_STRING,	/* const char **: --foo=S, --foo S, -fS, -f S */
	OPTION_OPTSTRING, /* const char **: --foo (value "" ) or --foo=S; no separate argument */
	OPTION_LIST,	/* struct strvec *: each use appends */
	OPTION_GROUP,	/* a heading in the usage text */
	OPTION_REV_FLAG, /* struct strvec *: appends "--<long>" (a rev-list option) */
	OPTION_REV_ARG,	/* struct strvec *: appends "--<long>=<value>" (a rev-list option) */
};

struct option {
	enum option_type type;
	int short_name;
	const char *long_name;
	void *value;
	const char *argh;	/* name of the argument in usage */
	const char *help;	/* NULL: accepted, not listed (an old spelling) */
};

#define OPT_END() { OPTION_END, 0, NULL, NULL, NULL, NULL }
#define OPT_GROUP(h) { OPTION_GROUP, 0, NULL, NULL, NULL, (h) }
#define OPT_BOOL(s, l, v, h) { OPTION_BOOL, (s), (l), (v), NULL, (h) }
#define OPT_INT(s, l, v, a, h) { OPTION_INT, (s), (l), (v), (a), (h) }
#define OPT_STRING(s, l, v, a, h) { OPTION_STRING, (s), (l), (v), (a), (h) }
#define OPT_OPTSTRING(s, l, v, a, h) { OPTION_OPTSTRING, (s), (l), (v), (a), (h) }
#define OPT_LIST(s, l, v, a, h) { OPTION_LIST, (s), (l), (v), (a), (h) }

/*
 * The commit limiting options of `git rev-list`, collected into a strvec in
 * their long form, for repo_parse_revisions() before the revisions.
 */
#define OPT_REV_LIMITS(v) \
	OPT_GROUP("Commit limiting (as in git rev-list)"), \
	{ OPTION_REV_ARG, 'n', "max-count", (v), "n", "at most <n> commits, the newest" }, \
	{ OPTION_REV_ARG, 0, "skip", (v), "n", "leave out the <n> newest commits" }, \
	{ OPTION_REV_FLAG, 0, "no-merges", (v), NULL, "no commit with more than one parent" }, \
	{ OPTION_REV_FLAG, 0, "merges", (v), NULL, "only commits with more than one parent" }, \
	{ OPTION_REV_FLAG, 0, "first-parent", (v), NULL, "follow only the first parent of a merge" }, \
	{ OPTION_REV_ARG, 0, "since", (v), "date", "commits more recent than <date>" }, \
	{ OPTION_REV_ARG, 0, "after", (v), "date", "the same as --since" }, \
	{ OPTION_REV_ARG, 0, "until", (v), "date", "commits older than <date>" }, \
	{ OPTION_REV_ARG, 0, "before", (v), "date", "the same as --until" }, \
	{ OPTION_REV_ARG, 0, "author", (v), "pattern", "commits whose author matches" }, \
	{ OPTION_REV_ARG, 0, "grep", (v), "pattern", "commits whose message matches" }

/* The options that every command of the suite takes. */
struct common_options {
	int notes;		/* --no-notes clears it */
	const char *notes_ref;	/* --notes-ref=<ref>; NULL means refs/notes/<tool> */
	const char *format;	/* --format=text|json, or one of `formats` */
	/* The command's further --format values (NULL-terminated), set before parsing. */
	const char *const *formats;
	int quiet;		/* -q */
	int jobs;		/* -j N; 0 means the number of online CPUs */
	int json;		/* derived from format */
	const char *color;	/* --color[=<when>]: "" is always */
	int no_color;		/* --no-color */
	/*
	 * From the environment, read by common_options_init: UNDERTAKER_STATS
	 * (set and not empty: where the CPU time goes, on stderr) and
	 * UNDERTAKER_POOL=<n> (solver samples per model, as trees_env.witnesses
	 * takes it: 0 the default, -1 none) and UNDERTAKER_KCONFIG_CACHE=<KiB>
	 * (the lexed Kconfig files a run keeps at most; 0 the default).
	 */
	int stats;
	int pool;
	size_t kconfig_cache_kib;
};

#define OPT_COMMON(c) \
	OPT_GROUP("Common options"), \
	OPT_BOOL(0, "notes", &(c)->notes, "write notes (default; --no-notes to skip)"), \
	OPT_STRING(0, "notes-ref", &(c)->notes_ref, "ref", "notes ref to write (default refs/notes/<tool>)"), \
	OPT_STRING(0, "format", &(c)->format, "text|json", "output format"), \
	OPT_BOOL('q', "quiet", &(c)->quiet, "no progress or warnings (git undertaker: no text report)"), \
	OPT_INT('j', "jobs", &(c)->jobs, "n", "parallel jobs (default: number of CPUs)"), \
	OPT_OPTSTRING(0, "color", &(c)->color, "when", "colour: always, never or auto (default: color.ui)"), \
	OPT_BOOL(0, "no-color", &(c)->no_color, NULL)

void common_options_init(struct common_options *c);
/* Validates and derives fields after parsing; dies with usage on bad values. */
void common_options_finish(struct common_options *c, const char *tool);
/* The notes ref to use, full name: refs/notes/<tool> unless --notes-ref says otherwise. */
char *common_notes_ref(const struct common_options *c, const char *tool);

struct parsed_args {
	struct strvec args;	/* non-option arguments before "--" */
	struct strvec paths;	/* arguments after "--" */
	int seen_dashdash;
};

/*
 * Parses argv[1..] into options and arguments. -h prints usage and exits 129;
 * --help runs `git help <cmd>`; --version prints the version and exits 0; an
 * unknown option prints an error and the usage and exits 129. `cmd` is the
 * command name without "git-", e.g. "undertaker".
 */
void parse_options(int argc, const char **argv, const struct option *opts,
		   const char *const *usage, const char *cmd, struct parsed_args *out);
_Noreturn void usage_with_options(const char *const *usage, const struct option *opts);
/* Prints "error: msg" and the short usage line, exits 129. */
_Noreturn void usage_error(const char *const *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void parsed_args_clear(struct parsed_args *pa);
/* Puts the collected rev-list options (OPT_REV_LIMITS) before the revisions in pa->args. */
void parsed_args_add_revopts(struct parsed_args *pa, struct strvec *revopts);

extern const char suite_version[];

#endif
