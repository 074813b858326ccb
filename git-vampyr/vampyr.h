/* SPDX-License-Identifier: GPL-2.0 */
/*
 * git vampyr: the fewest valid configurations that compile every block a
 * commit touches. The pieces: the blocks to cover (main.c), the greedy cover
 * and the lower bound (cover.c), the fragments (fragment.c), the expansion
 * with the tree's own kconfig (expand.c), the builds (build.c), the output
 * (output.c).
 */
#ifndef VAMPYR_H
#define VAMPYR_H

#include "blocks.h"
#include "logic.h"
#include "model.h"
#include "outtree.h"
#include "process.h"
#include "repo.h"
#include "sat.h"
#include "trees.h"

struct vampyr_kconfig_run;
struct parallel_task;
struct diskcache;

/* One conditional block to cover. */
struct vblock {
	char *path;
	char *shown;		/* path as text and notes show it: quoted as git quotes it */
	int line, end_line;	/* opening and closing directive */
	int number;		/* B<n> in its file */
	long parent;		/* index in vampyr.blocks of the enclosing block, -1 */
	long chain;		/* index of the #if that opens its chain */
	formula pc;
	int lit;		/* solver literal equivalent to pc */
	unsigned target : 1;	/* to be covered (all blocks, or those the hunks touch) */
	unsigned dead : 1;	/* pc unsatisfiable with the model */
	unsigned toolchain : 1;	/* live in the model, but not with this toolchain (--expand) */
	unsigned guard : 1;	/* a header's include guard: never a target */
	long config;		/* the configuration that claims it, -1 */
};

/* A compiler diagnostic that X adds, with the configurations that show it. */
struct vwarning {
	char *text;		/* as the compiler printed it at X */
	struct strvec configs;
};

/* Why expansion lost a claimed block (trace.c). */
enum lost_kind {
	LOST_KCONFIG,	/* the tree's kconfig set a symbol of the chain otherwise */
	LOST_TOOLCHAIN,	/* a toolchain probe decided it: no fragment can keep it */
	LOST_OUTSIDE,	/* names that are not CONFIG symbols */
};
struct vlost {
	size_t block;
	enum lost_kind kind;
	char *chain;	/* "A=n (wanted y) <- B=n (wanted y) <- PAHOLE_VERSION >= 116 [toolchain: ...]" */
	char *probe;	/* LOST_TOOLCHAIN: the probe's text */
};

/* One configuration: a solver model and the blocks it claims. */
struct vconfig {
	char *name;		/* config-1, ... */
	char *path;		/* its fragment */
	int8_t *values;		/* solver assignment, [1..nr_values]: 1 true, -1 false */
	int nr_values;
	size_t *claims;		/* block indices */
	size_t nr_claims, alloc_claims;
	struct strvec assignments;	/* the fragment's lines */
	struct strvec pins;	/* symbols pinned beyond the cone because expansion lost a block */
	/* --expand */
	int expanded;		/* 1 expanded, -1 the kconfig command failed */
	char *expanded_path;	/* the expanded .config */
	struct vlost *lost;	/* claimed blocks the expanded .config does not compile */
	struct strvec changed;	/* fragment lines the expanded .config does not keep, and why */
	size_t nr_lost, alloc_lost;
};

/*
 * What is covered, read-only once loaded: the commit, its build trees
 * (common/trees: the project, where its Kconfig tree starts, its
 * variables, the model and Kbuild map of `arch`) and what is borrowed from
 * them.
 */
struct vampyr_source {
	struct repo *repo;
	git_oid commit;
	const char *patch;	/* --mbox: the subject of the patch that became `commit` */
	const char *arch;	/* NULL for a tree without architectures */
	struct project_config *project_config;
	struct diskcache *diskcache;	/* results kept between runs, or NULL */
	struct trees *trees;
	const char *srctree;	/* the Kconfig tree's directory, "" for the root */
	const char *arch_dir;	/* arch's directory under <srctree>/arch/, or NULL */
	struct kconfig *kconfig;	/* the rest is the trees' */
	struct model *model;
	struct logic *logic;
	struct sat *sat;
	struct blocks *conditions;	/* the blocks' formulas on the model (common/blocks) */
};

/* The cover: the blocks, the configurations that claim them, the lower bound. */
struct vampyr_cover {
	struct vblock *blocks;
	size_t nr_blocks, alloc_blocks;
	struct vconfig *configs;
	size_t nr_configs, alloc_configs;
	size_t nr_targets, nr_dead, nr_covered;
	size_t nr_toolchain;		/* live targets the toolchain rules out (--expand) */
	size_t lower_bound;
	size_t *clique, nr_clique;	/* the blocks that prove the lower bound */
};

/* --expand: what the toolchain decides, learnt from the tree's own kconfig (toolchain.c). */
struct vampyr_toolchain {
	struct strvec facts;		/* "CC_IS_CLANG=n", ... */
	int done;
	/* The digest of the toolchain run's .config: what vouches for kept expansions (expand.c). */
	git_oid id;
	int has_id;
	struct vampyr_kconfig_run *run;	/* vampyr_toolchain_start's kconfig, running */
	/* Its .config kept from before, or where to keep this one's. */
	char *kept, *key, *key_path;
};

/* --expand: the configuring tree and what the expanded configurations compile (expand.c). */
struct vampyr_expansion {
	char *tree;			/* the configuring tree, or NULL */
	size_t nr_covered;		/* targets compiled by some expanded configuration */
	int done;
};

/* --build (build.c). */
struct vampyr_build {
	int done;
	int keep_tree;			/* --keep-tree: say where it is, do not remove it */
	struct vwarning *warnings;
	size_t nr_warnings, alloc_warnings;
};

/* One run, by phase: what is covered, the cover, then what --expand and --build add. */
struct vampyr {
	struct vampyr_source src;
	struct vampyr_cover cover;
	struct vampyr_toolchain toolchain;
	struct vampyr_expansion expansion;
	struct vampyr_build build;
};

/* cover.c */
/* Marks the targets that the model rules out (dead) and gives the others a solver literal. */
void vampyr_find_dead(const struct vampyr_source *src, struct vampyr_cover *cv);
/* Builds configurations greedily until every live target is claimed. */
void vampyr_cover(const struct vampyr_source *src, struct vampyr_cover *cv);
/*
 * A clique of pairwise exclusive live targets: no fewer configurations can
 * cover them. At most `budget` solver queries.
 */
size_t vampyr_lower_bound(const struct vampyr_source *src, struct vampyr_cover *cv, size_t budget);
/*
 * When the count exceeds the lower bound: covers again, each configuration
 * seeded with one block of the bound's clique, and keeps the smaller cover.
 */
void vampyr_recover(const struct vampyr_source *src, struct vampyr_cover *cv);
/*
 * While the count exceeds the lower bound: removes a configuration whose
 * claims each fit into another configuration, fewest claims first.
 */
void vampyr_merge(const struct vampyr_source *src, struct vampyr_cover *cv);
void vconfig_release(struct vconfig *c);

/* fragment.c */
/*
 * Fills c->assignments from c->values: the symbols of the claimed blocks,
 * closed over what decides them (the cone), and c->pins.
 */
void fragment_assignments(const struct vampyr_source *src, const struct vampyr_cover *cv,
			  struct vconfig *c);
/* Writes c->assignments to c->path (through a temporary file: never half a fragment). */
int fragment_write(const struct vconfig *c);
/* manifest.c: the files a run wrote in its output directory, for the next run. */
void manifest_read(const char *dir, struct strvec *names);
int manifest_write(const char *dir, const struct strvec *names);
/* Removes the files of `old` that are not in `now`. */
void manifest_remove_stale(const char *dir, const struct strvec *old, const struct strvec *now);

/* The value of a Kconfig symbol in an assignment: 'y', 'm', 'n', or 0 without a variable. */
int symbol_value(const struct vampyr_source *src, const int8_t *values,
		 const struct kconfig_symbol *sym);
/* The Kconfig symbol behind a model variable (CONFIG_FOO, CONFIG_FOO_MODULE), or NULL. */
struct kconfig_symbol *symbol_of_var(const struct vampyr_source *src, const char *name);
/* A bool or tristate symbol with a prompt. */
int user_settable(const struct kconfig_symbol *sym);

/* trace.c */
/*
 * Why the expanded .config `cfg` of c does not compile `block`: fills *out
 * and pushes onto pins the symbols a user can set whose pinning would help.
 */
int vampyr_trace_lost(const struct vampyr_source *src, const struct vampyr_cover *cv,
		      const struct vconfig *c, struct strmap *cfg, size_t block,
		      struct strvec *pins, struct vlost *out);
void vlost_release(struct vlost *l);
/*
 * The fragment lines of c that its expanded .config `cfg` does not keep, each
 * as "CONFIG_X=y: X=n (wanted y) <- <why>" onto out: a fragment is never
 * changed silently.
 */
void vampyr_trace_changed(const struct vampyr_source *src, const struct vconfig *c,
			  struct strmap *cfg, struct strvec *out);
/*
 * The names outside Kconfig that b's condition also depends on (header
 * macros such as TIF_POLLING_NRFLAG, -D names; kbuild's MODULE aside), as
 * "A, B" to be freed, or NULL: kconfig cannot decide them, only the
 * headers or the build.
 */
char *vampyr_outside_names(const struct vampyr_source *src, const struct vblock *b);

/* expand.c */
struct expand_options {
	const char *kconfig_cmd;	/* NULL: the tree's `make alldefconfig` */
	int keep_tree;			/* debugging: say where the tree is */
	int jobs;			/* kconfig commands at once (-j) */
};
/* What configuring needs (expand.c). */
struct config_files {
	const char *arch_dir;		/* "arch/x86", Xen's "xen/arch/arm"; "" for none */
	const char *srctree;		/* where the Kconfig tree starts, "" for the top */
	struct strvec includes;		/* what the top Makefile includes (U-Boot's include/host_arch.h) */
	/* Where the tree keeps its kconfig programs: each directory of a kconfig/conf.c ("util/kconfig/"). */
	struct strvec kconfig_dirs;
};
/*
 * Writes the tree of `commit` into a new temporary directory (returned, to be
 * removed with process_tmpdir_remove). With cf, only what configuring
 * needs (the Kconfig files, Makefiles, scripts/, the architecture's
 * directory, those includes); NULL writes every file.
 */
char *tree_checkout(struct repo *r, const git_oid *commit, const struct config_files *cf);
/*
 * Writes f (a blob, a symlink; nothing for a submodule) at its path under
 * out, never outside it (outtree.h): 0, or -1 (said).
 */
int tree_write_file(struct repo *r, struct outtree *out, const struct tree_file *f);
/* Blobs written into trees by this process so far (VAMPYR_TEST_BLOB_WRITES). */
size_t tree_blob_writes(void);
/*
 * A file of a full tree (--build) whose blob the repository lacks (a
 * partial clone, a mirror without its largest blobs): warns, and the tree
 * is written without it; the build says whether it needed it. 0 when the
 * blob is there.
 */
int tree_file_absent(struct repo *r, const struct tree_file *f);
/* Sets ex->tree (config_tree) for configuring, unless set already: 0, or -1. */
int vampyr_config_tree(const struct vampyr_source *src, struct vampyr_expansion *ex);
/*
 * What configuring needs of `commit` (cf, as for tree_checkout), from the cache
 * $GIT_DIR/vampyr/trees/<digest of the build files>, written there first
 * when missing. The path, to be freed (not removed); NULL after an error.
 * VAMPYR_TEST_BLOB_WRITES=<file>: appends the count of blobs written.
 */
char *config_tree(struct repo *r, const git_oid *commit, const struct config_files *cf);
/*
 * Expands every configuration (in v->expansion.tree, written first if need be); returns
 * 0, or -1 when the kconfig command could not run.
 */
int vampyr_expand(struct vampyr *v, const struct expand_options *o);
/*
 * The kconfig command in ex->tree on a fragment; the .config it writes (to be
 * freed), or NULL after an error that names `what`.
 */
char *run_kconfig(const struct vampyr_source *src, const struct vampyr_expansion *ex,
		  const char *what, const char *cmd, const char *fragment, const char *config);
/* A shell command run by the engine (parallel.h), its output into a log. */
struct vampyr_command {
	const char *cmd, *what;		/* `sh -c cmd`; what: for messages */
	const char *log;
	const char *argv[4];
	int fd;				/* the log, while it runs */
	off_t logged;			/* bytes written to the log */
};
/* One kconfig command in flight: run_kconfig in steps, so that several run at once. */
struct vampyr_kconfig_run {
	const char *what, *cmd;
	char *fragment, *config;	/* absolute paths */
	char *log;
	/*
	 * The run's own copy of the configuring tree (<tree>.slots/<n>, kept for the next run); NULL with
	 * in_cache, set by the one run that may build the kconfig programs in
	 * the cache itself (the toolchain's, alone, always the same fragment).
	 */
	char *rundir;
	int lock_fd;			/* holds rundir (flock) while the run goes */
	int in_cache;
	char *dir;			/* where the command runs */
	struct strvec env;
	struct vampyr_command command;
	struct parallel_task *task;	/* vampyr_kconfig_start's thread */
	int status;			/* its wait status, once the thread is done */
	int running, done;
	char *text;			/* once done: the .config, or NULL after an error (said) */
	/* The kept expansion to write once it succeeds (<tree>/.vampyr-expanded/<id>), its key. */
	char *kept_path, *kept_key;
};
void vampyr_kconfig_run_init(struct vampyr_kconfig_run *r, const char *what,
			     const char *fragment, const char *config);
/*
 * Starts it in ex->tree, on a thread beside the caller (parallel_start): 0,
 * or -1 (said; then done, without text).
 */
int vampyr_kconfig_start(const struct vampyr_source *src, const struct vampyr_expansion *ex,
			 struct vampyr_kconfig_run *r, const char *cmd);
/* Waits for its end: reads the .config, or says the error. */
void vampyr_kconfig_wait(struct vampyr_kconfig_run *r);
/* Frees it; returns its text (to be freed). */
char *vampyr_kconfig_run_release(struct vampyr_kconfig_run *r);
/* The default kconfig command, when o->kconfig_cmd is NULL. */
const char *vampyr_kconfig_command(const struct expand_options *o);
/* Removes ex->tree (or says where it is kept). */
void vampyr_tree_done(struct vampyr_expansion *ex, const struct expand_options *o);

/* probes.c */
/*
 * Adds to env what makes the compiler probes of a kconfig run in `tree` go
 * through vampyr-cc, which keeps their answers under <tree>/.vampyr-probes/
 * (nothing when VAMPYR_NO_PROBE_CACHE is set or vampyr-cc is not installed).
 * A run in rundir, a copy of tree (NULL: none), shares the tree's answers.
 */
void probe_cache_env(const char *tree, const char *rundir, struct strvec *env);
/*
 * Where vampyr-cc notes what the answers of the run in the tree itself (the
 * toolchain's, rundir NULL) depend on (VAMPYR_CC_DEPS); probe_cache_env
 * creates it empty. To be freed.
 */
char *probe_deps_path(const char *tree);
/* vampyr-cc beside this executable (../libexec/undertaker/), or NULL; to be freed. */
char *probe_cc_program(void);

/* toolchain.c */
/*
 * Runs the tree's kconfig once with an empty fragment (in v->expansion.tree, written
 * here) and pins the symbols that only toolchain probes decide ($(cc-option),
 * $(success), ...: free in the model) to the values found; the live targets
 * this rules out are marked (vblock.toolchain) and not covered. Call between
 * vampyr_find_dead and vampyr_cover. 0, or -1 when the command could not run.
 */
int vampyr_toolchain(struct vampyr *v, const struct expand_options *o);
/*
 * Starts that kconfig run (in ex->tree, written here), so that it runs while
 * vampyr_find_dead solves; vampyr_toolchain waits for it. 0, or -1.
 */
int vampyr_toolchain_start(const struct vampyr_source *src, struct vampyr_toolchain *tc,
			   struct vampyr_expansion *ex, const struct expand_options *o);
/* The values of a .config read over `base` (solver values for what Kconfig does not set). */
int8_t *config_values(const struct vampyr_source *src, const char *config_text, const int8_t *base,
		      int nr);
/* Does `values` compile block b? */
int block_compiled(const struct vampyr_source *src, const int8_t *values, int nr,
		   const struct vblock *b);
/* The CONFIG_ lines of a .config into cfg: name (without CONFIG_) -> value. */
void config_parse(const char *text, struct strmap *cfg);
/* y 2, m 1, n 0 of a bool or tristate Kconfig expression on a .config; -1 when unknown. */
int config_eval(const struct kconfig *kc, const struct kconfig_expr *e, struct strmap *cfg);
/* The operands of the top-level && of e. */
void config_conjuncts(const struct kconfig_expr *e, const struct kconfig_expr ***out, size_t *nr,
		      size_t *alloc);
/* The environment as a kept run's key has it (expand.c): sorted, shell noise aside. */
void vampyr_add_environment(struct strbuf *key);
/* Runs `sh -c cmd` in dir with extra "NAME=value" environment, output to log; exit status. */
int run_command(const char *cmd, const char *dir, const struct strvec *env, const char *log);

/* build.c */
/*
 * Builds every expanded configuration at X and at X's first parent (the
 * objects of the C and assembler files X changes, appended to cmd) and keeps
 * in bd->warnings the diagnostics X adds. Returns 0, or -1 when no tree could be written.
 */
int vampyr_build(const struct vampyr_source *src, const struct vampyr_cover *cv,
		 struct vampyr_build *bd, const char *cmd);

/* output.c */
void vampyr_print_text(const struct vampyr *v, FILE *out);
void vampyr_print_json(const struct vampyr *v, struct strbuf *out);
/*
 * The note: the summary, the fragments and the coverage of this run, as the
 * section `key` ("arch x86 -- kernel/fork.c") of the note `old` (NULL for
 * none): a run again with the same key replaces its section, others stay.
 */
void vampyr_note(const struct vampyr_cover *cv, const struct vampyr_expansion *ex,
		 const struct vampyr_build *bd, const char *old, const char *key, struct strbuf *out);

#endif
