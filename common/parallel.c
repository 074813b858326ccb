// SPDX-License-Identifier: GPL-2.0
/* Threads and child processes run in parallel; see parallel.h. */
#define _GNU_SOURCE
#include "parallel.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

double parallel_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct worker {
	pthread_t thread;
	parallel_fn *fn;
	void *data;
	size_t j;
	int started;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	w->fn(w->j, w->data);
	return NULL;
}

void parallel_run(size_t n, parallel_fn *fn, void *data)
{
	struct worker *w;

	if (n <= 1) {
		fn(0, data);
		return;
	}
	w = xcalloc(n, sizeof(*w));
	for (size_t j = 1; j < n; j++) {
		w[j] = (struct worker){ .fn = fn, .data = data, .j = j };
		w[j].started = !pthread_create(&w[j].thread, NULL, worker_main, &w[j]);
	}
	fn(0, data);
	/* Those without a thread of their own, here: every worker runs once. */
	for (size_t j = 1; j < n; j++)
		if (!w[j].started)
			fn(j, data);
	for (size_t j = 1; j < n; j++)
		if (w[j].started)
			pthread_join(w[j].thread, NULL);
	free(w);
}

void parallel_queue_init(struct parallel_queue *q, size_t nr)
{
	pthread_mutex_init(&q->lock, NULL);
	q->next = 0;
	q->nr = nr;
}

void parallel_queue_release(struct parallel_queue *q)
{
	pthread_mutex_destroy(&q->lock);
}

static size_t take_in_order(struct parallel_queue *q, void *arg)
{
	(void)arg;
	return q->next < q->nr ? q->next++ : q->nr;
}

size_t parallel_queue_take(struct parallel_queue *q,
			   size_t (*take)(struct parallel_queue *q, void *arg), void *arg)
{
	size_t i;

	if (process_interrupted())
		return q->nr;
	pthread_mutex_lock(&q->lock);
	i = take(q, arg);
	pthread_mutex_unlock(&q->lock);
	return i;
}

size_t parallel_queue_next(struct parallel_queue *q)
{
	return parallel_queue_take(q, take_in_order, NULL);
}

struct parallel_task {
	struct worker w;
};

struct parallel_task *parallel_start(parallel_fn *fn, void *data)
{
	struct parallel_task *t = xcalloc(1, sizeof(*t));

	t->w = (struct worker){ .fn = fn, .data = data };
	t->w.started = !pthread_create(&t->w.thread, NULL, worker_main, &t->w);
	if (!t->w.started)
		fn(0, data);
	return t;
}

void parallel_join(struct parallel_task *t)
{
	if (!t)
		return;
	if (t->w.started)
		pthread_join(t->w.thread, NULL);
	free(t);
}

/* The run of parallel_processes(). */
struct run {
	const struct parallel_processes *pp;
	struct parallel_child *c;
	size_t jobs, running;
	int stop;
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Starts the next child in a free slot: 1 started, 0 none to start, -1 stop. */
static int fill_slot(struct run *run, size_t slot)
{
	struct parallel_child *c = &run->c[slot];
	int pipe_in, pipe_out, pipe_err, r;

	memset(c, 0, sizeof(*c));
	c->p = (struct process)PROCESS_INIT;
	c->pidfd = -1;
	r = run->pp->next(c, slot, run->pp->data);
	if (r <= 0)
		return r;
	pipe_in = c->p.in == PROCESS_PIPE;
	pipe_out = c->p.out == PROCESS_PIPE;
	pipe_err = c->p.err == PROCESS_PIPE;
	if (process_start(&c->p) < 0)
		return run->pp->finished(c, slot, -1, run->pp->data) < 0 ? -1 : 2;
	/* The engine reads only the pipes it was asked for, without blocking. */
	if (!pipe_out)
		c->p.out = -1;
	if (!pipe_err)
		c->p.err = -1;
	if (pipe_in)
		close_fd(&c->p.in);	/* nothing to say: the child reads its end */
	for (int k = 0; k < 2; k++) {
		int fd = k ? c->p.err : c->p.out;

		if (fd >= 0)
			fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	}
	c->pidfd = process_pidfd(&c->p);
	c->start = parallel_clock();
	c->running = 1;
	run->running++;
	return 1;
}

static void fill_slots(struct run *run)
{
	for (size_t slot = 0; slot < run->jobs && !run->stop; slot++) {
		int r = 1;

		while (!run->c[slot].running && r > 0 && !run->stop) {
			r = fill_slot(run, slot);
			if (r < 0)
				run->stop = 1;
		}
		if (!r)
			return;
	}
}

/* Reads what fd holds now: 0 while it is open, 1 at its end (closed). */
static int read_pipe(struct run *run, size_t slot, int k)
{
	struct parallel_child *c = &run->c[slot];
	int *fd = k ? &c->p.err : &c->p.out;
	char buf[65536];

	for (;;) {
		ssize_t got = read(*fd, buf, sizeof(buf));

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			return 0;
		if (got <= 0) {
			close_fd(fd);
			return 1;
		}
		if (run->pp->output &&
		    run->pp->output(c, slot, k + 1, buf, (size_t)got, run->pp->data) < 0)
			process_kill(&c->p);
	}
}

/* The child of slot has exited (or failed to be watched): its end. */
static void reap(struct run *run, size_t slot, int status)
{
	struct parallel_child *c = &run->c[slot];

	for (int k = 0; k < 2; k++)
		if ((k ? c->p.err : c->p.out) >= 0)
			read_pipe(run, slot, k);
	close_fd(&c->p.out);
	close_fd(&c->p.err);
	close_fd(&c->pidfd);
	c->running = 0;
	run->running--;
	/* An interrupt killed it: its end says nothing of its task. */
	if (process_interrupted() || run->pp->finished(c, slot, status, run->pp->data) < 0)
		run->stop = 1;
}

/* Kills the children past their limit; the milliseconds until the next limit, or -1. */
static int enforce_limits(struct run *run)
{
	double now = parallel_clock(), next = -1;

	for (size_t slot = 0; slot < run->jobs; slot++) {
		struct parallel_child *c = &run->c[slot];
		double left;

		if (!c->running || c->limit <= 0 || c->timed_out)
			continue;
		left = c->start + c->limit - now;
		if (left <= 0) {
			process_kill(&c->p);
			c->timed_out = 1;
		} else if (next < 0 || left < next) {
			next = left;
		}
	}
	return next < 0 ? -1 : (int)(next * 1000) + 1;
}

/*
 * Has the child ended? Asked when its pidfd is readable, or at every turn
 * where there is no pidfd (then the wait is bounded).
 */
static void collect(struct run *run, size_t slot)
{
	struct parallel_child *c = &run->c[slot];
	int status, r = process_poll(&c->p, &status);

	if (r)
		reap(run, slot, r > 0 ? status : -1);
}

/* Waits for output, an exit or a time limit, and handles them. 0, or -1 (said) when poll fails. */
static int watch(struct run *run)
{
	struct pollfd *pfd = xcalloc(run->jobs * 3 + 1, sizeof(*pfd));
	size_t *who = xcalloc(run->jobs * 3 + 1, sizeof(*who)), n = 0;
	int timeout = enforce_limits(run), no_pidfd = 0, ret = 0;

	for (size_t slot = 0; slot < run->jobs; slot++) {
		struct parallel_child *c = &run->c[slot];
		int fds[3] = { c->p.out, c->p.err, c->pidfd };

		if (!c->running)
			continue;
		no_pidfd |= c->pidfd < 0;
		for (int k = 0; k < 3; k++)
			if (fds[k] >= 0) {
				pfd[n] = (struct pollfd){ .fd = fds[k], .events = POLLIN };
				who[n++] = slot * 3 + (size_t)k;
			}
	}
	/* Without a pidfd (an old kernel), an exit is seen at the next turn. */
	if (no_pidfd && (timeout < 0 || timeout > 50))
		timeout = 50;
	if (poll(pfd, n, timeout) < 0 && errno != EINTR)
		ret = error("cannot watch the child processes: poll: %s", strerror(errno));
	for (size_t i = 0; !ret && i < n; i++) {
		size_t slot = who[i] / 3;
		int k = (int)(who[i] % 3);

		if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) || !run->c[slot].running)
			continue;
		if (k < 2 && (k ? run->c[slot].p.err : run->c[slot].p.out) == pfd[i].fd)
			read_pipe(run, slot, k);
		else if (k == 2)
			collect(run, slot);
	}
	for (size_t slot = 0; !ret && no_pidfd && slot < run->jobs; slot++)
		if (run->c[slot].running && run->c[slot].pidfd < 0)
			collect(run, slot);
	free(pfd);
	free(who);
	return ret;
}

/* Ends and reaps the children still running, without their finished(). */
static void stop_all(struct run *run)
{
	for (size_t slot = 0; slot < run->jobs; slot++) {
		struct parallel_child *c = &run->c[slot];

		if (!c->running)
			continue;
		process_kill(&c->p);
		close_fd(&c->p.out);
		close_fd(&c->p.err);
		close_fd(&c->pidfd);
		process_wait(&c->p);
		c->running = 0;
	}
	run->running = 0;
}

int parallel_processes(const struct parallel_processes *pp)
{
	struct run run = { .pp = pp, .jobs = pp->jobs ? pp->jobs : 1 };
	int ret = 0;

	run.c = xcalloc(run.jobs, sizeof(*run.c));
	for (;;) {
		if (process_interrupted())
			run.stop = 1;
		if (!run.stop)
			fill_slots(&run);
		if (run.stop || !run.running)
			break;
		if (watch(&run) < 0)
			run.stop = 1;
	}
	if (run.stop || process_interrupted())
		ret = -1;
	stop_all(&run);
	free(run.c);
	return ret;
}
