// SPDX-License-Identifier: GPL-2.0
/*
 * The run: model sets per tree (one per distinct set of Kconfig and Makefile
 * blobs, each architecture built when first needed), results per file blob,
 * the commit-by-commit comparison and the census.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "checker.h"

#include <pcre2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyze.h"
#include "buildfiles.h"
#include "history.h"
#include "kbuild.h"
#include "kconfig_git.h"
#include "model.h"
#include "project.h"
#include "report.h"

/* All models of one tree, keyed by its build-file digest. */
struct model_set {
	struct checker *checker;
	git_oid commit;			/* a commit with this tree's build files */
	git_oid digest;
	const struct buildfiles_info *bf;
	struct strvec arches;		/* empty: a single model */
	struct strvec arch_dirs;	/* each one's directory under <srctree>/arch/ */
	char *arch_prefix;		/* "<srctree>/arch/" */
	struct strvec foreign;		/* project_foreign_trees(): files there are not checked */
	struct arch_model *models;	/* arches.nr entries, or 1 */
	char *built;			/* 1: tried to build models[i] */
	struct kbuild_map **kbuild;	/* per architecture, built when first asked */
	char *kbuild_built;
	struct tree_models tm;
	unsigned long last_use;
	struct project project;		/* where its Kconfig tree starts, its variables */
	struct strmap build_defined;	/* -D names and those of forced headers */
};

#define MAX_MODEL_SETS 3

struct checker {
	struct repo *repo;
	const struct undertaker_options *opts;
	struct buildfiles *buildfiles;
	struct kconfig_cache *kconfig_cache;
	struct kbuild_cache *kbuild_cache;
	struct cpp_macros *macros;
	struct strvec macro_defs;
	struct project_config project_config;
	struct model_set *sets[MAX_MODEL_SETS];
	unsigned long clock;
	/* blob hex + digest hex → struct defect_list of that blob's analysis */
	struct strmap results;
	struct strmap removals;	/* --explain: name -> where it was defined, or NULL */
	size_t input_errors;
	char *host_arch;
	/* A census worker: buildfiles and macros are its parent's, read only. */
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
};


struct checker *checker_new(struct repo *r, const struct undertaker_options *o)
{
	struct checker *c = xcalloc(1, sizeof(*c));

	c->repo = r;
	c->opts = o;
	c->buildfiles = buildfiles_new(r);
	c->kconfig_cache = kconfig_cache_new();
	c->kbuild_cache = kbuild_cache_new();
	c->macros = cpp_macros_new();
	project_config_init(&c->project_config, r);
	project_head_macros(&c->project_config, r, &c->macro_defs);
	for (size_t i = 0; i < c->macro_defs.nr; i++)
		if (cpp_macros_add(c->macros, c->macro_defs.v[i]) < 0)
			error("bad undertaker.macro '%s' ignored", c->macro_defs.v[i]);
	c->host_arch = xstrdup(project_host_srcarch());
	pthread_mutex_init(&c->results_lock, NULL);
	return c;
}

void checker_set_file_progress(struct checker *c, int on)
{
	c->file_progress = on;
}

static void print_stats(struct arch_model *am)
{
	if (am->sat && !am->stats_printed && getenv("UNDERTAKER_STATS")) {
		struct sat_stats st;

		sat_get_stats(am->sat, &st);
		fprintf(stderr, "%s: %zu solver calls, %zu answered by samples, "
			"%zu questions, %zu cached, %zu unsatisfiable\n",
			am->arch ? am->arch : "model", st.calls, st.witnessed,
			st.queries, st.cached, st.unsat);
	}
	am->stats_printed = 1;
}

static void arch_model_release(struct arch_model *am)
{
	print_stats(am);
	if (am->samples_path)
		sat_save_witnesses(am->sat, am->samples_path, am->base_vars);
	free(am->samples_path);
	if (am->code_sat)
		sat_free(am->code_sat);
	if (am->model)
		model_free(am->model);
	if (am->kconfig)
		kconfig_free(am->kconfig);
}

static void model_set_free(struct model_set *ms)
{
	if (!ms)
		return;
	for (size_t i = 0; i < (ms->arches.nr ? ms->arches.nr : 1); i++) {
		arch_model_release(&ms->models[i]);
		if (ms->kbuild[i])
			kbuild_map_free(ms->kbuild[i]);
	}
	free(ms->kbuild);
	free(ms->kbuild_built);
	free(ms->models);
	free(ms->built);
	strvec_clear(&ms->arches);
	strvec_clear(&ms->arch_dirs);
	strvec_clear(&ms->foreign);
	free(ms->arch_prefix);
	project_release(&ms->project);
	strmap_clear(&ms->build_defined, free);
	free(ms);
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
	for (size_t i = 0; c && i < MAX_MODEL_SETS; i++) {
		struct model_set *ms = c->sets[i];

		for (size_t k = 0; ms && k < (ms->arches.nr ? ms->arches.nr : 1); k++) {
			struct arch_model *am = &ms->models[k];

			if (am->samples_path && am->sat)
				sat_save_witnesses(am->sat, am->samples_path, am->base_vars);
			print_stats(am);
		}
	}
}

void checker_free(struct checker *c)
{
	if (!c)
		return;
	for (size_t w = 0; w < c->nr_workers; w++)
		checker_free(c->workers[w]);
	free(c->workers);
	for (size_t i = 0; i < MAX_MODEL_SETS; i++)
		model_set_free(c->sets[i]);
	strmap_clear(&c->results, free_defect_list);
	strmap_clear(&c->removals, free);
	if (!c->parent)
		kconfig_cache_free(c->kconfig_cache);
	kbuild_cache_free(c->kbuild_cache);
	if (!c->parent) {
		buildfiles_free(c->buildfiles);
		cpp_macros_free(c->macros);
		strvec_clear(&c->macro_defs);
		project_config_release(&c->project_config);
	}
	free(c->host_arch);
	pthread_mutex_destroy(&c->results_lock);
	free(c);
}

size_t checker_input_errors(const struct checker *c)
{
	return c->input_errors;
}

/* UNDERTAKER_STATS=1: where a run's CPU time goes, on stderr. */
static double stats_clock(void)
{
	struct timespec ts;

	if (!getenv("UNDERTAKER_STATS"))
		return 0;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void stats_report(const char *what, const char *arch, double start)
{
	if (start)
		fprintf(stderr, "%s%s%s: %.3f s\n", what, arch ? " " : "", arch ? arch : "",
			stats_clock() - start);
}

/*
 * Where the solver's satisfying assignments for one model are kept between
 * runs: $GIT_DIR/undertaker/samples/<key>, the key naming the tool's version,
 * the build files and the architecture.
 */
static char *samples_path(struct model_set *ms, const char *arch)
{
	struct strbuf key = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid id;
	char *path;

	strbuf_addf(&key, "samples\n%s\n%s\n%s\n", suite_version,
		    git_oid_tostr(hex, sizeof(hex), &ms->digest), arch ? arch : "");
	git_odb_hash(&id, key.buf, key.len, GIT_OBJECT_BLOB);
	path = xstrfmt("%sundertaker/samples/%s", repo_gitdir(ms->checker->repo),
		       git_oid_tostr(hex, sizeof(hex), &id));
	strbuf_release(&key);
	return path;
}

static struct arch_model *get_model(void *data, size_t i)
{
	struct model_set *ms = data;
	struct arch_model *am = &ms->models[i];
	struct kconfig_options kopts = { .cache = ms->checker->kconfig_cache };
	double t;

	if (ms->built[i])
		return am->model ? am : NULL;
	ms->built[i] = 1;
	am->arch = ms->arches.nr ? ms->arches.v[i] : NULL;
	/* No Kconfig tree at all (said once, by model_set_for()): no model, quietly. */
	if (ms->project.kind == PROJECT_NONE)
		return NULL;
	t = stats_clock();
	am->kconfig = project_kconfig_parse(&ms->project, ms->checker->repo, &ms->commit,
					    am->arch, &kopts);
	stats_report("kconfig parse", am->arch, t);
	t = stats_clock();
	if (!am->kconfig) {
		error("cannot read the top Kconfig file%s%s", am->arch ? " for " : "",
		      am->arch ? am->arch : "");
		return NULL;
	}
	am->model = model_build(am->kconfig);
	am->logic = model_logic(am->model);
	am->sat = model_sat(am->model);
	am->code_sat = sat_new(am->logic);
	arch_model_init_samples(am);
	stats_report("model build", am->arch, t);
	if (ms->bf) {
		am->samples_path = samples_path(ms, am->arch);
		sat_load_witnesses(am->sat, am->samples_path, am->base_vars);
	}
	return am;
}

static struct kbuild_map *get_kbuild(struct model_set *ms, size_t i)
{
	if (!ms->kbuild_built[i]) {
		double t = stats_clock();

		ms->kbuild_built[i] = 1;
		ms->kbuild[i] = kbuild_map_for_commit(ms->checker->repo, &ms->commit,
						      ms->arches.nr ? ms->arches.v[i] : NULL,
						      ms->checker->kbuild_cache);
		stats_report("kbuild map", ms->arches.nr ? ms->arches.v[i] : NULL, t);
	}
	return ms->kbuild[i];
}

static const struct kbuild_file *file_condition(void *data, size_t i, const char *path)
{
	struct model_set *ms = data;
	struct kbuild_map *map;

	if (!ends_with(path, ".c") && !ends_with(path, ".S"))
		return NULL;
	map = get_kbuild(ms, i);
	return map ? kbuild_map_lookup(map, path) : NULL;
}

/* tm.removed: the history walk, once per name and run. */
static int symbol_removed(void *data, const char *name, struct strbuf *out)
{
	struct model_set *ms = data;
	struct checker *c = ms->checker;
	const char *known;
	int ret;

	if (strmap_contains(&c->removals, name)) {
		known = strmap_get(&c->removals, name);
		if (known)
			strbuf_addstr(out, known);
		return known != NULL;
	}
	ret = kconfig_symbol_removal(c->repo, &ms->commit, name, out);
	strmap_put(&c->removals, name, ret > 0 ? xstrdup(out->buf) : NULL);
	return ret > 0;
}

/*
 * A model set for `commit`: its project layout, architectures and lazily
 * built models. `bf` (the build files' scan) may be NULL when only a model
 * is wanted (--dump-model): no missing-name maps, no samples kept.
 */
static struct model_set *model_set_new(struct checker *c, const git_oid *commit,
				       const struct buildfiles_info *bf)
{
	struct model_set *ms = xcalloc(1, sizeof(*ms));
	int n;

	ms->checker = c;
	ms->commit = *commit;
	if (bf)
		ms->digest = bf->digest;
	ms->bf = bf;
	ms->last_use = c->clock;
	project_detect(&ms->project, &c->project_config, c->repo, commit);
	n = ms->project.kind == PROJECT_NONE ? -1 :
	    project_architectures(&ms->project, c->repo, commit, &ms->arches);
	/* A census worker's model set is its parent's again: the parent has said it. */
	if (n < 0 && !c->parent)
		warning("no Kconfig tree found (no top Kconfig file, no <dir>/Kconfig with a mainmenu): nothing to check against");
	ms->models = xcalloc(ms->arches.nr ? ms->arches.nr : 1, sizeof(*ms->models));
	ms->built = xcalloc(ms->arches.nr ? ms->arches.nr : 1, 1);
	ms->kbuild = xcalloc(ms->arches.nr ? ms->arches.nr : 1, sizeof(*ms->kbuild));
	ms->kbuild_built = xcalloc(ms->arches.nr ? ms->arches.nr : 1, 1);
	if (!c->opts->no_kbuild)
		ms->tm.file_condition = file_condition;
	ms->tm.data = ms;
	ms->tm.get = get_model;
	if (c->opts->explain)
		ms->tm.removed = symbol_removed;
	ms->tm.nr_arches = ms->arches.nr;
	/* The names are the strvec's own strings. */
	ms->tm.arch_names = (const char *const *)ms->arches.v;
	for (size_t i = 0; i < ms->arches.nr; i++)
		strvec_push(&ms->arch_dirs, project_arch_dir(&ms->project, ms->arches.v[i]));
	ms->tm.arch_dirs = (const char *const *)ms->arch_dirs.v;
	ms->arch_prefix = xstrfmt("%s%sarch/", ms->project.srctree, *ms->project.srctree ? "/" : "");
	ms->tm.arch_prefix = ms->arch_prefix;
	project_foreign_trees(&ms->project, c->repo, commit, &ms->foreign);
	/* The host's SRCARCH names a directory: Xen's x86 is x86_64. */
	for (size_t i = ms->arches.nr; i-- > 0; ) {
		if (c->opts->arch ? !strcmp(ms->arches.v[i], c->opts->arch) :
		    !strcmp(ms->arches.v[i], c->host_arch) || !strcmp(ms->arch_dirs.v[i], c->host_arch))
			ms->tm.primary = i;
	}
	if (c->opts->arch && ms->arches.nr) {
		int found = 0;

		for (size_t i = 0; i < ms->arches.nr; i++)
			found |= !strcmp(ms->arches.v[i], c->opts->arch);
		if (!found)
			warning("no architecture '%s' in this tree", c->opts->arch);
		ms->tm.only_arch = c->opts->arch;
	}
	if (bf) {
		ms->tm.kconfig_defined = bf->kconfig_defined;
		project_build_defined(&ms->project, c->repo, commit, bf->cmdline_defined,
				      &ms->build_defined);
		ms->tm.cmdline_defined = &ms->build_defined;
		ms->tm.arch_mentions = bf->arch_mentions;
	}
	return ms;
}

static struct model_set *model_set_for(struct checker *c, const git_oid *commit)
{
	const struct buildfiles_info *bf;
	size_t slot = 0;
	double t = stats_clock();

	if (buildfiles_get(c->buildfiles, commit, &bf) < 0)
		return NULL;
	stats_report("build files", NULL, t);
	c->clock++;
	for (size_t i = 0; i < MAX_MODEL_SETS; i++) {
		if (c->sets[i] && git_oid_equal(&c->sets[i]->digest, &bf->digest)) {
			c->sets[i]->last_use = c->clock;
			return c->sets[i];
		}
		if (!c->sets[i] || (c->sets[slot] && c->sets[i]->last_use < c->sets[slot]->last_use))
			slot = i;
	}
	model_set_free(c->sets[slot]);
	c->sets[slot] = model_set_new(c, commit, bf);
	return c->sets[slot];
}

void checker_model_key(struct checker *c, const git_oid *commit, struct strbuf *key)
{
	const struct buildfiles_info *bf;
	struct strbuf all = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	git_oid id;
	double t = stats_clock();

	if (buildfiles_get(c->buildfiles, commit, &bf) < 0) {
		strbuf_addstr(key, "unknown");
		return;
	}
	stats_report("build files", NULL, t);
	strbuf_addf(&all, "%s\n%s\n", suite_version, git_oid_tostr(hex, sizeof(hex), &bf->digest));
	for (size_t i = 0; i < c->macro_defs.nr; i++)
		strbuf_addf(&all, "macro %s\n", c->macro_defs.v[i]);
	if (c->opts->arch)
		strbuf_addf(&all, "arch %s\n", c->opts->arch);
	git_odb_hash(&id, all.buf, all.len, GIT_OBJECT_BLOB);
	strbuf_addstr(key, git_oid_tostr(hex, sizeof(hex), &id));
	strbuf_release(&all);
}

static int is_c_file(const char *path)
{
	return ends_with(path, ".c") || ends_with(path, ".h") || ends_with(path, ".S");
}

/*
 * Files this tree's models say nothing about: every file when there is no
 * Kconfig tree (each CONFIG_ name would be "missing"), and the code of
 * another Kconfig tree inside this one (coreboot's payloads/libpayload/).
 */
static int not_checked(const struct model_set *ms, const char *path)
{
	if (ms->project.kind == PROJECT_NONE)
		return 1;
	for (size_t i = 0; i < ms->foreign.nr; i++)
		if (starts_with(path, ms->foreign.v[i]))
			return 1;
	return 0;
}

/* The defects of one blob under one model set (cached: each version is analysed once). */
static const struct defect_list *blob_defects(struct checker *c, struct model_set *ms,
					      const char *path, const git_oid *blob_id)
{
	char bhex[GIT_OID_HEXSZ + 1], dhex[GIT_OID_HEXSZ + 1];
	struct strbuf key = STRBUF_INIT;
	struct defect_list *l;
	struct blob *blob;
	struct analyze_options aopt = { .explain = c->opts->explain, .macros = c->macros,
					 .macro_defs = &c->macro_defs };

	struct checker *rc = c->results_of ? c->results_of : c;
	const struct defect_list *found;

	strbuf_addf(&key, "%s %s %s", git_oid_tostr(bhex, sizeof(bhex), blob_id),
		    git_oid_tostr(dhex, sizeof(dhex), &ms->digest), path);
	pthread_mutex_lock(&rc->results_lock);
	found = strmap_get(&rc->results, key.buf);
	pthread_mutex_unlock(&rc->results_lock);
	if (found) {
		strbuf_release(&key);
		return found;
	}
	l = xcalloc(1, sizeof(*l));
	if (not_checked(ms, path))
		goto done;
	if (repo_read_blob(c->repo, blob_id, &blob) < 0) {
		error("%s: cannot read blob %s", path, bhex);
	} else {
		aopt.asm_file = ends_with(path, ".S");
		analyze_file(&ms->tm, path, blob->data, blob->size, &aopt, l, &c->input_errors);
		blob_release(c->repo, blob);
	}
done:
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
static int changed_blocks_defects(struct checker *c, struct model_set *ms, const char *path,
				  const git_oid *old_id, const git_oid *new_id,
				  struct defect_list *before, struct defect_list *after)
{
	struct analyze_options aopt = { .explain = c->opts->explain, .macros = c->macros,
					.macro_defs = &c->macro_defs,
					.asm_file = ends_with(path, ".S") };
	struct strmap old_keys = STRMAP_INIT, new_keys = STRMAP_INIT, skip = STRMAP_INIT;
	struct strmap_entry *e;
	struct blob *ob, *nb;
	struct cpp_file *of, *nf;
	size_t dummy = 0;

	if (not_checked(ms, path))
		return 0;

	if (repo_read_blob(c->repo, old_id, &ob) < 0)
		return -1;
	if (repo_read_blob(c->repo, new_id, &nb) < 0) {
		blob_release(c->repo, ob);
		return -1;
	}
	of = analyze_scan(path, ob->data, ob->size, &aopt);
	nf = analyze_scan(path, nb->data, nb->size, &aopt);
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

struct affected {
	struct checker *checker;
	pcre2_code *re;			/* every CONFIG_ name, captured */
	pcre2_match_data *md;
	const struct strmap *changed;	/* names (no CONFIG_) a Kconfig change touched */
	const struct strmap *skip;	/* paths already checked */
	struct strvec paths, blobs;
};

/*
 * Does the text name a changed symbol (CONFIG_X or CONFIG_X_MODULE)? One
 * pattern for every CONFIG_ name and a hash lookup per match: an alternation
 * of the changed names outgrows pcre2's limits when a release changes
 * thousands of them (Linux 6.1 -> 6.12).
 */
static int names_changed(struct affected *a, const char *data, size_t size)
{
	PCRE2_SIZE start = 0;

	while (start < size &&
	       pcre2_match(a->re, (PCRE2_SPTR)data, size, start, 0, a->md, NULL) > 1) {
		PCRE2_SIZE *ov = pcre2_get_ovector_pointer(a->md);
		const char *name = data + ov[2];
		size_t len = ov[3] - ov[2];

		if (strmap_getn(a->changed, name, len) ||
		    (len > 7 && !memcmp(name + len - 7, "_MODULE", 7) &&
		     strmap_getn(a->changed, name, len - 7)))
			return 1;
		start = ov[1] > start ? ov[1] : start + 1;
	}
	return 0;
}

static int find_users(const struct tree_file *f, void *data)
{
	struct affected *a = data;
	struct blob *blob;
	char hex[GIT_OID_HEXSZ + 1];

	if (!is_c_file(f->path) || strmap_get(a->skip, f->path) ||
	    !pathspec_match(&a->checker->opts->pathspec, f->path))
		return 0;
	if (repo_read_blob(a->checker->repo, f->blob, &blob) < 0)
		return 0;
	if (names_changed(a, blob->data, blob->size)) {
		strvec_push(&a->paths, f->path);
		strvec_push(&a->blobs, git_oid_tostr(hex, sizeof(hex), f->blob));
	}
	blob_release(a->checker->repo, blob);
	return 0;
}

/*
 * A one-line summary of what a symbol's definitions say in a model set, to
 * tell which symbols a Kconfig change touched.
 */
static void symbol_signature(const struct kconfig_symbol *sym, struct strbuf *sb)
{
	strbuf_addf(sb, "%s %s", sym->name, kconfig_type_name(sym->type));
	for (size_t i = 0; i < sym->nr_defs; i++) {
		const struct kconfig_definition *d = sym->defs[i];

		strbuf_addstr(sb, " |dep ");
		if (d->dep)
			kconfig_expr_print(d->dep, sb);
		for (size_t j = 0; j < d->nr_prompts; j++) {
			strbuf_addstr(sb, " |prompt ");
			if (d->prompts[j].cond)
				kconfig_expr_print(d->prompts[j].cond, sb);
		}
		for (size_t j = 0; j < d->nr_defaults; j++) {
			strbuf_addstr(sb, " |default ");
			kconfig_expr_print(d->defaults[j].value, sb);
			strbuf_addstr(sb, " if ");
			if (d->defaults[j].cond)
				kconfig_expr_print(d->defaults[j].cond, sb);
		}
		if (d->choice)
			strbuf_addf(sb, " |choice %s", d->choice->name ? d->choice->name : "");
	}
	for (size_t i = 0; i < sym->nr_selected_by; i++) {
		strbuf_addf(sb, " |selected %s", sym->selected_by[i].from->symbol ?
			    sym->selected_by[i].from->symbol->name : "");
		if (sym->selected_by[i].cond)
			kconfig_expr_print(sym->selected_by[i].cond, sb);
	}
	for (size_t i = 0; i < sym->nr_implied_by; i++)
		strbuf_addf(sb, " |implied %s", sym->implied_by[i].from->symbol ?
			    sym->implied_by[i].from->symbol->name : "");
}

static void add_changed_symbols(const struct kconfig *old, const struct kconfig *new,
				struct strmap *changed)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	struct kconfig_symbol *sym;
	size_t i;

	for_each_kconfig_symbol(new, i, sym) {
		struct kconfig_symbol *o = old ? kconfig_lookup(old, sym->name) : NULL;

		if (sym->flags & KSYM_PROBE)
			continue;
		strbuf_reset(&a);
		strbuf_reset(&b);
		symbol_signature(sym, &a);
		if (o)
			symbol_signature(o, &b);
		if (!o || strcmp(a.buf, b.buf))
			strmap_put(changed, sym->name, (void *)1);
	}
	if (old)
		for_each_kconfig_symbol(old, i, sym)
			if (!(sym->flags & KSYM_PROBE) && !kconfig_lookup(new, sym->name))
				strmap_put(changed, sym->name, (void *)1);
	strbuf_release(&a);
	strbuf_release(&b);
}

/*
 * Files that a Kconfig change may affect though the commit left them alone:
 * those naming a symbol whose definitions changed (or that appeared or
 * disappeared in any Kconfig file).
 */
static void affected_files(struct checker *c, struct model_set *old, struct model_set *new,
			   const git_oid *commit, const struct strmap *skip,
			   struct strvec *paths, struct strvec *blobs)
{
	struct strmap changed = STRMAP_INIT;
	struct strmap_entry *e;
	struct strbuf re = STRBUF_INIT;
	struct affected a = { .checker = c, .skip = skip };
	size_t nr_models = new->arches.nr ? new->arches.nr : 1;
	int errcode;
	PCRE2_SIZE erroff;

	/* Names that appeared or disappeared in any Kconfig file of the tree. */
	strmap_for_each(new->bf->kconfig_defined, e)
		if (!old || !strmap_get(old->bf->kconfig_defined, e->key))
			strmap_put(&changed, e->key, (void *)1);
	if (old)
		strmap_for_each(old->bf->kconfig_defined, e)
			if (!strmap_get(new->bf->kconfig_defined, e->key))
				strmap_put(&changed, e->key, (void *)1);
	/* Changed definitions, on the architectures this run has built models for. */
	for (size_t i = 0; i < nr_models; i++) {
		struct arch_model *nm, *om = NULL;

		if (!new->built[i] && i != new->tm.primary)
			continue;
		nm = get_model(new, i);
		if (old && i < (old->arches.nr ? old->arches.nr : 1))
			om = get_model(old, i);
		if (nm)
			add_changed_symbols(om ? om->kconfig : NULL, nm->kconfig, &changed);
	}
	if (!changed.nr) {
		strmap_clear(&changed, NULL);
		return;
	}
	strbuf_addstr(&re, "\\bCONFIG_(\\w+)");
	a.changed = &changed;
	a.re = pcre2_compile((PCRE2_SPTR)re.buf, re.len, 0, &errcode, &erroff, NULL);
	if (!a.re)
		die("internal error: cannot compile the symbol pattern");
	pcre2_jit_compile(a.re, PCRE2_JIT_COMPLETE);
	a.md = pcre2_match_data_create_from_pattern(a.re, NULL);
	repo_for_each_file(c->repo, commit, "", find_users, &a);
	for (size_t i = 0; i < a.paths.nr; i++) {
		strvec_push(paths, a.paths.v[i]);
		strvec_push(blobs, a.blobs.v[i]);
	}
	pcre2_match_data_free(a.md);
	pcre2_code_free(a.re);
	strvec_clear(&a.paths);
	strvec_clear(&a.blobs);
	strbuf_release(&re);
	strmap_clear(&changed, NULL);
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

static void check_item(struct checker *c, struct model_set *ps, struct model_set *ms,
		       struct commit_item *it)
{
	struct defect_list before = { 0 }, after = { 0 };
	const struct file_change *fc = it->fc;

	if (!fc) {
		if (ps)
			copy_list(&before, blob_defects(c, ps, it->path, &it->blob), NULL);
		copy_list(&after, blob_defects(c, ms, it->path, &it->blob), NULL);
	} else {
		const char *path = fc->new_path ? fc->new_path : fc->old_path;

		if (fc->status == 'M' && ps && git_oid_equal(&ps->digest, &ms->digest) &&
		    !c->opts->show_all && is_c_file(path) &&
		    !changed_blocks_defects(c, ms, path, &fc->old_blob, &fc->new_blob,
					    &before, &after))
			;	/* only the blocks that differ */
		else {
			if (fc->status != 'A' && fc->old_path && is_c_file(fc->old_path) && ps)
				copy_list(&before, blob_defects(c, ps, fc->old_path, &fc->old_blob),
					  path);
			if (fc->status != 'D' && is_c_file(fc->new_path))
				copy_list(&after, blob_defects(c, ms, fc->new_path, &fc->new_blob),
					  path);
		}
	}
	defect_match(&before, &after);
	defect_list_take(&it->out, &after);
	defect_list_clear(&before);
}

/* The files of one commit, shared out among the range workers. */
struct commit_work {
	const git_oid *commit, *parent;	/* parent NULL: a root commit */
	struct commit_item *items;
	size_t nr, next;
	pthread_mutex_t lock;
	struct progress *progress;
};

struct commit_worker {
	struct commit_work *cw;
	struct checker *c;
	pthread_t thread;
	int started;
};

static void *commit_run(void *arg)
{
	struct commit_worker *w = arg;
	struct commit_work *cw = w->cw;
	/* The parent's set first, as checker_check_commit does: ms is then the newest. */
	struct model_set *ps = cw->parent ? model_set_for(w->c, cw->parent) : NULL;
	struct model_set *ms = model_set_for(w->c, cw->commit);

	/* A worker without models leaves its share to the others. */
	if (!ms || (cw->parent && !ps))
		return NULL;
	for (;;) {
		size_t i;

		pthread_mutex_lock(&cw->lock);
		i = cw->next++;
		pthread_mutex_unlock(&cw->lock);
		if (i >= cw->nr)
			break;
		check_item(w->c, ps, ms, &cw->items[i]);
		progress_add(cw->progress, 1);
	}
	return NULL;
}

static struct checker *checker_worker(struct checker *parent);

/*
 * Below this many files a commit is checked on one thread: a worker's first
 * commit builds its own models (about half a second per architecture), and
 * each worker gets at least half this many files.
 */
#define PARALLEL_MIN_FILES 16

static void check_items(struct checker *c, struct commit_work *cw)
{
	size_t jobs = c->opts->common.jobs > 1 ? (size_t)c->opts->common.jobs : 1;
	struct commit_worker *w;

	if (jobs > cw->nr / (PARALLEL_MIN_FILES / 2))
		jobs = cw->nr / (PARALLEL_MIN_FILES / 2);
	if (jobs < 2 || cw->nr < PARALLEL_MIN_FILES) {
		struct model_set *ps = cw->parent ? model_set_for(c, cw->parent) : NULL;
		struct model_set *ms = model_set_for(c, cw->commit);

		for (size_t i = 0; i < cw->nr; i++) {
			check_item(c, ps, ms, &cw->items[i]);
			progress_add(cw->progress, 1);
		}
		return;
	}
	/* Workers are kept for the next commits: their models stay built. */
	while (c->nr_workers < jobs - 1) {
		struct checker *wc = checker_worker(c);

		wc->results_of = c;
		c->workers = xrealloc(c->workers, (c->nr_workers + 1) * sizeof(*c->workers));
		c->workers[c->nr_workers++] = wc;
	}
	pthread_mutex_init(&cw->lock, NULL);
	w = xcalloc(jobs, sizeof(*w));
	for (size_t j = 0; j < jobs; j++) {
		w[j].cw = cw;
		w[j].c = j ? c->workers[j - 1] : c;
		if (j)
			w[j].started = !pthread_create(&w[j].thread, NULL, commit_run, &w[j]);
	}
	commit_run(&w[0]);
	for (size_t j = 1; j < jobs; j++) {
		if (!w[j].started)
			continue;
		pthread_join(w[j].thread, NULL);
		c->input_errors += w[j].c->input_errors;
		w[j].c->input_errors = 0;
	}
	pthread_mutex_destroy(&cw->lock);
	free(w);
}

int checker_check_commit(struct checker *c, const git_oid *commit, struct defect_list *out)
{
	struct change_list changes = { 0 };
	struct model_set *ms, *ps = NULL;
	git_commit *gc;
	git_oid parent;
	int has_parent;
	struct strmap checked = STRMAP_INIT;
	struct strvec apaths = STRVEC_INIT, ablobs = STRVEC_INIT;
	struct commit_work cw = { .commit = commit };
	size_t alloc = 0;

	if (git_commit_lookup(&gc, repo_git(c->repo), commit) < 0)
		return error("cannot read commit %s", oid_short(c->repo, commit));
	has_parent = git_commit_parentcount(gc) > 0;
	if (has_parent)
		parent = *git_commit_parent_id(gc, 0);
	git_commit_free(gc);

	if (repo_diff_first_parent(c->repo, commit, &c->opts->pathspec, 0, &changes) < 0)
		return -1;
	if (has_parent) {
		ps = model_set_for(c, &parent);
		if (!ps)
			return -1;
		cw.parent = &parent;
	}
	ms = model_set_for(c, commit);
	if (!ms)
		return -1;

	for (size_t i = 0; i < changes.nr; i++) {
		const struct file_change *fc = &changes.files[i];

		if ((!fc->new_path || !is_c_file(fc->new_path)) &&
		    (!fc->old_path || !is_c_file(fc->old_path)))
			continue;
		ALLOC_GROW(cw.items, cw.nr + 1, alloc);
		memset(&cw.items[cw.nr], 0, sizeof(*cw.items));
		cw.items[cw.nr++].fc = fc;
		strmap_put(&checked, fc->new_path ? fc->new_path : fc->old_path, (void *)1);
	}
	if (!ps || !git_oid_equal(&ps->digest, &ms->digest)) {
		affected_files(c, ps, ms, commit, &checked, &apaths, &ablobs);
		for (size_t i = 0; i < apaths.nr; i++) {
			ALLOC_GROW(cw.items, cw.nr + 1, alloc);
			memset(&cw.items[cw.nr], 0, sizeof(*cw.items));
			cw.items[cw.nr].path = apaths.v[i];
			git_oid_fromstr(&cw.items[cw.nr++].blob, ablobs.v[i]);
		}
	}
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
	return 0;
}

/* A census worker: its own models and solvers, the parent's tree data. */
static struct checker *checker_worker(struct checker *parent)
{
	struct checker *c = xcalloc(1, sizeof(*c));

	c->parent = parent;
	c->repo = parent->repo;
	c->opts = parent->opts;
	c->buildfiles = parent->buildfiles;
	c->macros = parent->macros;
	c->macro_defs = parent->macro_defs;
	c->project_config = parent->project_config;
	/*
	 * The parent's lexed Kconfig files (the cache locks): lexed once for
	 * all workers, and a Kconfig error is said once, by whichever parses first.
	 */
	c->kconfig_cache = parent->kconfig_cache;
	c->kbuild_cache = kbuild_cache_new();
	c->host_arch = xstrdup(parent->host_arch);
	pthread_mutex_init(&c->results_lock, NULL);
	return c;
}

struct census {
	struct checker *checker;
	git_oid commit;
	struct strvec paths;
	git_oid *blobs;
	size_t nr, alloc;
	size_t next;		/* the next file to take, under lock */
	pthread_mutex_t lock;
	struct progress *progress;
	size_t done;
};

struct census_worker {
	struct census *cs;
	struct checker *c;
	struct defect_list out;
	pthread_t thread;
};

static int census_list(const struct tree_file *f, void *data)
{
	struct census *cs = data;

	if (!is_c_file(f->path) || !pathspec_match(&cs->checker->opts->pathspec, f->path))
		return 0;
	strvec_push(&cs->paths, f->path);
	ALLOC_GROW(cs->blobs, cs->nr + 1, cs->alloc);
	cs->blobs[cs->nr++] = *f->blob;
	return 0;
}

static void *census_run(void *arg)
{
	struct census_worker *w = arg;
	struct census *cs = w->cs;
	struct model_set *ms = model_set_for(w->c, &cs->commit);

	for (;;) {
		size_t i;

		pthread_mutex_lock(&cs->lock);
		i = cs->next++;
		pthread_mutex_unlock(&cs->lock);
		if (i >= cs->nr || !ms)
			break;
		copy_list(&w->out, blob_defects(w->c, ms, cs->paths.v[i], &cs->blobs[i]), NULL);
		/* The census sees each blob once: keep memory flat. */
		strmap_clear(&w->c->results, free_defect_list);
		pthread_mutex_lock(&cs->lock);
		progress_update(cs->progress, ++cs->done);
		pthread_mutex_unlock(&cs->lock);
	}
	return NULL;
}

int checker_census(struct checker *c, const git_oid *commit, struct defect_list *out)
{
	struct census cs = { .checker = c, .commit = *commit };
	struct census_worker *workers;
	int jobs = c->opts->common.jobs > 0 ? c->opts->common.jobs : 1;
	int ret = 0;

	/* The tree's build files once, before the workers share them. */
	if (!model_set_for(c, commit))
		return -1;
	repo_for_each_file(c->repo, commit, "", census_list, &cs);
	if ((size_t)jobs > cs.nr)
		jobs = cs.nr ? (int)cs.nr : 1;
	pthread_mutex_init(&cs.lock, NULL);
	if (!c->opts->common.quiet)
		cs.progress = progress_start("Checking files", cs.nr);
	workers = xcalloc((size_t)jobs, sizeof(*workers));
	for (int j = 0; j < jobs; j++) {
		workers[j].cs = &cs;
		/* The first worker is this checker: its models are built already. */
		workers[j].c = j ? checker_worker(c) : c;
		if (j && pthread_create(&workers[j].thread, NULL, census_run, &workers[j])) {
			checker_free(workers[j].c);
			workers[j].c = NULL;
		}
	}
	census_run(&workers[0]);
	for (int j = 0; j < jobs; j++) {
		if (j && workers[j].c) {
			pthread_join(workers[j].thread, NULL);
			c->input_errors += workers[j].c->input_errors;
			checker_free(workers[j].c);
		}
		defect_list_take(out, &workers[j].out);
	}
	progress_stop(&cs.progress);
	pthread_mutex_destroy(&cs.lock);
	free(workers);
	strvec_clear(&cs.paths);
	free(cs.blobs);
	defect_list_sort(out);
	return ret;
}

int checker_dump_model(struct checker *c, const git_oid *commit, const char *what)
{
	int files = !strcmp(what, "files");
	/* A model alone needs no scan of every build file; that set is ours to free. */
	struct model_set *ms = files ? model_set_for(c, commit) : model_set_new(c, commit, NULL);
	size_t want = 0;
	struct arch_model *am;
	int ret = 0;

	if (!ms)
		return -1;
	if (ms->arches.nr) {
		const char *arch = c->opts->arch ? c->opts->arch : c->host_arch;
		int found = 0;

		for (size_t i = 0; i < ms->arches.nr; i++)
			if (!strcmp(ms->arches.v[i], arch)) {
				want = i;
				found = 1;
			}
		if (!found) {
			ret = error("no architecture '%s' in this tree", arch);
			goto out;
		}
	}
	if (files) {
		struct kbuild_map *map = get_kbuild(ms, want);
		struct strbuf sb = STRBUF_INIT;

		if (!map)
			return error("cannot read the Makefiles");
		kbuild_map_dump(map, &sb);
		fputs(strbuf_str(&sb), stdout);
		strbuf_release(&sb);
		return 0;
	}
	am = get_model(ms, want);
	if (!am)
		ret = -1;
	else if (!strcmp(what, "symbols"))
		kconfig_dump_symbols(am->kconfig, stdout);
	else
		model_dump_dimacs(am->model, stdout);
out:
	if (!files)
		model_set_free(ms);
	return ret;
}
