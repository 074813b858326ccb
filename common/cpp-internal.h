/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cpp module's own interface between its files, not for drivers:
 * cpp-scan.c (the pass over a blob, the block tree), cpp-expr.c (tokens, the
 * #if grammar, the names a condition reads), cpp-macro.c (project macros),
 * cpp-abstract.c (integer expression to boolean formula) and cpp-eval.c
 * (evaluation under an assignment). Everything they allocate for a file lives
 * in that file's arena (arena.h).
 */
#ifndef UT_CPP_INTERNAL_H
#define UT_CPP_INTERNAL_H

#include "cpp.h"
#include "arena.h"

enum cpp_token_type {
	T_EOF, T_IDENT, T_NUM, T_CHAR, T_STRING, T_OTHER,
	T_LPAREN, T_RPAREN, T_COMMA, T_QUEST, T_COLON,
	T_OROR, T_ANDAND, T_OR, T_XOR, T_AND, T_EQ, T_NE,
	T_LT, T_LE, T_GT, T_GE, T_SHL, T_SHR,
	T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT,
	T_NOT, T_TILDE, T_HASH, T_HASHHASH,
};

struct cpp_token {
	enum cpp_token_type type;
	const char *s;
	uint32_t len;
	unsigned from_macro : 1;
};

struct cpp_tokens {
	struct cpp_token *v;
	size_t nr, alloc;
};

/* Splits `s` (comments already removed) into tokens appended to `out`. */
void cpp_tokenize(struct cpp_tokens *out, const char *s, size_t len);
void cpp_push_token(struct cpp_tokens *out, enum cpp_token_type type,
		    const char *s, size_t len, int from_macro);
int cpp_tok_is(const struct cpp_token *t, const char *s);
int cpp_is_ident_start(int c);
int cpp_is_ident_char(int c);

struct cpp_expr_ctx;
/* Expands the project macros in `in` into `out` (defined's operand stays). */
void cpp_expand(struct cpp_expr_ctx *ctx, const struct cpp_token *in, size_t n,
		struct cpp_tokens *out);

/* The integer expression of an #if, as a preprocessor evaluates it. */
enum cpp_node_kind { N_NUM, N_IDENT, N_DEFINED, N_CALL, N_UNARY, N_BINARY, N_COND };
struct cpp_node {
	enum cpp_node_kind kind;
	enum cpp_token_type op;		/* UNARY, BINARY */
	int64_t value;			/* NUM */
	unsigned is_unsigned : 1;	/* NUM */
	unsigned from_macro : 1;	/* IDENT, DEFINED, CALL (of its argument) */
	unsigned file_defined : 1;	/* IDENT, DEFINED, CALL (of its argument) */
	const char *name;		/* IDENT, DEFINED, CALL */
	const char *arg;		/* CALL: the argument when it is one identifier */
	struct cpp_node *a, *b, *c;
	size_t tok_begin, tok_end;	/* its tokens, while parsing */
};

/* What the expression code needs from the scanner for one directive. */
struct cpp_expr_ctx {
	struct arena *arena;	/* the file's: results live there */
	struct arena scratch;	/* per directive, reset after each */
	const struct cpp_macros *macros;
	const struct strmap *file_defined;	/* CONFIG names #define'd so far */
	struct cpp_tokens raw, expanded;
	/* Set by cpp_parse_condition: CONFIG names seen. */
	struct cpp_symbol_ref *symbols;
	size_t nr_symbols, alloc_symbols;
	const char *error;		/* a syntax error's message, or NULL */
};

/*
 * Parses the text after #if/#elif (comments and continuations removed) into
 * a folded boolean formula; collects the CONFIG names into ctx->symbols.
 * On a syntax error sets ctx->error and returns an opaque atom of the text.
 */
struct cpp_expr *cpp_parse_condition(struct cpp_expr_ctx *ctx, const char *s, size_t len);
/* The boolean formula of an integer expression whose tokens are ctx->expanded. */
struct cpp_expr *cpp_abstract(struct cpp_expr_ctx *ctx, const struct cpp_node *n);
/* The variant of a call IS_ENABLED(X), IS_BUILTIN(X), ...: 1 and *out, or 0 for another name. */
int cpp_variant_of_call(const char *name, enum cpp_variant *out);
void cpp_collect_symbols(struct cpp_expr_ctx *ctx, const struct cpp_token *t, size_t n);
/* The formula of defined(name), for #ifdef and friends. */
struct cpp_expr *cpp_expr_defined(struct cpp_expr_ctx *ctx, const char *name, size_t len);

/*
 * The integer value of n under a (NULL: every macro unknown); CPP_UNKNOWN
 * when it depends on an unassigned macro, a function-like macro, or divides
 * by zero.
 */
enum cpp_truth cpp_node_value(const struct cpp_node *n, const struct cpp_assignment *a,
			      int64_t *value);

struct cpp_expr *cpp_expr_const(struct arena *a, int value);
struct cpp_expr *cpp_expr_not(struct arena *a, struct cpp_expr *e);
struct cpp_expr *cpp_expr_and(struct arena *a, struct cpp_expr *x, struct cpp_expr *y);
struct cpp_expr *cpp_expr_or(struct arena *a, struct cpp_expr *x, struct cpp_expr *y);

#endif
