// SPDX-License-Identifier: GPL-2.0
/*
 * test-parallel threads <n> <items>: n workers share out the items through a
 *   parallel_queue; prints how many items were taken, and whether each once.
 * test-parallel procs [--jobs=<n>] [--limit=<s>] [--stop-on-failure] <cmd>...:
 *   each <cmd> through `sh -c`, n at once; then per command, in order:
 *   "<i> exit <code>[ timed out] out=<bytes of stdout> err=<bytes of stderr>
 *   first=<stdout's first line>", the most that ran at once and what
 *   parallel_processes returned. Interrupted (SIGTERM): dies of it.
 */
#include "parallel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tally {
	struct parallel_queue queue;
	unsigned char *seen;
	size_t taken;
	pthread_mutex_t lock;
};

static void count_worker(size_t j, void *data)
{
	struct tally *t = data;
	size_t i;

	while ((i = parallel_queue_next(&t->queue)) < t->queue.nr) {
		pthread_mutex_lock(&t->lock);
		t->seen[i]++;
		t->taken++;
		pthread_mutex_unlock(&t->lock);
	}
}

static int threads(size_t n, size_t items)
{
	struct tally t = { .seen = xcalloc(items + 1, 1) };
	int once = 1;

	parallel_queue_init(&t.queue, items);
	pthread_mutex_init(&t.lock, NULL);
	parallel_run(n, count_worker, &t);
	for (size_t i = 0; i < items; i++)
		once &= t.seen[i] == 1;
	printf("taken %zu%s\n", t.taken, once ? " once each" : " NOT once each");
	parallel_queue_release(&t.queue);
	pthread_mutex_destroy(&t.lock);
	free(t.seen);
	return 0;
}

struct task {
	const char *argv[4];
	struct strbuf out, err;
	int status, timed_out;
};

struct procs {
	struct task *tasks;
	size_t nr, next, running, max_running;
	double limit;
	int stop_on_failure;
};

static int next_task(struct parallel_child *c, size_t slot, void *data)
{
	struct procs *ps = data;
	struct task *t;

	if (ps->next >= ps->nr)
		return 0;
	t = &ps->tasks[ps->next++];
	c->p.argv = t->argv;
	c->p.out = c->p.err = PROCESS_PIPE;
	c->limit = ps->limit;
	c->task = t;
	if (++ps->running > ps->max_running)
		ps->max_running = ps->running;
	return 1;
}

static int task_output(struct parallel_child *c, size_t slot, int fd, const char *buf, size_t len,
		       void *data)
{
	struct task *t = c->task;

	strbuf_add(fd == 1 ? &t->out : &t->err, buf, len);
	return 0;
}

static int task_finished(struct parallel_child *c, size_t slot, int status, void *data)
{
	struct procs *ps = data;
	struct task *t = c->task;

	ps->running--;
	t->status = status;
	t->timed_out = c->timed_out;
	return ps->stop_on_failure && status ? -1 : 0;
}

static int procs(int argc, const char **argv)
{
	struct procs ps = { 0 };
	struct parallel_processes pp = { 1, next_task, task_output, task_finished, &ps };
	int i, ret;

	for (i = 0; i < argc && starts_with(argv[i], "--"); i++) {
		if (starts_with(argv[i], "--jobs="))
			pp.jobs = (size_t)atoi(argv[i] + 7);
		else if (starts_with(argv[i], "--limit="))
			ps.limit = atof(argv[i] + 8);
		else if (!strcmp(argv[i], "--stop-on-failure"))
			ps.stop_on_failure = 1;
	}
	ps.nr = (size_t)(argc - i);
	ps.tasks = xcalloc(ps.nr + 1, sizeof(*ps.tasks));
	for (size_t k = 0; k < ps.nr; k++) {
		struct task *t = &ps.tasks[k];

		t->argv[0] = "sh";
		t->argv[1] = "-c";
		t->argv[2] = argv[i + (int)k];
		t->status = -2;	/* never started */
	}
	ret = parallel_processes(&pp);
	process_die_if_interrupted();
	for (size_t k = 0; k < ps.nr; k++) {
		struct task *t = &ps.tasks[k];
		const char *out = strbuf_str(&t->out);

		printf("%zu exit %d%s out=%zu err=%zu first=%.*s\n", k,
		       t->status == -2 ? -2 : process_status_code(t->status),
		       t->timed_out ? " timed out" : "", t->out.len, t->err.len,
		       (int)strcspn(out, "\n"), out);
		strbuf_release(&t->out);
		strbuf_release(&t->err);
	}
	printf("max running %zu\nreturned %d\n", ps.max_running, ret);
	free(ps.tasks);
	return 0;
}

int main(int argc, const char **argv)
{
	set_program_name("test-parallel");
	process_catch_interrupts();
	if (argc == 4 && !strcmp(argv[1], "threads"))
		return threads((size_t)atoi(argv[2]), (size_t)atoi(argv[3]));
	if (argc >= 2 && !strcmp(argv[1], "procs"))
		return procs(argc - 2, argv + 2);
	fprintf(stderr, "usage: test-parallel threads <n> <items> | procs [<options>] <cmd>...\n");
	return 129;
}
