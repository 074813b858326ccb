/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inside common/kbuild: the Makefile reader (kbuild-make.c) that kbuild.c
 * drives once per directory. Not for other modules.
 *
 * A Makefile's variables are kept as conditional words: each word of a value
 * carries the condition under which it is there, so `obj-$(CONFIG_A) += a.o`
 * inside `ifdef CONFIG_B` gives the word a.o in obj-y under CONFIG_A=y &&
 * CONFIG_B. Text that cannot be known contains KMAKE_UNKNOWN, which stands for
 * any string and becomes a free variable where it is used.
 */
#ifndef UT_KBUILD_INTERNAL_H
#define UT_KBUILD_INTERNAL_H

#include "kbuild.h"

#define KMAKE_UNKNOWN '\001'

static inline int has_unknown(const char *s)
{
	return __builtin_strchr(s, KMAKE_UNKNOWN) != NULL;
}

struct kword {
	const struct kbuild_expr *cond;
	char *text;
	int raw;	/* unexpanded text of a recursive (=) variable */
	/* The assignment that put it in its variable (NULL: none, or not known). */
	const struct kbuild_origin *origin;
};

struct kwords {
	struct kword *v;
	size_t nr, alloc;
};

void kbuild_words_push(struct kwords *w, const struct kbuild_expr *cond, const char *text, size_t len, int raw);
void kbuild_words_clear(struct kwords *w);
/* Sets the origin of the words from index `from` on. */
void kbuild_words_set_origin(struct kwords *w, size_t from, const struct kbuild_origin *origin);

/*
 * Origins and the strings of kbuild_why, interned in the arena of the
 * expressions (kbuild-expr.c): they live as long as the conditions do, and
 * the same statement read again is the same pointer.
 */
/*
 * The longest AND or OR kept: a longer one becomes a free variable (what
 * kbuild decides that we cannot), and kbuild_exprs_overflows() counts them
 * so that the reader can say which Makefile made one.
 */
#define KBUILD_MAX_TERMS 1024
size_t kbuild_exprs_overflows(const struct kbuild_exprs *ex);
const struct kbuild_origin *kbuild_exprs_origin(struct kbuild_exprs *ex, const char *path, int line,
						const char *text, size_t len);
const char *kbuild_exprs_string(struct kbuild_exprs *ex, const char *s);
/*
 * A node as it is, without the simplifier (kbuild-store.c reads back nodes
 * that were made by it): the same pointer for the same node.
 */
const struct kbuild_expr *kbuild_exprs_node(struct kbuild_exprs *ex, enum kbuild_op op,
					   const char *name, const struct kbuild_expr **sub,
					   unsigned nr);

struct kvar {
	struct kwords val;
	unsigned recursive:1, exported:1, readonly:1;
};

/* An assignment to a variable whose name is not known (obj-$(FOO) with FOO unknown). */
struct kpattern {
	char *glob;		/* the name with * for the unknown parts */
	char *text;		/* the name as written, for the free variable */
	const struct kbuild_expr *cond;
	struct kwords val;	/* expanded */
};

struct kmake {
	struct kbuild_exprs *ex;
	const struct kbuild_reader *rd;
	struct strmap vars;		/* name -> struct kvar * */
	const struct strmap *globals;	/* exported by the top Makefile, or NULL */
	struct kpattern *patterns;
	size_t nr_patterns, alloc_patterns;
	char *dir;			/* "" for the root */
	int top;			/* reading the top Makefile: see kbuild_make_init */
	/*
	 * A tree of several phases: an undefined prefix variable ($(XPL_) where
	 * the tree defines only $(PHASE_)) is empty, as make reads it.
	 */
	int phase_prefixes;
	int depth;			/* expansion / include recursion guard */
	size_t expanded;		/* bytes of values expanded so far (kbuild_set_expansion_limit) */
	int over_limit;			/* that limit was hit: said once */
	int include_depth;
	struct strvec deps;		/* "path id" of every file read, for the cache */
	size_t makefiles;
	/* Where something unknown (an $(eval), a missing include) may add to any list. */
	const struct kbuild_expr *incomplete;
	const char *file;
	int line;
	const struct kbuild_origin *origin;	/* of the assignment being read */
	/* Every file and directory of the tree, for $(wildcard); NULL: it is unknown. */
	const struct strvec *tree_paths;
	int read_tree;			/* a $(wildcard) answered from tree_paths */
};

/*
 * top: reading the top-level Makefile for its lists and exported variables,
 * as an in-tree build of vmlinux and modules sees it: an undefined variable
 * is empty and a conditional that depends on something other than CONFIG
 * symbols takes both branches. Otherwise (a directory's kbuild file) an
 * undefined variable other than CONFIG_* is unknown.
 */
void kbuild_make_init(struct kmake *mk, struct kbuild_exprs *ex, const struct kbuild_reader *rd,
		const char *dir, const struct strmap *globals, int top);
void kbuild_make_release(struct kmake *mk);
/* Sets a variable that the Makefile cannot change (command-line semantics). */
void kbuild_make_set_readonly(struct kmake *mk, const char *name, const char *value);
/* Pre-sets name := (empty), as scripts/Makefile.build does for its lists. */
void kbuild_make_set_empty(struct kmake *mk, const char *name);
/* Reads and interprets a Makefile; 1 when it does not exist, -1 on a read error. */
int kbuild_make_parse_file(struct kmake *mk, const char *path, const struct kbuild_expr *cond);
/* Interprets Makefile text (tests, includes). */
void kbuild_make_parse_text(struct kmake *mk, const char *text, size_t len, const char *file,
		      const struct kbuild_expr *cond);
/* The words of a variable at the end of the Makefile, with assignments to unknown names that may hit it. */
void kbuild_make_words(struct kmake *mk, const char *name, struct kwords *out);
/* Whether any assignment (or one to an unknown name) may have defined it. */
int kbuild_make_mentions(struct kmake *mk, const char *name);
/* The exported variables, expanded, into a new global table (values are struct kvar *). */
void kbuild_make_export(struct kmake *mk, struct strmap *globals);
void kbuild_var_free(void *v);

/* For kbuild-parse.c. */
void kbuild_make_expand_words(struct kmake *mk, const char *s, size_t n,
			const struct kbuild_expr *cond, struct kwords *out);
/* Exclusive alternatives of the text, each trimmed. */
void kbuild_make_expand_alts(struct kmake *mk, const char *s, size_t n, struct kwords *out);
struct kvar *kbuild_make_var(struct kmake *mk, const char *name, int create);
int kbuild_make_is_config_ref(struct kmake *mk, const char *name);
size_t kbuild_make_ref_end(const char *s, size_t i, size_t n);
/* kbuild-func.c: $(fn args) whose name is s[0..fnlen). */
int kbuild_make_is_function(const char *s, size_t n, size_t *fnlen);
void kbuild_make_function(struct kmake *mk, const char *fn, size_t fnlen, const char *args, size_t n,
		    const struct kbuild_expr *cond, struct kwords *out);
/* patsubst of every word; a word with unknown text stays unknown. */
void kbuild_make_patsubst(struct kmake *mk, const char *pat, const char *rep,
		    const struct kbuild_expr *cond, const struct kwords *in, struct kwords *out);
/* a/./b/../c -> a/c; no leading ./ */
char *kbuild_make_normalize_path(const char *p);


/* ---- kbuild-phase.c: the phases a tree is built in (U-Boot's SPL, TPL, VPL) ---- */

struct kbuild_phase {
	char *name;		/* "" for the main build (U-Boot proper, any other tree), "spl", ... */
	struct strvec defines;	/* the names it sets: CONFIG_XPL_BUILD, CONFIG_SPL_BUILD */
};
/* The phases of the tree, the main build first; at least that one. */
size_t kbuild_phases(const struct kbuild_reader *rd, struct kbuild_phase **out);
void kbuild_phases_free(struct kbuild_phase *phases, size_t nr);
/* The Makefile whose lists a phase starts from: "Makefile", or U-Boot's scripts/Makefile.xpl. */
const char *kbuild_phase_top(const struct kbuild_reader *rd, const struct kbuild_phase *ph);
/*
 * Before the top Makefile: the phase's names (y for its own, empty for the
 * others') and its prefix variables ($(PHASE_), $(SPL_TPL_)...), set for
 * the top Makefile and exported to every directory. Nothing for a tree of
 * one phase.
 */
void kbuild_phase_setup(struct kmake *mk, const struct kbuild_phase *phases, size_t nr,
			const struct kbuild_phase *ph);
/* A name like PHASE_, SPL_TPL_ or XPL_: capitals ending in an underscore. */
int kbuild_phase_is_prefix(const char *name);
/*
 * In a tree of several phases, what phase ph's compiler sees of every
 * phase's -D names: defined(N) for its own, !defined(N) for the others'
 * (CONFIG_SPL_BUILD && CONFIG_XPL_BUILD && !CONFIG_TPL_BUILD for SPL);
 * true for a tree of one phase.
 */
const struct kbuild_expr *kbuild_phase_names(struct kbuild_exprs *ex,
					     const struct kbuild_phase *phases, size_t nr,
					     const struct kbuild_phase *ph);

/* ---- kbuild.c and kbuild-dir.c: the map being built ---- */

struct kobj {
	char *stem;	/* full path without extension; a glob for patterns */
	char *free_text;	/* patterns only */
	const struct kbuild_expr *lb;	/* needs the directory's built-in.a */
	const struct kbuild_expr *la;	/* built whenever the directory is descended */
	const struct kbuild_expr *lm;	/* as a module, whenever descended */
	const struct kbuild_origin *origin;	/* the statement that lists it */
	int more;				/* and others list it too */
	/* A part of a composite object: the composite ("dir/foo.o") and what lists it. */
	const char *via_subject;
	const struct kbuild_origin *via;
	int via_more;
};

struct kedge {
	char *dir;
	const struct kbuild_expr *b, *a;
	const struct kbuild_origin *origin;
};

struct kdir {
	char *path;
	struct kobj *objs, *pats;
	size_t nr_objs, alloc_objs, nr_pats, alloc_pats;
	struct kedge *edges;
	size_t nr_edges, alloc_edges;
	struct strvec host;
	const struct kbuild_expr *incomplete;
	struct strvec deps;	/* "path id" of the files its parse read */
	const struct kbuild_expr *B, *A;
	int indeg, done;
	int read_tree;		/* its parse asked $(wildcard): not cached, the tree may differ */
	/* This build: the first statement found that makes kbuild descend here, and whose it is. */
	const struct kbuild_origin *in_origin;
	struct kdir *in_parent;
	int in_more;
};

struct kbuild_cache {
	struct kbuild_exprs *ex;
	char *top_key;		/* the top-level inputs the cached parses assume */
	struct strmap dirs;	/* path -> struct kdir * (parse only) */
	/* The other phases' parses (name -> struct kbuild_cache *, sharing ex). */
	struct strmap phases;
	int shared_ex;
};

/* What kbuild_map_why needs of a file: set by the first phase that lists it. */
struct kfile_why {
	const struct kbuild_origin *origin;	/* lists the file's object or its part */
	const char *via_subject;		/* a part: the composite object, and what lists it */
	const struct kbuild_origin *via;
	int via_more;
	const char *dir;			/* the directory whose kbuild file lists it */
	int more;				/* other statements list it too */
};

/* What kbuild_map_why needs of a directory: how kbuild first got there. */
struct kdir_why {
	const char *subject;	/* "drivers/foo/" */
	const struct kbuild_origin *origin;
	int more;		/* other statements make kbuild descend there too */
	const char *parent;	/* NULL: entered from the top Makefile's lists */
};

struct kbuild_map {
	struct kbuild_exprs *ex;
	int own_ex;
	struct kbuild_file *files;
	struct kfile_why *why;	/* parallel to files */
	struct strmap dir_why;	/* directory -> struct kdir_why * */
	size_t nr;
	struct strmap index;	/* path -> index + 1 */
	struct kbuild_stats stats;
};

/* The state of one build. */
struct builder {
	struct kbuild_map *m;
	struct kbuild_cache *cache;	/* NULL when not caching */
	const struct kbuild_reader *rd;
	struct kbuild_exprs *ex;
	struct strmap dirs;		/* path -> struct kdir * */
	struct kdir **order;
	size_t nr_dirs, alloc_dirs;
	struct strmap globals;
	struct kedge *entry;
	size_t nr_entry, alloc_entry;
	struct strvec paths;		/* .c and .S files, sorted */
	const struct kbuild_phase *phases, *phase;	/* all, and the one being walked */
	size_t nr_phases;
	/* What the phase's -D names say: ANDed into every file condition it gives. */
	const struct kbuild_expr *phase_names;
	const char *arch;		/* $(ARCH), when not the directory's name */
	/*
	 * The build model: kbuild's (0), coreboot's (KBUILD_MODEL_COREBOOT,
	 * kbuild-coreboot.c: its top Makefile walks subdirs-y) or CMake's
	 * (KBUILD_MODEL_CMAKE, kbuild-cmake.c: Zephyr).
	 */
	int subdirs_model;
	struct strvec tree_paths;	/* that model's: every file and directory, sorted */
	struct strvec tree_dirs;	/* and the directories alone */
	const struct kbuild_named_dir *named_dirs;	/* kbuild_target's */
	size_t nr_named_dirs;
};

/* kbuild_map_build with $(ARCH) apart from $(SRCARCH): Xen's x86_64 is built from arch/x86/. */
struct kbuild_map *kbuild_map_build_arch(const struct kbuild_reader *rd, const char *arch,
					 const char *srcarch, struct kbuild_cache *cache);
/* The same for a target (its arch, srcarch and named directories). */
struct kbuild_map *kbuild_map_build_target(const struct kbuild_reader *rd,
					   const struct kbuild_target *target,
					   struct kbuild_cache *cache);
/* The map's paths are under `prefix` ("xen/"): they are renamed so. */
void kbuild_map_prefix(struct kbuild_map *m, const char *prefix);

char *kbuild_join(const char *dir, const char *rel);
void kbuild_kdir_free(void *p);
/* Parses the directory's kbuild file into d (objects, subdirectories, host programs). */
void kbuild_parse_dir(struct builder *b, struct kdir *d);
/* An edge to the directory word[0..len) names, relative to d (none to d itself or above the root). */
void kbuild_dir_add_edge(struct builder *b, struct kdir *d, const char *word, size_t len,
			 const struct kbuild_expr *bc, const struct kbuild_expr *ac,
			 const struct kbuild_origin *origin);
/* An object of d: a stem relative to d, or a glob (KMAKE_UNKNOWN for the unknown parts). */
struct kobj *kbuild_dir_add_obj(struct builder *b, struct kdir *d, const char *stem_rel, int pattern);

#define KBUILD_MODEL_COREBOOT 1
#define KBUILD_MODEL_CMAKE 2

/* ---- kbuild-coreboot.c: coreboot's build model ---- */

/* Whether the top Makefile just read walks directories as coreboot's does. */
int kbuild_coreboot_detect(struct kmake *top);
/* The range [*lo, *hi) of a sorted list whose strings start with prefix[0..len). */
void kbuild_paths_with_prefix(const struct strvec *sorted, const char *prefix, size_t len,
			      size_t *lo, size_t *hi);
/* Fills b->tree_paths and b->tree_dirs, once. */
void kbuild_coreboot_paths(struct builder *b);
/* Reads the directory's Makefile.mk and Makefile.inc into d: sources of every class, subdirs-y. */
void kbuild_coreboot_parse_dir(struct builder *b, struct kdir *d);

/* ---- kbuild-cmake.c: Zephyr's CMake ---- */

/* Reads the directory's CMakeLists.txt into d: its sources and subdirectories. */
void kbuild_cmake_parse_dir(struct builder *b, struct kdir *d);

#endif
