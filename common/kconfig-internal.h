/* SPDX-License-Identifier: GPL-2.0 */
/* Private to the kconfig module: tokens, lexed files, the parse state. */
#ifndef UT_KCONFIG_INT_H
#define UT_KCONFIG_INT_H

#include "kconfig.h"

#include <pthread.h>

/* ---- arena: expressions, definitions and strings die with the kconfig ---- */

#include "arena.h"

/* ---- tokens ---------------------------------------------------------- */

enum ktok {
	T_WORD,		/* unquoted: a symbol, a number, a path */
	T_STRING,	/* quoted, escapes resolved unless TF_DOLLAR */
	T_RAW,		/* a variable's value or a help text, verbatim */
	T_PROBE,	/* (after expansion only) a probe symbol */
	T_AND, T_OR, T_NOT, T_EQUAL, T_UNEQUAL, T_LESS, T_LESS_EQUAL,
	T_GREATER, T_GREATER_EQUAL, T_OPEN, T_CLOSE,
	T_ASSIGN_RECURSIVE, T_ASSIGN_SIMPLE, T_ASSIGN_APPEND,
	/* keywords */
	K_CONFIG, K_MENUCONFIG, K_CHOICE, K_ENDCHOICE, K_MENU, K_ENDMENU,
	K_IF, K_ENDIF, K_COMMENT, K_MAINMENU, K_SOURCE, K_RSOURCE, K_OSOURCE,
	K_ORSOURCE, K_BOOL, K_TRISTATE, K_STRING, K_INT, K_HEX, K_DEF_BOOL,
	K_DEF_TRISTATE, K_PROMPT, K_DEFAULT, K_DEPENDS, K_ON, K_SELECT, K_IMPLY,
	K_VISIBLE, K_RANGE, K_MODULES, K_OPTION, K_OPTIONAL, K_TRANSITIONAL,
	K_HELP,
};

#define TF_DOLLAR 1	/* holds $(...) (or $NAME): expanded at parse time */

struct ktoken {
	uint8_t kind;
	uint8_t flags;
	uint32_t off;	/* into kconfig_lexed.text */
	uint32_t len;
};

struct kline {
	int lineno;
	uint32_t first, nr;	/* tokens */
	int assignment;		/* tokens are: name, T_ASSIGN_*, T_RAW value */
	int has_dollar;
};

struct lex_message {
	int line;
	char *msg;
};

/* One file's contents as lines of tokens; what the cache keeps per id. */
struct kconfig_lexed {
	struct kline *lines;
	size_t nr_lines, alloc_lines;
	struct ktoken *toks;
	size_t nr_toks, alloc_toks;
	struct strbuf text;
	struct lex_message *msgs;	/* lexing errors, replayed on each parse */
	size_t nr_msgs, alloc_msgs;
	/* In a kconfig_cache, under its lock: */
	size_t bytes;		/* what it holds, counted against the budget */
	unsigned users;		/* parses reading it now: not evicted */
	uint64_t last_use;	/* the cache's clock when last found or added */
};

struct kconfig_lexed *kconfig_lex(const char *data, size_t size);
void kconfig_lexed_free(struct kconfig_lexed *lf);
static inline const char *tok_text(const struct kconfig_lexed *lf, const struct ktoken *t)
{
	return lf->text.buf + t->off;
}
const char *kconfig_token_name(int kind);

struct kconfig_cache {
	pthread_mutex_t lock;	/* parses may run in several threads */
	struct strmap lexed;	/* id -> struct kconfig_lexed (never changed once in) */
	struct strmap printed;	/* messages already printed once */
	struct strmap ids;	/* "<scope>:<path>" -> id ("" when absent) */
	size_t nr_lexed, nr_reused, nr_evicted;
	/*
	 * The lexed files' bytes, and the most they may hold: past it the least
	 * recently used that no parse reads are evicted (lexed again when met).
	 */
	size_t bytes, budget, peak;
	uint64_t clock;
};

/* ---- the preprocessor ---------------------------------------------------- */

/*
 * Expansion results may hold probe markers: PROBE_MARK, the probe's index in
 * decimal, PROBE_END. A token that is one marker is that probe symbol; text
 * (prompts, paths) shows the probe's own text instead.
 */
#define PROBE_MARK '\001'
#define PROBE_END '\002'

struct preproc;
struct parse_state;
struct preproc *kconfig_preproc_new(struct parse_state *ps);
void kconfig_preproc_free(struct preproc *pp);
void kconfig_preproc_set_env(struct preproc *pp, const char *name, const char *value);
const char *kconfig_preproc_get_env(struct preproc *pp, const char *name);
/* Expands $(...) in s[0..len): a malloc'ed string, may hold probe markers. */
char *kconfig_preproc_expand(struct preproc *pp, const char *s, size_t len);
/* A NAME=, :=, += line. */
void kconfig_preproc_assign(struct preproc *pp, const char *name, int kind, const char *value);
/* Replaces each probe marker in s by its text: malloc'ed. */
char *kconfig_preproc_unmark(struct preproc *pp, const char *s);
/* The probe symbol for expanded text holding markers (one marker, or text around some). */
struct kconfig_symbol *kconfig_preproc_probe_symbol(struct preproc *pp, const char *s);

/* ---- the parse --------------------------------------------------------- */

struct kconfig_private {
	struct arena arena;
	struct strmap symbols;		/* name -> symbol, probes included */
	struct kconfig_symbol **created;	/* in creation order */
	size_t nr_created, alloc_created;
	struct kconfig_definition **defs;	/* every definition, in order */
	size_t nr_defs, alloc_defs;
	struct strmap paths;		/* interned locations' paths */
	struct strmap choices;		/* named choices */
	size_t alloc_choices;
	/* kconfig_file_definitions: path -> struct kconfig_file_defs, built when first asked */
	struct strmap by_path;
	int by_path_built;
};

/* Symbols and definitions (kconfig-tree.c). */
struct kconfig_symbol *kconfig_tree_symbol(struct kconfig *kc, const char *name, size_t len);
struct kconfig_symbol *kconfig_tree_new_probe(struct kconfig *kc, const char *text);
const char *kconfig_tree_path(struct kconfig *kc, const char *path);
/* Puts "<dir>/" before the path of every symbol's and choice's definition. */
void kconfig_tree_prefix_paths(struct kconfig *kc, const char *dir);
struct kconfig_definition *kconfig_tree_new_definition(struct kconfig *kc, enum kconfig_def_kind kind,
					     const char *path, int line);
struct kconfig_choice *kconfig_tree_choice(struct kconfig *kc, const char *name);
struct kconfig_expr *kconfig_tree_expr(struct kconfig *kc, enum kconfig_expr_type type,
			     struct kconfig_expr *l, struct kconfig_expr *r);
struct kconfig_expr *kconfig_tree_expr_symbol(struct kconfig *kc, struct kconfig_symbol *sym);
struct kconfig_expr *kconfig_tree_expr_const(struct kconfig *kc, const char *value, size_t len);
/* NULL means "always": and(NULL, e) is e. */
struct kconfig_expr *kconfig_tree_and(struct kconfig *kc, struct kconfig_expr *a, struct kconfig_expr *b);
struct kconfig *kconfig_tree_alloc(void);
/* A non-empty string of decimal digits. */
int kconfig_all_digits(const char *s);
/* Decimal (optionally negative) or 0x hex. */
int kconfig_tree_is_number(const char *s);
/* Orders kc->symbols, fills reverse links and choice types. */
void kconfig_tree_finish(struct kconfig *kc);

/* ---- parse state (kconfig-parse.c statements, kconfig-source.c files) ---- */

struct block {
	int kind;			/* K_MENU, K_IF, K_CHOICE */
	struct kconfig_expr *dep;	/* what its children depend on */
	struct kconfig_expr *visible;	/* a menu's `visible if` */
	const char *path;
	int line;
	struct kconfig_definition *choice_def;	/* K_CHOICE */
	/* K_CHOICE: the last member and what depends on it (not members: kconfig nests them). */
	struct kconfig_symbol **chain;
	size_t nr_chain, alloc_chain;
};

struct entry {
	int kind;			/* 0 (none), K_CONFIG, K_MENUCONFIG, K_CHOICE, K_MENU, K_COMMENT */
	struct kconfig_definition *def;	/* config, menuconfig, choice */
	struct kconfig_expr *own_dep;	/* its own `depends on`s */
};

/* A token after macro expansion. */
struct xtok {
	int kind;
	const char *text;	/* NUL-terminated; may hold probe markers */
	struct kconfig_symbol *probe;	/* T_PROBE */
};

enum { TMP_PROMPTS, TMP_DEFAULTS, TMP_SELECTS, TMP_IMPLIES, TMP_RANGES, NR_TMP };
struct scratch_array {
	void *buf;
	size_t alloc;	/* bytes */
};

struct source_frame {
	const char *path;
	int line;		/* of the `source` that led further */
};

struct parse_state {
	struct kconfig *kc;
	const struct kconfig_reader *reader;
	const struct kconfig_options *opts;
	struct kconfig_cache *cache;
	struct preproc *pp;
	struct block *blocks;
	size_t nr_blocks, alloc_blocks;
	struct entry cur;
	struct source_frame *files;
	size_t nr_files, alloc_files;
	const char *path;	/* interned */
	int line;
	struct xtok *xt;
	size_t nr_xt, alloc_xt, pos;
	int expr_nesting;	/* parentheses and `!` open in the expression being parsed */
	int deps_too_deep;	/* dependencies left out for KCONFIG_MAX_EXPR_DEPTH */
	struct strvec scratch;	/* expanded texts of the current line */
	struct scratch_array tmp[NR_TMP];	/* properties of the current entry */
};

/* The current line's tokens and expressions over them (kconfig-expr.c). */
void kconfig_expand_line(struct parse_state *ps, const struct kconfig_lexed *lf, const struct kline *l);
const struct xtok *kconfig_peek(struct parse_state *ps);
int kconfig_peek_kind(struct parse_state *ps);
int kconfig_accept(struct parse_state *ps, int kind);
/* "syntax error: <what>, found <next token>"; returns -1. */
int kconfig_syntax_error(struct parse_state *ps, const char *what);
int kconfig_expect_end(struct parse_state *ps);
/* y, m, n as constant symbols; NULL for other names. */
struct kconfig_symbol *kconfig_constant_symbol(struct kconfig *kc, const char *s);
/* One operand: a symbol, a quoted constant, a number, a probe. NULL after an error. */
struct kconfig_expr *kconfig_parse_term(struct parse_state *ps);
struct kconfig_expr *kconfig_parse_or(struct parse_state *ps);
/* An optional trailing `if <expr>`, then the end of the line: 0, or -1 after an error. */
int kconfig_parse_if(struct parse_state *ps, struct kconfig_expr **cond);

/* Parses one lexed file's lines (kconfig-parse.c). */
void kconfig_parse_lines(struct parse_state *ps, const struct kconfig_lexed *lf);
/* Ends the entry being parsed and closes blocks opened since depth `depth`. */
void kconfig_parse_end_file(struct parse_state *ps, size_t depth);
/* Follows `source`: kind is K_SOURCE, K_RSOURCE, K_OSOURCE or K_ORSOURCE (kconfig-source.c). */
void kconfig_parse_source(struct parse_state *ps, int kind, const char *pattern);

/* Error reporting during a parse. */
void kconfig_ps_error(struct parse_state *ps, const char *path, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void kconfig_ps_warning(struct parse_state *ps, const char *path, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The file and line being parsed (for $(filename), $(lineno) and messages). */
const char *kconfig_ps_current_path(struct parse_state *ps);
int kconfig_ps_current_line(struct parse_state *ps);
struct kconfig *kconfig_ps_kconfig(struct parse_state *ps);

#endif
