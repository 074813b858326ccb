/* SPDX-License-Identifier: GPL-2.0 */
/* spatch processes of a run: started, watched, waited for. Internal to git-backport/. */
#ifndef BACKPORT_JOBS_H
#define BACKPORT_JOBS_H

#include "backport.h"
#include "outtree.h"
#include "parallel.h"

#include <sys/types.h>

enum job_kind { JOB_QUERY, JOB_RULE };

/* What one slot of the engine's (parallel.h) runs: a spatch, in its private directory. */
struct job {
	enum job_kind kind;
	size_t rule;
	size_t *subjects;		/* JOB_RULE: the files it was given */
	size_t nr_subjects, alloc_subjects;
	int single;			/* one file named on the command line, not --dir */
	struct strvec args;		/* spatch's, until it has started */
	struct strbuf out, err;
	double limit;			/* seconds before it is killed, 0: none */
	int timed_out;
	char *dir;
	struct strmap files;		/* what dir holds, see workdir.c */
	unsigned runs;			/* spatch processes run in dir */
	struct outtree *tree;		/* writes under dir (outtree.h), opened when first needed */
};

struct queue {
	size_t *v;
	size_t head, nr, alloc;
};
void queue_push(struct queue *q, size_t x);
int queue_pop(struct queue *q, size_t *x);

/*
 * The private directory of the job in `slot`, made when first asked (kept
 * until job_release); -1 with an error when it cannot be made.
 */
int job_dir(struct run_context *ctx, struct job *job, size_t slot);
/*
 * Prepares the engine's child c to run spatch with job->args in the job's
 * directory (c->task is the job): the engine starts it.
 */
void job_prepare(struct run_context *ctx, struct job *job, struct parallel_child *c);
/* The engine's output(): what spatch writes, into the job of c->task. */
int job_output(struct parallel_child *c, size_t slot, int fd, const char *buf, size_t len,
	       void *data);
void job_reset(struct job *job);
void job_release(struct job *job);
int exit_ok(int status);
/* What went wrong with a job that did not exit 0, in one line. */
char *exit_message(const struct job *job, int status);
void push_defines(struct run_context *ctx, size_t rule, struct strvec *args);
/*
 * spatch's meaningful lines, joined on one line, as we print its messages:
 * bytes that are not UTF-8 and control characters as \xNN, cut after
 * SPATCH_MESSAGE_MAX bytes.
 */
#define SPATCH_MESSAGE_MAX 512
char *spatch_message(const char *text, size_t max_lines);
/* "parse error" reports of --verbose-parsing, one line each. */
void parse_errors(const char *err, struct strvec *out);

/* workdir.c: the files of a job's directory, kept from batch to batch. */
/* Does the directory hold `path` with this content? */
int workdir_holds(struct job *job, const char *path, const git_oid *oid);
/*
 * Writes `path` unless the directory holds that content already; -1 (errno
 * set, nothing left at `path`) when it cannot: the caller names the file.
 */
int workdir_put(struct job *job, const char *path, const git_oid *oid,
		const void *data, size_t size);
/*
 * After spatch: 0 when `path` is as it was (its id in *oid), 1 when spatch
 * rewrote it (its id in *oid, its content in *data, to free), -1 when it is
 * gone or cannot be read.
 */
int workdir_read_back(struct job *job, const char *path, git_oid *oid, char **data, size_t *size);
/*
 * Empties the directory: after a spatch that failed, nothing in it is known.
 * -1 with an error when the directory cannot be made again.
 */
int workdir_forget(struct job *job);

/* deps.c: the headers spatch reads beside a C file. */
struct pending {
	git_oid key;
	struct header_dep *deps;
	size_t nr, alloc;
};
void find_deps(struct run_context *ctx, struct pending *p, const struct subject *s);
void pending_clear_deps(struct pending *p);
/* A path as spatch spells it ("./a/b/../c.h") as the tree does ("a/c.h"); NULL outside it. */
char *dep_path_normalize(const char *path);

#endif
