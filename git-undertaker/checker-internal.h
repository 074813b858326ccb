/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What checker.c, checker-defer.c and checker-census.c share; not an
 * interface (see checker.h).
 *
 * A checker is split by role. What every worker reads and none writes
 * while workers run (struct checker_shared); what they write, each under
 * the results' lock (struct checker_results); what is each worker's own
 * (struct checker_worker: its trees, so its models and solvers, and its
 * counters); and what the main thread alone uses between the parallel
 * phases (struct checker: the workers, the accept patterns, --explain's
 * history walks).
 */
#ifndef UT_CHECKER_INTERNAL_H
#define UT_CHECKER_INTERNAL_H

#include <pthread.h>

#include "checker.h"
#include "analyze.h"
#include "defconfig.h"
#include "kcheck.h"
#include "trees.h"

/* Set by checker_new, read-only from then on: every worker reads it. */
struct checker_shared {
	struct repo *repo;
	const struct undertaker_options *opts;
	struct diskcache *diskcache;		/* NULL: off */
	struct project_config *project_config;
	char *host_arch;
	char *samples_dir;
	struct sat_shares *shares;
};

struct checker_deferred;

/* What the workers of one checker write, under `lock`. */
struct checker_results {
	pthread_mutex_t lock;
	/*
	 * blob hex + digest hex + path (+ a defconfig's includes) → struct
	 * defect_list of that blob's analysis: a file's "before" is often
	 * what another worker found as "after".
	 */
	struct strmap blobs;
	/*
	 * One side of a commit (checker_defer_begin .. checker_defer_resolve,
	 * no worker running at either end): the files whose analysis waits for
	 * models of other architectures than the primary one.
	 */
	int deferring;
	struct checker_deferred *deferred;
	size_t nr_deferred, alloc_deferred;
};

/*
 * A worker: worker 0 is the main thread's (struct checker's `main`), the
 * others are kept from one commit to the next so that their models stay
 * built. Each has its own trees (models, solvers, Kbuild cache); a worker
 * other than the main one borrows the main one's build-file scans and
 * lexed Kconfig files (trees_cache_init's parent).
 */
struct checker_worker {
	const struct checker_shared *shared;
	struct checker_results *results;
	struct trees_cache trees;
	size_t input_errors;	/* summed into the main worker's after each run */
};

struct checker {
	struct checker_shared shared;
	struct checker_results results;
	struct checker_worker main;
	struct checker_worker **workers;	/* workers 1..nr_workers */
	size_t nr_workers;
	struct strvec accept;			/* undertaker.accept */
	struct accept_file *accept_file;	/* undertaker.acceptFile, or NULL */
	struct strmap removals;	/* --explain: name -> where it was defined, or NULL */
	int file_progress;
};

/* The trees of `commit` as worker w sees them (its own models), or NULL after an error. */
struct trees *checker_trees(struct checker_worker *w, const git_oid *commit);

/* A file this checker reads: a source the build runs through cpp, a Kconfig file or a defconfig. */
int checker_checked_file(const struct trees *ts, const char *path);

/*
 * The files a defconfig of U-Boot (whose build runs them through cpp)
 * includes at `commit`, into *inc: 1 (inc to release); 0 for every other
 * file, or a blob that cannot be read (checker_analyze_blob says so).
 */
int checker_defconfig_includes(struct repo *r, const struct trees *ms, const git_oid *commit,
			       const char *path, const git_oid *blob_id,
			       struct defconfig_includes *inc);

/*
 * Appends the defects of one blob under one model set to `l` (deferring
 * the file while its side defers); `includes`: a U-Boot defconfig's
 * (checker_defconfig_includes), else NULL.
 */
void checker_analyze_blob(struct checker_worker *w, struct trees *ms, const char *path,
			  const git_oid *blob_id, const struct defconfig_includes *includes,
			  struct defect_list *l);

/* Worker j: 0 the main one, else one of those checker_ensure_workers made. */
struct checker_worker *checker_worker_at(struct checker *c, size_t j);
/* At least n workers, the main one counted. */
void checker_ensure_workers(struct checker *c, size_t n);

typedef void (*checker_worker_fn)(struct checker_worker *w, size_t j, void *data);
/*
 * Runs fn(worker j, j, data) for j < n on n threads, this one being worker
 * 0, and waits for them all; then their input errors are the main worker's.
 */
void checker_run_workers(struct checker *c, size_t n, checker_worker_fn fn, void *data);

/* --explain: where the missing names of the defects in `l` were defined. */
void checker_explain_removals(struct checker *c, const git_oid *commit, struct defect_list *l);

/*
 * Deferral, checker-defer.c. Between checker_defer_begin and
 * checker_defer_resolve, checker_analyze_blob takes each file's step on the
 * primary architecture and keeps the files that need others
 * (checker_defer_file, checker_defer_kcheck, any worker).
 */
void checker_defer_begin(struct checker_results *res);
void checker_defer_file(struct checker_worker *w, struct trees *ms, const char *path,
			const struct blob *blob, const struct analyze_options *aopt,
			struct defect_list *l);
void checker_defer_kcheck(struct checker_worker *w, struct trees *ms, const char *path,
			  const struct blob *blob, const struct kcheck_options *kopt,
			  struct defect_list *l);

/*
 * Called with each model `a` of the owner's while it is alive
 * (census_arch_files), on the thread of worker w, the j-th of the run.
 */
typedef void (*checker_model_fn)(struct checker_worker *w, size_t j, size_t a, void *data);
/*
 * The deferred files' other architectures, model by model, each built,
 * asked and freed before the next; then their defects. No worker runs.
 * With `own`, every model is asked, own() too. With jobs > 1, when the
 * owner's models are shared (trees_share), on that many workers' threads:
 * each thread a model at a time, the deferred files asking the models in
 * order, each model's own() beside the next ones'.
 */
void checker_defer_resolve(struct checker *c, struct trees *owner, checker_model_fn own,
			   void *data, size_t jobs);

#endif
