/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one engine for parallel work: threads that share out work in this
 * process, and child processes run several at a time. Every command's
 * parallel work goes through here (the census and the range workers of git
 * undertaker, git backport's subject loader and spatch jobs, git vampyr's
 * kconfig expansions and build commands).
 *
 * Threads. parallel_run() runs fn(j, data) once for every worker j < n and
 * returns when all have returned; worker 0 runs on the calling thread, the
 * others on threads of their own. A worker whose thread cannot be created
 * runs on the calling thread after worker 0, so every j runs exactly once,
 * whatever the machine allows. Work is shared out through a parallel_queue
 * (an index dispenser under its own lock), never by j alone, so that a late
 * worker finds the work done. The queue hands out nothing more once the run
 * is interrupted (process_interrupted(), process.h): each worker ends with
 * the item it holds and parallel_run() returns within one item's time.
 * What the workers share beside the queue is the caller's to lock; what fn
 * writes before it returns is seen by the caller after parallel_run().
 * parallel_start() runs one function beside the caller (a loader while the
 * caller works), parallel_join() waits for it.
 *
 * Child processes, on the model of git's run_processes_parallel(): up to
 * `jobs` children at once, each in a slot. The caller gives three callbacks:
 * next() prepares the slot's next child (the engine starts it with
 * process_start), output() receives what a child writes on the pipes it was
 * given (PROCESS_PIPE), finished() its wait status. Children are watched
 * with one poll() on their pipes and their pidfds (no polling at intervals),
 * killed past their time limit, and all ended and reaped when the run stops
 * (a callback's -1, an interrupt). The callbacks run on the thread that
 * called parallel_processes(), one at a time; the child's process group, the
 * interrupt that ends it and the temporary directories are process.h's.
 */
#ifndef UT_PARALLEL_H
#define UT_PARALLEL_H

#include <pthread.h>
#include <stddef.h>

#include "process.h"

/* One worker's share of a parallel_run(): j is its number, 0 <= j < n. */
typedef void parallel_fn(size_t j, void *data);

/* Runs fn(j, data) for every j < n (n 0 counts as 1) and waits for them all. */
void parallel_run(size_t n, parallel_fn *fn, void *data);

/* An index dispenser: 0, 1, ... nr - 1, each to one worker. */
struct parallel_queue {
	pthread_mutex_t lock;
	size_t next, nr;
};
void parallel_queue_init(struct parallel_queue *q, size_t nr);
void parallel_queue_release(struct parallel_queue *q);
/* The next index, or q->nr when none is left or the run is interrupted. Any thread. */
size_t parallel_queue_next(struct parallel_queue *q);
/*
 * A dispenser of the caller's own order: take(arg) chooses the next index
 * under the queue's lock (q->next and q->nr are its to read and write);
 * q->nr when none is left or the run is interrupted.
 */
size_t parallel_queue_take(struct parallel_queue *q, size_t (*take)(struct parallel_queue *q,
								  void *arg), void *arg);

/* fn(0, data) on a thread beside the caller; joined by parallel_join(). */
struct parallel_task;
/*
 * Starts it. When no thread can be created, fn runs here at once, and the
 * join only frees the task.
 */
struct parallel_task *parallel_start(parallel_fn *fn, void *data);
/* Waits for the task to return and frees it. NULL: nothing. */
void parallel_join(struct parallel_task *t);

/* A slot of parallel_processes(): the child it runs. */
struct parallel_child {
	/*
	 * Prepared by next(), started by the engine. Its argv, env and dir
	 * must stay valid until the child has started (next's caller's memory).
	 * out and err: PROCESS_PIPE to have output() receive what it writes.
	 */
	struct process p;
	double limit;		/* seconds it may run (then killed); 0: no limit */
	int timed_out;		/* set by the engine: the limit killed it */
	void *task;		/* the caller's, untouched by the engine */
	/* The engine's. */
	int running, pidfd;
	double start;
};

struct parallel_processes {
	size_t jobs;		/* children at once; 0 counts as 1 */
	/*
	 * Prepares slot's next child in c (c->p starts as PROCESS_INIT, c->limit 0):
	 * 1 when it is to be started, 0 when there is nothing to start now (asked
	 * again when a child ends; the run ends when none runs), -1 to stop
	 * the run (an error, said).
	 */
	int (*next)(struct parallel_child *c, size_t slot, void *data);
	/*
	 * Part of what the child wrote on fd (1 or 2). -1 kills it (its
	 * finished() comes when it has ended). NULL: the output is dropped.
	 */
	int (*output)(struct parallel_child *c, size_t slot, int fd, const char *buf, size_t len,
		      void *data);
	/*
	 * The child has ended with wait status `status` (-1: it could not be
	 * started, process_start said why). 0 goes on, -1 stops the run.
	 */
	int (*finished)(struct parallel_child *c, size_t slot, int status, void *data);
	void *data;
};

/*
 * Runs the children next() gives until it gives no more and all have
 * ended. 0; -1 when a callback stopped the run, when the children cannot be
 * watched (said), or when the run is interrupted (then nothing is said): the
 * children still running are then ended and reaped, without finished().
 */
int parallel_processes(const struct parallel_processes *pp);

/* Seconds on the monotonic clock: the one clock for durations and time limits. */
double parallel_clock(void);

#endif
