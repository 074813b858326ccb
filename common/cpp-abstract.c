// SPDX-License-Identifier: GPL-2.0
/*
 * From the integer expression of an #if to a boolean formula: macros become
 * variables, the IS_ENABLED family becomes variants of them, and whatever is
 * not boolean (comparisons, arithmetic, unknown calls) becomes an opaque atom.
 */
#include "cpp-internal.h"

#include <string.h>

static struct cpp_expr const_false = { .kind = CPP_EXPR_CONST, .value = 0 };
static struct cpp_expr const_true = { .kind = CPP_EXPR_CONST, .value = 1 };

static struct cpp_expr *new_expr(struct arena *a, enum cpp_expr_kind kind)
{
	struct cpp_expr *e = arena_alloc(a, sizeof(*e));

	e->kind = kind;
	return e;
}

/* Constants are shared statics: formulas are read-only for their users. */
struct cpp_expr *cpp_expr_const(struct arena *a, int value)
{
	return value ? &const_true : &const_false;
}

struct cpp_expr *cpp_expr_not(struct arena *a, struct cpp_expr *x)
{
	struct cpp_expr *e;

	if (x->kind == CPP_EXPR_CONST)
		return cpp_expr_const(a, !x->value);
	if (x->kind == CPP_EXPR_NOT)
		return x->a;
	e = new_expr(a, CPP_EXPR_NOT);
	e->a = x;
	return e;
}

static struct cpp_expr *binary(struct arena *a, enum cpp_expr_kind kind,
			       struct cpp_expr *x, struct cpp_expr *y)
{
	/* x && 1 = x, x && 0 = 0; dually for ||. */
	int unit = kind == CPP_EXPR_AND;
	struct cpp_expr *e;

	if (x->kind == CPP_EXPR_CONST)
		return x->value == unit ? y : x;
	if (y->kind == CPP_EXPR_CONST)
		return y->value == unit ? x : y;
	e = new_expr(a, kind);
	e->a = x;
	e->b = y;
	return e;
}

struct cpp_expr *cpp_expr_and(struct arena *a, struct cpp_expr *x, struct cpp_expr *y)
{
	return binary(a, CPP_EXPR_AND, x, y);
}

struct cpp_expr *cpp_expr_or(struct arena *a, struct cpp_expr *x, struct cpp_expr *y)
{
	return binary(a, CPP_EXPR_OR, x, y);
}

static int is_file_defined(const struct cpp_expr_ctx *ctx, const char *name, const char *suffix)
{
	const struct strmap *fd = ctx->file_defined;
	char buf[256];

	if (!fd || !fd->nr)
		return 0;
	if (!suffix)
		return strmap_get(fd, name) != NULL;
	if (strlen(name) + strlen(suffix) >= sizeof(buf))
		return 0;
	strcpy(buf, name);
	strcat(buf, suffix);
	return strmap_get(fd, buf) != NULL;
}

static struct cpp_expr *leaf(struct cpp_expr_ctx *ctx, const char *name, size_t len,
			     enum cpp_variant variant, int bare, int from_macro, int file_defined)
{
	int config = len > 7 && !memcmp(name, "CONFIG_", 7) && !file_defined;
	struct cpp_expr *e = new_expr(ctx->arena, config ? CPP_EXPR_CONFIG : CPP_EXPR_FREE);

	e->variant = variant;
	e->bare = !!bare;
	e->from_macro = !!from_macro;
	e->file_defined = !!file_defined;
	e->name = arena_strndup(ctx->arena, name, len);
	return e;
}

struct cpp_expr *cpp_expr_defined(struct cpp_expr_ctx *ctx, const char *name, size_t len)
{
	struct cpp_token t = { T_IDENT, name, (uint32_t)len, 0 };
	const struct strmap *fd = ctx->file_defined;

	ctx->nr_symbols = 0;
	ctx->error = NULL;
	cpp_collect_symbols(ctx, &t, 1);
	return leaf(ctx, name, len, CPP_DEFINED, 0, 0, fd && fd->nr && strmap_getn(fd, name, len));
}

static int is_constant(const struct cpp_node *n)
{
	switch (n->kind) {
	case N_NUM:
		return 1;
	case N_UNARY:
		return is_constant(n->a);
	case N_BINARY:
		return is_constant(n->a) && is_constant(n->b);
	case N_COND:
		return is_constant(n->a) && is_constant(n->b) && is_constant(n->c);
	default:
		return 0;
	}
}

static int need_space(const struct cpp_token *prev, const struct cpp_token *t)
{
	if (prev->type == T_LPAREN || prev->type == T_NOT || prev->type == T_TILDE)
		return 0;
	if (t->type == T_RPAREN || t->type == T_COMMA)
		return 0;
	return !(t->type == T_LPAREN && prev->type == T_IDENT);
}

/* Opaque atoms are deep copies: the scratch arena of the directive goes away. */
static struct cpp_node *copy_node(struct arena *a, const struct cpp_node *n)
{
	struct cpp_node *c;

	if (!n)
		return NULL;
	c = arena_alloc(a, sizeof(*c));
	*c = *n;
	if (n->name)
		c->name = arena_strndup(a, n->name, strlen(n->name));
	if (n->arg)
		c->arg = arena_strndup(a, n->arg, strlen(n->arg));
	c->a = copy_node(a, n->a);
	c->b = copy_node(a, n->b);
	c->c = copy_node(a, n->c);
	return c;
}

static struct cpp_expr *opaque(struct cpp_expr_ctx *ctx, const struct cpp_node *n)
{
	struct strbuf sb = STRBUF_INIT;
	struct cpp_expr *e;
	int64_t v;

	if (is_constant(n)) {
		if (cpp_node_value(n, NULL, &v) != CPP_UNKNOWN)
			return cpp_expr_const(ctx->arena, v != 0);
	}
	for (size_t i = n->tok_begin; i < n->tok_end; i++) {
		const struct cpp_token *t = &ctx->expanded.v[i];

		if (i > n->tok_begin && need_space(t - 1, t))
			strbuf_addch(&sb, ' ');
		strbuf_add(&sb, t->s, t->len);
	}
	e = new_expr(ctx->arena, CPP_EXPR_OPAQUE);
	e->text = arena_strndup(ctx->arena, strbuf_str(&sb), sb.len);
	e->node = copy_node(ctx->arena, n);
	strbuf_release(&sb);
	return e;
}

static const struct {
	const char *name;
	enum cpp_variant variant;
} builtins[] = {
	{ "IS_ENABLED", CPP_ENABLED },
	{ "IS_BUILTIN", CPP_BUILTIN },
	{ "IS_MODULE", CPP_MODULE },
	{ "IS_REACHABLE", CPP_REACHABLE },
};

static int is_zero(const struct cpp_node *n)
{
	return n->kind == N_NUM && n->value == 0;
}

struct cpp_expr *cpp_abstract(struct cpp_expr_ctx *ctx, const struct cpp_node *n)
{
	struct arena *a = ctx->arena;

	switch (n->kind) {
	case N_NUM:
		return cpp_expr_const(a, n->value != 0);
	case N_IDENT:
		return leaf(ctx, n->name, strlen(n->name), CPP_DEFINED, 1, n->from_macro,
			    n->file_defined);
	case N_DEFINED:
		return leaf(ctx, n->name, strlen(n->name), CPP_DEFINED, 0, n->from_macro,
			    n->file_defined);
	case N_CALL:
		for (size_t i = 0; n->arg && i < ARRAY_SIZE(builtins); i++) {
			int fd;

			if (strcmp(n->name, builtins[i].name))
				continue;
			/* IS_BUILTIN reads X only; the others read X_MODULE too. */
			fd = n->file_defined || (builtins[i].variant != CPP_BUILTIN &&
						 is_file_defined(ctx, n->arg, "_MODULE"));
			return leaf(ctx, n->arg, strlen(n->arg), builtins[i].variant, 0,
				    n->from_macro, fd);
		}
		break;
	case N_UNARY:
		if (n->op == T_NOT)
			return cpp_expr_not(a, cpp_abstract(ctx, n->a));
		/* -x and +x are non-zero exactly when x is. */
		if (n->op == T_MINUS || n->op == T_PLUS)
			return cpp_abstract(ctx, n->a);
		break;
	case N_BINARY:
		if (n->op == T_ANDAND)
			return cpp_expr_and(a, cpp_abstract(ctx, n->a), cpp_abstract(ctx, n->b));
		if (n->op == T_OROR)
			return cpp_expr_or(a, cpp_abstract(ctx, n->a), cpp_abstract(ctx, n->b));
		if ((n->op == T_NE || n->op == T_EQ) && (is_zero(n->a) || is_zero(n->b))) {
			struct cpp_expr *x = cpp_abstract(ctx, is_zero(n->a) ? n->b : n->a);

			return n->op == T_NE ? x : cpp_expr_not(a, x);
		}
		break;
	case N_COND: {
		struct cpp_expr *c = cpp_abstract(ctx, n->a);

		return cpp_expr_or(a, cpp_expr_and(a, c, cpp_abstract(ctx, n->b)),
				   cpp_expr_and(a, cpp_expr_not(a, c), cpp_abstract(ctx, n->c)));
	}
	}
	return opaque(ctx, n);
}

static const char *variant_name[] = {
	[CPP_DEFINED] = "defined",
	[CPP_ENABLED] = "IS_ENABLED",
	[CPP_BUILTIN] = "IS_BUILTIN",
	[CPP_MODULE] = "IS_MODULE",
	[CPP_REACHABLE] = "IS_REACHABLE",
};

static void format(struct strbuf *sb, const struct cpp_expr *e, enum cpp_expr_kind outer)
{
	switch (e->kind) {
	case CPP_EXPR_CONST:
		strbuf_addch(sb, e->value ? '1' : '0');
		break;
	case CPP_EXPR_NOT:
		strbuf_addch(sb, '!');
		format(sb, e->a, CPP_EXPR_NOT);
		break;
	case CPP_EXPR_AND:
	case CPP_EXPR_OR: {
		/* Parenthesise a sub-formula unless it is a leaf or the same operator. */
		int paren = outer != e->kind && outer != CPP_EXPR_CONST;

		if (paren)
			strbuf_addch(sb, '(');
		format(sb, e->a, e->kind);
		strbuf_addstr(sb, e->kind == CPP_EXPR_AND ? " && " : " || ");
		format(sb, e->b, e->kind);
		if (paren)
			strbuf_addch(sb, ')');
		break;
	}
	case CPP_EXPR_CONFIG:
	case CPP_EXPR_FREE:
		if (e->variant == CPP_DEFINED && e->bare)
			strbuf_addstr(sb, e->name);
		else
			strbuf_addf(sb, "%s(%s)", variant_name[e->variant], e->name);
		if (e->from_macro)
			strbuf_addstr(sb, "[macro]");
		if (e->file_defined)
			strbuf_addstr(sb, "[file]");
		break;
	case CPP_EXPR_OPAQUE:
		strbuf_addf(sb, "{%s}", e->text);
		break;
	}
}

void cpp_expr_format(struct strbuf *sb, const struct cpp_expr *e)
{
	format(sb, e, CPP_EXPR_CONST);
}
