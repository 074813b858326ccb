// SPDX-License-Identifier: GPL-2.0
/*
 * The run: the trees of each commit (common/trees, a few distinct sets of
 * build files kept with their models), results per file blob, the
 * commit-by-commit comparison and the census.
 */
#include "checker.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "accept.h"
#include "analyze.h"
#include "defconfig.h"
#include "diskcache.h"
#include "trees.h"
#include "kcheck.h"
#include "parallel.h"
#include "process.h"
#include "report.h"

struct checker {
	struct repo *repo;
	const struct undertaker_options *opts;
	struct diskcache *diskcache;	/* the parent's in a worker; NULL: off */
	struct strvec accept;		/* undertaker.accept */
	struct accept_file *accept_file;	/* undertaker.acceptFile, or NULL */
	struct project_config *project_config;	/* the parent's in a worker */
	struct trees_cache trees;
	char *samples_dir;
	struct sat_shares *shares;	/* the parent's in a worker */
	/* blob hex + digest hex → struct defect_list of that blob's analysis */
	struct strmap results;
	struct strmap removals;	/* --explain: name -> where it was defined, or NULL */
	size_t input_errors;
	char *host_arch;
	/* A worker: the build files' scan, Kconfig cache and git config are its parent's. */
	struct checker *parent;
	/*
	 * Range workers (kept from one commit to the next, each with its own
	 * models and solvers) share this checker's results, under results_lock:
	 * a file's "before" is often what another worker found as "after".
	 */
	struct checker **workers;
	size_t nr_workers;
	struct checker *results_of;	/* a range worker: its parent */
	pthread_mutex_t results_lock;
	int file_progress;
	/*
	 * One side of a commit (defer_begin .. defer_resolve, the root checker's,
	 * under results_lock): the files whose analysis waits for models of
	 * other architectures than the primary one, asked model by model.
	 */
	int deferring;
	struct deferred_file *deferred;
	size_t nr_deferred, alloc_deferred;
};

/* A C file (an, f) or a Kconfig file (kr) of a side that waits for models. */
struct deferred_file {
	struct analysis *an;
	struct cpp_file *f;
	struct kcheck_run *kr;
};

/* The model its next step asks, or ANALYZE_DONE (KCHECK_DONE is the same). */
static size_t deferred_next(const struct deferred_file *df)
{
	return df->kr ? kcheck_next(df->kr) : analyze_next(df->an);
}

static void init_trees(struct checker *c);
static int accept_commit(struct checker *c, const git_oid *commit, struct defect_list *out);

static void init_accept_file(struct checker *c)
{
	char *value = repo_config_get(c->repo, "undertaker.acceptFile");

	if (value && *value) {
		c->accept_file = xcalloc(1, sizeof(*c->accept_file));
		if (accept_file_init(c->repo, value, c->accept_file) < 0) {
			accept_file_release(c->accept_file);
			free(c->accept_file);
			c->accept_file = NULL;
		}
	}
	free(value);
}

struct checker *checker_new(struct repo *r, const struct undertaker_options *o)
{
	struct checker *c = xcalloc(1, sizeof(*c));
	struct strvec bad = STRVEC_INIT;

	c->repo = r;
	c->opts = o;
	c->diskcache = trees_diskcache_open(r, o->common.stats);
	/* The macros are each commit's trees' (tree_models.macros): its kind of tree's own. */
	c->project_config = trees_config_new(r, &bad);
	repo_config_get_all(r, "undertaker.accept", &c->accept);
	init_accept_file(c);
	for (size_t i = 0; i < bad.nr; i++)
		error("bad undertaker.macro '%s' ignored", bad.v[i]);
	strvec_clear(&bad);
	c->host_arch = xstrdup(trees_host_arch());
	c->samples_dir = xstrfmt("%sundertaker/samples", repo_gitdir(r));
	c->shares = sat_shares_new();
	pthread_mutex_init(&c->results_lock, NULL);
	init_trees(c);
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
	for (size_t w = 0; c && w < c->nr_workers; w++)
		checker_save(c->workers[w]);
	if (c)
		trees_cache_save(&c->trees);
	if (c && !c->parent && !c->results_of)
		diskcache_keep_budget(c->diskcache);
	if (c && !c->parent && c->opts->common.stats)
		trees_cache_stats(&c->trees);
}

void checker_trim(struct checker *c)
{
	git_oid *keep = NULL;
	size_t nr = 0, alloc = 0;

	trees_cache_digests(&c->trees, &keep, &nr, &alloc);
	for (size_t w = 0; w < c->nr_workers; w++)
		trees_cache_digests(&c->workers[w]->trees, &keep, &nr, &alloc);
	trees_cache_trim(&c->trees, keep, nr);
	free(keep);
}

void checker_free(struct checker *c)
{
	if (!c)
		return;
	for (size_t w = 0; w < c->nr_workers; w++)
		checker_free(c->workers[w]);
	free(c->workers);
	trees_cache_release(&c->trees);
	free(c->samples_dir);
	strmap_clear(&c->results, free_defect_list);
	strmap_clear(&c->removals, free);
	if (!c->parent) {
		diskcache_close(c->diskcache);
		strvec_clear(&c->accept);
		if (c->accept_file)
			accept_file_release(c->accept_file);
		free(c->accept_file);
		trees_config_free(c->project_config);
		sat_shares_free(c->shares);
	}
	free(c->host_arch);
	pthread_mutex_destroy(&c->results_lock);
	free(c);
}

size_t checker_input_errors(const struct checker *c)
{
	return c->input_errors;
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
	t = trees_stats_clock(c->opts->common.stats);
	ret = trees_cache_removal(&c->trees, commit, name, out);
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
static void explain_removals(struct checker *c, const git_oid *commit, struct defect_list *l)
{
	struct removals_at ra = { c, commit };

	if (c->opts->explain)
		analyze_resolve_removals(l, c->opts->show_all, removed_at, &ra);
}

/* The trees of every commit this checker sees: its caches and options. */
static void init_trees(struct checker *c)
{
	struct trees_env env = {
		.repo = c->repo,
		.project_config = c->project_config,
		/*
		 * A worker takes the parent's lexed Kconfig files (the cache locks):
		 * lexed once for all, and a Kconfig error is said once, by
		 * whichever parses first. Its Kbuild cache is its own.
		 */
		.kconfig_cache = c->parent ? c->parent->trees.env.kconfig_cache : NULL,
		.kconfig_cache_budget = c->opts->common.kconfig_cache_kib * 1024,
		.host_arch = c->host_arch,
		.only_arch = c->opts->arch,
		.no_kbuild = c->opts->no_kbuild,
		/* A census worker's trees are its parent's again: the parent has said it. */
		.quiet = c->parent != NULL,
		.quiet_unbuilt = c->opts->all && !c->opts->verbose,
		.stats = c->opts->common.stats,
		.witnesses = c->opts->common.pool,
		.samples_dir = c->samples_dir,
		.shares = c->shares,
		.diskcache = c->diskcache,
		/*
		 * A census builds each model once, and its models (14 MB each on
		 * Linux, 44 for every architecture) would push out of the cache's
		 * budget what the next rebase stop or CI job reads.
		 */
		.no_model_entries = c->opts->all,
		.explain_removals = c->opts->explain,
	};

	trees_cache_init(&c->trees, &env, c->parent ? &c->parent->trees : NULL);
}

static struct trees *commit_trees(struct checker *c, const git_oid *commit)
{
	return trees_cache_get(&c->trees, commit);
}

void checker_model_key(struct checker *c, const git_oid *commit, struct strbuf *key)
{
	struct strbuf all = STRBUF_INIT;
	struct strvec macro_defs = STRVEC_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid id, digest;
	double t = trees_stats_clock(c->opts->common.stats);

	if (trees_cache_digest(&c->trees, commit, &digest) < 0) {
		strbuf_addstr(key, "unknown");
		return;
	}
	trees_stats_report("build files", NULL, t);
	strbuf_addf(&all, "%s\n%s\n", suite_version, git_oid_tostr(hex, sizeof(hex), &digest));
	/* The commit's own macros: those its trees scan its files with. */
	trees_macro_defs(c->project_config, c->repo, commit, &macro_defs);
	for (size_t i = 0; i < macro_defs.nr; i++)
		strbuf_addf(&all, "macro %s\n", macro_defs.v[i]);
	strvec_clear(&macro_defs);
	if (c->opts->arch)
		strbuf_addf(&all, "arch %s\n", c->opts->arch);
	for (size_t i = 0; i < c->accept.nr; i++)
		strbuf_addf(&all, "accept %s\n", c->accept.v[i]);
	if (c->accept_file) {
		accept_file_id(c->repo, c->accept_file, commit, &id);
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
/* A file this checker reads: a source the build runs through cpp, a Kconfig file or a defconfig. */
static int checked_file(const struct trees *ts, const char *path)
{
	return path && (trees_is_source(ts, path) || kcheck_is_checked_path(path));
}

/*
 * The files a defconfig of U-Boot (whose build runs them through cpp)
 * includes at `commit`, into *inc: 1 (inc to release); 0 for every other
 * file, or a blob that cannot be read (analyze_blob says so).
 */
static int defconfig_includes(struct checker *c, const struct trees *ms, const git_oid *commit,
			      const char *path, const git_oid *blob_id,
			      struct defconfig_includes *inc)
{
	struct blob *blob;

	memset(inc, 0, sizeof(*inc));
	if (!trees_defconfig_cpp(ms) || trees_is_kconfig_path(path) ||
	    !trees_is_defconfig(path) || repo_read_blob(c->repo, blob_id, &blob) < 0)
		return 0;
	if (defconfig_has_include(blob->data, blob->size))
		defconfig_read_includes(c->repo, commit, trees_srctree(ms), path, blob->data,
					 blob->size, inc);
	blob_release(c->repo, blob);
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

/*
 * A C file of a side whose analysis is deferred (defer_begin): its step on
 * the primary architecture now, on this worker; the others' in
 * defer_resolve, when `l` is filled. Most files need no other.
 */
static void defer_file(struct checker *c, struct trees *ms, const char *path,
		       const struct blob *blob, const struct analyze_options *aopt,
		       struct defect_list *l)
{
	struct checker *rc = c->results_of ? c->results_of : c;
	struct cpp_file *f = analyze_scan(&ms->tm, path, blob->data, blob->size);
	struct analysis *an = analyze_begin(&ms->tm, path, f, aopt, l, &c->input_errors);

	if (analyze_next(an) == ms->tm.primary)
		analyze_step(an);
	if (analyze_next(an) == ANALYZE_DONE) {
		analyze_finish(an);
		cpp_file_free(f);
		return;
	}
	pthread_mutex_lock(&rc->results_lock);
	ALLOC_GROW(rc->deferred, rc->nr_deferred + 1, rc->alloc_deferred);
	memset(&rc->deferred[rc->nr_deferred], 0, sizeof(*rc->deferred));
	rc->deferred[rc->nr_deferred].an = an;
	rc->deferred[rc->nr_deferred++].f = f;
	pthread_mutex_unlock(&rc->results_lock);
}

/* A Kconfig file or defconfig of a side, the same way (kcheck_begin). */
static void defer_kcheck(struct checker *c, struct trees *ms, const char *path,
			 const struct blob *blob, const struct kcheck_options *kopt,
			 struct defect_list *l)
{
	struct checker *rc = c->results_of ? c->results_of : c;
	struct kcheck_run *kr = kcheck_begin(&ms->tm, path, blob->data, blob->size, kopt, l);

	if (kcheck_next(kr) == ms->tm.primary)
		kcheck_step(kr);
	if (kcheck_next(kr) == KCHECK_DONE) {
		kcheck_finish(kr);
		return;
	}
	pthread_mutex_lock(&rc->results_lock);
	ALLOC_GROW(rc->deferred, rc->nr_deferred + 1, rc->alloc_deferred);
	memset(&rc->deferred[rc->nr_deferred], 0, sizeof(*rc->deferred));
	rc->deferred[rc->nr_deferred++].kr = kr;
	pthread_mutex_unlock(&rc->results_lock);
}

static void defer_begin(struct checker *c)
{
	c->deferring = 1;
}

/*
 * The deferred files' other architectures, model by model (the primary
 * one first, then by index, as each file's scope goes): model `a` is
 * built, asked by every file that needs it and freed before the next, so
 * that one model of the side besides the primary one is alive at a time
 * instead of one per architecture. Then their defects. No worker runs.
 */
typedef void (*defer_model_fn)(struct checker *c, size_t a, void *data);

struct prefetch {
	struct trees *owner;
	size_t a;
};

/* The model a of shared trees built beside the caller (parallel_start), and its Kbuild map. */
static void prefetch_model(size_t j, void *data)
{
	struct prefetch *p = data;
	struct tree_models *tm = &p->owner->tm;

	tm->hold(tm->data, p->a);
	if (trees_model(p->owner, p->a))
		trees_kbuild(p->owner, p->a);
	tm->release(tm->data, p->a);
}

/* The model of defer_resolve's g-th step: the primary one first, then by index. */
static size_t step_model(size_t g, size_t primary)
{
	return !g ? primary : g - 1 < primary ? g - 1 : g;
}

static void defer_resolve_with(struct checker *c, struct trees *owner, defer_model_fn own,
			       void *data)
{
	size_t n = trees_nr_models(owner), primary = owner->tm.primary;
	int left = 1;
	/*
	 * With a hook every model is asked (its architecture's own files): the
	 * next one is built on another thread meanwhile, when they are shared.
	 */
	int ahead = own && owner->tm.hold && c->opts->common.jobs > 1;

	c->deferring = 0;
	while (left && !process_interrupted()) {
		left = 0;
		for (size_t g = 0; g < n && !process_interrupted(); g++) {
			size_t a = step_model(g, primary);
			struct prefetch pf = { owner, g + 1 < n ? step_model(g + 1, primary) : n };
			struct parallel_task *task = ahead && pf.a < n ?
				parallel_start(prefetch_model, &pf) : NULL;

			for (size_t p = 0; p < c->nr_deferred; p++) {
				struct deferred_file *df = &c->deferred[p];

				if (deferred_next(df) != a)
					continue;
				if (df->kr)
					kcheck_step(df->kr);
				else
					analyze_step(df->an);
			}
			if (own)
				own(c, a, data);
			parallel_join(task);
			trees_release_model(owner, a);
		}
		own = NULL;
		ahead = 0;
		for (size_t p = 0; p < c->nr_deferred; p++)
			left |= deferred_next(&c->deferred[p]) != ANALYZE_DONE;
	}
	for (size_t p = 0; p < c->nr_deferred; p++) {
		struct deferred_file *df = &c->deferred[p];

		if (df->kr)
			process_interrupted() ? kcheck_abandon(df->kr) : kcheck_finish(df->kr);
		else
			process_interrupted() ? analyze_abandon(df->an) : analyze_finish(df->an);
		cpp_file_free(df->f);
	}
	free(c->deferred);
	c->deferred = NULL;
	c->nr_deferred = c->alloc_deferred = 0;
}

static void defer_resolve(struct checker *c, struct trees *owner)
{
	defer_resolve_with(c, owner, NULL, NULL);
}

/*
 * Appends the defects of one blob under one model set to `l`; `includes`:
 * a U-Boot defconfig's (defconfig_includes), else NULL.
 */
static void analyze_blob(struct checker *c, struct trees *ms, const char *path,
			 const git_oid *blob_id, const struct defconfig_includes *includes,
			 struct defect_list *l)
{
	struct analyze_options aopt = { .explain = c->opts->explain,
					 .quiet_unbuilt = c->opts->all && !c->opts->verbose };
	struct blob *blob;

	if (trees_not_checked(ms, path))
		return;
	if (repo_read_blob(c->repo, blob_id, &blob) < 0) {
		char hex[GIT_OID_HEXSZ + 1];

		error("%s: cannot read blob %s", path, git_oid_tostr(hex, sizeof(hex), blob_id));
		return;
	}
	if (kcheck_is_checked_path(path)) {
		struct kcheck_options kopt = { .explain = c->opts->explain, .includes = includes };

		for (size_t i = 0; includes && i < includes->errors.nr; i++)
			error("%s", includes->errors.v[i]);
		if ((c->results_of ? c->results_of : c)->deferring)
			defer_kcheck(c, ms, path, blob, &kopt, l);
		else
			kcheck_file(&ms->tm, path, blob->data, blob->size, &kopt, l);
	} else if ((c->results_of ? c->results_of : c)->deferring) {
		defer_file(c, ms, path, blob, &aopt, l);
	} else {
		analyze_file(&ms->tm, path, blob->data, blob->size, &aopt, l, &c->input_errors);
	}
	blob_release(c->repo, blob);
}

/*
 * The defects of one blob at `commit` under one model set (cached: each
 * version is analysed once).
 */
static const struct defect_list *blob_defects(struct checker *c, struct trees *ms,
					      const git_oid *commit, const char *path,
					      const git_oid *blob_id)
{
	char bhex[GIT_OID_HEXSZ + 1], dhex[GIT_OID_HEXSZ + 1];
	struct strbuf key = STRBUF_INIT;
	struct defect_list *l;
	struct checker *rc = c->results_of ? c->results_of : c;
	const struct defect_list *found;
	struct defconfig_includes inc;
	int has_inc;

	strbuf_addf(&key, "%s %s %s", git_oid_tostr(bhex, sizeof(bhex), blob_id),
		    git_oid_tostr(dhex, sizeof(dhex), &ms->digest), path);
	has_inc = defconfig_includes(c, ms, commit, path, blob_id, &inc);
	includes_key(&inc, &key);
	pthread_mutex_lock(&rc->results_lock);
	found = strmap_get(&rc->results, key.buf);
	pthread_mutex_unlock(&rc->results_lock);
	if (found) {
		defconfig_includes_release(c->repo, &inc);
		strbuf_release(&key);
		return found;
	}
	l = xcalloc(1, sizeof(*l));
	analyze_blob(c, ms, path, blob_id, has_inc ? &inc : NULL, l);
	defconfig_includes_release(c->repo, &inc);
	pthread_mutex_lock(&rc->results_lock);
	/* Another worker may have analysed the same blob meanwhile: keep one. */
	found = strmap_get(&rc->results, key.buf);
	if (found)
		free_defect_list(l);
	else
		strmap_put(&rc->results, key.buf, l);
	pthread_mutex_unlock(&rc->results_lock);
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
static int changed_blocks_defects(struct checker *c, struct trees *ms, const char *path,
				  const git_oid *old_id, const git_oid *new_id,
				  struct defect_list *before, struct defect_list *after)
{
	struct analyze_options aopt = { .explain = c->opts->explain };
	struct strmap old_keys = STRMAP_INIT, new_keys = STRMAP_INIT, skip = STRMAP_INIT;
	struct strmap_entry *e;
	struct blob *ob, *nb;
	struct cpp_file *of, *nf;
	size_t dummy = 0;

	if (trees_not_checked(ms, path))
		return 0;

	if (repo_read_blob(c->repo, old_id, &ob) < 0)
		return -1;
	if (repo_read_blob(c->repo, new_id, &nb) < 0) {
		blob_release(c->repo, ob);
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
	analyze_scanned(&ms->tm, path, nf, &aopt, after, &c->input_errors);
	cpp_file_free(of);
	cpp_file_free(nf);
	blob_release(c->repo, ob);
	blob_release(c->repo, nb);
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
static const struct defect_list *item_before(struct checker *c, const struct commit_work *cw,
					     struct trees *ps, const struct commit_item *it)
{
	const struct file_change *fc = it->fc;

	if (!ps)
		return NULL;
	if (!fc)
		return blob_defects(c, ps, cw->parent, it->path, &it->blob);
	if (fc->status != 'A' && checked_file(ps, fc->old_path))
		return blob_defects(c, ps, cw->parent, fc->old_path, &fc->old_blob);
	return NULL;
}

/*
 * The commit's defects of an item as check_item() asks them, computed
 * ahead (the commit's side on its own): they wait in the results.
 */
static void item_after(struct checker *c, const struct commit_work *cw, struct trees *ms,
		       const struct commit_item *it)
{
	const struct file_change *fc = it->fc;

	if (!fc)
		blob_defects(c, ms, cw->commit, it->path, &it->blob);
	else if (fc->status != 'D' && checked_file(ms, fc->new_path))
		blob_defects(c, ms, cw->commit, fc->new_path, &fc->new_blob);
}

static void check_item(struct checker *c, const struct commit_work *cw, struct trees *ps,
		       struct trees *ms, struct commit_item *it)
{
	struct defect_list before = { 0 }, after = { 0 };
	const struct file_change *fc = it->fc;

	if (!fc) {
		if (ps)
			copy_list(&before, item_before(c, cw, ps, it), NULL);
		copy_list(&after, blob_defects(c, ms, cw->commit, it->path, &it->blob), NULL);
	} else {
		const char *path = fc->new_path ? fc->new_path : fc->old_path;

		if (fc->status == 'M' && ps && git_oid_equal(&ps->digest, &ms->digest) &&
		    !c->opts->show_all && trees_is_source(ms, path) &&
		    !changed_blocks_defects(c, ms, path, &fc->old_blob, &fc->new_blob,
					    &before, &after))
			;	/* only the blocks that differ */
		else {
			const struct defect_list *was = item_before(c, cw, ps, it);

			if (was)
				copy_list(&before, was, path);
			if (fc->status != 'D' && checked_file(ms, fc->new_path))
				copy_list(&after, blob_defects(c, ms, cw->commit, fc->new_path,
							       &fc->new_blob), path);
		}
	}
	defect_match(&before, &after);
	defect_list_take(&it->out, &after);
	defect_list_clear(&before);
}

static struct checker *checker_worker(struct checker *parent);

/*
 * The worker pool of a range and of the census: the checker itself and n - 1
 * checkers of its own (checker_worker), kept from one commit to the next so
 * that their models stay built, and sharing its results.
 */
static void ensure_workers(struct checker *c, size_t n)
{
	while (c->nr_workers + 1 < n) {
		struct checker *wc = checker_worker(c);

		wc->results_of = c;
		c->workers = xrealloc(c->workers, (c->nr_workers + 1) * sizeof(*c->workers));
		c->workers[c->nr_workers++] = wc;
	}
}

/* The checker of worker j (0: the checker itself), once ensure_workers(c, > j). */
static struct checker *worker_checker(struct checker *c, size_t j)
{
	return j ? c->workers[j - 1] : c;
}

typedef void (*worker_fn)(struct checker *wc, size_t j, void *data);

/* A run of the workers on the engine (parallel.h). */
struct worker_run {
	struct checker *c;
	worker_fn fn;
	void *data;
};

static void worker_main(size_t j, void *arg)
{
	struct worker_run *w = arg;

	w->fn(worker_checker(w->c, j), j, w->data);
}

/*
 * Runs fn(worker j's checker, j, data) for j < n on n threads, this one
 * being worker 0, and waits for them all (parallel_run: a worker whose
 * thread cannot start runs here, after worker 0, and finds the work done).
 */
static void run_workers(struct checker *c, size_t n, worker_fn fn, void *data)
{
	struct worker_run w = { c, fn, data };

	ensure_workers(c, n);
	parallel_run(n, worker_main, &w);
	for (size_t j = 1; j < n; j++) {
		struct checker *wc = worker_checker(c, j);

		c->input_errors += wc->input_errors;
		wc->input_errors = 0;
	}
}

/* An item of a side's pass (side_items): its defects on that side, waiting in the results. */
static void side_item(struct checker *c, const struct commit_work *cw, struct trees *ps,
		      struct trees *ms, const struct commit_item *it)
{
	if (cw->phase == PHASE_BEFORE)
		item_before(c, cw, ps, it);
	else
		item_after(c, cw, ms, it);
}

static void commit_run(struct checker *wc, size_t j, void *data)
{
	struct commit_work *cw = data;
	/* The parent's set first, as checker_check_commit does: ms is then the newest. */
	struct trees *ps = cw->parent ? commit_trees(wc, cw->parent) : NULL;
	struct trees *ms = commit_trees(wc, cw->commit);

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
	struct trees *ps = cw->parent ? commit_trees(c, cw->parent) : NULL;
	struct trees *ms = commit_trees(c, cw->commit);

	ensure_workers(c, jobs);
	if (on) {
		if (ps)
			trees_share(ps);
		if (ms)
			trees_share(ms);
	}
	for (size_t j = 1; j < jobs; j++) {
		struct checker *wc = worker_checker(c, j);
		struct trees *wps = ps ? commit_trees(wc, cw->parent) : NULL;
		struct trees *wms = ms ? commit_trees(wc, cw->commit) : NULL;

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
 * files that still ask them (defer_resolve: each model and Kbuild map freed
 * once every file has asked it), then every model but the primary one is
 * freed. Asked file by file, every architecture's model was alive at once
 * (v6.1..v6.12 -- kernel/: 3.21 GB).
 */
static void side_items(struct checker *c, struct commit_work *cw, size_t jobs, struct trees *t,
		       int phase)
{
	struct trees *ps = cw->parent ? commit_trees(c, cw->parent) : NULL;
	struct trees *ms = commit_trees(c, cw->commit);

	cw->phase = phase;
	defer_begin(c);
	if (jobs > 1) {
		/* Each pass over the items its own queue. */
		parallel_queue_init(&cw->queue, cw->nr);
		run_workers(c, jobs, commit_run, cw);
		parallel_queue_release(&cw->queue);
	} else {
		for (size_t i = 0; i < cw->nr && !process_interrupted(); i++)
			side_item(c, cw, ps, ms, &cw->items[i]);
	}
	defer_resolve(c, t);
	trees_release_others(t);
	cw->phase = PHASE_CHECK;
}

static void check_items_serial(struct checker *c, struct commit_work *cw)
{
	struct trees *ps = cw->parent ? commit_trees(c, cw->parent) : NULL;
	struct trees *ms = commit_trees(c, cw->commit);

	if (parent_first(ps, ms)) {
		side_items(c, cw, 1, ps, PHASE_BEFORE);
		side_items(c, cw, 1, ms, PHASE_AFTER);
	}
	for (size_t i = 0; i < cw->nr && !process_interrupted(); i++) {
		check_item(c, cw, ps, ms, &cw->items[i]);
		progress_add(cw->progress, 1);
	}
}

static void check_items(struct checker *c, struct commit_work *cw)
{
	size_t jobs = c->opts->common.jobs > 1 ? (size_t)c->opts->common.jobs : 1;
	struct trees *ps, *ms;

	if (jobs > cw->nr / (PARALLEL_MIN_FILES / 2))
		jobs = cw->nr / (PARALLEL_MIN_FILES / 2);
	if (jobs < 2 || cw->nr < PARALLEL_MIN_FILES) {
		check_items_serial(c, cw);
		return;
	}
	share_trees(c, cw, jobs, 1);
	ps = cw->parent ? commit_trees(c, cw->parent) : NULL;
	ms = commit_trees(c, cw->commit);
	if (parent_first(ps, ms)) {
		side_items(c, cw, jobs, ps, PHASE_BEFORE);
		side_items(c, cw, jobs, ms, PHASE_AFTER);
	}
	parallel_queue_init(&cw->queue, cw->nr);
	run_workers(c, jobs, commit_run, cw);
	share_trees(c, cw, jobs, 0);
	parallel_queue_release(&cw->queue);
}

/*
 * At a merge, the defects of `out` (found against the first parent) that
 * another parent already has were reported at the commit that brought them
 * in: unchanged. Those the first parent had and the merge lost that another
 * parent lacks were fixed on that side: not the merge's.
 */
static int other_parents(struct checker *c, const git_oid *parents, size_t nr_parents,
			 struct defect_list *out)
{
	for (size_t p = 1; p < nr_parents; p++) {
		struct trees *ps = commit_trees(c, &parents[p]);
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
					if (!repo_path_oid(c->repo, &parents[p], path, &blob) &&
					    checked_file(ps, path))
						theirs = blob_defects(c, ps, &parents[p], path,
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

/*
 * The defconfigs that include a defconfig the commit changed, or one a
 * Kconfig change affects (among apaths), through any number of files:
 * what they read changed, so they are checked again (appended to cw's
 * items, their paths and blobs kept in apaths and ablobs).
 */
static void add_includers(struct checker *c, struct trees *ms, const git_oid *commit,
			  const struct change_list *changes, struct strmap *checked,
			  struct strvec *apaths, struct strvec *ablobs, struct commit_work *cw,
			  size_t *alloc)
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
	for (size_t i = 0; i < apaths->nr; i++)
		if (trees_is_defconfig(apaths->v[i]))
			strvec_push(&files, apaths->v[i]);
	if (files.nr)
		defconfig_includers(c->repo, commit, trees_srctree(ms), &files, &paths, &blobs);
	for (size_t i = 0; i < paths.nr; i++) {
		if (strmap_get(checked, paths.v[i]) || !pathspec_match(&c->opts->pathspec, paths.v[i]))
			continue;
		strmap_put(checked, paths.v[i], (void *)1);
		strvec_push(apaths, paths.v[i]);
		strvec_push(ablobs, blobs.v[i]);
		ALLOC_GROW(cw->items, cw->nr + 1, *alloc);
		memset(&cw->items[cw->nr], 0, sizeof(*cw->items));
		cw->items[cw->nr].path = apaths->v[apaths->nr - 1];
		git_oid_fromstr(&cw->items[cw->nr++].blob, blobs.v[i]);
	}
	strvec_clear(&files);
	strvec_clear(&paths);
	strvec_clear(&blobs);
}

int checker_check_commit(struct checker *c, const git_oid *commit, struct defect_list *out)
{
	struct change_list changes = { 0 };
	struct trees *ms, *ps = NULL;
	struct commit_list parents = { 0 };
	git_oid parent;
	int has_parent, recorded;
	struct strmap checked = STRMAP_INIT;
	struct strvec apaths = STRVEC_INIT, ablobs = STRVEC_INIT;
	struct commit_work cw = { .commit = commit };
	size_t alloc = 0;
	int ret;

	recorded = repo_commit_parents(c->repo, commit, &parents);
	if (recorded < 0)
		return -1;
	if (!parents.nr && recorded)
		warning("%s: at the shallow boundary of this clone (its parent is not here): "
			"checked as a root commit", oid_short(c->repo, commit));
	has_parent = parents.nr > 0;
	if (has_parent)
		parent = parents.oid[0];

	if (repo_diff_first_parent(c->repo, commit, &c->opts->pathspec, 0, &changes) < 0) {
		commit_list_clear(&parents);
		return -1;
	}
	if (has_parent) {
		ps = commit_trees(c, &parent);
		if (!ps)
			goto fail;
		cw.parent = &parent;
	}
	ms = commit_trees(c, commit);
	if (!ms)
		goto fail;

	for (size_t i = 0; i < changes.nr; i++) {
		const struct file_change *fc = &changes.files[i];

		if (!checked_file(ms, fc->new_path) && !checked_file(ps ? ps : ms, fc->old_path))
			continue;
		ALLOC_GROW(cw.items, cw.nr + 1, alloc);
		memset(&cw.items[cw.nr], 0, sizeof(*cw.items));
		cw.items[cw.nr++].fc = fc;
		strmap_put(&checked, fc->new_path ? fc->new_path : fc->old_path, (void *)1);
	}
	if (!ps || !git_oid_equal(&ps->digest, &ms->digest)) {
		trees_affected_files(ps, ms, commit, &c->opts->pathspec, &checked, &apaths, &ablobs);
		for (size_t i = 0; i < apaths.nr; i++) {
			ALLOC_GROW(cw.items, cw.nr + 1, alloc);
			memset(&cw.items[cw.nr], 0, sizeof(*cw.items));
			cw.items[cw.nr].path = apaths.v[i];
			git_oid_fromstr(&cw.items[cw.nr++].blob, ablobs.v[i]);
		}
	}
	if (trees_defconfig_cpp(ms))
		add_includers(c, ms, commit, &changes, &checked, &apaths, &ablobs, &cw, &alloc);
	/* A big commit (a merge of a release) takes minutes: say how far it is. */
	if (c->file_progress && cw.nr >= 100)
		cw.progress = progress_start("Checking files", cw.nr);
	check_items(c, &cw);
	progress_stop(&cw.progress);
	/* In item order, whichever worker took each: the output is the same for any -j. */
	for (size_t i = 0; i < cw.nr; i++)
		defect_list_take(out, &cw.items[i].out);
	defect_list_sort(out);
	free(cw.items);
	strvec_clear(&apaths);
	strvec_clear(&ablobs);
	strmap_clear(&checked, NULL);
	change_list_clear(&changes);
	ret = other_parents(c, parents.oid, parents.nr, out);
	if (!ret)
		ret = accept_commit(c, commit, out);
	if (!ret)
		explain_removals(c, commit, out);
	commit_list_clear(&parents);
	return ret;
fail:
	change_list_clear(&changes);
	commit_list_clear(&parents);
	return -1;
}

/* Turns the new defects that undertaker.accept, its file or a trailer names into accepted ones. */
static int accept_commit(struct checker *c, const git_oid *commit, struct defect_list *out)
{
	struct strvec patterns = STRVEC_INIT;
	int ret;

	for (size_t i = 0; i < c->accept.nr; i++)
		strvec_push(&patterns, c->accept.v[i]);
	if (c->accept_file)
		accept_file_read(c->repo, c->accept_file, commit, &patterns);
	ret = accept_defects(c->repo, commit, &patterns, out);
	strvec_clear(&patterns);
	return ret;
}

/* A worker of the pool: its own models and solvers, the parent's tree data. */
static struct checker *checker_worker(struct checker *parent)
{
	struct checker *c = xcalloc(1, sizeof(*c));

	c->parent = parent;
	c->repo = parent->repo;
	c->opts = parent->opts;
	c->diskcache = parent->diskcache;
	c->project_config = parent->project_config;
	c->host_arch = xstrdup(parent->host_arch);
	c->samples_dir = xstrdup(parent->samples_dir);
	c->shares = parent->shares;
	pthread_mutex_init(&c->results_lock, NULL);
	init_trees(c);
	return c;
}

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

struct census {
	struct checker *checker;
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

	const struct undertaker_options *o = cs->checker->opts;

	if (!checked_file(cs->trees, f->path) || !pathspec_match(&o->pathspec, f->path))
		return 0;
	/* A file's shard: its path's hash, the same on every machine and run. */
	if (o->shard_n && strhash(f->path, strlen(f->path)) % o->shard_n != o->shard_k - 1)
		return 0;
	strvec_push(&cs->paths, f->path);
	ALLOC_GROW(cs->blobs, cs->nr + 1, cs->alloc);
	cs->blobs[cs->nr++] = *f->blob;
	return 0;
}

/* File i of the census, by checker wc on trees ms, its defects to `out`. */
static void census_file(struct checker *wc, struct census *cs, struct trees *ms, size_t i,
			struct defect_list *out)
{
	struct defconfig_includes inc;
	int has_inc;

	/* The census sees each blob once: nothing kept (blob_defects) but its defects. */
	has_inc = defconfig_includes(wc, ms, &cs->commit, cs->paths.v[i], &cs->blobs[i], &inc);
	analyze_blob(wc, ms, cs->paths.v[i], &cs->blobs[i], has_inc ? &inc : NULL, out);
	defconfig_includes_release(wc->repo, &inc);
	progress_add(cs->progress, 1);
}

static void census_run(struct checker *wc, size_t j, void *data)
{
	struct census *cs = data;
	struct census_worker *w = &cs->workers[j];
	struct trees *ms = commit_trees(wc, &cs->commit);

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
 * architecture a's own directories, on the root checker, while its model is
 * alive (defer_resolve_with's hook; the next one may be being built beside).
 */
static void census_arch_files(struct checker *c, size_t a, void *data)
{
	struct census *cs = data;
	struct trees *ms = commit_trees(c, &cs->commit);

	for (size_t k = 0; k < cs->nr_spans && !process_interrupted(); k++) {
		struct census_span *r = &cs->spans[k];

		if (!r->claim || r->arch != (int)a)
			continue;
		while (r->next < r->end && !process_interrupted())
			census_file(c, cs, ms, r->next++, &cs->workers[0].out);
	}
}

/* The blob cache's budget in a census: see checker_census(). */
#define CENSUS_BLOB_CACHE ((size_t)8 << 20)

int checker_census(struct checker *c, const git_oid *commit, struct defect_list *out)
{
	struct census cs = { .checker = c, .commit = *commit };
	size_t jobs = c->opts->common.jobs > 0 ? (size_t)c->opts->common.jobs : 1;
	struct trees *ms = commit_trees(c, commit);

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
	repo_set_cache_limit(c->repo, CENSUS_BLOB_CACHE);
	repo_for_each_file(c->repo, commit, "", census_list, &cs);
	census_spans(&cs, ms);
	if (jobs > cs.nr)
		jobs = cs.nr ? cs.nr : 1;
	parallel_queue_init(&cs.queue, cs.nr);
	if (!c->opts->common.quiet)
		cs.progress = progress_start("Checking files", cs.nr);
	cs.workers = xcalloc(jobs, sizeof(*cs.workers));
	ensure_workers(c, jobs);
	/*
	 * One model per architecture for all workers, built by whichever needs
	 * it first: on every architecture, a model per worker took twice the memory.
	 */
	if (jobs > 1)
		trees_share(ms);
	for (size_t j = 0; j < jobs; j++) {
		struct trees *wt = j ? commit_trees(worker_checker(c, j), commit) : NULL;

		if (wt)
			trees_borrow(wt, ms);
		cs.workers[j].census = &cs;
		cs.workers[j].span = cs.nr_spans;
	}
	/*
	 * On every architecture, each model (40-60 MB on Linux) stayed alive
	 * until the end: 2.96 GB for Linux 6.1. The workers take the files
	 * outside the architectures' own directories on the primary model and
	 * defer the files that ask others; then the other models are built one
	 * at a time, asked by the deferred files and by their architecture's
	 * own files, and freed.
	 */
	cs.arch_major = !c->opts->arch && trees_nr_models(ms) > 1;
	if (cs.arch_major)
		defer_begin(c);
	run_workers(c, jobs, census_run, &cs);
	if (cs.arch_major)
		defer_resolve_with(c, ms, census_arch_files, &cs);
	for (size_t j = 0; j < jobs; j++)
		defect_list_take(out, &cs.workers[j].out);
	progress_stop(&cs.progress);
	parallel_queue_release(&cs.queue);
	free(cs.workers);
	strvec_clear(&cs.paths);
	free(cs.blobs);
	free(cs.spans);
	defect_list_sort(out);
	explain_removals(c, commit, out);
	return 0;
}

int checker_dump_model(struct checker *c, const git_oid *commit, const char *what)
{
	int files = !strcmp(what, "files");
	/* A model alone needs no scan of every build file; those trees are ours to free. */
	struct trees *t = files ? commit_trees(c, commit) : trees_new(&c->trees.env, commit, NULL);
	int ret = t ? trees_dump(t, c->opts->arch ? c->opts->arch : c->host_arch, what, stdout) : -1;

	if (!files)
		trees_free(t);
	return ret;
}
