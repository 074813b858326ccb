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
	res->deferred[res->nr_deferred].an = an;
	res->deferred[res->nr_deferred].f = f;
	res->deferred[res->nr_deferred++].kr = kr;
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

/* Every deferred file that asks model a next takes its step on it. */
static void deferred_steps(struct checker_results *res, size_t a)
{
	for (size_t p = 0; p < res->nr_deferred; p++) {
		struct checker_deferred *df = &res->deferred[p];

		if (deferred_next(df) != a)
			continue;
		if (df->kr)
			kcheck_step(df->kr);
		else
			analyze_step(df->an);
	}
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
	pthread_cond_t passed_cond;
	size_t next;		/* the next step to take, under the lock */
	size_t passed;		/* the steps whose files have asked their model, under the lock */
};

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
 * One thread of the first round: step after step (a model each), the
 * model built, asked by the deferred files once the step before has asked
 * its own (a file's walk goes model after model, so its steps are those
 * of the single thread), then by its architecture's own files while the
 * next step's model is being asked on another thread, then freed.
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
		if (a != primary)
			build_model(rs->owner, a);
		pthread_mutex_lock(&rs->lock);
		while (rs->passed < g)
			pthread_cond_wait(&rs->passed_cond, &rs->lock);
		pthread_mutex_unlock(&rs->lock);
		/* The primary model is each worker's own: its files asked it before. */
		if (a != primary)
			deferred_steps(rs->res, a);
		pthread_mutex_lock(&rs->lock);
		rs->passed = g + 1;
		pthread_cond_broadcast(&rs->passed_cond);
		pthread_mutex_unlock(&rs->lock);
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
	pthread_mutex_init(&rs.lock, NULL);
	pthread_cond_init(&rs.passed_cond, NULL);
	checker_run_workers(c, jobs, resolve_run, &rs);
	pthread_cond_destroy(&rs.passed_cond);
	pthread_mutex_destroy(&rs.lock);
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
	if (own && jobs > 1 && owner->tm.hold) {
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
