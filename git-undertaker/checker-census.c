// SPDX-License-Identifier: GPL-2.0
/*
 * The census (checker_census): every block of every checked file at one
 * commit, on the checker's workers, each architecture's own files to one
 * worker at a time, or architecture-major (checker-defer.c) when every
 * architecture is in scope.
 */
#include "checker-internal.h"

#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "process.h"
#include "report.h"

/*
 * A span of files in tree order. Where their scope is one architecture other
 * than the primary one (arch/arm/...), its shared model (trees_share) is
 * asked for every block: one worker takes the whole span while the others
 * work elsewhere. On every architecture of Linux 6.1, two workers taking files
 * in order waited 140 s in all for each other's models, powerpc's 44 s.
 */
struct census_span {
	size_t next, end;	/* the files [next, end) are left, under the queue's lock */
	int claim;		/* one architecture's own files */
	int arch;		/* that architecture's model (claim), else -1 */
	int taken;		/* claimed by a worker */
};

/* One census: read by every worker but its spans (the queue's lock) and outputs. */
struct census {
	const struct undertaker_options *opts;
	git_oid commit;
	const struct trees *trees;	/* the commit's: which files are sources */
	struct strvec paths;
	git_oid *blobs;
	size_t nr, alloc;
	struct census_span *spans;	/* under the queue's lock */
	size_t nr_spans, alloc_spans;
	struct parallel_queue queue;	/* the files, by census_take */
	struct progress *progress;
	struct census_worker *workers;	/* one per thread */
	int arch_major;		/* the architectures' own files wait for census_arch_files */
};

/* A worker's share of the census: written by its thread alone. */
struct census_worker {
	struct census *census;
	struct defect_list out;
	size_t span;		/* the span it claimed, or nr_spans */
};

/* Cuts the files into spans: a new one where the architecture of the directory changes. */
static void census_spans(struct census *cs, struct trees *ms)
{
	int prev = -2;

	for (size_t i = 0; i < cs->nr; i++) {
		int a = trees_path_arch(ms, cs->paths.v[i]);
		struct census_span *r;

		if (a == (int)ms->tm.primary && ms->arches.nr)
			a = -1;
		if (a == prev) {
			cs->spans[cs->nr_spans - 1].end = i + 1;
			continue;
		}
		ALLOC_GROW(cs->spans, cs->nr_spans + 1, cs->alloc_spans);
		r = &cs->spans[cs->nr_spans++];
		memset(r, 0, sizeof(*r));
		r->next = i;
		r->end = i + 1;
		r->claim = a >= 0;
		r->arch = a;
		prev = a;
	}
}

/*
 * The next file for worker w, under the queue's lock (parallel_queue_take):
 * from the span it claimed; else from a span of an architecture no worker
 * holds (claiming it); else from the files of every architecture; at the
 * end, from any span left.
 * cs->nr when none is left.
 */
static size_t census_take(struct parallel_queue *q, void *arg)
{
	struct census_worker *w = arg;
	struct census *cs = w->census;
	struct census_span *r = w->span < cs->nr_spans ? &cs->spans[w->span] : NULL;

	if (r && r->next < r->end)
		return r->next++;
	if (r)
		r->taken = 0;
	w->span = cs->nr_spans;
	for (int pass = 0; pass < 3; pass++)
		for (size_t k = 0; k < cs->nr_spans; k++) {
			r = &cs->spans[k];
			if (r->next >= r->end || (pass == 0 && (!r->claim || r->taken)) ||
			    (pass == 1 && r->claim) || (cs->arch_major && r->claim))
				continue;
			if (pass == 0) {
				r->taken = 1;
				w->span = k;
			}
			return r->next++;
		}
	return cs->nr;
}

static int census_list(const struct tree_file *f, void *data)
{
	struct census *cs = data;
	const struct undertaker_options *o = cs->opts;

	if (!checker_checked_file(cs->trees, f->path) || !pathspec_match(&o->pathspec, f->path))
		return 0;
	/* A file's shard: its path's hash, the same on every machine and run. */
	if (o->shard_n && strhash(f->path, strlen(f->path)) % o->shard_n != o->shard_k - 1)
		return 0;
	strvec_push(&cs->paths, f->path);
	ALLOC_GROW(cs->blobs, cs->nr + 1, cs->alloc);
	cs->blobs[cs->nr++] = *f->blob;
	return 0;
}

/*
 * The Kconfig files and defconfigs after the sources, in tree order each:
 * their questions (can an option's condition hold, can it be off) are
 * mostly answered by the configurations the sources' blocks made found.
 */
static void census_kconfig_last(struct census *cs)
{
	char **paths;
	git_oid *blobs;
	size_t k = 0;

	if (!cs->nr)
		return;
	paths = xcalloc(cs->nr, sizeof(*paths));
	blobs = xcalloc(cs->nr, sizeof(*blobs));
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < cs->nr; i++)
			if (!!kcheck_is_checked_path(cs->paths.v[i]) == pass) {
				paths[k] = cs->paths.v[i];
				blobs[k++] = cs->blobs[i];
			}
	memcpy(cs->paths.v, paths, cs->nr * sizeof(*paths));
	memcpy(cs->blobs, blobs, cs->nr * sizeof(*blobs));
	free(paths);
	free(blobs);
}

/* File i of the census, by worker w on trees ms, its defects to `out`. */
static void census_file(struct checker_worker *w, struct census *cs, struct trees *ms, size_t i,
			struct defect_list *out)
{
	struct repo *r = w->shared->repo;
	struct defconfig_includes inc;
	int has_inc;

	/* The census sees each blob once: nothing kept (blob_defects) but its defects. */
	has_inc = checker_defconfig_includes(r, ms, &cs->commit, cs->paths.v[i], &cs->blobs[i],
					     &inc);
	checker_analyze_blob(w, ms, cs->paths.v[i], &cs->blobs[i], has_inc ? &inc : NULL, out);
	defconfig_includes_release(r, &inc);
	progress_add(cs->progress, 1);
}

static void census_run(struct checker_worker *wc, size_t j, void *data)
{
	struct census *cs = data;
	struct census_worker *w = &cs->workers[j];
	struct trees *ms = checker_trees(wc, &cs->commit);

	/* Without its trees a worker takes no file: one taken would be lost. */
	if (!ms)
		return;
	for (;;) {
		size_t i = parallel_queue_take(&cs->queue, census_take, w);

		if (i >= cs->nr)
			break;
		census_file(wc, cs, ms, i, &w->out);
	}
}

/*
 * An architecture-major census (every architecture in scope): the files of
 * architecture a's own directories, on worker w (the j-th), while its model
 * is alive (checker_defer_resolve's hook; other threads ask others).
 */
static void census_arch_files(struct checker_worker *w, size_t j, size_t a, void *data)
{
	struct census *cs = data;
	struct trees *ms = checker_trees(w, &cs->commit);

	for (size_t k = 0; ms && k < cs->nr_spans && !process_interrupted(); k++) {
		struct census_span *r = &cs->spans[k];

		if (!r->claim || r->arch != (int)a)
			continue;
		while (r->next < r->end && !process_interrupted())
			census_file(w, cs, ms, r->next++, &cs->workers[j].out);
	}
}

/*
 * The census's workers: one model per architecture for all of them, built
 * by whichever needs it first (on every architecture, a model per worker
 * took twice the memory).
 */
static void census_workers(struct checker *c, struct census *cs, struct trees *ms, size_t jobs)
{
	cs->workers = xcalloc(jobs, sizeof(*cs->workers));
	checker_ensure_workers(c, jobs);
	if (jobs > 1)
		trees_share(ms);
	for (size_t j = 0; j < jobs; j++) {
		struct trees *wt = j ? checker_trees(checker_worker_at(c, j), &cs->commit) : NULL;

		if (wt)
			trees_borrow(wt, ms);
		cs->workers[j].census = cs;
		cs->workers[j].span = cs->nr_spans;
	}
}

/* The blob cache's budget in a census: see checker_census(). */
#define CENSUS_BLOB_CACHE ((size_t)8 << 20)

int checker_census(struct checker *c, const git_oid *commit, struct defect_list *out)
{
	const struct undertaker_options *o = c->shared.opts;
	struct census cs = { .opts = o, .commit = *commit };
	size_t jobs = o->common.jobs > 0 ? (size_t)o->common.jobs : 1;
	struct trees *ms = checker_trees(&c->main, commit);

	/* The tree's build files once, before the workers share them. */
	if (!ms)
		return -1;
	cs.trees = ms;
	/*
	 * The census reads each file once: a blob kept after it was analysed
	 * is never read again, and the default budget held 256 MiB of them
	 * (half the heap of the x86 census of Linux). The headers that the
	 * include scan reads again are its own to keep.
	 */
	repo_set_cache_limit(c->shared.repo, CENSUS_BLOB_CACHE);
	repo_for_each_file(c->shared.repo, commit, "", census_list, &cs);
	census_kconfig_last(&cs);
	census_spans(&cs, ms);
	if (jobs > cs.nr)
		jobs = cs.nr ? cs.nr : 1;
	parallel_queue_init(&cs.queue, cs.nr);
	if (!o->common.quiet)
		cs.progress = progress_start("Checking files", cs.nr);
	census_workers(c, &cs, ms, jobs);
	/*
	 * On every architecture, each model (40-60 MB on Linux) stayed alive
	 * until the end: 2.96 GB for Linux 6.1. The workers take the files
	 * outside the architectures' own directories on the primary model and
	 * defer the files that ask others; then the other models are built one
	 * at a time, asked by the deferred files and by their architecture's
	 * own files, and freed.
	 */
	cs.arch_major = !o->arch && trees_nr_models(ms) > 1;
	if (cs.arch_major)
		checker_defer_begin(&c->results);
	checker_run_workers(c, jobs, census_run, &cs);
	if (cs.arch_major)
		checker_defer_resolve(c, ms, census_arch_files, &cs, jobs);
	for (size_t j = 0; j < jobs; j++)
		defect_list_take(out, &cs.workers[j].out);
	progress_stop(&cs.progress);
	parallel_queue_release(&cs.queue);
	free(cs.workers);
	strvec_clear(&cs.paths);
	free(cs.blobs);
	free(cs.spans);
	defect_list_sort(out);
	checker_explain_removals(c, commit, out);
	return 0;
}
