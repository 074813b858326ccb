/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The dead/undead analysis driver: models per commit, blocks per file,
 * defects per block, compared with the parent commit.
 */
#ifndef UT_CHECKER_H
#define UT_CHECKER_H

#include "options.h"
#include "repo.h"
#include "defect.h"

struct undertaker_options {
	struct common_options common;
	int all;		/* --all: every block of every file (census) */
	int explain;		/* --explain */
	int verbose;		/* -v: also what a census keeps quiet (unbuilt files' errors) */
	const char *show;	/* --show=new|all */
	int show_all;
	int force;		/* --force: check commits that already have a note */
	const char *arch;	/* --arch: restrict to one architecture */
	int no_kbuild;		/* --no-kbuild: ignore file presence conditions */
	const char *dump_model;	/* --dump-model[=dimacs|symbols|files] */
	int gc_cache;		/* --gc-cache */
	struct strvec pathspec;
	const char *base;	/* --base: where an --mbox series applies */
	const char *write_accept_file;	/* --write-accept-file: a census's baseline */
	const char *data_notes_ref;	/* --data-notes-ref; NULL: the notes ref + "-data" */
	/* --shard=K/N: this run's share, K in 1..N; N 0: no sharding. */
	unsigned long shard_k, shard_n;
};

struct checker;

struct checker *checker_new(struct repo *r, const struct undertaker_options *o);
/* Writes what is kept between runs (the solver's samples); checker_free does too. */
void checker_save(struct checker *c);
/*
 * Between two commits of a range (no worker running): forgets the build
 * files' scans that no kept model uses, so that memory follows the commits
 * at hand, not the length of the range.
 */
void checker_trim(struct checker *c);
void checker_free(struct checker *c);

/*
 * A key naming everything the result for `commit` depends on besides the
 * C files themselves: the Kconfig and Makefile blobs, the project macros,
 * undertaker.accept, the tool's version and the form of the note. A note
 * written with the same key needs no re-check.
 */
#define CHECKER_NOTE_FORM 2
void checker_model_key(struct checker *c, const git_oid *commit, struct strbuf *key);

/*
 * Checks `commit` against its first parent: the files it changed and the files
 * a Kconfig change may affect. Defects get status new, unchanged or fixed; at
 * a merge, what another parent has is not new, what it lacks not fixed.
 * A commit of many files is shared out among -j workers, each with its own
 * models (kept for the next commits). Returns 0, or -1 after a fatal error
 * was reported.
 */
int checker_check_commit(struct checker *c, const git_oid *commit, struct defect_list *out);

/*
 * Show "Checking files" progress for a commit with many files (a single
 * commit is checked; the range's own progress is not on screen).
 */
void checker_set_file_progress(struct checker *c, int on);

/* Every block of every .c/.h/.S file at `commit` (within the pathspec), status new. */
int checker_census(struct checker *c, const git_oid *commit, struct defect_list *out);

/* --dump-model: prints the model of `commit` (dimacs, symbols or files) to stdout. */
int checker_dump_model(struct checker *c, const git_oid *commit, const char *what);

/* Input errors (bad #endif, bad Kconfig line) reported during the run. */
size_t checker_input_errors(const struct checker *c);

#endif
