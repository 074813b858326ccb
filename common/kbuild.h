/* SPDX-License-Identifier: GPL-2.0 */
/*
 * File presence conditions from Kbuild: for every C and asm source file of a
 * tree, the condition on CONFIG symbols under which kbuild compiles it, read
 * from the Makefiles and Kbuild files (obj-$(CONFIG_X) += foo.o, composite
 * objects, subdirectories, ifdef/ifeq, the architecture's entry point).
 *
 * A condition is a sound over-approximation: whatever this module cannot
 * understand statically (a $(shell ...), an unknown variable) becomes a free
 * variable, never a guess that could make a compiled file's condition false.
 * Knows nothing of C.
 */
#ifndef UT_KBUILD_H
#define UT_KBUILD_H

#include "util.h"

/* ---- conditions ----
 *
 * In the tristate encoding of the Kconfig model (X for y, X_MODULE for m):
 * ENABLED(X) is X || X_MODULE, BUILTIN(X) is X, MODULE(X) is X_MODULE,
 * DEFINED(N) is what `defined(N)` means to the C preprocessor in the file,
 * and each distinct FREE text is one fresh variable (never tied to Kconfig).
 * A symbol no Kconfig defines is simply never y or m, as kbuild sees it.
 */

enum kbuild_op {
	KB_FALSE,
	KB_TRUE,
	KB_ENABLED,	/* CONFIG_<name> is y or m */
	KB_BUILTIN,	/* CONFIG_<name> is y */
	KB_MODULE,	/* CONFIG_<name> is m */
	KB_DEFINED,	/* the build passes -D<name> (a phase's name: CONFIG_SPL_BUILD) */
	KB_EQUALS,	/* the string option's value is the text: name is "<symbol>=<text>" */
	KB_FREE,	/* something kbuild decides that we cannot: a free variable named by its text */
	KB_NOT,
	KB_AND,
	KB_OR,
};

/*
 * A node of a hash-consed expression: structurally equal expressions of one
 * struct kbuild_exprs are the same pointer, so pointer comparison is equality.
 * AND/OR are n-ary, flattened, their operands sorted and free of duplicates.
 */
struct kbuild_expr {
	enum kbuild_op op;
	uint32_t hash;
	unsigned nr;			/* operands of NOT (1), AND, OR */
	const char *name;		/* symbol without CONFIG_, or the free variable's text */
	const struct kbuild_expr **sub;
};

/* The arena that owns every node; freeing it frees them all. */
struct kbuild_exprs;
struct kbuild_exprs *kbuild_exprs_new(void);
void kbuild_exprs_free(struct kbuild_exprs *ex);

const struct kbuild_expr *kbuild_expr_true(struct kbuild_exprs *ex);
const struct kbuild_expr *kbuild_expr_false(struct kbuild_exprs *ex);
/* `sym` is the symbol's name with or without its CONFIG_ prefix. */
const struct kbuild_expr *kbuild_expr_enabled(struct kbuild_exprs *ex, const char *sym);
const struct kbuild_expr *kbuild_expr_builtin(struct kbuild_exprs *ex, const char *sym);
const struct kbuild_expr *kbuild_expr_module(struct kbuild_exprs *ex, const char *sym);
const struct kbuild_expr *kbuild_expr_free(struct kbuild_exprs *ex, const char *text);
/* `name` (as the C code writes it, CONFIG_SPL_BUILD) is passed with -D. */
const struct kbuild_expr *kbuild_expr_defined(struct kbuild_exprs *ex, const char *name);
/* The string option `sym` (without CONFIG_) is "text" ("" when unset): U-Boot's SYS_BOARD. */
const struct kbuild_expr *kbuild_expr_equals(struct kbuild_exprs *ex, const char *sym,
					     const char *text);
/* These simplify: constants, x && !x, CONFIG_X=y || CONFIG_X=m == CONFIG_X, absorption. */
const struct kbuild_expr *kbuild_expr_not(struct kbuild_exprs *ex, const struct kbuild_expr *a);
const struct kbuild_expr *kbuild_expr_and(struct kbuild_exprs *ex, const struct kbuild_expr *a,
				 const struct kbuild_expr *b);
const struct kbuild_expr *kbuild_expr_or(struct kbuild_exprs *ex, const struct kbuild_expr *a,
				const struct kbuild_expr *b);

/*
 * Appends a readable, stable infix form: `CONFIG_A && (CONFIG_B=y || !CONFIG_C=m)`,
 * where CONFIG_X means y or m, CONFIG_X=y built in, CONFIG_X=m a module,
 * `defined(N)` a name passed with -D, `CONFIG_S="text"` a string option's
 * value, `[text]` a free variable, `true` and
 * `false` the constants.
 * Precedence: ! over && over ||.
 */
void kbuild_expr_print(const struct kbuild_expr *e, struct strbuf *out);
/* Whether a free variable occurs in e. */
int kbuild_expr_has_free(const struct kbuild_expr *e);

/*
 * Evaluates e under a configuration: `value` returns 'y', 'm' or 'n' for a
 * symbol name (without CONFIG_). Free variables, string values and -D names are unknown:
 * the result is 1 (true), 0 (false) or -1 (depends on one), Kleene logic.
 */
int kbuild_expr_eval(const struct kbuild_expr *e,
		     char (*value)(const char *sym, void *data), void *data);

/* ---- reading a tree ---- */

/*
 * Where the Makefiles and the file list come from: the object store at one
 * commit (kbuild_repo_reader in kbuild-repo.c) or, for tests, a directory.
 */
struct kbuild_text {
	const char *data;	/* NUL-terminated */
	size_t len;
	char id[48];		/* blob id (hex) for caching, or "" when unknown */
	void *handle;		/* the reader's, for release */
};
struct kbuild_reader {
	/* 0 and fills *out; 1 when there is no such file; -1 on error (reported). */
	int (*read)(void *ctx, const char *path, struct kbuild_text *out);
	void (*release)(void *ctx, struct kbuild_text *t);
	/* Calls fn for every file of the tree (full path, no leading "./"). */
	int (*for_each_file)(void *ctx, int (*fn)(const char *path, void *data), void *data);
	/*
	 * Optional: the blob id of path without reading it (0), 1 when absent.
	 * Without it, or with empty ids, the cache is not used.
	 */
	int (*id)(void *ctx, const char *path, char id[48]);
	void *ctx;
};

struct repo;
struct git_oid;
/*
 * A reader of the tree of `commit` in the object store (common/repo.h);
 * ctx must stay alive while rd is used. kbuild_map_for_commit does it all.
 */
struct kbuild_repo_ctx {
	struct repo *repo;
	const struct git_oid *commit;
	const char *srctree;	/* the directory the reader's paths are in, or NULL */
	/*
	 * NULL, or where every input of the map is appended, a line each: a
	 * file asked for, "<path> <blob id>" ("<path> -" when absent), and the
	 * list of the tree's files, "files <digest>" (kbuild_repo_files_digest).
	 */
	struct strbuf *inputs;
};
void kbuild_repo_reader(struct kbuild_reader *rd, struct kbuild_repo_ctx *ctx);
/* The digest of the tree's file list under srctree as the reader lists it. 0 or -1. */
int kbuild_repo_files_digest(struct repo *r, const struct git_oid *commit, const char *srctree,
			     char hex[41]);
/*
 * Are `inputs` (kbuild_repo_ctx.inputs) those of `commit`, whose file list has
 * this digest? `known` (may be NULL) names the inputs the caller knows to be
 * the same already (by a digest of their own): not looked up.
 */
int kbuild_repo_inputs_same(struct repo *r, const struct git_oid *commit, const char *inputs,
			    const char *files_digest, int (*known)(const char *path));

/* ---- the file -> condition map ---- */

/*
 * A file's kind says why its condition may be false: KBUILD_UNLISTED files
 * (headers-like .c files #included by others, sources of other
 * architectures, tools/) are not compiled by kbuild for this architecture,
 * but may still be compiled as part of another file.
 */
enum kbuild_file_kind {
	KBUILD_OBJECT,		/* listed as a kernel object (condition may still be false) */
	KBUILD_HOST,		/* only a source of host or user-space programs (hostprogs, userprogs) */
	KBUILD_UNLISTED,	/* no list names it: never compiled by kbuild (maybe #included by another file) */
};

/*
 * Where a Makefile tells kbuild to build something: one statement of a
 * Makefile or Kbuild file, `obj-$(CONFIG_BAR) += bar.o`, as written
 * (continuation lines joined), and the line it starts on.
 */
struct kbuild_origin {
	const char *path;
	int line;
	const char *text;
};

/*
 * One step of why kbuild builds a file: `subject` (the file itself, the
 * composite object it is a part of, "drivers/foo/foo.o", or a directory
 * above it, "drivers/foo/") is listed by the statement at `origin`.
 */
struct kbuild_why {
	const char *subject;
	const struct kbuild_origin *origin;
	int more;	/* other statements list it too */
};

struct kbuild_file {
	const char *path;			/* a .c or .S file */
	const struct kbuild_expr *cond;		/* compiled at all: builtin || module */
	const struct kbuild_expr *builtin;	/* compiled into the kernel image (or a lib.a) */
	const struct kbuild_expr *module;	/* compiled as (part of) a module */
	enum kbuild_file_kind kind;
};

struct kbuild_stats {
	size_t makefiles;	/* Makefile/Kbuild files parsed (includes too) */
	size_t dirs;		/* directories kbuild descends into */
	size_t files;		/* .c and .S files */
	size_t compiled;	/* files whose condition is not false */
	size_t with_free;	/* files whose condition has a free variable */
	size_t cached;		/* directories whose parse came from the cache */
};

/*
 * Keeps parsed Makefiles between maps (commits) of one architecture, keyed by
 * blob id, and the node arena the maps' conditions live in. Optional.
 * A cache, its arena and the maps built with it belong to one thread at a
 * time; threads that build maps in parallel each keep their own cache.
 */
struct kbuild_cache;
struct kbuild_cache *kbuild_cache_new(void);
void kbuild_cache_free(struct kbuild_cache *c);

struct kbuild_map;
/*
 * Every Makefile's expansion may build this many bytes of text (values, the
 * alternatives of a reference, their concatenations); past it, an error
 * names the line and the rest is unknown. Linux 6.1 needs up to 11 MB (mips).
 * kbuild_set_expansion_limit sets another budget for every map built after
 * it (0: this one), before any thread builds one; the fuzzer takes 1 MiB.
 */
#define KBUILD_EXPANSION_LIMIT ((size_t)16 << 20)
void kbuild_set_expansion_limit(size_t bytes);

/*
 * Builds the map for the tree `rd` reads, for architecture `srcarch` (the
 * directory under arch/, e.g. "x86"; NULL or "" reads no arch Makefile).
 * With cache NULL the map owns its nodes; otherwise they live in the cache,
 * which must outlive the map. Problems in Makefiles are warnings; the
 * affected files get free variables.
 */
struct kbuild_map *kbuild_map_build(const struct kbuild_reader *rd, const char *srcarch,
				    struct kbuild_cache *cache);
/*
 * A directory the build enters when string options name it, as U-Boot's
 * top Makefile enters board/$(VENDOR)/$(BOARD)/ from CONFIG_SYS_VENDOR and
 * CONFIG_SYS_BOARD: in `dir` ("board/$SYS_VENDOR/$SYS_BOARD"), a component
 * "$NAME" matches any directory and holds when the string option NAME equals
 * that directory's name; `empty`, when set, names an option that must be "".
 * Only directories that hold a Makefile and sources count.
 */
struct kbuild_named_dir {
	const char *dir;
	const char *empty;
};

/* What a build of a commit's tree is for. */
struct kbuild_target {
	/* The top Makefile's directory: NULL or "" for the root, Xen's "xen". */
	const char *srctree;
	const char *arch;	/* $(ARCH): "x86", Xen's "x86_64"; NULL: no arch Makefile */
	const char *srcarch;	/* $(SRCARCH), the directory under arch/: Xen's "x86"; NULL: arch */
	/* Entered besides the top Makefile's lists, in every phase. */
	const struct kbuild_named_dir *named_dirs;
	size_t nr_named_dirs;
};
/*
 * The same for a commit of the repository; paths in the map are the
 * repository's ("xen/common/sched/core.c").
 */
struct kbuild_map *kbuild_map_for_commit(struct repo *r, const struct git_oid *commit,
					 const struct kbuild_target *target,
					 struct kbuild_cache *cache);
/* The same, appending its inputs to `inputs` (kbuild_repo_ctx.inputs). */
struct kbuild_map *kbuild_map_for_commit_inputs(struct repo *r, const struct git_oid *commit,
						const struct kbuild_target *target,
						struct kbuild_cache *cache, struct strbuf *inputs);
/*
 * A map as bytes (kbuild-store.c, for the disk cache) and back: the map read
 * owns its nodes. NULL when the bytes are not a map of this layout.
 */
void kbuild_map_save(const struct kbuild_map *m, struct strbuf *out);
struct kbuild_map *kbuild_map_load(const struct strbuf *in);
void kbuild_map_free(struct kbuild_map *m);
struct kbuild_exprs *kbuild_map_exprs(struct kbuild_map *m);
/* NULL when path is not a .c/.S file of the tree. */
const struct kbuild_file *kbuild_map_lookup(const struct kbuild_map *m, const char *path);
/* Files sorted by path; valid until kbuild_map_free. */
const struct kbuild_file *kbuild_map_files(const struct kbuild_map *m, size_t *nr);
const struct kbuild_stats *kbuild_map_stats(const struct kbuild_map *m);
/*
 * Why kbuild builds `path` (a listed file), nearest first, into out (at most
 * max steps; returns how many): the statement that lists the file (or its
 * part list and the statement that lists the composite object), then for
 * each directory above it one statement that makes kbuild descend there
 * (the first one found, from the top down), up to a directory that the
 * top Makefile or the tree's root enters. 0 for a file no list names.
 * Valid while the map's nodes are (see kbuild_map_build).
 */
size_t kbuild_map_why(const struct kbuild_map *m, const char *path, struct kbuild_why *out,
		      size_t max);
/*
 * The condition under which the Makefile of `dir` (read alone, as a
 * directory's: no parent's condition) puts `name` (relative to dir,
 * "board.dtb") in its list `<list>-y` or `<list>-m` ("dtb": Linux's and
 * U-Boot's `dtb-$(CONFIG_X) += board.dtb`); a word the Makefile cannot
 * spell out that may be it counts under a free variable. NULL when no
 * such list names it (or there is no Makefile). The nodes live in `ex`.
 */
const struct kbuild_expr *kbuild_list_condition(const struct kbuild_reader *rd,
						struct kbuild_exprs *ex, const char *dir,
						const char *list, const char *name);
/* `path<TAB>condition` per file, sorted by path (git undertaker --dump-model=files). */
void kbuild_map_dump(const struct kbuild_map *m, struct strbuf *out);

#endif
