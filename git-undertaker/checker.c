// SPDX-License-Identifier: GPL-2.0
/*
 * The run: the trees of each commit (common/trees, a few distinct sets of
 * build files kept with their models), results per file blob, the
 * commit-by-commit comparison and the census.
 */
#include "checker.h"

#include "checker-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "accept.h"
#include "diskcache.h"
#include "parallel.h"
#include "process.h"
#include "report.h"

static int accept_commit(struct checker *c, const git_oid *commit, struct defect_list *out);

static void init_accept_file(struct checker *c)
{
	struct repo *r = c->shared.repo;
	char *value = repo_config_get(r, "undertaker.acceptFile");

	if (value && *value) {
		c->accept_file = xcalloc(1, sizeof(*c->accept_file));
		if (accept_file_init(r, value, c->accept_file) < 0) {
			accept_file_release(c->accept_file);
			free(c->accept_file);
			c->accept_file = NULL;
		}
	}
	free(value);
}

/*
 * Worker w's trees: the shared caches and options; `parent`, the main
 * worker's trees for another worker (NULL for the main one).
 */
static void worker_init(struct checker_worker *w, const struct checker_shared *sh,
			struct checker_results *res, struct trees_cache *parent)
{
	const struct undertaker_options *o = sh->opts;
	struct trees_env env = {
		.repo = sh->repo,
		.project_config = sh->project_config,
		/*
		 * A worker takes the main one's lexed Kconfig files (the cache
		 * locks): lexed once for all, and a Kconfig error is said once,
		 * by whichever parses first. Its Kbuild cache is its own.
		 */
		.kconfig_cache = parent ? parent->env.kconfig_cache : NULL,
		.kconfig_cache_budget = o->common.kconfig_cache_kib * 1024,
		.host_arch = sh->host_arch,
		.only_arch = o->arch,
		.no_kbuild = o->no_kbuild,
		/* A worker's trees are the main one's again: the main one has said it. */
		.quiet = parent != NULL,
		.quiet_unbuilt = o->all && !o->verbose,
		.stats = o->common.stats,
		.witnesses = o->common.pool,
		.samples_dir = sh->samples_dir,
		.shares = sh->shares,
		.diskcache = sh->diskcache,
		/*
		 * A census builds each model once, and its models (14 MB each on
		 * Linux, 44 for every architecture) would push out of the cache's
		 * budget what the next rebase stop or CI job reads.
		 */
		.no_model_entries = o->all,
		.explain_removals = o->explain,
	};

	w->shared = sh;
	w->results = res;
	trees_cache_init(&w->trees, &env, parent);
}

struct checker *checker_new(struct repo *r, const struct undertaker_options *o)
{
	struct checker *c = xcalloc(1, sizeof(*c));
	struct checker_shared *sh = &c->shared;
	struct strvec bad = STRVEC_INIT;

	sh->repo = r;
	sh->opts = o;
	sh->diskcache = trees_diskcache_open(r, o->common.stats);
	/* The macros are each commit's trees' (tree_models.macros): its kind of tree's own. */
	sh->project_config = trees_config_new(r, &bad);
	repo_config_get_all(r, "undertaker.accept", &c->accept);
	init_accept_file(c);
	for (size_t i = 0; i < bad.nr; i++)
		error("bad undertaker.macro '%s' ignored", bad.v[i]);
	strvec_clear(&bad);
	sh->host_arch = xstrdup(trees_host_arch());
	sh->samples_dir = xstrfmt("%sundertaker/samples", repo_gitdir(r));
	sh->shares = sat_shares_new();
	pthread_mutex_init(&c->results.lock, NULL);
	worker_init(&c->main, sh, &c->results, NULL);
	return c;
}

void checker_set_file_progress(struct checker *c, int on)
{
	c->file_progress = on;
}

static void free_defect_list(void *p)
{
	defect_list_clear(p);
	free(p);
}

void checker_save(struct checker *c)
{
	if (!c)
		return;
	for (size_t w = 0; w < c->nr_workers; w++)
		trees_cache_save(&c->workers[w]->trees);
	trees_cache_save(&c->main.trees);
	diskcache_keep_budget(c->shared.diskcache);
	if (c->shared.opts->common.stats)
		trees_cache_stats(&c->main.trees);
}

void checker_trim(struct checker *c)
{
	git_oid *keep = NULL;
	size_t nr = 0, alloc = 0;

	trees_cache_digests(&c->main.trees, &keep, &nr, &alloc);
	for (size_t w = 0; w < c->nr_workers; w++)
		trees_cache_digests(&c->workers[w]->trees, &keep, &nr, &alloc);
	trees_cache_trim(&c->main.trees, keep, nr);
	free(keep);
}

void checker_free(struct checker *c)
{
	if (!c)
		return;
	for (size_t w = 0; w < c->nr_workers; w++) {
		trees_cache_release(&c->workers[w]->trees);
		free(c->workers[w]);
	}
	free(c->workers);
	trees_cache_release(&c->main.trees);
	strmap_clear(&c->results.blobs, free_defect_list);
	pthread_mutex_destroy(&c->results.lock);
	strmap_clear(&c->removals, free);
	diskcache_close(c->shared.diskcache);
	strvec_clear(&c->accept);
	if (c->accept_file)
		accept_file_release(c->accept_file);
	free(c->accept_file);
	trees_config_free(c->shared.project_config);
	sat_shares_free(c->shared.shares);
	free(c->shared.samples_dir);
	free(c->shared.host_arch);
	free(c);
}

size_t checker_input_errors(const struct checker *c)
{
	return c->main.input_errors;
}

/* Where a name was defined: the history walk, once per name and run. */
static int symbol_removed(struct checker *c, const git_oid *commit, const char *name,
			  struct strbuf *out)
{
	const char *known;
	int ret;
	double t;

	if (strmap_contains(&c->removals, name)) {
		known = strmap_get(&c->removals, name);
		if (known)
			strbuf_addstr(out, known);
		return known != NULL;
	}
	t = trees_stats_clock(c->shared.opts->common.stats);
	ret = trees_cache_removal(&c->main.trees, commit, name, out);
	trees_stats_report("history walk", name, t);
	strmap_put(&c->removals, name, ret > 0 ? xstrdup(out->buf) : NULL);
	return ret > 0;
}

struct removals_at {
	struct checker *checker;
	const git_oid *commit;
};

static int removed_at(void *data, const char *name, struct strbuf *out)
{
	struct removals_at *ra = data;

	return symbol_removed(ra->checker, ra->commit, name, out);
}

/* --explain: where the missing names of the defects reported were defined (analyze.h). */
void checker_explain_removals(struct checker *c, const git_oid *commit, struct defect_list *l)
{
	struct removals_at ra = { c, commit };

	if (c->shared.opts->explain)
		analyze_resolve_removals(l, c->shared.opts->show_all, removed_at, &ra);
}

struct trees *checker_trees(struct checker_worker *w, const git_oid *commit)
{
	return trees_cache_get(&w->trees, commit);
}

void checker_model_key(struct checker *c, const git_oid *commit, struct strbuf *key)
{
	struct strbuf all = STRBUF_INIT;
	struct strvec macro_defs = STRVEC_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid id, digest;
	struct repo *r = c->shared.repo;
	const struct undertaker_options *o = c->shared.opts;
	double t = trees_stats_clock(o->common.stats);

	if (trees_cache_digest(&c->main.trees, commit, &digest) < 0) {
		strbuf_addstr(key, "unknown");
		return;
	}
	trees_stats_report("build files", NULL, t);
	strbuf_addf(&all, "%s\n%s\n", suite_version, git_oid_tostr(hex, sizeof(hex), &digest));
	/* The commit's own macros: those its trees scan its files with. */
	trees_macro_defs(c->shared.project_config, r, commit, &macro_defs);
	for (size_t i = 0; i < macro_defs.nr; i++)
		strbuf_addf(&all, "macro %s\n", macro_defs.v[i]);
	strvec_clear(&macro_defs);
	if (o->arch)
		strbuf_addf(&all, "arch %s\n", o->arch);
	for (size_t i = 0; i < c->accept.nr; i++)
		strbuf_addf(&all, "accept %s\n", c->accept.v[i]);
	if (c->accept_file) {
		accept_file_id(r, c->accept_file, commit, &id);
		strbuf_addf(&all, "acceptfile %s %s\n", c->accept_file->spec,
			    git_oid_tostr(hex, sizeof(hex), &id));
	}
	/* What a note holds: a note of another form is written again. */
	strbuf_addf(&all, "note %d\n", CHECKER_NOTE_FORM);
	repo_hash_blob(all.buf, all.len, &id);
	strbuf_addstr(key, git_oid_tostr(hex, sizeof(hex), &id));
	strbuf_release(&all);
}

/* The files whose defects are checked: C blocks, Kconfig files' and defconfigs' own. */
int checker_checked_file(const struct trees *ts, const char *path)
{
	return path && (trees_is_source(ts, path) || kcheck_is_checked_path(path));
}

int checker_defconfig_includes(struct repo *r, const struct trees *ms, const git_oid *commit,
			       const char *path, const git_oid *blob_id,
			       struct defconfig_includes *inc)
{
	struct blob *blob;

	memset(inc, 0, sizeof(*inc));
	if (!trees_defconfig_cpp(ms) || trees_is_kconfig_path(path) ||
	    !trees_is_defconfig(path) || repo_read_blob(r, blob_id, &blob) < 0)
		return 0;
	if (defconfig_has_include(blob->data, blob->size))
		defconfig_read_includes(r, commit, trees_srctree(ms), path, blob->data,
					 blob->size, inc);
	blob_release(r, blob);
	return 1;
}

/* The blob ids of the files included (defconfig_includes) and those missing: the key's. */
static void includes_key(const struct defconfig_includes *inc, struct strbuf *key)
{
	char hex[GIT_OID_HEXSZ + 1];

	for (size_t i = 0; i < inc->nr; i++)
		strbuf_addf(key, " %s:%s", git_oid_tostr(hex, sizeof(hex), &inc->v[i].blob),
			    inc->v[i].path);
	for (size_t i = 0; i < inc->errors.nr; i++)
		strbuf_addf(key, " !%s", inc->errors.v[i]);
}

void checker_analyze_blob(struct checker_worker *w, struct trees *ms, const char *path,
			  const git_oid *blob_id, const struct defconfig_includes *includes,
			  struct defect_list *l)
{
	const struct undertaker_options *o = w->shared->opts;
	struct repo *r = w->shared->repo;
	struct analyze_options aopt = { .explain = o->explain,
					 .quiet_unbuilt = o->all && !o->verbose };
	/* Set and cleared while no worker runs: read without the lock. */
	int deferring = w->results->deferring;
	struct blob *blob;

	if (trees_not_checked(ms, path))
		return;
	if (repo_read_blob(r, blob_id, &blob) < 0) {
		char hex[GIT_OID_HEXSZ + 1];

		error("%s: cannot read blob %s", path, git_oid_tostr(hex, sizeof(hex), blob_id));
		return;
	}
	if (kcheck_is_checked_path(path)) {
		struct kcheck_options kopt = { .explain = o->explain, .includes = includes };

		for (size_t i = 0; includes && i < includes->errors.nr; i++)
			error("%s", includes->errors.v[i]);
		if (deferring)
			checker_defer_kcheck(w, ms, path, blob, &kopt, l);
		else
			kcheck_file(&ms->tm, path, blob->data, blob->size, &kopt, l);
	} else if (deferring) {
		checker_defer_file(w, ms, path, blob, &aopt, l);
	} else {
		analyze_file(&ms->tm, path, blob->data, blob->size, &aopt, l, &w->input_errors);
	}
	blob_release(r, blob);
}

/*
 * The defects of one blob at `commit` under one model set (cached: each
 * version is analysed once).
 */
static const struct defect_list *blob_defects(struct checker_worker *w, struct trees *ms,
					      const git_oid *commit, const char *path,
					      const git_oid *blob_id)
{
	char bhex[GIT_OID_HEXSZ + 1], dhex[GIT_OID_HEXSZ + 1];
	struct strbuf key = STRBUF_INIT;
	struct defect_list *l;
	struct checker_results *res = w->results;
	struct repo *r = w->shared->repo;
	const struct defect_list *found;
	struct defconfig_includes inc;
	int has_inc;

	strbuf_addf(&key, "%s %s %s", git_oid_tostr(bhex, sizeof(bhex), blob_id),
		    git_oid_tostr(dhex, sizeof(dhex), &ms->digest), path);
	has_inc = checker_defconfig_includes(r, ms, commit, path, blob_id, &inc);
	includes_key(&inc, &key);
	pthread_mutex_lock(&res->lock);
	found = strmap_get(&res->blobs, key.buf);
	pthread_mutex_unlock(&res->lock);
	if (found) {
		defconfig_includes_release(r, &inc);
		strbuf_release(&key);
		return found;
	}
	l = xcalloc(1, sizeof(*l));
	checker_analyze_blob(w, ms, path, blob_id, has_inc ? &inc : NULL, l);
	defconfig_includes_release(r, &inc);
	pthread_mutex_lock(&res->lock);
	/* Another worker may have analysed the same blob meanwhile: keep one. */
	found = strmap_get(&res->blobs, key.buf);
	if (found)
		free_defect_list(l);
	else
		strmap_put(&res->blobs, key.buf, l);
	pthread_mutex_unlock(&res->lock);
	strbuf_release(&key);
	return found ? found : l;
}

/*
 * A file changed in place under unchanged models: only the blocks whose keys
 * the two versions do not hold alike (same key, same number of times) are
 * analysed. The others would have the same verdicts in both versions, so
 * their defects could only be "unchanged", which are not reported unless
 * --show=all. Returns -1 when a blob cannot be read (nothing appended).
 */
static int changed_blocks_defects(struct checker_worker *w, struct trees *ms, const char *path,
				  const git_oid *old_id, const git_oid *new_id,
				  struct defect_list *before, struct defect_list *after)
{
	struct repo *r = w->shared->repo;
	struct analyze_options aopt = { .explain = w->shared->opts->explain };
	struct strmap old_keys = STRMAP_INIT, new_keys = STRMAP_INIT, skip = STRMAP_INIT;
	struct strmap_entry *e;
	struct blob *ob, *nb;
	struct cpp_file *of, *nf;
	size_t dummy = 0;

	if (trees_not_checked(ms, path))
		return 0;

	if (repo_read_blob(r, old_id, &ob) < 0)
		return -1;
	if (repo_read_blob(r, new_id, &nb) < 0) {
		blob_release(r, ob);
		return -1;
	}
	of = analyze_scan(&ms->tm, path, ob->data, ob->size);
	nf = analyze_scan(&ms->tm, path, nb->data, nb->size);
	analyze_block_keys(of, &old_keys);
	analyze_block_keys(nf, &new_keys);
	strmap_for_each(&new_keys, e)
		if (strmap_get(&old_keys, e->key) == e->value)
			strmap_put(&skip, e->key, (void *)1);
	aopt.skip = &skip;
	/* The old version's input errors were counted when it was new. */
	analyze_scanned(&ms->tm, path, of, &aopt, before, &dummy);
	analyze_scanned(&ms->tm, path, nf, &aopt, after, &w->input_errors);
	cpp_file_free(of);
	cpp_file_free(nf);
	blob_release(r, ob);
	blob_release(r, nb);
	strmap_clear(&old_keys, NULL);
	strmap_clear(&new_keys, NULL);
	strmap_clear(&skip, NULL);
	return 0;
}

/* Copies `src` into `dst` with the path replaced (defects of a renamed file). */
static void copy_list(struct defect_list *dst, const struct defect_list *src, const char *path)
{
	for (size_t i = 0; i < src->nr; i++)
		defect_list_copy(dst, &src->v[i], path);
}

/* One file of a commit to check: changed by it, or affected by its Kconfig change. */
struct commit_item {
	const struct file_change *fc;	/* NULL: affected */
	const char *path;		/* affected: the file and its blob */
	git_oid blob;
	struct defect_list out;		/* its defects, compared with the parent */
};

/* The files of one commit, shared out among the range workers. */
struct commit_work {
	const git_oid *commit, *parent;	/* parent NULL: a root commit */
	struct commit_item *items;
	size_t nr;
	struct parallel_queue queue;	/* the items, to the workers */
	struct progress *progress;
	enum { PHASE_CHECK, PHASE_BEFORE, PHASE_AFTER } phase;	/* see side_items() */
};

/*
 * The parent's defects of an item (NULL: none to compare with), as
 * check_item() compares them. Run alone first when the parent side goes
 * first (parent_first): they wait in the results, where check_item() finds
 * them. Not for a file changed under unchanged build files (its changed
 * blocks alone are compared).
 */
static const struct defect_list *item_before(struct checker_worker *w, const struct commit_work *cw,
					     struct trees *ps, const struct commit_item *it)
{
	const struct file_change *fc = it->fc;

	if (!ps)
		return NULL;
	if (!fc)
		return blob_defects(w, ps, cw->parent, it->path, &it->blob);
	if (fc->status != 'A' && checker_checked_file(ps, fc->old_path))
		return blob_defects(w, ps, cw->parent, fc->old_path, &fc->old_blob);
	return NULL;
}

/*
 * The commit's defects of an item as check_item() asks them, computed
 * ahead (the commit's side on its own): they wait in the results.
 */
static void item_after(struct checker_worker *w, const struct commit_work *cw, struct trees *ms,
		       const struct commit_item *it)
{
	const struct file_change *fc = it->fc;

	if (!fc)
		blob_defects(w, ms, cw->commit, it->path, &it->blob);
	else if (fc->status != 'D' && checker_checked_file(ms, fc->new_path))
		blob_defects(w, ms, cw->commit, fc->new_path, &fc->new_blob);
}

static void check_item(struct checker_worker *w, const struct commit_work *cw, struct trees *ps,
		       struct trees *ms, struct commit_item *it)
{
	struct defect_list before = { 0 }, after = { 0 };
	const struct file_change *fc = it->fc;

	if (!fc) {
		if (ps)
			copy_list(&before, item_before(w, cw, ps, it), NULL);
		copy_list(&after, blob_defects(w, ms, cw->commit, it->path, &it->blob), NULL);
	} else {
		const char *path = fc->new_path ? fc->new_path : fc->old_path;

		if (fc->status == 'M' && ps && git_oid_equal(&ps->digest, &ms->digest) &&
		    !w->shared->opts->show_all && trees_is_source(ms, path) &&
		    !changed_blocks_defects(w, ms, path, &fc->old_blob, &fc->new_blob,
					    &before, &after))
			;	/* only the blocks that differ */
		else {
			const struct defect_list *was = item_before(w, cw, ps, it);

			if (was)
				copy_list(&before, was, path);
			if (fc->status != 'D' && checker_checked_file(ms, fc->new_path))
				copy_list(&after, blob_defects(w, ms, cw->commit, fc->new_path,
							       &fc->new_blob), path);
		}
	}
	defect_match(&before, &after);
	defect_list_take(&it->out, &after);
	defect_list_clear(&before);
}

/*
 * The worker pool of a range and of the census: the main worker and n - 1
 * of their own, kept from one commit to the next so that their models stay
 * built, and sharing the checker's results.
 */
void checker_ensure_workers(struct checker *c, size_t n)
{
	while (c->nr_workers + 1 < n) {
		struct checker_worker *w = xcalloc(1, sizeof(*w));

		worker_init(w, &c->shared, &c->results, &c->main.trees);
		c->workers = xrealloc(c->workers, (c->nr_workers + 1) * sizeof(*c->workers));
		c->workers[c->nr_workers++] = w;
	}
}

struct checker_worker *checker_worker_at(struct checker *c, size_t j)
{
	return j ? c->workers[j - 1] : &c->main;
}

/* A run of the workers on the engine (parallel.h). */
struct worker_run {
	struct checker *c;
	checker_worker_fn fn;
	void *data;
};

static void worker_main(size_t j, void *arg)
{
	struct worker_run *run = arg;

	run->fn(checker_worker_at(run->c, j), j, run->data);
}

/*
 * parallel_run: a worker whose thread cannot start runs here, after worker
 * 0, and finds the work done.
 */
void checker_run_workers(struct checker *c, size_t n, checker_worker_fn fn, void *data)
{
	struct worker_run run = { c, fn, data };

	checker_ensure_workers(c, n);
	parallel_run(n, worker_main, &run);
	for (size_t j = 1; j < n; j++) {
		struct checker_worker *w = checker_worker_at(c, j);

		c->main.input_errors += w->input_errors;
		w->input_errors = 0;
	}
}

/* An item of a side's pass (side_items): its defects on that side, waiting in the results. */
static void side_item(struct checker_worker *w, const struct commit_work *cw, struct trees *ps,
		      struct trees *ms, const struct commit_item *it)
{
	if (cw->phase == PHASE_BEFORE)
		item_before(w, cw, ps, it);
	else
		item_after(w, cw, ms, it);
}

static void commit_run(struct checker_worker *wc, size_t j, void *data)
{
	struct commit_work *cw = data;
	/* The parent's set first, as checker_check_commit does: ms is then the newest. */
	struct trees *ps = cw->parent ? checker_trees(wc, cw->parent) : NULL;
	struct trees *ms = checker_trees(wc, cw->commit);

	/* A worker without models leaves its share to the others. */
	if (!ms || (cw->parent && !ps))
		return;
	for (;;) {
		size_t i = parallel_queue_next(&cw->queue);

		if (i >= cw->nr)
			break;
		if (cw->phase != PHASE_CHECK) {
			side_item(wc, cw, ps, ms, &cw->items[i]);
			continue;
		}
		check_item(wc, cw, ps, ms, &cw->items[i]);
		progress_add(cw->progress, 1);
	}
}

/*
 * Below this many files a commit is checked on one thread: a worker's first
 * commit builds its own models (about half a second per architecture), and
 * each worker gets at least half this many files.
 */
#define PARALLEL_MIN_FILES 16

/*
 * The workers of a commit use this checker's models of the commit and its
 * parent (one per architecture, built by whichever needs it first), only
 * the primary architecture's their own: on every architecture of Linux, a
 * model set per worker took twice the memory (8.4 GB for v6.1..v6.12 --
 * kernel/) and the time of building them. `on` 0: they stop, since this
 * checker's trees may be evicted before the workers' next commit.
 */
static void share_trees(struct checker *c, struct commit_work *cw, size_t jobs, int on)
{
	struct trees *ps = cw->parent ? checker_trees(&c->main, cw->parent) : NULL;
	struct trees *ms = checker_trees(&c->main, cw->commit);

	checker_ensure_workers(c, jobs);
	if (on) {
		if (ps)
			trees_share(ps);
		if (ms)
			trees_share(ms);
	}
	for (size_t j = 1; j < jobs; j++) {
		struct checker_worker *w = checker_worker_at(c, j);
		struct trees *wps = ps ? checker_trees(w, cw->parent) : NULL;
		struct trees *wms = ms ? checker_trees(w, cw->commit) : NULL;

		if (wps)
			on ? trees_borrow(wps, ps) : trees_unborrow(wps);
		if (wms)
			on ? trees_borrow(wms, ms) : trees_unborrow(wms);
	}
}

/*
 * Whether the parent side goes first, on its own: when the two sides have
 * different build files and several architectures, each side may build a
 * model per architecture (every one, for blocks dead on the primary); the
 * parent's are freed before the commit's are built, which halves the peak
 * (Linux v6.1..v6.12 -- kernel/: 44 models at once otherwise).
 */
static int parent_first(struct trees *ps, struct trees *ms)
{
	return ps && ms && ps != ms && trees_nr_models(ps) > 1;
}

/*
 * One side of a commit whose two sides have different build files
 * (parent_first), PHASE_BEFORE on the parent's trees or PHASE_AFTER on
 * the commit's: each file (C, Kconfig, defconfig) on the primary
 * architecture, then the other architectures model by model over all the
 * files that still ask them (checker_defer_resolve: each model and Kbuild
 * map freed once every file has asked it), then every model but the
 * primary one is freed. Asked file by file, every architecture's model was
 * alive at once (v6.1..v6.12 -- kernel/: 3.21 GB).
 */
static void side_items(struct checker *c, struct commit_work *cw, size_t jobs, struct trees *t,
		       int phase)
{
	struct trees *ps = cw->parent ? checker_trees(&c->main, cw->parent) : NULL;
	struct trees *ms = checker_trees(&c->main, cw->commit);

	cw->phase = phase;
	checker_defer_begin(&c->results);
	if (jobs > 1) {
		/* Each pass over the items its own queue. */
		parallel_queue_init(&cw->queue, cw->nr);
		checker_run_workers(c, jobs, commit_run, cw);
		parallel_queue_release(&cw->queue);
	} else {
		for (size_t i = 0; i < cw->nr && !process_interrupted(); i++)
			side_item(&c->main, cw, ps, ms, &cw->items[i]);
	}
	checker_defer_resolve(c, t, NULL, NULL, jobs);
	trees_release_others(t);
	cw->phase = PHASE_CHECK;
}

static void check_items_serial(struct checker *c, struct commit_work *cw)
{
	struct trees *ps = cw->parent ? checker_trees(&c->main, cw->parent) : NULL;
	struct trees *ms = checker_trees(&c->main, cw->commit);

	if (parent_first(ps, ms)) {
		side_items(c, cw, 1, ps, PHASE_BEFORE);
		side_items(c, cw, 1, ms, PHASE_AFTER);
	}
	for (size_t i = 0; i < cw->nr && !process_interrupted(); i++) {
		check_item(&c->main, cw, ps, ms, &cw->items[i]);
		progress_add(cw->progress, 1);
	}
}

static void check_items(struct checker *c, struct commit_work *cw)
{
	int jobs_opt = c->shared.opts->common.jobs;
	size_t jobs = jobs_opt > 1 ? (size_t)jobs_opt : 1;
	struct trees *ps, *ms;

	if (jobs > cw->nr / (PARALLEL_MIN_FILES / 2))
		jobs = cw->nr / (PARALLEL_MIN_FILES / 2);
	if (jobs < 2 || cw->nr < PARALLEL_MIN_FILES) {
		check_items_serial(c, cw);
		return;
	}
	share_trees(c, cw, jobs, 1);
	ps = cw->parent ? checker_trees(&c->main, cw->parent) : NULL;
	ms = checker_trees(&c->main, cw->commit);
	if (parent_first(ps, ms)) {
		side_items(c, cw, jobs, ps, PHASE_BEFORE);
		side_items(c, cw, jobs, ms, PHASE_AFTER);
	}
	parallel_queue_init(&cw->queue, cw->nr);
	checker_run_workers(c, jobs, commit_run, cw);
	share_trees(c, cw, jobs, 0);
	parallel_queue_release(&cw->queue);
}

/*
 * At a merge, the defects of `out` (found against the first parent) that
 * another parent already has were reported at the commit that brought them
 * in: unchanged. Those the first parent had and the merge lost that another
 * parent lacks were fixed on that side: not the merge's. On the main worker.
 */
static int other_parents(struct checker_worker *w, const git_oid *parents, size_t nr_parents,
			 struct defect_list *out)
{
	for (size_t p = 1; p < nr_parents; p++) {
		struct trees *ps = checker_trees(w, &parents[p]);
		struct defect_list kept = { 0 };
		const char *path = NULL;
		const struct defect_list *theirs = NULL;

		if (!ps)
			return -1;
		for (size_t i = 0; i < out->nr; i++) {
			struct defect *d = &out->v[i];
			git_oid blob;
			int has = 0;

			if (d->status != STATUS_UNCHANGED) {
				if (!path || strcmp(path, d->path)) {
					path = d->path;
					theirs = NULL;
					if (!repo_path_oid(w->shared->repo, &parents[p], path, &blob) &&
					    checker_checked_file(ps, path))
						theirs = blob_defects(w, ps, &parents[p], path,
								      &blob);
				}
				has = theirs && defect_list_has(theirs, d);
			}
			if (d->status == STATUS_FIXED && !has)
				continue;
			if (d->status == STATUS_NEW && has)
				d->status = STATUS_UNCHANGED;
			defect_list_copy(&kept, d, NULL);
		}
		defect_list_clear(out);
		*out = kept;
	}
	return 0;
}

/* The items of a commit as they are collected (commit_items). */
struct item_list {
	struct commit_work *cw;
	size_t alloc;
	struct strmap checked;		/* the paths of the items */
	struct strvec apaths, ablobs;	/* the affected files, the items' paths */
};

static void add_affected(struct item_list *il, const char *path, const char *blob_hex)
{
	struct commit_work *cw = il->cw;

	ALLOC_GROW(cw->items, cw->nr + 1, il->alloc);
	memset(&cw->items[cw->nr], 0, sizeof(*cw->items));
	cw->items[cw->nr].path = path;
	git_oid_fromstr(&cw->items[cw->nr++].blob, blob_hex);
}

/*
 * The defconfigs that include a defconfig the commit changed, or one a
 * Kconfig change affects (among apaths), through any number of files:
 * what they read changed, so they are checked again (appended to the
 * items, their paths and blobs kept in apaths and ablobs).
 */
static void add_includers(const struct checker_shared *sh, struct trees *ms,
			  const git_oid *commit, const struct change_list *changes,
			  struct item_list *il)
{
	struct strvec files = STRVEC_INIT, paths = STRVEC_INIT, blobs = STRVEC_INIT;

	for (size_t i = 0; i < changes->nr; i++) {
		const struct file_change *fc = &changes->files[i];

		if (fc->new_path && trees_is_defconfig(fc->new_path))
			strvec_push(&files, fc->new_path);
		if (fc->old_path && trees_is_defconfig(fc->old_path) &&
		    (!fc->new_path || strcmp(fc->old_path, fc->new_path)))
			strvec_push(&files, fc->old_path);
	}
	for (size_t i = 0; i < il->apaths.nr; i++)
		if (trees_is_defconfig(il->apaths.v[i]))
			strvec_push(&files, il->apaths.v[i]);
	if (files.nr)
		defconfig_includers(sh->repo, commit, trees_srctree(ms), &files, &paths, &blobs);
	for (size_t i = 0; i < paths.nr; i++) {
		if (strmap_get(&il->checked, paths.v[i]) ||
		    !pathspec_match(&sh->opts->pathspec, paths.v[i]))
			continue;
		strmap_put(&il->checked, paths.v[i], (void *)1);
		strvec_push(&il->apaths, paths.v[i]);
		strvec_push(&il->ablobs, blobs.v[i]);
		add_affected(il, il->apaths.v[il->apaths.nr - 1], blobs.v[i]);
	}
	strvec_clear(&files);
	strvec_clear(&paths);
	strvec_clear(&blobs);
}

/*
 * The files of a commit to check: those it changed that the parent's
 * trees (ps, NULL at a root) or its own (ms) read, those its build files'
 * change affects, and the defconfigs that include any of them.
 */
static void commit_items(const struct checker_shared *sh, struct trees *ps, struct trees *ms,
			 const git_oid *commit, const struct change_list *changes,
			 struct item_list *il)
{
	struct commit_work *cw = il->cw;

	for (size_t i = 0; i < changes->nr; i++) {
		const struct file_change *fc = &changes->files[i];

		if (!checker_checked_file(ms, fc->new_path) &&
		    !checker_checked_file(ps ? ps : ms, fc->old_path))
			continue;
		ALLOC_GROW(cw->items, cw->nr + 1, il->alloc);
		memset(&cw->items[cw->nr], 0, sizeof(*cw->items));
		cw->items[cw->nr++].fc = fc;
		strmap_put(&il->checked, fc->new_path ? fc->new_path : fc->old_path, (void *)1);
	}
	if (!ps || !git_oid_equal(&ps->digest, &ms->digest)) {
		trees_affected_files(ps, ms, commit, &sh->opts->pathspec, &il->checked,
				     &il->apaths, &il->ablobs);
		for (size_t i = 0; i < il->apaths.nr; i++)
			add_affected(il, il->apaths.v[i], il->ablobs.v[i]);
	}
	if (trees_defconfig_cpp(ms))
		add_includers(sh, ms, commit, changes, il);
}

/* The items' defects, checked on the workers, into `out` in item order. */
static void commit_defects(struct checker *c, struct commit_work *cw, struct defect_list *out)
{
	/* A big commit (a merge of a release) takes minutes: say how far it is. */
	if (c->file_progress && cw->nr >= 100)
		cw->progress = progress_start("Checking files", cw->nr);
	check_items(c, cw);
	progress_stop(&cw->progress);
	/* In item order, whichever worker took each: the output is the same for any -j. */
	for (size_t i = 0; i < cw->nr; i++)
		defect_list_take(out, &cw->items[i].out);
	defect_list_sort(out);
}

int checker_check_commit(struct checker *c, const git_oid *commit, struct defect_list *out)
{
	struct repo *r = c->shared.repo;
	struct change_list changes = { 0 };
	struct trees *ms, *ps = NULL;
	struct commit_list parents = { 0 };
	git_oid parent;
	int recorded, ret = -1;
	struct commit_work cw = { .commit = commit };
	struct item_list il = { .cw = &cw, .checked = STRMAP_INIT,
				.apaths = STRVEC_INIT, .ablobs = STRVEC_INIT };

	recorded = repo_commit_parents(r, commit, &parents);
	if (recorded < 0)
		return -1;
	if (!parents.nr && recorded)
		warning("%s: at the shallow boundary of this clone (its parent is not here): "
			"checked as a root commit", oid_short(r, commit));
	if (parents.nr)
		parent = parents.oid[0];
	if (repo_diff_first_parent(r, commit, &c->shared.opts->pathspec, 0, &changes) < 0)
		goto out;
	if (parents.nr) {
		ps = checker_trees(&c->main, &parent);
		if (!ps)
			goto out;
		cw.parent = &parent;
	}
	ms = checker_trees(&c->main, commit);
	if (!ms)
		goto out;
	commit_items(&c->shared, ps, ms, commit, &changes, &il);
	commit_defects(c, &cw, out);
	free(cw.items);
	strvec_clear(&il.apaths);
	strvec_clear(&il.ablobs);
	strmap_clear(&il.checked, NULL);
	change_list_clear(&changes);
	ret = other_parents(&c->main, parents.oid, parents.nr, out);
	if (!ret)
		ret = accept_commit(c, commit, out);
	if (!ret)
		checker_explain_removals(c, commit, out);
out:
	change_list_clear(&changes);
	commit_list_clear(&parents);
	return ret;
}

/* Turns the new defects that undertaker.accept, its file or a trailer names into accepted ones. */
static int accept_commit(struct checker *c, const git_oid *commit, struct defect_list *out)
{
	struct repo *r = c->shared.repo;
	struct strvec patterns = STRVEC_INIT;
	int ret;

	for (size_t i = 0; i < c->accept.nr; i++)
		strvec_push(&patterns, c->accept.v[i]);
	if (c->accept_file)
		accept_file_read(r, c->accept_file, commit, &patterns);
	ret = accept_defects(r, commit, &patterns, out);
	strvec_clear(&patterns);
	return ret;
}

int checker_dump_model(struct checker *c, const git_oid *commit, const char *what)
{
	const struct checker_shared *sh = &c->shared;
	int files = !strcmp(what, "files");
	/* A model alone needs no scan of every build file; those trees are ours to free. */
	struct trees *t = files ? checker_trees(&c->main, commit) :
		trees_new(&c->main.trees.env, commit, NULL);
	const char *arch = sh->opts->arch ? sh->opts->arch : sh->host_arch;
	int ret = t ? trees_dump(t, arch, what, stdout) : -1;

	if (!files)
		trees_free(t);
	return ret;
}
