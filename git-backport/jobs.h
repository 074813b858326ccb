/* SPDX-License-Identifier: GPL-2.0 */
/* spatch processes of a run: started, watched, waited for. Internal to git-backport/. */
#ifndef BACKPORT_JOBS_H
#define BACKPORT_JOBS_H

#include "backport.h"
#include "process.h"

#include <sys/types.h>

enum job_kind { JOB_QUERY, JOB_RULE };

struct job {
	enum job_kind kind;
	int busy;
	size_t rule;
	size_t *subjects;		/* JOB_RULE: the files it was given */
	size_t nr_subjects, alloc_subjects;
	int single;			/* one file named on the command line, not --dir */
	struct process proc;		/* spatch, in a process group of its own */
	int fd[2];			/* stdout, stderr; -1 once closed */
	struct strbuf out, err;
	double start, limit;		/* limit: seconds before it is killed, 0: none */
	int timed_out;
	char *dir;
};

struct queue {
	size_t *v;
	size_t head, nr, alloc;
};
void queue_push(struct queue *q, size_t x);
int queue_pop(struct queue *q, size_t *x);

/* A fresh private directory for the job in `slot`. */
void job_dir(struct run_context *ctx, struct job *job, size_t slot);
/* Starts spatch with `args` in the job's directory. */
void job_spawn(struct run_context *ctx, struct job *job, const struct strvec *args);
/*
 * Reads the running jobs' output, kills those past their limit; returns the
 * index of one that has exited (its wait status in *status), or -1.
 */
int job_wait_any(struct job *jobs, size_t nr, int *status);
void job_reset(struct job *job);
void job_release(struct job *job);
int exit_ok(int status);
/* What went wrong with a job that did not exit 0, in one line. */
char *exit_message(const struct job *job, int status);
void push_defines(struct run_context *ctx, struct strvec *args);
/*
 * spatch's meaningful lines, joined on one line, as we print its messages:
 * bytes that are not UTF-8 and control characters as \xNN, cut after
 * SPATCH_MESSAGE_MAX bytes.
 */
#define SPATCH_MESSAGE_MAX 512
char *spatch_message(const char *text, size_t max_lines);
/* "parse error" reports of --verbose-parsing, one line each. */
void parse_errors(const char *err, struct strvec *out);

/* deps.c: the headers spatch reads beside a C file. */
struct pending {
	git_oid key;
	struct header_dep *deps;
	size_t nr, alloc;
};
void find_deps(struct run_context *ctx, struct pending *p, const struct subject *s);
void pending_clear_deps(struct pending *p);

#endif
