/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The build trees of one commit, as every command needs them: which project
 * it is and where its Kconfig tree starts, the architectures and their
 * directories, one model and one Kbuild map per architecture built when first
 * asked, the names defined by -D flags and forced headers, and the solver's
 * samples kept between runs. It knows nothing of the command that asks.
 */
#ifndef UT_TREES_H
#define UT_TREES_H

#include "buildfiles.h"
#include "cpp.h"
#include "kbuild.h"
#include "kconfig.h"
#include "logic.h"
#include "project.h"
#include "repo.h"
#include "sat.h"

#include <pthread.h>
#include <stdio.h>

struct model;
struct diskcache;

/* One architecture's model (or the tree's only one: arch NULL). */
struct arch_model {
	const char *arch;
	struct kconfig *kconfig;
	struct model *model;
	struct logic *logic;
	struct sat *sat;	/* the model's solver */
	struct sat *code_sat;	/* the same store, no Kconfig: the `code` cause */
	int base_vars;		/* the model's own variables, 1..base_vars */
	char *samples_path;	/* where its solver's witnesses are kept between runs, or NULL */
	int in_share;		/* sat_shares_get() under samples_path: put back when freed */
	int stats_printed;	/* UNDERTAKER_STATS */
	int from_cache;		/* the model was read from the disk cache, not built */
	size_t constant;	/* questions answered as their formula was built (a constant) */
	/* The analysis's rewrite of formulas with names no Kconfig defines off, or NULL. */
	struct logic_restrict *missing_off;
	/* Shared (trees_share): how often and how long a worker waited for another's use. */
	size_t waits;
	double wait_seconds;
};

/* What an analysis needs of a tree: its models, built on demand. */
struct tree_models {
	void *data;
	size_t nr_arches;		/* 0 for a tree with a single model */
	const char *const *arch_names;
	/*
	 * The directory of architecture i's own files: "<arch_prefix><arch_dirs[i]>/"
	 * ("arch/x86/"; Xen's "xen/arch/arm/" for both arm32 and arm64).
	 * NULL arch_dirs: the names; NULL arch_prefix: "arch/".
	 */
	const char *const *arch_dirs;
	const char *arch_prefix;
	/* Builds or returns model `i` (0 when nr_arches is 0); NULL when it failed. */
	struct arch_model *(*get)(void *data, size_t i);
	const struct strmap *kconfig_defined;	/* buildfiles_info */
	const struct strmap *cmdline_defined;
	const struct strmap *arch_mentions;	/* buildfiles_info */
	const struct strmap *kconfig_outside;	/* buildfiles_info */
	/*
	 * Kbuild's condition for a .c/.S file on architecture i (NULL when kbuild
	 * says nothing of it: headers, trees without Kbuild, unlisted files).
	 */
	const struct kbuild_file *(*file_condition)(void *data, size_t i, const char *path);
	/*
	 * What builds the files, as the text names it: "kbuild", or "the build"
	 * for coreboot's Makefile.mk and Zephyr's CMake (the cause stays `kbuild`).
	 */
	const char *build_name;
	/* The Makefile lines that decide it there (kbuild_map_why); set with file_condition. */
	size_t (*file_why)(void *data, size_t i, const char *path, struct kbuild_why *out,
			   size_t max);
	/*
	 * --explain: the explanation of a missing name is to say where it was
	 * defined before it disappeared. The walk of the history that finds it
	 * is the caller's, for the defects it reports (analyze.h).
	 */
	int explain_removals;
	size_t primary;			/* the architecture to try first */
	const char *only_arch;		/* --arch */
	/*
	 * The project's macros for C (U-Boot's CONFIG_IS_ENABLED): the presets
	 * of this commit's kind of tree, then undertaker.macro, as
	 * cpp_macros_add() took them (those it refused left out of `macros`).
	 */
	const struct cpp_macros *macros;
	const struct strvec *macro_defs;
	/*
	 * Models shared between threads (trees_share): hold(data, i) before
	 * model i (get, its formulas, its solver, file_condition, file_why) is
	 * used, release(data, i) after, one model held at a time. NULL: not shared.
	 */
	void (*hold)(void *data, size_t i);
	void (*release)(void *data, size_t i);
};

/*
 * What the user's git config says of every commit's trees (project.h:
 * undertaker.srctree, .env, .macro, .presets), read once per run. The
 * undertaker.macro definitions that cpp refuses are pushed to `bad` (may
 * be NULL): the command says so; the trees leave them out.
 */
struct project_config *trees_config_new(struct repo *r, struct strvec *bad);
void trees_config_free(struct project_config *pc);
/*
 * The host's architecture as the kernel's top Makefile derives SRCARCH from
 * `uname -m` (project_host_srcarch): the primary one when no --arch is given.
 */
const char *trees_host_arch(void);

/*
 * The macro definitions (tree_models.macro_defs) of the trees of `commit`
 * under `pc`, without building them: a key of what a run's results depend on.
 */
void trees_macro_defs(const struct project_config *pc, struct repo *r, const git_oid *commit,
		      struct strvec *defs);

/* What the command hands the trees of a commit; copied by trees_new. */
struct trees_env {
	struct repo *repo;
	const struct project_config *project_config;
	/* May be shared between threads; NULL: trees_cache_init() makes one. */
	struct kconfig_cache *kconfig_cache;
	size_t kconfig_cache_budget;		/* bytes of the one it makes (0: the default) */
	struct kbuild_cache *kbuild_cache;	/* one per thread; NULL: trees_cache_init() makes one */
	const char *host_arch;			/* the primary one by default (NULL: the host's) */
	const char *only_arch;			/* --arch (trees_check_arch'ed), or NULL */
	int no_kbuild;				/* no file conditions */
	int quiet;				/* the tree's absence was said already */
	/* No warning for files the build gives no condition (a census without --verbose). */
	int quiet_unbuilt;
	int stats;				/* UNDERTAKER_STATS: trees_stats_* on stderr */
	/* Solver samples per model (UNDERTAKER_POOL): 0 MODEL_WITNESSES, -1 none. */
	int witnesses;
	/* Where the solver's samples are kept ("$GIT_DIR/undertaker/samples"), or NULL. */
	const char *samples_dir;
	/*
	 * The run's shares of models between workers (sat.h), or NULL: each
	 * model joins the one of its samples file.
	 */
	struct sat_shares *shares;
	/* Results kept between runs (diskcache.h), or NULL. */
	struct diskcache *diskcache;
	int no_model_entries;			/* models are read from it, not written */
	/*
	 * Kbuild maps shared by the trees of one cache whose Makefiles read
	 * the same files (a commit that changes only Kconfig files, and its
	 * parent): set by trees_cache_init, NULL elsewhere.
	 */
	struct trees_kbuilds *kbuilds;
	int explain_removals;	/* tree_models.explain_removals */
};

struct trees {
	git_oid commit;			/* a commit with these build files */
	git_oid digest;			/* of the build files (zero without bf) */
	const struct buildfiles_info *bf;
	struct project project;		/* where its Kconfig tree starts, its variables */
	struct strvec arches;		/* empty: a single model */
	struct strvec arch_dirs;	/* each one's directory under <srctree>/arch/ */
	struct strvec foreign;		/* project_foreign_trees(): files there are not checked */
	struct strvec macro_defs;	/* tm.macro_defs */
	struct cpp_macros *macros;	/* tm.macros */
	struct tree_models tm;		/* data is this struct */
	/* the rest is trees.c's own */
	struct trees_env env;
	char *arch_prefix;
	struct arch_model *models;	/* trees_nr_models() entries */
	char *built;			/* 1: tried to build models[i] */
	struct kbuild_map **kbuild;
	char *kbuild_built;
	struct strmap build_defined;	/* -D names and those of forced headers */
	struct trees *owner;		/* trees_borrow: whose models this one uses */
	pthread_mutex_t *locks;		/* trees_share: one per model, then the Kbuild maps' */
	struct trees_sources *sources;	/* trees-sources.c's */
	char *files_digest;		/* of the tree's file list, once asked (Kbuild maps' cache) */
	struct buildfiles *own_buildfiles;	/* trees_open's */
};

/*
 * The trees of `commit`. `bf` (the build files' scan) may be NULL when only
 * a model is wanted: no missing-name maps, no -D names, no samples kept.
 */
struct trees *trees_new(const struct trees_env *env, const git_oid *commit,
			const struct buildfiles_info *bf);
/*
 * The trees of `commit` with a scan of its build files of their own (kept in
 * env->diskcache): what a command that looks at one commit needs. NULL when
 * the build files cannot be read; trees_free() frees the scan too.
 */
struct trees *trees_open(const struct trees_env *env, const git_oid *commit);
/* Saves the samples (trees_save) and frees. */
void trees_free(struct trees *t);
/* Writes the solver's samples of every model built so far. */
void trees_save(struct trees *t);

/*
 * Makes the models of `t` shareable by threads that check other files of the
 * same commit (a census's workers, trees_borrow), each model with its solver
 * used by one thread at a time (tree_models.hold). Call before they start.
 */
void trees_share(struct trees *t);
/*
 * `t`, another thread's trees of the same build files, uses the models and
 * Kbuild maps of `owner` (trees_share'd, which must outlive it) instead of
 * building its own: each model is built once and held once in memory. Only
 * the primary architecture's model, which every file asks, stays its own.
 */
void trees_borrow(struct trees *t, struct trees *owner);
/*
 * Ends trees_borrow(): `t` builds its own models again. A worker's trees are
 * kept from one commit to the next, the owner's may not be.
 */
void trees_unborrow(struct trees *t);

/*
 * Frees the models and Kbuild maps of every architecture but the primary
 * one (built again if asked for): a range's commit whose parent side is
 * done keeps one side's architectures alive, not both. Not while another
 * thread uses `t` (borrowers included).
 */
void trees_release_others(struct trees *t);
/* The same for architecture i alone (nothing for the primary one). */
void trees_release_model(struct trees *t, size_t i);

/* Where the Kconfig tree starts: "" for the repository root, else a directory without slash. */
const char *trees_srctree(const struct trees *t);
/* NAME=value for $(NAME) in its Kconfig files: the project's presets, then undertaker.env. */
const struct strvec *trees_variables(const struct trees *t);
/* No Kconfig tree at the commit (no top Kconfig, no <dir>/Kconfig with a mainmenu). */
int trees_no_kconfig(const struct trees *t);
/*
 * Does the tree's build run its defconfigs through cpp (U-Boot: `#include`
 * lines in configs/), so that a defconfig's includes are part of it?
 */
int trees_defconfig_cpp(const struct trees *t);

/* arches.nr, or 1 for a tree with a single model. */
size_t trees_nr_models(const struct trees *t);
/* Model i, built when first asked; NULL when it could not be built. */
struct arch_model *trees_model(struct trees *t, size_t i);
/* Has model i been asked for already? */
int trees_model_built(const struct trees *t, size_t i);
/* Kbuild's map of architecture i, built when first asked; NULL without Makefiles. */
struct kbuild_map *trees_kbuild(struct trees *t, size_t i);
/*
 * The architecture whose own directory holds `path` ("arch/arm/..." is arm's;
 * the first of those that share one), or -1 for a file of every architecture.
 */
int trees_path_arch(const struct trees *t, const char *path);
/* The index of `arch`, or -1. */
int trees_arch_index(const struct trees *t, const char *arch);
/*
 * Files these models say nothing about: every file when there is no Kconfig
 * tree (each CONFIG_ name would be "missing"), and the code of another
 * Kconfig tree inside this one (coreboot's payloads/libpayload/).
 */
int trees_not_checked(const struct trees *t, const char *path);

/*
 * --dump-model: architecture `arch` (the tree's only model when it has one)
 * as DIMACS ("dimacs"), its symbols ("symbols") or Kbuild's file conditions
 * ("files"), on `out`. 0, or -1 after an error was said.
 */
int trees_dump(struct trees *t, const char *arch, const char *what, FILE *out);

/*
 * The trees of the last few distinct sets of build files, each with the
 * models built so far: consecutive commits mostly share theirs.
 */
#define TREES_CACHE_SIZE 3
struct trees_cache {
	struct trees_env env;
	struct buildfiles *buildfiles;
	struct trees *sets[TREES_CACHE_SIZE];
	unsigned long last_use[TREES_CACHE_SIZE], clock;
	struct buildfiles *history;	/* trees_cache_removal's walk, this cache's own */
	/* What trees_cache_init() made, trees_cache_release() frees. */
	unsigned own_buildfiles : 1, own_kconfig_cache : 1, own_kbuild_cache : 1;
};
/*
 * `env` is copied, its caches made where NULL (env.kconfig_cache then
 * serves another cache's env: a thread's that shares this one's Kconfig
 * files). `share`: the cache of another thread whose build files' scan
 * (thread-safe) this one uses, or NULL for a scan of its own (kept in
 * env.diskcache).
 */
void trees_cache_init(struct trees_cache *tc, const struct trees_env *env,
		      const struct trees_cache *share);
/* The digest of the build files of `commit` (0), or -1 when they cannot be read. */
int trees_cache_digest(struct trees_cache *tc, const git_oid *commit, git_oid *digest);
/*
 * buildfiles_trim() of the cache's scan, keeping the `nr` digests `keep`
 * (trees_cache_digests of every cache that shares it).
 */
void trees_cache_trim(struct trees_cache *tc, const git_oid *keep, size_t nr);
/* "kconfig cache: ..." on stderr: the files its Kconfig cache lexed, reused, evicted. */
void trees_cache_stats(const struct trees_cache *tc);
/* The trees of `commit` (those of a commit with the same build files); NULL on error. */
struct trees *trees_cache_get(struct trees_cache *tc, const git_oid *commit);
/*
 * Appends the build-file digests of the trees the cache holds to *out
 * (*nr of *alloc used): what buildfiles_trim() must keep.
 */
void trees_cache_digests(const struct trees_cache *tc, git_oid **out, size_t *nr, size_t *alloc);
void trees_cache_save(struct trees_cache *tc);
void trees_cache_release(struct trees_cache *tc);

/*
 * Is the name (with or without CONFIG_; CONFIG_X_MODULE for a tristate X)
 * defined by some Kconfig file of the tree, or passed by its build with -D?
 * trees_kconfig_defines: by a Kconfig file.
 */
int trees_defines(const struct tree_models *tm, const char *name);
int trees_kconfig_defines(const struct tree_models *tm, const char *name);

/* ---- trees-history.c ---- */

/*
 * Where a Kconfig symbol went (--explain of a missing name): walks first
 * parents back from `commit` (whose Kconfig files do not define `name`,
 * with or without its CONFIG_ prefix) to the commit that removed its last
 * definition, asking the build files of each parent whether they define
 * it (each changed subtree read once in the walk, memoized in the cache
 * between names) and reading the diff of that commit only. Returns 1 and
 * appends "<path>:<line> until <commit> (<title>)" to `out`, with ", which
 * renamed it CONFIG_NEW" when that commit put a new `config` line in its
 * place; 0 when none of 1000 commits did; -1 on a read error.
 */
int trees_cache_removal(struct trees_cache *tc, const git_oid *commit, const char *name,
			struct strbuf *out);

/* ---- trees-sources.c ---- */

/*
 * The condition of a source the build runs through cpp other than C's
 * (trees_is_source): a device tree that a `dtb-$(CONFIG_X) += board.dtb` of
 * its directory's Makefile lists, OR the conditions of the files that
 * #include it (a .dtsi); NULL where the build gives none (a warning says so
 * once per suffix). Built on architecture i's Kbuild map's nodes.
 */
const struct kbuild_file *trees_source_condition(struct trees *t, size_t i, const char *path);
void trees_sources_free(struct trees_sources *s);
/* Forgets the conditions built on architecture i's Kbuild map (freed). */
void trees_sources_forget(struct trees_sources *s, size_t i);

/* ---- trees-changed.c ---- */

/* A .c, .h or .S file. */
int trees_is_c_file(const char *path);
/* A Kconfig file (by its name: Kconfig*, *.kconfig, Config.in, Config.src*). */
int trees_is_kconfig_path(const char *path);
/* A defconfig or config fragment (CONFIG_X=y lines): buildfiles_is_defconfig. */
int trees_is_defconfig(const char *path);
/*
 * The files whose blocks are checked: C's, and those whose suffix the
 * Makefiles of `t` run through cpp (buildfiles_info.cpp_suffixes: .dts,
 * .lds, .asl, .env...). t may be NULL: C's only.
 */
int trees_is_source(const struct trees *t, const char *path);
/*
 * The names (without CONFIG_) whose Kconfig definitions differ between
 * `old` (NULL: none) and `new`, both scanned with their build files: those
 * that appeared in or disappeared from any Kconfig file, and those whose
 * definitions changed on the architectures built so far (and the primary one).
 */
void trees_changed_symbols(struct trees *old, struct trees *new, struct strmap *changed);
/*
 * The C files at `commit` (whose trees are `new`) within `pathspec` and not
 * in `skip` that name a symbol of trees_changed_symbols(), the defconfigs
 * that set one, and the Kconfig files that name or define one: their paths and blob ids (hex) are appended
 * to `paths` and `blobs`.
 */
void trees_affected_files(struct trees *old, struct trees *new, const git_oid *commit,
			  const struct strvec *pathspec, const struct strmap *skip,
			  struct strvec *paths, struct strvec *blobs);

/*
 * --arch=<arch> against the architectures of the tree at `commit`, before any
 * work: 0 when it is one of them (or NULL), else -1 with the reason appended
 * to `why` (no newline at its end): an invalid name, or "no architecture" with
 * the closest and the valid ones on a second line. The command says it and
 * exits (a usage error, 129). A tree with one model for every architecture
 * (U-Boot, Zephyr) takes the names of its arch/<dir>/Kconfig directories; a
 * tree without any, any, with a warning.
 */
int trees_check_arch(struct repo *r, const git_oid *commit, const char *arch, struct strbuf *why);

/*
 * The disk cache of a repository (diskcache.h): <common dir>/undertaker/cache,
 * its budget undertaker.cacheSize (git's size syntax; 0 turns it off).
 * NULL when off. trees_diskcache_gc is `--gc-cache`.
 */
struct diskcache *trees_diskcache_open(struct repo *r, int stats);
int trees_diskcache_gc(struct repo *r);

/*
 * Where a run's CPU time goes, on stderr (trees_env.stats, UNDERTAKER_STATS):
 * the clock when `stats`, else 0; a report of start 0 says nothing.
 */
double trees_stats_clock(int stats);
void trees_stats_report(const char *what, const char *arch, double start);

#endif
