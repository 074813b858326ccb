// SPDX-License-Identifier: GPL-2.0
/*
 * A side of a commit, or a census, architecture-major: each file is taken
 * on the primary architecture by the workers, and those that need others
 * wait; then each other model is built, asked by every file waiting for it
 * and freed before the next (checker-internal.h).
 */
#include "checker-internal.h"

#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "process.h"

/* A C file (an, f) or a Kconfig file (kr) of a side that waits for models. */
struct checker_deferred {
	struct analysis *an;
	struct cpp_file *f;
	struct kcheck_run *kr;
	int busy;	/* checker_defer_resolve's threads: taking a step (their lock) */
};

/* The model its next step asks, or ANALYZE_DONE (KCHECK_DONE is the same). */
static size_t deferred_next(const struct checker_deferred *df)
{
	return df->kr ? kcheck_next(df->kr) : analyze_next(df->an);
}

void checker_defer_begin(struct checker_results *res)
{
	res->deferring = 1;
}

/* Keeps a file for checker_defer_resolve; an or kr is set. */
static void defer_add(struct checker_results *res, struct analysis *an, struct cpp_file *f,
		      struct kcheck_run *kr)
{
	pthread_mutex_lock(&res->lock);
	ALLOC_GROW(res->deferred, res->nr_deferred + 1, res->alloc_deferred);
	res->deferred[res->nr_deferred++] = (struct checker_deferred){ .an = an, .f = f, .kr = kr };
	pthread_mutex_unlock(&res->lock);
}

/*
 * A C file of a side whose analysis is deferred: its step on the primary
 * architecture now, on this worker; the others' in checker_defer_resolve,
 * when `l` is filled. Most files need no other.
 */
void checker_defer_file(struct checker_worker *w, struct trees *ms, const char *path,
			const struct blob *blob, const struct analyze_options *aopt,
			struct defect_list *l)
{
	struct cpp_file *f = analyze_scan(&ms->tm, path, blob->data, blob->size);
	struct analysis *an = analyze_begin(&ms->tm, path, f, aopt, l, &w->input_errors);

	if (analyze_next(an) == ms->tm.primary)
		analyze_step(an);
	if (analyze_next(an) == ANALYZE_DONE) {
		analyze_finish(an);
		cpp_file_free(f);
		return;
	}
	defer_add(w->results, an, f, NULL);
}

/* A Kconfig file or defconfig of a side, the same way (kcheck_begin). */
void checker_defer_kcheck(struct checker_worker *w, struct trees *ms, const char *path,
			  const struct blob *blob, const struct kcheck_options *kopt,
			  struct defect_list *l)
{
	struct kcheck_run *kr = kcheck_begin(&ms->tm, path, blob->data, blob->size, kopt, l);

	if (kcheck_next(kr) == ms->tm.primary)
		kcheck_step(kr);
	if (kcheck_next(kr) == KCHECK_DONE) {
		kcheck_finish(kr);
		return;
	}
	defer_add(w->results, NULL, NULL, kr);
}

/* The model of checker_defer_resolve's g-th step: the primary one first, then by index. */
static size_t step_model(size_t g, size_t primary)
{
	return !g ? primary : g - 1 < primary ? g - 1 : g;
}

/* Its step on the model it asks next. */
static void deferred_step(struct checker_deferred *df)
{
	if (df->kr)
		kcheck_step(df->kr);
	else
		analyze_step(df->an);
}

/* Every deferred file that asks model a next takes its step on it. */
static void deferred_steps(struct checker_results *res, size_t a)
{
	for (size_t p = 0; p < res->nr_deferred; p++)
		if (deferred_next(&res->deferred[p]) == a)
			deferred_step(&res->deferred[p]);
}

/* Whether a deferred file asks another model still. */
static int deferred_left(const struct checker_results *res)
{
	for (size_t p = 0; p < res->nr_deferred; p++)
		if (deferred_next(&res->deferred[p]) != ANALYZE_DONE)
			return 1;
	return 0;
}

/* The deferred files' defects (none when interrupted), and the list emptied. */
static void deferred_finish(struct checker_results *res)
{
	for (size_t p = 0; p < res->nr_deferred; p++) {
		struct checker_deferred *df = &res->deferred[p];

		if (df->kr)
			process_interrupted() ? kcheck_abandon(df->kr) : kcheck_finish(df->kr);
		else
			process_interrupted() ? analyze_abandon(df->an) : analyze_finish(df->an);
		cpp_file_free(df->f);
	}
	free(res->deferred);
	res->deferred = NULL;
	res->nr_deferred = res->alloc_deferred = 0;
}

/* The models of checker_defer_resolve's first round, taken by its threads. */
struct resolve {
	struct checker_results *res;
	struct trees *owner;
	checker_model_fn own;
	void *data;
	size_t n;
	pthread_mutex_t lock;
	pthread_cond_t stepped;	/* a file's step is over, or a model's pass */
	size_t next;		/* the next model's rank to take, under the lock */
	char *passed;		/* by rank: every file has been offered that model, under the lock */
};

/* The rank of model a in checker_defer_resolve's order (step_model's inverse); DONE last. */
static size_t model_rank(size_t a, size_t primary)
{
	return a == ANALYZE_DONE ? ANALYZE_DONE : a == primary ? 0 : a < primary ? a + 1 : a;
}

/* Builds model a and its Kbuild map, as the files will ask them. */
static void build_model(struct trees *owner, size_t a)
{
	struct tree_models *tm = &owner->tm;

	if (tm->hold)
		tm->hold(tm->data, a);
	if (trees_model(owner, a))
		trees_kbuild(owner, a);
	if (tm->release)
		tm->release(tm->data, a);
}

/*
 * Model a (rank g) offered to every deferred file, in list order. A file
 * that still asks a model before it waits until the thread holding that
 * one has taken its step, so that each file's walk takes the steps of one
 * thread in the same order, while two models' passes go on together (in
 * Linux 6.1's census a cold pass took 2-6 s, and the models one after the
 * other). A file whose earlier model's pass is over (its walk went back)
 * is left to another round, as on one thread.
 */
static void resolve_pass(struct resolve *rs, size_t g, size_t a)
{
	struct checker_results *res = rs->res;
	size_t primary = rs->owner->tm.primary;

	/* Interrupted, a pass ends at once: none waits for a file it would step. */
	for (size_t p = 0; p < res->nr_deferred && !process_interrupted(); p++) {
		struct checker_deferred *df = &res->deferred[p];
		size_t r;
		int take;

		pthread_mutex_lock(&rs->lock);
		while (df->busy || ((r = model_rank(deferred_next(df), primary)) < g &&
				    !rs->passed[r]))
			pthread_cond_wait(&rs->stepped, &rs->lock);
		take = r == g;
		df->busy = take;
		pthread_mutex_unlock(&rs->lock);
		if (!take)
			continue;
		deferred_step(df);
		pthread_mutex_lock(&rs->lock);
		df->busy = 0;
		pthread_cond_broadcast(&rs->stepped);
		pthread_mutex_unlock(&rs->lock);
	}
	pthread_mutex_lock(&rs->lock);
	rs->passed[g] = 1;
	pthread_cond_broadcast(&rs->stepped);
	pthread_mutex_unlock(&rs->lock);
}

/*
 * One thread of the first round: model after model in rank order, each
 * built, offered to the deferred files (resolve_pass), asked by its
 * architecture's own files and freed.
 */
static void resolve_run(struct checker_worker *w, size_t j, void *data)
{
	struct resolve *rs = data;
	size_t primary = rs->owner->tm.primary;

	for (;;) {
		size_t g, a;

		pthread_mutex_lock(&rs->lock);
		g = process_interrupted() ? rs->n : rs->next;
		if (g < rs->n)
			rs->next++;
		pthread_mutex_unlock(&rs->lock);
		if (g >= rs->n)
			break;
		a = step_model(g, primary);
		/* The primary model is each worker's own: its files asked it before. */
		if (a != primary) {
			/* Without own files, built by the first file that asks it, if any does. */
			if (rs->own)
				build_model(rs->owner, a);
			resolve_pass(rs, g, a);
		}
		if (rs->own)
			rs->own(w, j, a, rs->data);
		trees_release_model(rs->owner, a);
	}
}

/* The first round on `jobs` threads (resolve_run). */
static void resolve_parallel(struct checker *c, struct trees *owner, checker_model_fn own,
			     void *data, size_t jobs)
{
	struct resolve rs = {
		.res = &c->results, .owner = owner, .own = own, .data = data,
		.n = trees_nr_models(owner),
	};

	/* Files that ask the primary model next, on the main thread before the others start. */
	deferred_steps(&c->results, owner->tm.primary);
	rs.passed = xcalloc(rs.n, 1);
	rs.passed[0] = 1;
	pthread_mutex_init(&rs.lock, NULL);
	pthread_cond_init(&rs.stepped, NULL);
	checker_run_workers(c, jobs, resolve_run, &rs);
	pthread_cond_destroy(&rs.stepped);
	pthread_mutex_destroy(&rs.lock);
	free(rs.passed);
}

/*
 * The primary one first, then by index, as each file's scope goes: model
 * `a` is built, asked by every file that needs it and freed before the
 * next, so that one model of the side besides the primary one is alive at
 * a time instead of one per architecture (with `own` on several threads,
 * one per thread). A file whose next architecture the index order has
 * passed takes it in another round.
 */
void checker_defer_resolve(struct checker *c, struct trees *owner, checker_model_fn own,
			   void *data, size_t jobs)
{
	struct checker_results *res = &c->results;
	size_t n = trees_nr_models(owner), primary = owner->tm.primary;
	int left = 1;

	res->deferring = 0;
	if (jobs > 1 && owner->tm.hold) {
		resolve_parallel(c, owner, own, data, jobs);
		own = NULL;
		left = deferred_left(res);
	}
	while (left && !process_interrupted()) {
		for (size_t g = 0; g < n && !process_interrupted(); g++) {
			size_t a = step_model(g, primary);

			deferred_steps(res, a);
			if (own)
				own(&c->main, 0, a, data);
			trees_release_model(owner, a);
		}
		own = NULL;
		left = deferred_left(res);
	}
	deferred_finish(res);
}
