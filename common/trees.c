// SPDX-License-Identifier: GPL-2.0
#include "trees.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "diskcache.h"
#include "kconfig-git.h"
#include "model.h"
#include "options.h"
#include "pc.h"
#include "parallel.h"
#include "process.h"

/*
 * Witnesses kept by the model's solver: Linux queries are mostly satisfiable,
 * and diverse assignments (found with random phases) answer most of them
 * without a solve. On kernel/ mm/ for x86, 64 found false-first left 646 of
 * 966 solver calls to satisfiable questions; 256 random-phase ones leave 53
 * of 231. They are kept bit-sliced (sat.h), so a question costs about the
 * same in 1024 as in 64. UNDERTAKER_POOL=<n> sets how many (0: none, every
 * question is solved; for tests and measurements).
 */
#define MODEL_WITNESSES 1024

static size_t model_witnesses(const struct trees *t)
{
	if (t->env.witnesses < 0)
		return 0;
	return t->env.witnesses ? (size_t)t->env.witnesses : MODEL_WITNESSES;
}

double trees_stats_clock(int stats)
{
	struct timespec ts;

	if (!stats)
		return 0;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The process's resident memory in MB (all threads), from /proc; 0 where unknown. */
static long resident_mb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long size = 0, resident = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%ld %ld", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return resident * (sysconf(_SC_PAGESIZE) / 1024) / 1024;
}

void trees_stats_report(const char *what, const char *arch, double start)
{
	if (start)
		fprintf(stderr, "%s%s%s: %.3f s, %ld MB resident\n", what, arch ? " " : "",
			arch ? arch : "", trees_stats_clock(1) - start, resident_mb());
}

size_t trees_nr_models(const struct trees *t)
{
	return t->arches.nr ? t->arches.nr : 1;
}

static void print_stats(struct arch_model *am, int stats)
{
	if (am->sat && !am->stats_printed && stats) {
		struct sat_stats st;

		sat_get_stats(am->sat, &st);
		fprintf(stderr, "%s: %zu solver calls, %zu answered by samples, "
			"%zu questions, %zu cached, %zu unsatisfiable; solving %.3f s "
			"satisfiable, %.3f s unsatisfiable; %zu constant; %zu samples, "
			"%zu taken from other workers; %zu waits for another worker, %.3f s; "
			"%zu refuted by propagation alone\n",
			am->arch ? am->arch : "model", st.calls, st.witnessed,
			st.queries, st.cached, st.unsat, st.sat_seconds, st.unsat_seconds,
			am->constant, st.pool, st.shared, am->waits, am->wait_seconds,
			st.unit_refuted);
	}
	am->stats_printed = 1;
}

static void arch_model_release(struct arch_model *am, const struct trees_env *env)
{
	print_stats(am, env->stats);
	if (am->samples_path)
		sat_save_witnesses(am->sat, am->samples_path, am->base_vars);
	logic_restrict_free(am->missing_off);
	if (am->code_sat)
		sat_free(am->code_sat);
	if (am->model)
		model_free(am->model);
	/* After the model's solver, which used it. */
	if (am->in_share)
		sat_shares_put(env->shares, am->samples_path);
	free(am->samples_path);
	if (am->kconfig)
		kconfig_free(am->kconfig);
}

static void shared_kbuild_put(struct trees *t, struct kbuild_map *m);

void trees_free(struct trees *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < trees_nr_models(t); i++) {
		arch_model_release(&t->models[i], &t->env);
		shared_kbuild_put(t, t->kbuild[i]);
	}
	if (t->locks) {
		for (size_t i = 0; i <= trees_nr_models(t); i++)
			pthread_mutex_destroy(&t->locks[i]);
		free(t->locks);
	}
	free(t->kbuild);
	free(t->kbuild_built);
	free(t->models);
	free(t->built);
	strvec_clear(&t->arches);
	strvec_clear(&t->arch_dirs);
	strvec_clear(&t->foreign);
	free(t->arch_prefix);
	project_release(&t->project);
	strvec_clear(&t->macro_defs);
	cpp_macros_free(t->macros);
	strmap_clear(&t->build_defined, free);
	trees_sources_free(t->sources);
	free(t->files_digest);
	buildfiles_free(t->own_buildfiles);
	free(t);
}

void trees_save(struct trees *t)
{
	for (size_t k = 0; t && k < trees_nr_models(t); k++) {
		struct arch_model *am = &t->models[k];

		if (am->samples_path && am->sat)
			sat_save_witnesses(am->sat, am->samples_path, am->base_vars);
		print_stats(am, t->env.stats);
	}
}

/*
 * Where the solver's satisfying assignments for one model are kept between
 * runs: <samples_dir>/<key>, the key naming the tool's version, the build
 * files and the architecture.
 */
static char *samples_path(struct trees *t, const char *arch)
{
	struct strbuf key = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid id;
	char *path;

	strbuf_addf(&key, "samples\n%s\n%s\n%s\n", suite_version,
		    git_oid_tostr(hex, sizeof(hex), &t->digest), arch ? arch : "");
	repo_hash_blob(key.buf, key.len, &id);
	path = xstrfmt("%s/%s", t->env.samples_dir, git_oid_tostr(hex, sizeof(hex), &id));
	strbuf_release(&key);
	return path;
}

/*
 * The disk cache's key of architecture `am`'s model: everything its parse
 * read (each Kconfig file by blob id, the absent ones) and the arguments of
 * the parse and of the build. NULL when a file read has no id.
 */
static char *model_key(const struct trees *t, const struct arch_model *am)
{
	const struct strbuf *in = &am->kconfig->inputs;
	const char *const *so = project_string_options(&t->project);
	struct strbuf sb = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid id;

	if (!in->len || !strncmp(in->buf, "? ", 2) || strstr(in->buf, "\n? "))
		return NULL;
	strbuf_addf(&sb, "model\n%d\n%s\n%s\n%s\n", (int)t->project.kind, t->project.srctree,
		    t->project.top ? t->project.top : "", am->arch ? am->arch : "");
	for (size_t i = 0; i < t->project.env.nr; i++)
		strbuf_addf(&sb, "env %s\n", t->project.env.v[i]);
	for (; so && *so; so++)
		strbuf_addf(&sb, "string %s\n", *so);
	strbuf_add(&sb, in->buf, in->len);
	repo_hash_blob(sb.buf, sb.len, &id);
	strbuf_release(&sb);
	return xstrdup(git_oid_tostr(hex, sizeof(hex), &id));
}

/* Architecture `am`'s model from the disk cache, or built (and kept there). */
static struct model *model_of(struct trees *t, struct arch_model *am)
{
	struct diskcache *dc = t->env.project_config && t->env.project_config->cache_models ?
			       t->env.diskcache : NULL;
	char *key = dc ? model_key(t, am) : NULL;
	struct strbuf sb = STRBUF_INIT;
	struct model *m = NULL;

	if (key && diskcache_read(dc, "model", key, &sb) > 0) {
		m = model_load(am->kconfig, &sb);
		if (!m)
			warning("the cache entry of a model (%s) does not fit its Kconfig "
				"files: building it again", key);
	}
	if (!m) {
		m = model_build_strings(am->kconfig, project_string_options(&t->project));
		if (key && !t->env.no_model_entries && !process_interrupted()) {
			strbuf_reset(&sb);
			model_save(m, &sb);
			diskcache_write(dc, "model", key, sb.buf, sb.len);
		}
	} else {
		am->from_cache = 1;
	}
	strbuf_release(&sb);
	free(key);
	return m;
}

int trees_model_built(const struct trees *t, size_t i)
{
	return t->built[i];
}

struct arch_model *trees_model(struct trees *t, size_t i)
{
	struct arch_model *am = &t->models[i];
	struct kconfig_options kopts = { .cache = t->env.kconfig_cache };
	double start;

	/* Borrowed: the owner's, under hold(i). */
	if (t->owner && i != t->tm.primary)
		return trees_model(t->owner, i);
	if (t->built[i])
		return am->model ? am : NULL;
	/* Interrupted: the run ends, and an answer without this model is thrown away. */
	if (process_interrupted())
		return NULL;
	t->built[i] = 1;
	am->arch = t->arches.nr ? t->arches.v[i] : NULL;
	/* No Kconfig tree at all (said once, by trees_new()): no model, quietly. */
	if (t->project.kind == PROJECT_NONE)
		return NULL;
	start = trees_stats_clock(t->env.stats);
	am->kconfig = project_kconfig_parse(&t->project, t->env.repo, &t->commit, am->arch, &kopts);
	trees_stats_report("kconfig parse", am->arch, start);
	start = trees_stats_clock(t->env.stats);
	if (!am->kconfig) {
		error("cannot read the top Kconfig file%s%s", am->arch ? " for " : "",
		      am->arch ? am->arch : "");
		return NULL;
	}
	am->model = model_of(t, am);
	am->logic = model_logic(am->model);
	am->sat = model_sat(am->model);
	am->code_sat = sat_new(am->logic);
	am->base_vars = logic_nr_vars(am->logic);
	sat_set_witnesses(am->sat, model_witnesses(t));
	sat_set_random_phase(am->sat);
	trees_stats_report(am->from_cache ? "model read (disk cache)" : "model build", am->arch,
			   start);
	if (t->bf && t->env.samples_dir) {
		am->samples_path = samples_path(t, am->arch);
		sat_load_witnesses(am->sat, am->samples_path, am->base_vars);
		if (t->env.shares) {
			struct sat_share *sh = sat_shares_get(t->env.shares, am->samples_path,
							      am->base_vars, model_witnesses(t));

			am->in_share = 1;
			if (sh)
				sat_join_share(am->sat, sh);
		}
	}
	return am;
}

static struct arch_model *get_model(void *data, size_t i)
{
	return trees_model(data, i);
}

/*
 * The digest of the tree's file list, which a Kbuild map depends on beside
 * the Makefiles: kept in the disk cache by root tree ("paths" entries).
 */
static const char *files_digest(struct trees *t)
{
	struct diskcache *dc = t->env.diskcache;
	struct strbuf sb = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1], *key = NULL;
	git_commit *c;

	if (t->files_digest)
		return t->files_digest;
	if (!repo_lookup_commit(t->env.repo, repo_git(t->env.repo), &t->commit, &c)) {
		key = xstrfmt("%s %s", git_oid_tostr(hex, sizeof(hex), git_commit_tree_id(c)),
			      t->project.srctree);
		git_commit_free(c);
	}
	if (key && diskcache_read(dc, "paths", key, &sb) > 0 && sb.len == GIT_OID_HEXSZ) {
		t->files_digest = strbuf_detach(&sb, NULL);
	} else if (!kbuild_repo_files_digest(t->env.repo, &t->commit, t->project.srctree, hex)) {
		t->files_digest = xstrdup(hex);
		if (key)
			diskcache_write(dc, "paths", key, hex, GIT_OID_HEXSZ);
	}
	strbuf_release(&sb);
	free(key);
	return t->files_digest;
}

/* Kbuild maps shared between the trees of one cache (trees_env.kbuilds). */
struct trees_kbuilds {
	pthread_mutex_t lock;
	struct kbuild_shared {
		struct kbuild_map *map;
		char *target;		/* srctree, arch, srcarch and the file list's digest */
		char *inputs;		/* every file its Makefiles read, with its blob id */
		size_t refs;
	} *v;
	size_t nr, alloc;
};

static char *target_key(struct trees *t, const struct kbuild_target *target)
{
	const char *files = files_digest(t);

	return files ? xstrfmt("%s %s %s %s", target->srctree, target->arch ? target->arch : "-",
			       target->srcarch ? target->srcarch : "-", files)
		     : NULL;
}

/* A map another trees of the cache holds, built from the very files `t`'s Makefiles read. */
static struct kbuild_map *shared_kbuild_get(struct trees *t, const char *target)
{
	struct trees_kbuilds *k = t->env.kbuilds;
	struct kbuild_map *m = NULL;

	if (!k || !target)
		return NULL;
	pthread_mutex_lock(&k->lock);
	for (size_t i = 0; i < k->nr && !m; i++)
		if (!strcmp(k->v[i].target, target) &&
		    kbuild_repo_inputs_same(t->env.repo, &t->commit, k->v[i].inputs, files_digest(t),
					    NULL)) {
			k->v[i].refs++;
			m = k->v[i].map;
		}
	pthread_mutex_unlock(&k->lock);
	return m;
}

static void shared_kbuild_add(struct trees *t, const char *target, struct kbuild_map *m,
			      const char *inputs)
{
	struct trees_kbuilds *k = t->env.kbuilds;

	/* No list of what it read (nothing would tell a map of other Makefiles): kept to itself. */
	if (!k || !target || !m || !inputs || !*inputs)
		return;
	pthread_mutex_lock(&k->lock);
	ALLOC_GROW(k->v, k->nr + 1, k->alloc);
	k->v[k->nr++] = (struct kbuild_shared){ m, xstrdup(target), xstrdup(inputs), 1 };
	pthread_mutex_unlock(&k->lock);
}

/* Lets go of a map: freed when no other trees holds it. */
static void shared_kbuild_put(struct trees *t, struct kbuild_map *m)
{
	struct trees_kbuilds *k = t->env.kbuilds;
	int shared = 0;

	if (!m)
		return;
	if (k) {
		pthread_mutex_lock(&k->lock);
		for (size_t i = 0; i < k->nr; i++) {
			if (k->v[i].map != m)
				continue;
			shared = 1;
			if (!--k->v[i].refs) {
				free(k->v[i].target);
				free(k->v[i].inputs);
				k->v[i] = k->v[--k->nr];
				shared = 0;
			}
			break;
		}
		pthread_mutex_unlock(&k->lock);
	}
	if (!shared)
		kbuild_map_free(m);
}

static char *kbuild_key(struct trees *t, const struct kbuild_target *target)
{
	char hex[GIT_OID_HEXSZ + 1];

	return xstrfmt("%s %s %s %s", git_oid_tostr(hex, sizeof(hex), &t->digest),
		       target->srctree, target->arch ? target->arch : "-",
		       target->srcarch ? target->srcarch : "-");
}

/*
 * A path the build files' digest covers (a Makefile of any of the names the
 * build files' walk takes, present or not): the key of a Kbuild map's entry
 * holds that digest, so such an input is the same without a look.
 */
static int build_file(const char *path)
{
	const char *base = strrchr(path, '/');

	return buildfiles_is_makefile(base ? base + 1 : path);
}

/*
 * An earlier run's map of the same build files, when every input it read is
 * the same; `inputs` gets that list.
 */
static struct kbuild_map *kbuild_from_cache(struct trees *t, const char *key, char **inputs)
{
	struct strbuf sb = STRBUF_INIT;
	struct diskcache_reader rd;
	struct kbuild_map *m = NULL;
	const char *files = files_digest(t);

	*inputs = NULL;
	if (!files || diskcache_read(t->env.diskcache, "kbuild", key, &sb) <= 0) {
		strbuf_release(&sb);
		return NULL;
	}
	diskcache_reader_init(&rd, &sb);
	*inputs = diskcache_get_str(&rd);
	if (*inputs && kbuild_repo_inputs_same(t->env.repo, &t->commit, *inputs, files, build_file)) {
		/* A view of the rest of the entry, read only: no copy. */
		struct strbuf rest = { (char *)rd.p, (size_t)(rd.end - rd.p), 0 };

		m = kbuild_map_load(&rest);
		if (!m)
			warning("the cache entry of a Kbuild map (%s) does not decode: "
				"building it again", key);
	}
	strbuf_release(&sb);
	return m;
}

static struct kbuild_map *kbuild_build(struct trees *t, const struct kbuild_target *target,
				       int *shared)
{
	struct strbuf inputs = STRBUF_INIT, sb = STRBUF_INIT;
	struct kbuild_map *m;
	char *key, *tkey, *cached_inputs;

	if (!t->env.diskcache || !t->bf)
		return kbuild_map_for_commit(t->env.repo, &t->commit, target, t->env.kbuild_cache);
	tkey = target_key(t, target);
	m = shared_kbuild_get(t, tkey);
	if (m) {
		*shared = 1;
		free(tkey);
		return m;
	}
	key = kbuild_key(t, target);
	m = kbuild_from_cache(t, key, &cached_inputs);
	if (m) {
		shared_kbuild_add(t, tkey, m, cached_inputs);
	} else {
		m = kbuild_map_for_commit_inputs(t->env.repo, &t->commit, target,
						 t->env.kbuild_cache, &inputs);
		if (m && !process_interrupted()) {
			diskcache_put_str(&sb, inputs.buf ? inputs.buf : "");
			kbuild_map_save(m, &sb);
			diskcache_write(t->env.diskcache, "kbuild", key, sb.buf, sb.len);
		}
		shared_kbuild_add(t, tkey, m, inputs.buf);
	}
	free(cached_inputs);
	strbuf_release(&inputs);
	strbuf_release(&sb);
	free(key);
	free(tkey);
	return m;
}

struct kbuild_map *trees_kbuild(struct trees *t, size_t i)
{
	/* Read only once built: a worker takes the owner's, built once under its lock. */
	pthread_mutex_t *lock;

	if (t->owner)
		return trees_kbuild(t->owner, i);
	/*
	 * Built (2): no lock, so that the files asking a built map do not wait
	 * while another thread builds another architecture's.
	 */
	if (__atomic_load_n(&t->kbuild_built[i], __ATOMIC_ACQUIRE) == 2)
		return t->kbuild[i];
	/* The owner's Kbuild cache serves every architecture: one map built at a time. */
	lock = t->locks ? &t->locks[trees_nr_models(t)] : NULL;
	if (lock)
		pthread_mutex_lock(lock);
	if (!__atomic_load_n(&t->kbuild_built[i], __ATOMIC_RELAXED)) {
		double start = trees_stats_clock(t->env.stats);
		/* $(ARCH) is the architecture's name, $(SRCARCH) its directory: Xen's x86_64, x86. */
		struct kbuild_target target = {
			.srctree = t->project.srctree,
			.arch = t->arches.nr ? t->arches.v[i] : NULL,
			.srcarch = t->arches.nr ? t->arch_dirs.v[i] : NULL,
		};
		int shared = 0;

		target.named_dirs = project_named_dirs(&t->project, &target.nr_named_dirs);
		__atomic_store_n(&t->kbuild_built[i], 1, __ATOMIC_RELAXED);
		t->kbuild[i] = kbuild_build(t, &target, &shared);
		__atomic_store_n(&t->kbuild_built[i], 2, __ATOMIC_RELEASE);
		trees_stats_report(shared ? "kbuild map (shared)" : "kbuild map",
				   t->arches.nr ? t->arches.v[i] : NULL, start);
	}
	if (lock)
		pthread_mutex_unlock(lock);
	return t->kbuild[i];
}

/* The lock of model i when it is shared; the primary one never is. */
static pthread_mutex_t *model_lock(struct trees *t, size_t i)
{
	struct trees *o = t->owner ? t->owner : t;

	return o->locks && i != t->tm.primary ? &o->locks[i] : NULL;
}

static void hold_model(void *data, size_t i)
{
	struct trees *t = data;
	pthread_mutex_t *lock = model_lock(t, i);
	double start;

	if (!lock || !pthread_mutex_trylock(lock))
		return;
	/* Another worker uses it: UNDERTAKER_STATS says how long they wait. */
	start = parallel_clock();
	pthread_mutex_lock(lock);
	t = t->owner ? t->owner : t;
	t->models[i].waits++;
	t->models[i].wait_seconds += parallel_clock() - start;
}

static void release_model(void *data, size_t i)
{
	pthread_mutex_t *lock = model_lock(data, i);

	if (lock)
		pthread_mutex_unlock(lock);
}

void trees_share(struct trees *t)
{
	if (t->locks)
		return;
	t->locks = xcalloc(trees_nr_models(t) + 1, sizeof(*t->locks));
	for (size_t i = 0; i <= trees_nr_models(t); i++)
		pthread_mutex_init(&t->locks[i], NULL);
	t->tm.hold = hold_model;
	t->tm.release = release_model;
}

void trees_borrow(struct trees *t, struct trees *owner)
{
	t->owner = owner;
	t->tm.hold = hold_model;
	t->tm.release = release_model;
}

void trees_release_model(struct trees *t, size_t i)
{
	/* Shared: other threads may be asking other models, and the Kbuild maps' lock guards theirs. */
	pthread_mutex_t *lock = t->locks ? &t->locks[i] : NULL;
	pthread_mutex_t *kbuild_lock = t->locks ? &t->locks[trees_nr_models(t)] : NULL;

	if (i == t->tm.primary || i >= trees_nr_models(t))
		return;
	if (lock)
		pthread_mutex_lock(lock);
	if (t->built[i]) {
		arch_model_release(&t->models[i], &t->env);
		memset(&t->models[i], 0, sizeof(t->models[i]));
		t->built[i] = 0;
	}
	if (lock)
		pthread_mutex_unlock(lock);
	if (kbuild_lock)
		pthread_mutex_lock(kbuild_lock);
	shared_kbuild_put(t, t->kbuild[i]);
	t->kbuild[i] = NULL;
	__atomic_store_n(&t->kbuild_built[i], 0, __ATOMIC_RELEASE);
	trees_sources_forget(t->sources, i);
	if (kbuild_lock)
		pthread_mutex_unlock(kbuild_lock);
}

void trees_release_others(struct trees *t)
{
	for (size_t i = 0; i < trees_nr_models(t); i++)
		trees_release_model(t, i);
}

void trees_unborrow(struct trees *t)
{
	t->owner = NULL;
	if (!t->locks) {
		t->tm.hold = NULL;
		t->tm.release = NULL;
	}
}

static const struct kbuild_file *file_condition(void *data, size_t i, const char *path)
{
	struct kbuild_map *map;

	if (!ends_with(path, ".c") && !ends_with(path, ".S"))
		return trees_is_source(data, path) && !trees_is_c_file(path) ?
		       trees_source_condition(data, i, path) : NULL;
	map = trees_kbuild(data, i);
	return map ? kbuild_map_lookup(map, path) : NULL;
}

static size_t file_why(void *data, size_t i, const char *path, struct kbuild_why *out,
		       size_t max)
{
	struct kbuild_map *map = trees_kbuild(data, i);

	return map ? kbuild_map_why(map, path, out, max) : 0;
}

int trees_arch_index(const struct trees *t, const char *arch)
{
	for (size_t i = 0; arch && i < t->arches.nr; i++)
		if (!strcmp(t->arches.v[i], arch))
			return (int)i;
	return -1;
}

int trees_path_arch(const struct trees *t, const char *path)
{
	const char *a, *slash;

	if (!starts_with(path, t->arch_prefix))
		return -1;
	a = path + strlen(t->arch_prefix);
	slash = strchr(a, '/');
	for (size_t i = 0; slash && i < t->arch_dirs.nr; i++)
		if (strlen(t->arch_dirs.v[i]) == (size_t)(slash - a) &&
		    !strncmp(t->arch_dirs.v[i], a, (size_t)(slash - a)))
			return (int)i;
	return -1;
}

const char *trees_srctree(const struct trees *t)
{
	return t->project.srctree;
}

const struct strvec *trees_variables(const struct trees *t)
{
	return &t->project.env;
}

int trees_no_kconfig(const struct trees *t)
{
	return t->project.kind == PROJECT_NONE;
}

int trees_defconfig_cpp(const struct trees *t)
{
	return t->project.kind == PROJECT_UBOOT;
}

int trees_not_checked(const struct trees *t, const char *path)
{
	if (t->project.kind == PROJECT_NONE)
		return 1;
	for (size_t i = 0; i < t->foreign.nr; i++)
		if (starts_with(path, t->foreign.v[i]))
			return 1;
	return 0;
}

/*
 * project_foreign_trees reads every Kconfig file for a `mainmenu`: its answer
 * depends on the build files alone, and is kept by their digest.
 */
static void foreign_trees(struct trees *t)
{
	struct diskcache *dc = t->env.diskcache;
	struct strbuf sb = STRBUF_INIT;
	struct diskcache_reader rd;
	char hex[GIT_OID_HEXSZ + 1], *key;

	if (!dc || !t->bf || t->project.kind == PROJECT_NONE || t->project.kind == PROJECT_LINUX) {
		project_foreign_trees(&t->project, t->env.repo, &t->commit, &t->foreign);
		return;
	}
	key = xstrfmt("%s %d %s %s", git_oid_tostr(hex, sizeof(hex), &t->digest),
		      (int)t->project.kind, t->project.srctree, t->project.top);
	if (diskcache_read(dc, "foreign", key, &sb) > 0) {
		diskcache_reader_init(&rd, &sb);
		if (!diskcache_get_strvec(&rd, &t->foreign) && diskcache_reader_done(&rd))
			goto out;
		strvec_clear(&t->foreign);
	}
	project_foreign_trees(&t->project, t->env.repo, &t->commit, &t->foreign);
	strbuf_reset(&sb);
	diskcache_put_strvec(&sb, &t->foreign);
	diskcache_write(dc, "foreign", key, sb.buf, sb.len);
out:
	strbuf_release(&sb);
	free(key);
}

/* The project's macros of the commit's kind of tree (tree_models.macros). */
static void trees_macros(struct trees *t)
{
	project_macros(t->project.kind, t->env.project_config, &t->macro_defs);
	t->macros = cpp_macros_new();
	/* trees_config_new() gave the command those cpp refuses: left out. */
	for (size_t i = 0; i < t->macro_defs.nr; i++)
		cpp_macros_add(t->macros, t->macro_defs.v[i]);
	t->tm.macros = t->macros;
	t->tm.macro_defs = &t->macro_defs;
}

struct project_config *trees_config_new(struct repo *r, struct strvec *bad)
{
	struct project_config *pc = xcalloc(1, sizeof(*pc));
	struct cpp_macros *m = cpp_macros_new();

	project_config_init(pc, r);
	for (size_t i = 0; i < pc->macros.nr; i++)
		if (cpp_macros_add(m, pc->macros.v[i]) < 0 && bad)
			strvec_push(bad, pc->macros.v[i]);
	cpp_macros_free(m);
	return pc;
}

const char *trees_host_arch(void)
{
	return project_host_srcarch();
}

void trees_config_free(struct project_config *pc)
{
	if (!pc)
		return;
	project_config_release(pc);
	free(pc);
}

void trees_macro_defs(const struct project_config *pc, struct repo *r, const git_oid *commit,
		      struct strvec *defs)
{
	struct project p;

	project_detect(&p, pc, r, commit);
	project_macros(p.kind, pc, defs);
	project_release(&p);
}

int trees_defines(const struct tree_models *tm, const char *name)
{
	return pc_name_defined_anywhere(tm->kconfig_defined, tm->cmdline_defined, name);
}

int trees_kconfig_defines(const struct tree_models *tm, const char *name)
{
	return pc_name_defined_anywhere(tm->kconfig_defined, NULL, name);
}

/*
 * project_architectures(), kept in the disk cache by root tree: finding them
 * reads the top Kconfig and what it sources a few levels down, half of what a
 * stop of `rebase --exec` costs on a commit that needs no model (U-Boot).
 */
static int architectures(struct trees *t, const git_oid *commit)
{
	struct diskcache *dc = t->env.diskcache;
	struct strbuf sb = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1], *key = NULL;
	git_commit *c;
	int n = -1;

	if (dc && !repo_lookup_commit(t->env.repo, repo_git(t->env.repo), commit, &c)) {
		key = xstrfmt("%s %d %s %s", git_oid_tostr(hex, sizeof(hex), git_commit_tree_id(c)),
			      (int)t->project.kind, t->project.srctree,
			      t->project.top ? t->project.top : "");
		git_commit_free(c);
	}
	if (key && diskcache_read(dc, "arches", key, &sb) > 0) {
		struct diskcache_reader rd;

		diskcache_reader_init(&rd, &sb);
		n = (int)diskcache_get_u64(&rd);
		if (!diskcache_get_strvec(&rd, &t->arches) && diskcache_reader_done(&rd) &&
		    n >= 0 && (size_t)n <= t->arches.nr) {
			strbuf_release(&sb);
			free(key);
			return n;
		}
		strvec_clear(&t->arches);
	}
	n = project_architectures(&t->project, t->env.repo, commit, &t->arches);
	if (key && n >= 0) {
		strbuf_reset(&sb);
		diskcache_put_u64(&sb, (uint64_t)n);
		diskcache_put_strvec(&sb, &t->arches);
		diskcache_write(dc, "arches", key, sb.buf, sb.len);
	}
	strbuf_release(&sb);
	free(key);
	return n;
}

struct trees *trees_new(const struct trees_env *env, const git_oid *commit,
			const struct buildfiles_info *bf)
{
	struct trees *t = xcalloc(1, sizeof(*t));
	size_t nr;
	int n;

	t->env = *env;
	t->commit = *commit;
	if (bf)
		t->digest = bf->digest;
	t->bf = bf;
	if (!t->env.host_arch)
		t->env.host_arch = project_host_srcarch();
	env = &t->env;
	project_detect(&t->project, env->project_config, env->repo, commit);
	trees_macros(t);
	n = t->project.kind == PROJECT_NONE ? -1 : architectures(t, commit);
	if (n < 0 && !env->quiet)
		warning("no Kconfig tree found (no top Kconfig file, no <dir>/Kconfig with a mainmenu): nothing to check against");
	nr = trees_nr_models(t);
	t->models = xcalloc(nr, sizeof(*t->models));
	t->built = xcalloc(nr, 1);
	t->kbuild = xcalloc(nr, sizeof(*t->kbuild));
	t->kbuild_built = xcalloc(nr, 1);
	if (!env->no_kbuild) {
		t->tm.file_condition = file_condition;
		t->tm.file_why = file_why;
	}
	t->tm.build_name = t->project.kind == PROJECT_COREBOOT || t->project.kind == PROJECT_ZEPHYR ?
		"the build" : "kbuild";
	t->tm.data = t;
	t->tm.get = get_model;
	t->tm.explain_removals = env->explain_removals;
	t->tm.nr_arches = t->arches.nr;
	/* The names are the strvec's own strings. */
	t->tm.arch_names = (const char *const *)t->arches.v;
	for (size_t i = 0; i < t->arches.nr; i++)
		strvec_push(&t->arch_dirs, project_arch_dir(&t->project, t->arches.v[i]));
	t->tm.arch_dirs = (const char *const *)t->arch_dirs.v;
	t->arch_prefix = xstrfmt("%s%sarch/", t->project.srctree, *t->project.srctree ? "/" : "");
	t->tm.arch_prefix = t->arch_prefix;
	foreign_trees(t);
	/* The host's SRCARCH names a directory: Xen's x86 is x86_64. */
	for (size_t i = t->arches.nr; i-- > 0; ) {
		if (env->only_arch ? !strcmp(t->arches.v[i], env->only_arch) :
		    !strcmp(t->arches.v[i], env->host_arch) || !strcmp(t->arch_dirs.v[i], env->host_arch))
			t->tm.primary = i;
	}
	if (env->only_arch && t->arches.nr) {
		if (trees_arch_index(t, env->only_arch) < 0)
			warning("no architecture '%s' in this tree", env->only_arch);
		t->tm.only_arch = env->only_arch;
	}
	if (bf) {
		t->tm.kconfig_defined = bf->kconfig_defined;
		project_build_defined(&t->project, env->repo, commit, bf->cmdline_defined,
				      env->diskcache, &t->build_defined);
		t->tm.cmdline_defined = &t->build_defined;
		t->tm.arch_mentions = bf->arch_mentions;
		t->tm.kconfig_outside = bf->kconfig_outside;
	}
	return t;
}

struct trees *trees_open(const struct trees_env *env, const git_oid *commit)
{
	struct buildfiles *b = buildfiles_new(env->repo);
	const struct buildfiles_info *bf;
	struct trees *t;

	buildfiles_set_diskcache(b, env->diskcache);
	if (env->project_config)
		buildfiles_set_srctree(b, env->project_config->srctree);
	if (buildfiles_get(b, commit, &bf) < 0) {
		buildfiles_free(b);
		return NULL;
	}
	t = trees_new(env, commit, bf);
	t->own_buildfiles = b;
	return t;
}

/*
 * The architectures of a tree with one model for all of them (U-Boot's and
 * Zephyr's arch/Kconfig source every arch/<dir>/Kconfig): those directories.
 */
static void arch_kconfig_dirs(const struct project *p, struct repo *r, const git_oid *commit,
			      struct strvec *out)
{
	struct strvec names = STRVEC_INIT;
	const char *pre = *p->srctree ? "/" : "";
	char *dir = xstrfmt("%s%sarch", p->srctree, pre);

	repo_list_dir(r, commit, dir, &names);
	strvec_sort(&names);
	for (size_t i = 0; i < names.nr; i++) {
		char *path = xstrfmt("%s/%s/Kconfig", dir, names.v[i]);
		git_oid id;

		if (!repo_path_oid(r, commit, path, &id))
			strvec_push(out, names.v[i]);
		free(path);
	}
	free(dir);
	strvec_clear(&names);
}

int trees_check_arch(struct repo *r, const git_oid *commit, const char *arch, struct strbuf *why)
{
	struct project_config pc;
	struct project p;
	struct strvec arches = STRVEC_INIT;
	struct strbuf names = STRBUF_INIT;
	const char *closest = NULL;
	size_t best = (size_t)-1;

	if (!arch)
		return 0;
	/* ARCH and SRCARCH go into Kconfig's paths: a name, never a path. */
	if (!*arch || *arch == '.' || *arch == '-' || arch[strspn(arch,
	    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")]) {
		strbuf_addf(why, "invalid architecture name '%s': letters, digits, "
			    "'_', '-' and '.' only", arch);
		return -1;
	}
	project_config_init(&pc, r);
	project_detect(&p, &pc, r, commit);
	project_config_release(&pc);
	if (p.kind != PROJECT_NONE && project_architectures(&p, r, commit, &arches) >= 0 &&
	    !arches.nr)
		arch_kconfig_dirs(&p, r, commit, &arches);
	if (p.kind == PROJECT_NONE || !arches.nr) {
		warning("this tree has no architectures to choose from; --arch=%s only "
			"sets ARCH and SRCARCH for its Kconfig", arch);
		project_release(&p);
		strvec_clear(&arches);
		return 0;
	}
	for (size_t i = 0; i < arches.nr; i++) {
		size_t d;

		if (!strcmp(arches.v[i], arch)) {
			project_release(&p);
			strvec_clear(&arches);
			strbuf_release(&names);
			return 0;
		}
		d = edit_distance(arches.v[i], arch);
		if (d < best) {
			best = d;
			closest = arches.v[i];
		}
		strbuf_addf(&names, "%s%s", i ? " " : "", arches.v[i]);
	}
	strbuf_addf(why, "no architecture '%s' in this tree", arch);
	if (closest && best <= 2)
		strbuf_addf(why, "; did you mean '%s'?", closest);
	strbuf_addf(why, "\nvalid architectures: %s", strbuf_str(&names));
	project_release(&p);
	strvec_clear(&arches);
	strbuf_release(&names);
	return -1;
}

int trees_dump(struct trees *t, const char *arch, const char *what, FILE *out)
{
	size_t want = 0;
	struct arch_model *am;

	if (t->arches.nr) {
		int found = trees_arch_index(t, arch);

		if (found < 0)
			return error("no architecture '%s' in this tree", arch);
		want = (size_t)found;
	}
	if (!strcmp(what, "files")) {
		struct kbuild_map *map = trees_kbuild(t, want);
		struct strbuf sb = STRBUF_INIT;

		if (!map)
			return error("cannot read the Makefiles");
		kbuild_map_dump(map, &sb);
		fputs(strbuf_str(&sb), out);
		strbuf_release(&sb);
		return 0;
	}
	am = trees_model(t, want);
	if (!am)
		return -1;
	if (!strcmp(what, "symbols"))
		kconfig_dump_symbols(am->kconfig, out);
	else
		model_dump_dimacs(am->model, out);
	return 0;
}

void trees_cache_init(struct trees_cache *tc, const struct trees_env *env,
		      const struct trees_cache *share)
{
	memset(tc, 0, sizeof(*tc));
	tc->env = *env;
	if (share) {
		tc->buildfiles = share->buildfiles;
	} else {
		tc->buildfiles = buildfiles_new(env->repo);
		buildfiles_set_diskcache(tc->buildfiles, env->diskcache);
		if (env->project_config)
			buildfiles_set_srctree(tc->buildfiles, env->project_config->srctree);
		tc->own_buildfiles = 1;
	}
	if (!tc->env.kconfig_cache) {
		tc->env.kconfig_cache = kconfig_cache_new();
		kconfig_cache_set_budget(tc->env.kconfig_cache, env->kconfig_cache_budget);
		tc->own_kconfig_cache = 1;
	}
	if (!tc->env.kbuild_cache) {
		tc->env.kbuild_cache = kbuild_cache_new();
		tc->own_kbuild_cache = 1;
	}
	tc->env.kbuilds = xcalloc(1, sizeof(*tc->env.kbuilds));
	pthread_mutex_init(&tc->env.kbuilds->lock, NULL);
}

int trees_cache_digest(struct trees_cache *tc, const git_oid *commit, git_oid *digest)
{
	const struct buildfiles_info *bf;

	if (buildfiles_get(tc->buildfiles, commit, &bf) < 0)
		return -1;
	*digest = bf->digest;
	return 0;
}

void trees_cache_trim(struct trees_cache *tc, const git_oid *keep, size_t nr)
{
	buildfiles_trim(tc->buildfiles, keep, nr);
}

void trees_cache_stats(const struct trees_cache *tc)
{
	struct kconfig_cache_stats st;

	kconfig_cache_stats(tc->env.kconfig_cache, &st);
	fprintf(stderr, "kconfig cache: %zu files lexed, %zu reused, %zu evicted; "
		"%zu KB held at most\n", st.lexed, st.reused, st.evicted, st.peak >> 10);
}

struct trees *trees_cache_get(struct trees_cache *tc, const git_oid *commit)
{
	const struct buildfiles_info *bf;
	size_t slot = 0;
	double start = trees_stats_clock(tc->env.stats);

	if (buildfiles_get(tc->buildfiles, commit, &bf) < 0)
		return NULL;
	trees_stats_report("build files", NULL, start);
	tc->clock++;
	for (size_t i = 0; i < TREES_CACHE_SIZE; i++) {
		if (tc->sets[i] && git_oid_equal(&tc->sets[i]->digest, &bf->digest)) {
			tc->last_use[i] = tc->clock;
			return tc->sets[i];
		}
		if (!tc->sets[i] || (tc->sets[slot] && tc->last_use[i] < tc->last_use[slot]))
			slot = i;
	}
	trees_free(tc->sets[slot]);
	tc->sets[slot] = trees_new(&tc->env, commit, bf);
	tc->last_use[slot] = tc->clock;
	return tc->sets[slot];
}

void trees_cache_digests(const struct trees_cache *tc, git_oid **out, size_t *nr, size_t *alloc)
{
	for (size_t i = 0; i < TREES_CACHE_SIZE; i++) {
		if (!tc->sets[i])
			continue;
		ALLOC_GROW(*out, *nr + 1, *alloc);
		(*out)[(*nr)++] = tc->sets[i]->digest;
	}
}

void trees_cache_save(struct trees_cache *tc)
{
	for (size_t i = 0; i < TREES_CACHE_SIZE; i++)
		trees_save(tc->sets[i]);
}

void trees_cache_release(struct trees_cache *tc)
{
	for (size_t i = 0; i < TREES_CACHE_SIZE; i++) {
		trees_free(tc->sets[i]);
		tc->sets[i] = NULL;
	}
	if (tc->env.kbuilds) {
		/* Every trees of the cache has let go of its maps. */
		free(tc->env.kbuilds->v);
		pthread_mutex_destroy(&tc->env.kbuilds->lock);
		free(tc->env.kbuilds);
		tc->env.kbuilds = NULL;
	}
	if (tc->own_kconfig_cache)
		kconfig_cache_free(tc->env.kconfig_cache);
	if (tc->own_kbuild_cache)
		kbuild_cache_free(tc->env.kbuild_cache);
	if (tc->own_buildfiles)
		buildfiles_free(tc->buildfiles);
	buildfiles_free(tc->history);
	tc->history = NULL;
	tc->own_kconfig_cache = tc->own_kbuild_cache = tc->own_buildfiles = 0;
}

static uint64_t diskcache_budget(struct repo *r)
{
	char *value = repo_config_get(r, "undertaker.cacheSize");
	uint64_t budget = DISKCACHE_DEFAULT_BUDGET;

	if (value && diskcache_parse_size(value, &budget) < 0) {
		warning("undertaker.cacheSize: '%s' is not a size (512m, 2g, 0): the default, 256m",
			value);
		budget = DISKCACHE_DEFAULT_BUDGET;
	}
	free(value);
	return budget;
}

static char *diskcache_dir(struct repo *r)
{
	return xstrfmt("%sundertaker/cache", repo_commondir(r));
}

struct diskcache *trees_diskcache_open(struct repo *r, int stats)
{
	char *dir = diskcache_dir(r);
	struct diskcache *dc = diskcache_open(dir, diskcache_budget(r), stats);

	free(dir);
	return dc;
}

int trees_diskcache_gc(struct repo *r)
{
	char *dir = diskcache_dir(r);
	int ret = diskcache_gc(dir, diskcache_budget(r));

	free(dir);
	return ret;
}
