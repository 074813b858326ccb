/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kconfig: lexing, preprocessing and parsing a Kconfig tree into a symbol
 * table that keeps every definition with its location and properties.
 *
 * Input comes through a reader (files by path from the tree root, directory
 * listings for globs); this module knows nothing of git (see kconfig-git.h).
 * The result states what each definition says, with dependencies propagated
 * exactly as the kernel's kconfig propagates them; turning that into logic is
 * the model's business.
 *
 * Memory: everything reachable from a struct kconfig (symbols, definitions,
 * expressions, strings) is owned by it and freed by kconfig_free(). Expressions
 * are shared between definitions (a DAG): never free or modify one.
 */
#ifndef UT_KCONFIG_H
#define UT_KCONFIG_H

#include <stdio.h>
#include "util.h"

/* ---- input ---------------------------------------------------------- */

/* Ids name file contents for the parse cache: a blob id in hex, say. */
#define KCONFIG_ID_MAX 72

struct kconfig_file {
	const char *data;	/* the contents; need not be NUL-terminated */
	size_t size;
	/*
	 * Names these exact contents ("" when the reader has no such name: the
	 * file is then lexed again on every parse).
	 */
	char id[KCONFIG_ID_MAX];
	void *handle;		/* the reader's, for release_file */
};

struct kconfig_reader {
	void *data;
	/*
	 * Reads `path` (relative to the tree root, no leading "./"). Returns 0
	 * and fills `out`, 1 when there is no such file (no message), -1 on
	 * another error (message printed).
	 */
	int (*read_file)(void *data, const char *path, struct kconfig_file *out);
	/* Releases what read_file returned; may be NULL. */
	void (*release_file)(void *data, struct kconfig_file *f);
	/*
	 * Optional: the id of `path` without reading it (lets the cache skip
	 * reading files it already lexed). Returns 0, 1 when absent, -1 on error.
	 */
	int (*file_id)(void *data, const char *path, char id[KCONFIG_ID_MAX]);
	/*
	 * Appends the names of the entries directly in `dir` ("" is the root) to
	 * `names`, sorted. Returns 0, 1 when there is no such directory, -1 on error.
	 * Used for glob patterns in `source` and for listing architectures.
	 */
	int (*list_dir)(void *data, const char *dir, struct strvec *names);
	/*
	 * Optional: names the tree this reader reads (a commit id, say). A
	 * kconfig_cache then remembers file_id's answers for that tree, so
	 * that a new reader per architecture does not look every path up again.
	 */
	char scope[KCONFIG_ID_MAX];
};

/*
 * A reader serves one parse at a time: parses in several threads take one
 * reader each (they may share a kconfig_cache, which locks).
 */

/* A reader over a plain directory (ids are the path: contents must not change). */
void kconfig_fs_reader_init(struct kconfig_reader *r, const char *root);
void kconfig_fs_reader_release(struct kconfig_reader *r);

/*
 * Kconfig text scanned line by line, not parsed (kconfig-scan.c): for
 * questions asked of many blobs, where a model would cost too much.
 * kconfig_line_defines: the name a `config NAME` or `menuconfig NAME` line
 * [p, eol) defines (its length, *name where it starts), 0 for another line.
 * kconfig_text_for_each_definition: fn for each such line, with its number.
 * kconfig_text_defines: the line that defines `name`, or 0.
 * kconfig_text_definition_near: the name defined nearest to `line`, at most
 * max_dist lines away (the first of equals), or NULL; xstrdup'ed.
 */
size_t kconfig_line_defines(const char *p, const char *eol, const char **name);
void kconfig_text_for_each_definition(const char *data, size_t size,
				      void (*fn)(const char *name, size_t len, int line, void *arg),
				      void *arg);
int kconfig_text_defines(const char *data, size_t size, const char *name);
char *kconfig_text_definition_near(const char *data, size_t size, int line, int max_dist);

/*
 * kconfig_text_for_each_source: fn for each `source` statement (and its
 * o-, g-, r- forms) outside help text, with its path as written (quotes
 * off, macros in) and whether it is relative to the file (the r- forms);
 * and for a `mainmenu` line, with relative -1 and an empty path.
 */
void kconfig_text_for_each_source(const char *data, size_t size,
				  void (*fn)(int relative, const char *path, size_t len, void *arg),
				  void *arg);

/*
 * A symbol that a Kconfig statement names: in `depends on`, `select`,
 * `imply`, `visible if`, `if`, `default`, `def_bool`, `def_tristate`,
 * `range` and a prompt's `if` (strings, macros, numbers, y/m/n and help
 * text aside). `statement` is the whole statement as written (backslash
 * continuations included), from its keyword on; `keyword` is a static string.
 */
struct kconfig_text_ref {
	const char *name;	/* not NUL-terminated */
	size_t len;
	int line;		/* of the statement */
	const char *keyword;
	const char *statement;
	size_t statement_len;
};
void kconfig_text_for_each_reference(const char *data, size_t size,
				     void (*fn)(const struct kconfig_text_ref *ref, void *arg),
				     void *arg);

/*
 * Lexed files keyed by their id, shared between parses (architectures, commits)
 * of one run. Tokens are cached, not the expansion of macros: that depends on
 * the architecture and is redone on every parse.
 */
struct kconfig_cache;
/* The bytes of lexed files a cache keeps at most by default: Linux 6.1 is 12 MB. */
#define KCONFIG_CACHE_BUDGET ((size_t)64 << 20)
struct kconfig_cache *kconfig_cache_new(void);
void kconfig_cache_free(struct kconfig_cache *c);
/*
 * At most `bytes` of lexed files kept (0: the default): past it, the least
 * recently used that no parse is reading are dropped and lexed again when a
 * later parse meets them. A range's memory stays bounded as its commits
 * change Kconfig files.
 */
void kconfig_cache_set_budget(struct kconfig_cache *c, size_t bytes);
struct kconfig_cache_stats {
	size_t lexed;		/* files lexed (misses) */
	size_t reused;		/* files found lexed (hits) */
	size_t evicted;		/* dropped for the budget */
	size_t bytes, peak;	/* held now, and at most */
};
void kconfig_cache_stats(const struct kconfig_cache *c, struct kconfig_cache_stats *st);

/* ---- the symbol table ----------------------------------------------- */

enum kconfig_type {
	KCONFIG_UNKNOWN = 0,	/* undefined symbols, probes, untyped definitions */
	KCONFIG_BOOL,
	KCONFIG_TRISTATE,
	KCONFIG_STRING,
	KCONFIG_INT,
	KCONFIG_HEX,
};
/* "unknown", "bool", "tristate", "string", "int", "hex". */
const char *kconfig_type_name(enum kconfig_type t);

enum kconfig_expr_type {
	KEXPR_SYMBOL,	/* sym: a symbol (y, m and n are the constant symbols) */
	KEXPR_CONST,	/* value: a quoted string or an unquoted number */
	KEXPR_NOT,	/* left */
	KEXPR_AND,	/* left, right */
	KEXPR_OR,	/* left, right */
	/* Comparisons: left and right are each a KEXPR_SYMBOL or a KEXPR_CONST. */
	KEXPR_EQUAL,
	KEXPR_UNEQUAL,
	KEXPR_LESS,
	KEXPR_LESS_EQUAL,
	KEXPR_GREATER,
	KEXPR_GREATER_EQUAL,
};

/*
 * The parser refuses an expression deeper than this (parentheses, `!`, a
 * chain of `&&` or `||`, or dependencies of nested `if`/`menu` blocks added
 * up): an error names the file and line, and the line, or the condition
 * that would go deeper, is left out. Whatever walks an expression may then
 * recurse. Real trees stay below 50.
 */
#define KCONFIG_MAX_EXPR_DEPTH 1000

struct kconfig_expr {
	enum kconfig_expr_type type;
	unsigned depth;		/* 1 for a symbol or constant, else 1 + its deepest operand */
	union {
		struct kconfig_symbol *sym;
		const char *value;
		struct {
			struct kconfig_expr *left, *right;
		};
	};
};

/* Symbol flags. */
#define KSYM_CONST		(1u << 0)	/* y, m, n */
#define KSYM_MODULES		(1u << 1)	/* `modules` or `option modules` */
#define KSYM_TRANSITIONAL	(1u << 2)	/* `transitional` */
/*
 * The result of something that would run a tool ($(shell,...) and all that
 * builds on it: success, failure, cc-option, ...) or read an environment
 * variable we do not know: a free variable. The name is the probe's text,
 * e.g. `$(shell,...)`: the same text is the same symbol.
 */
#define KSYM_PROBE		(1u << 3)
#define KSYM_ENV		(1u << 4)	/* `option env=...` (old trees) */
#define KSYM_DEFCONFIG_LIST	(1u << 5)	/* `option defconfig_list` */
#define KSYM_ALLNOCONFIG_Y	(1u << 6)	/* `option allnoconfig_y` */
#define KSYM_CHOICE_MEMBER	(1u << 7)	/* some definition is in a choice */

struct kconfig_location {
	const char *path;	/* from the tree root; owned by the kconfig */
	int line;
};

/* Every `cond` below is NULL for "always" (no `if`). */
struct kconfig_prompt {
	const char *text;
	/* Its own `if` ANDed with the `visible if` of every enclosing menu. */
	struct kconfig_expr *cond;
};

struct kconfig_default {
	struct kconfig_expr *value;	/* also from def_bool/def_tristate */
	struct kconfig_expr *cond;	/* its own `if` */
};

struct kconfig_select {			/* a `select` or an `imply` */
	struct kconfig_symbol *target;
	struct kconfig_expr *cond;	/* its own `if` */
	int line;			/* of the statement, in the definition's file */
};

struct kconfig_range {
	struct kconfig_expr *low, *high;	/* KEXPR_SYMBOL or KEXPR_CONST */
	struct kconfig_expr *cond;
};

enum kconfig_def_kind {
	KDEF_CONFIG,
	KDEF_MENUCONFIG,
	KDEF_CHOICE,	/* a choice block: symbol is NULL */
};

/*
 * One `config`, `menuconfig` or `choice` entry. What kconfig effectively
 * does with a property is `dep && cond`: each property keeps only its own
 * condition, and `dep` holds the rest once per definition.
 */
struct kconfig_definition {
	enum kconfig_def_kind kind;
	struct kconfig_symbol *symbol;	/* NULL for KDEF_CHOICE */
	/*
	 * KDEF_CHOICE: the choice this block defines. Otherwise the choice this
	 * definition is a member of, or NULL.
	 */
	struct kconfig_choice *choice;
	struct kconfig_location loc;
	enum kconfig_type type;		/* as declared here (KCONFIG_UNKNOWN if not) */
	/*
	 * Its own `depends on` ANDed with those of every enclosing `if`, `menu`
	 * and `choice` (a member's dep includes its choice block's dep, not the
	 * choice itself). NULL when there is none.
	 */
	struct kconfig_expr *dep;
	/*
	 * A config written in a choice block, a member or one that kconfig
	 * moves out of the choice (it depends on the member before it): that
	 * choice, and the config's own `depends on` without the choice block's
	 * (dep when an `if` inside the choice encloses it). kconfig up to 6.9
	 * gives such a config the choice's mode in place of the choice's
	 * dependency, and a bool choice's mode is y where that dependency is m.
	 * NULL otherwise.
	 */
	struct kconfig_choice *in_choice;
	struct kconfig_expr *in_choice_dep;
	struct kconfig_prompt *prompts;
	size_t nr_prompts;
	struct kconfig_default *defaults;	/* in order: the first active one wins */
	size_t nr_defaults;
	struct kconfig_select *selects;
	size_t nr_selects;
	struct kconfig_select *implies;
	size_t nr_implies;
	struct kconfig_range *ranges;
	size_t nr_ranges;
	const char *help;		/* NULL when none */
	/* Definitions of a symbol (or a choice) in the order they were parsed. */
	size_t index;			/* among all definitions of the tree */
};

/* A `select` or `imply` of this symbol seen from the target. */
struct kconfig_reverse {
	struct kconfig_definition *from;	/* the selecting definition */
	struct kconfig_expr *cond;		/* the select's own `if` (from->dep applies too) */
};

struct kconfig_symbol {
	const char *name;	/* without CONFIG_ */
	/*
	 * The first type declared by a definition (or that of its choice, for an
	 * untyped member); later different ones are ignored, with a warning, as
	 * kconfig does.
	 */
	enum kconfig_type type;
	unsigned flags;		/* KSYM_* */
	size_t index;		/* position in kconfig->symbols */
	struct kconfig_definition **defs;	/* none for undefined symbols and probes */
	size_t nr_defs;
	struct kconfig_reverse *selected_by;
	size_t nr_selected_by;
	struct kconfig_reverse *implied_by;
	size_t nr_implied_by;
	const char *env;	/* KSYM_ENV: the variable's name */
	void *util;		/* free for the caller (e.g. the model's variables) */
};

struct kconfig_choice {
	const char *name;	/* NULL for an anonymous choice */
	/* Declared, else that of its first typed member (as kconfig does). */
	enum kconfig_type type;
	int optional;		/* `optional` (old trees) */
	/* One KDEF_CHOICE per block (a named choice may have several). */
	struct kconfig_definition **defs;
	size_t nr_defs;
	/* Member symbols, in order, each once. */
	struct kconfig_symbol **members;
	size_t nr_members;
	size_t index;		/* position in kconfig->choices */
};

struct kconfig {
	const char *arch, *srcarch;	/* NULL for a tree without architectures */
	/*
	 * Every symbol but y, m, n: the defined ones in the order of their first
	 * definition, then the undefined ones that expressions name (type
	 * KCONFIG_UNKNOWN, no definitions) in order of first use, then probes.
	 */
	struct kconfig_symbol **symbols;
	size_t nr_symbols;
	size_t nr_defined;		/* symbols[0..nr_defined) have definitions */
	struct kconfig_choice **choices;
	size_t nr_choices;
	struct kconfig_symbol *sym_y, *sym_m, *sym_n;
	struct kconfig_symbol *modules;	/* the `modules` symbol, or NULL */
	const char *mainmenu;		/* NULL when none */
	size_t nr_files;		/* Kconfig files read */
	/*
	 * What the parse read, in order: "<id> <path>\n" for each file read
	 * ("? <path>" when its reader names no contents), "- <path>\n" for
	 * one sourced but absent: with the arguments and variables of the
	 * parse, what a result made from it (a model) depends on.
	 */
	struct strbuf inputs;
	size_t nr_definitions;
	int nr_errors;			/* errors printed while parsing */
	struct kconfig_private *priv;
};

struct kconfig_options {
	const char *top;		/* the top Kconfig file; NULL means "Kconfig" */
	const char *srcarch;		/* NULL: the same as arch */
	struct kconfig_cache *cache;	/* NULL: lex everything afresh */
	/* More "NAME=value" variables seen by $(NAME), e.g. from the command line. */
	const struct strvec *env;
	int quiet;			/* no error messages (still counted) */
	int source_globs;		/* every `source` is an osource (coreboot) */
	/*
	 * The directory the reader is rooted at, within the repository (Xen's
	 * "xen"): the definitions' paths are given from the repository's top.
	 */
	const char *path_prefix;
	/*
	 * Keep the help texts (kconfig_dump_details): nothing else reads them,
	 * and on Linux they are 3.4 MB of each architecture's parse.
	 */
	int keep_help;
};

/*
 * The architectures of the tree: when the top Kconfig sources
 * arch/$(SRCARCH)/Kconfig (or $SRCARCH, $(ARCH), $ARCH in older trees),
 * the names of the directories arch/<name>/ that hold a Kconfig, sorted,
 * appended to `out`. Returns how many, 0 for a tree with a single model
 * (nothing appended), -1 when the top Kconfig cannot be read.
 */
int kconfig_architectures(const struct kconfig_reader *r, const char *top, struct strvec *out);

/*
 * Parses the tree for architecture `arch` (NULL for a tree without
 * architectures): $(ARCH) and $(SRCARCH) expand to it. Errors are printed as
 * "path:line: message" with error() and counted in nr_errors; the parse goes
 * on. Returns NULL only when the top Kconfig cannot be read.
 */
struct kconfig *kconfig_parse(const struct kconfig_reader *r, const char *arch,
			      const struct kconfig_options *opts);
void kconfig_free(struct kconfig *kc);

/* The symbol of that name (without CONFIG_), y/m/n included; NULL if none. */
struct kconfig_symbol *kconfig_lookup(const struct kconfig *kc, const char *name);

/*
 * The definitions (config, menuconfig, choice) whose location is in `path`
 * (as the definitions name it, path_prefix included), in parse order, into
 * *out; returns how many. An index built on the first call and owned by kc
 * (a kconfig is used by one thread at a time).
 */
size_t kconfig_file_definitions(struct kconfig *kc, const char *path,
				struct kconfig_definition *const **out);

/* Iterates over kc->symbols (struct kconfig_symbol *sym; size_t i). */
#define for_each_kconfig_symbol(kc, i, sym) \
	for ((i) = 0; (i) < (kc)->nr_symbols && ((sym) = (kc)->symbols[i], 1); (i)++)

/*
 * Calls fn on each expression a definition's value reads: its dependency,
 * its prompts' conditions, its defaults and their conditions (NULL ones
 * too). (in_choice_dep names no symbol that dep does not.)
 */
void kconfig_definition_each_expr(const struct kconfig_definition *d,
				  void (*fn)(void *data, const struct kconfig_expr *e), void *data);

/* ---- printing ------------------------------------------------------- */

/* Kconfig syntax, with the parentheses precedence needs: `A && (B || !C)`. */
void kconfig_expr_print(const struct kconfig_expr *e, struct strbuf *out);
/*
 * One line per defined symbol, in kc->symbols order:
 * `CONFIG_FOO bool arch/x86/Kconfig:12 init/Kconfig:40`.
 */
void kconfig_dump_symbols(const struct kconfig *kc, FILE *out);
/*
 * Everything the parse found, in a stable text form for tests: per
 * definition its location, type, dep, prompts, defaults, selects, implies,
 * ranges; per symbol its reverse links; per choice its members.
 */
void kconfig_dump_details(const struct kconfig *kc, FILE *out);

#endif
