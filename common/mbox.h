/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Patch series from mail: an mbox (git format-patch, b4 am, a list archive),
 * single patch files or standard input, split into messages, each message's
 * headers, commit message and diff; then the series applied in memory, on
 * its base, patch after patch, each becoming the commit it would be. Nothing
 * is written into the repository: the objects go to repo's scratch store.
 */
#ifndef UT_MBOX_H
#define UT_MBOX_H

#include "repo.h"

struct mbox_patch {
	char *source;		/* "<file>" or "<file>:<n>" (n-th message), for errors */
	char *subject;		/* as mailed, unfolded and decoded: "[PATCH 1/2] foo: bar" */
	char *message;		/* the commit message: subject without [PATCH..], body */
	char *author_name, *author_email;
	long long when;		/* Date:, seconds since the epoch */
	int tz_offset;		/* minutes east of UTC */
	char *message_id;	/* Message-Id: with its <>, or NULL */
	char *references;	/* References: as mailed, or NULL */
	char *recipients;	/* To: and Cc: joined by ", " as mailed, or NULL */
	char *diff;		/* from the first "diff --git" to the end of the last hunk */
	size_t diff_len;
	git_oid commit;		/* mbox_apply: the commit it became */
};

struct mbox_series {
	struct mbox_patch *v;
	size_t nr, alloc;
	char *base_commit;	/* the first `base-commit:` line of any message, or NULL */
	git_oid base;		/* mbox_apply: where the series starts */
	size_t applied;		/* mbox_apply: how many patches became commits */
};

/*
 * Reads the messages of `path` ("-": standard input) and appends those with
 * a diff to the series, in order (a cover letter has none; its base-commit
 * line still counts). A file that is not an mbox is one message. -1 with a
 * message naming the file when it cannot be read; a file with no patch is
 * an error too, unless it gave the series its base-commit (a cover letter).
 * A directory is `git format-patch -o` output: its *.patch files, read in
 * name order, a 0000-* cover letter allowed to hold no patch.
 */
int mbox_read(struct mbox_series *s, const char *path);

/*
 * Applies the patches in order: the first on `base` (a revision; NULL: the
 * series' base-commit line, else HEAD), each next on the commit the one
 * before became. Objects go to the scratch store (repo_scratch_objects).
 * A patch that does not apply stops the series: an error names it and why,
 * s->applied says how many did, and -1 is returned; -1 too when the base
 * cannot be resolved.
 */
int mbox_apply(struct repo *r, struct mbox_series *s, const char *base);

void mbox_series_clear(struct mbox_series *s);

#endif
