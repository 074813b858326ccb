/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Accepted defects: those a commit's `Undertaker-Accept:` trailers name, and
 * those `git config undertaker.accept` names in every commit. An accepted
 * defect is kept (status accepted) but is not new.
 */
#ifndef UT_ACCEPT_H
#define UT_ACCEPT_H

#include "defect.h"
#include "repo.h"

#define ACCEPT_TRAILER "Undertaker-Accept"

/*
 * Does `pattern` name defect d? A pattern is a CONFIG name (with or without
 * its CONFIG_ prefix; a glob as fnmatch(3) takes it) that the block's
 * condition names, or `path:line` (path a glob too) of the block's #if line.
 */
int accept_matches(const char *pattern, const struct defect *d);

/*
 * Turns the new defects of `l` that a pattern of `config` (undertaker.accept)
 * or a trailer of `commit`'s message names into accepted ones. Returns -1
 * when the commit cannot be read.
 */
int accept_defects(struct repo *r, const git_oid *commit, const struct strvec *config,
		   struct defect_list *l);

/*
 * undertaker.acceptFile: a file of patterns, one a line in the trailer's
 * syntax, `#` comments and blank lines allowed, as git reads
 * blame.ignoreRevsFile. `<path>` is read at each commit checked (absent
 * there: no patterns), `<rev>:<path>` at that one commit for every commit.
 */
struct accept_file {
	char *spec;		/* as configured, for messages */
	char *path;
	git_oid at;		/* the commit of <rev>:<path> */
	int fixed;		/* `at` is set */
	struct strmap warned;	/* blob hex -> NULL: its bad lines were reported */
};

/* Reads the configured value; -1 with an error when its <rev> does not resolve. */
int accept_file_init(struct repo *r, const char *value, struct accept_file *af);
void accept_file_release(struct accept_file *af);
/* The file's blob id for `commit` (zero when there is none): part of a note's key. */
void accept_file_id(struct repo *r, const struct accept_file *af, const git_oid *commit,
		    git_oid *out);
/*
 * Appends the file's patterns for `commit` to `out`; each bad line gets a
 * warning naming the file and line (once per blob) and is skipped.
 */
void accept_file_read(struct repo *r, struct accept_file *af, const git_oid *commit,
		      struct strvec *out);
/* Appends to `sb` the accept-file line that names defect d (its path:line, path quoted for fnmatch). */
void accept_file_line(struct strbuf *sb, const struct defect *d);

#endif
