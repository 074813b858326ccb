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

#include "kconfig.h"
#include "logic.h"
#include "model.h"
#include "pc.h"
#include "repo.h"
#include "sat.h"

/* One conditional block to cover. */
struct vblock {
	char *path;
	int line, end_line;	/* opening and closing directive */
	int number;		/* B<n> in its file */
	long parent;		/* index in vampyr.blocks of the enclosing block, -1 */
	long chain;		/* index of the #if that opens its chain */
	formula pc;
	int lit;		/* solver literal equivalent to pc */
	unsigned target : 1;	/* to be covered (all blocks, or those the hunks touch) */
	unsigned dead : 1;	/* pc unsatisfiable with the model */
	unsigned toolchain : 1;	/* live in the model, but not with this toolchain (--expand) */
	long config;		/* the configuration that claims it, -1 */
};

/* A compiler diagnostic that X adds, with the configurations that show it. */
struct vwarning {
	char *text;		/* as the compiler printed it at X */
	struct strvec configs;
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
	int pin_level;		/* how much of the model the fragment pins (fragment.c) */
	/* --expand */
	int expanded;		/* 1 expanded, -1 the kconfig command failed */
	char *expanded_path;	/* the expanded .config */
	size_t *lost;		/* claimed blocks the expanded .config does not compile */
	size_t nr_lost, alloc_lost;
};

struct vampyr {
	struct repo *repo;
	git_oid commit;
	const char *arch;	/* NULL for a tree without architectures */
	struct kconfig *kconfig;
	struct model *model;
	struct logic *logic;
	struct sat *sat;
	struct pc_context pcx;
	struct strmap defined;	/* symbol names this tree's Kconfig defines */
	struct vblock *blocks;
	size_t nr_blocks, alloc_blocks;
	struct vconfig *configs;
	size_t nr_configs, alloc_configs;
	size_t nr_targets, nr_dead, nr_covered;
	/* --expand: what the toolchain decides, learnt from the tree's own kconfig */
	size_t nr_toolchain;		/* live targets it rules out */
	struct strvec toolchain_facts;	/* "CC_IS_CLANG=n", ... */
	int toolchain_done;
	char *tree;			/* the configuring tree of --expand, or NULL */
	size_t lower_bound;
	size_t *clique, nr_clique;	/* the blocks that prove the lower bound */
	/* after --expand: targets compiled by some expanded configuration */
	size_t nr_covered_expanded;
	int expand_done;
	/* --build */
	int build_done;
	struct vwarning *warnings;
	size_t nr_warnings, alloc_warnings;
};

/* cover.c */
/* Marks the targets that the model rules out (dead) and gives the others a solver literal. */
void vampyr_find_dead(struct vampyr *v);
/* Builds configurations greedily until every live target is claimed. */
void vampyr_cover(struct vampyr *v);
/*
 * A clique of pairwise exclusive live targets: no fewer configurations can
 * cover them. At most `budget` solver queries.
 */
size_t vampyr_lower_bound(struct vampyr *v, size_t budget);
/*
 * When the count exceeds the lower bound: covers again, each configuration
 * seeded with one block of the bound's clique, and keeps the smaller cover.
 */
void vampyr_recover(struct vampyr *v);
/*
 * While the count exceeds the lower bound: removes a configuration whose
 * claims each fit into another configuration, fewest claims first.
 */
void vampyr_merge(struct vampyr *v);
void vconfig_release(struct vconfig *c);

/* fragment.c */
enum pin_level {
	PIN_CONE,	/* the claimed blocks' symbols and what they depend on */
	PIN_REVERSE,	/* and the symbols that select or imply those */
	PIN_ALL,	/* the whole assignment */
	PIN_MAX = PIN_ALL
};
/* Fills c->assignments from c->values at c->pin_level. */
void fragment_assignments(struct vampyr *v, struct vconfig *c);
/* Writes c->assignments to c->path (through a temporary file: never half a fragment). */
int fragment_write(const struct vconfig *c);
/* manifest.c: the files a run wrote in its output directory, for the next run. */
void manifest_read(const char *dir, struct strvec *names);
int manifest_write(const char *dir, const struct strvec *names);
/* Removes the files of `old` that are not in `now`. */
void manifest_remove_stale(const char *dir, const struct strvec *old, const struct strvec *now);

/* The value of a Kconfig symbol in an assignment: 'y', 'm', 'n', or 0 without a variable. */
int symbol_value(struct vampyr *v, const int8_t *values, const struct kconfig_symbol *sym);

/* expand.c */
struct expand_options {
	const char *kconfig_cmd;	/* NULL: the tree's `make alldefconfig` */
	int keep_tree;			/* debugging: leave the temporary tree */
};
/*
 * Writes the tree of `commit` into a new temporary directory (returned, to be
 * removed with remove_tree). With config_arch (the architecture, "" for
 * none), only what configuring needs (expand.c); NULL writes every file.
 */
char *tree_checkout(struct repo *r, const git_oid *commit, const char *config_arch);
int remove_tree(const char *dir);
/*
 * Expands every configuration (in v->tree, written first if need be); returns
 * 0, or -1 when the kconfig command could not run.
 */
int vampyr_expand(struct vampyr *v, const struct expand_options *o);
/*
 * The kconfig command in v->tree on a fragment; the .config it writes (to be
 * freed), or NULL after an error that names `what`.
 */
char *run_kconfig(struct vampyr *v, const char *what, const char *cmd, const char *fragment,
		  const char *config);
/* The default kconfig command, when o->kconfig_cmd is NULL. */
const char *kconfig_command(const struct expand_options *o);
/* Removes v->tree (or says where it is kept). */
void vampyr_tree_done(struct vampyr *v, const struct expand_options *o);

/* toolchain.c */
/*
 * Runs the tree's kconfig once with an empty fragment (in v->tree, written
 * here) and pins the symbols that only toolchain probes decide ($(cc-option),
 * $(success), ...: free in the model) to the values found; the live targets
 * this rules out are marked (vblock.toolchain) and not covered. Call between
 * vampyr_find_dead and vampyr_cover. 0, or -1 when the command could not run.
 */
int vampyr_toolchain(struct vampyr *v, const struct expand_options *o);
/* The values of a .config read over `base` (solver values for what Kconfig does not set). */
int8_t *config_values(struct vampyr *v, const char *config_text, const int8_t *base, int nr);
/* Does `values` compile block b? */
int block_compiled(struct vampyr *v, const int8_t *values, int nr, const struct vblock *b);
/* Runs `sh -c cmd` in dir with extra "NAME=value" environment, output to log; exit status. */
int run_command(const char *cmd, const char *dir, const struct strvec *env, const char *log);

/* build.c */
/*
 * Builds every expanded configuration at X and at X's first parent and keeps
 * in v->warnings the diagnostics X adds. Returns 0, or -1 when no tree could be written.
 */
int vampyr_build(struct vampyr *v, const char *cmd);

/* output.c */
void vampyr_print_text(struct vampyr *v, FILE *out);
void vampyr_print_json(struct vampyr *v, struct strbuf *out);
/*
 * The note: the summary, the fragments and the coverage of this run, as the
 * section `key` ("arch x86 -- kernel/fork.c") of the note `old` (NULL for
 * none): a run again with the same key replaces its section, others stay.
 */
void vampyr_note(struct vampyr *v, const char *old, const char *key, struct strbuf *out);

#endif
