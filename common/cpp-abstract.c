// SPDX-License-Identifier: GPL-2.0
/*
 * From the integer expression of an #if to a boolean formula: macros become
 * variables, the IS_ENABLED family becomes variants of them, and whatever is
 * not boolean (comparisons, arithmetic, unknown calls) becomes an opaque atom.
 */
#include "cpp-internal.h"

#include <stdint.h>
#include <stdlib.h>
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

static const char *const variant_name[] = {
	[CPP_DEFINED] = "defined",
	[CPP_ENABLED] = "IS_ENABLED",
	[CPP_BUILTIN] = "IS_BUILTIN",
	[CPP_MODULE] = "IS_MODULE",
	[CPP_REACHABLE] = "IS_REACHABLE",
};

const char *cpp_variant_name(enum cpp_variant v)
{
	return variant_name[v];
}

int cpp_variant_of_call(const char *name, enum cpp_variant *out)
{
	for (size_t v = CPP_ENABLED; v < ARRAY_SIZE(variant_name); v++)
		if (!strcmp(name, variant_name[v])) {
			*out = (enum cpp_variant)v;
			return 1;
		}
	return 0;
}

static int is_zero(const struct cpp_node *n)
{
	return n->kind == N_NUM && n->value == 0;
}

struct cpp_expr *cpp_abstract(struct cpp_expr_ctx *ctx, const struct cpp_node *n)
{
	struct arena *a = ctx->arena;
	enum cpp_variant variant;

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
		if (n->arg && cpp_variant_of_call(n->name, &variant)) {
			/* IS_BUILTIN reads X only; the others read X_MODULE too. */
			int fd = n->file_defined || (variant != CPP_BUILTIN &&
						     is_file_defined(ctx, n->arg, "_MODULE"));

			return leaf(ctx, n->arg, strlen(n->arg), variant, 0, n->from_macro, fd);
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

/*
 * The two texts of a formula: `normal` false, the exact infix form
 * (cpp_expr_format); true, the normal form (cpp_expr_format_normal), at
 * most `max` bytes.
 */
struct format_style {
	int normal;
	size_t max;
};

static int format(struct strbuf *sb, const struct cpp_expr *e, enum cpp_expr_kind outer,
		  const struct format_style *st);

/* The operands of && or || in the exact form: parenthesised unless a leaf or the same operator. */
static void format_infix(struct strbuf *sb, const struct cpp_expr *e, enum cpp_expr_kind outer,
			 const struct format_style *st)
{
	int paren = outer != e->kind && outer != CPP_EXPR_CONST;

	if (paren)
		strbuf_addch(sb, '(');
	format(sb, e->a, e->kind, st);
	strbuf_addstr(sb, e->kind == CPP_EXPR_AND ? " && " : " || ");
	format(sb, e->b, e->kind, st);
	if (paren)
		strbuf_addch(sb, ')');
}

/*
 * The operands of a chain of one operator in the normal form: each in
 * normal form, sorted and joined. -1 as soon as the text would pass st->max.
 */
static int format_chain(struct strbuf *sb, const struct cpp_expr *e, const struct format_style *st)
{
	struct strvec parts = STRVEC_INIT;
	const struct cpp_expr **stack = NULL;
	size_t nr = 0, alloc = 0, total = sb->len;
	struct strbuf one = STRBUF_INIT;
	int ret = 0;

	ALLOC_GROW(stack, nr + 1, alloc);
	stack[nr++] = e;
	while (nr) {
		const struct cpp_expr *x = stack[--nr];

		if (x->kind == e->kind) {
			/* Each operand takes 5 bytes or more ("a && "): stop before the walk grows. */
			if ((parts.nr + nr + 2) * 5 > st->max) {
				ret = -1;
				break;
			}
			ALLOC_GROW(stack, nr + 2, alloc);
			stack[nr++] = x->b;
			stack[nr++] = x->a;
			continue;
		}
		strbuf_reset(&one);
		if (format(&one, x, e->kind, st) < 0 || (total += one.len + 4) > st->max) {
			ret = -1;
			break;
		}
		strvec_push(&parts, one.buf);
	}
	if (!ret) {
		strvec_sort(&parts);
		strbuf_addch(sb, '(');
		for (size_t i = 0; i < parts.nr; i++)
			strbuf_addf(sb, "%s%s", i ? (e->kind == CPP_EXPR_AND ? " && " : " || ") : "",
				    parts.v[i]);
		strbuf_addch(sb, ')');
	}
	strvec_clear(&parts);
	strbuf_release(&one);
	free(stack);
	return ret;
}

static void format_leaf(struct strbuf *sb, const struct cpp_expr *e, const struct format_style *st)
{
	/* In the normal form, defined(X) and X are one test of a Kconfig name: "(X)". */
	const char *variant = st->normal && e->variant == CPP_DEFINED ? "" : variant_name[e->variant];

	if (!st->normal) {
		if (e->variant == CPP_DEFINED && e->bare)
			strbuf_addstr(sb, e->name);
		else
			strbuf_addf(sb, "%s(%s)", variant, e->name);
		if (e->from_macro)
			strbuf_addstr(sb, "[macro]");
		if (e->file_defined)
			strbuf_addstr(sb, "[file]");
	} else if (e->kind == CPP_EXPR_CONFIG) {
		strbuf_addf(sb, "%s(%s)", variant, e->name);
	} else {
		/* Outside Kconfig, defined(X) and X are two questions. */
		strbuf_addf(sb, "%s%s(%s)%s", e->bare ? "value" : "defined", variant, e->name,
			    e->file_defined ? "[file]" : "");
	}
}

static int format(struct strbuf *sb, const struct cpp_expr *e, enum cpp_expr_kind outer,
		  const struct format_style *st)
{
	switch (e->kind) {
	case CPP_EXPR_CONST:
		strbuf_addch(sb, e->value ? '1' : '0');
		break;
	case CPP_EXPR_NOT:
		strbuf_addch(sb, '!');
		return sb->len > st->max ? -1 : format(sb, e->a, CPP_EXPR_NOT, st);
	case CPP_EXPR_AND:
	case CPP_EXPR_OR:
		if (st->normal)
			return format_chain(sb, e, st);
		format_infix(sb, e, outer, st);
		break;
	case CPP_EXPR_CONFIG:
	case CPP_EXPR_FREE:
		format_leaf(sb, e, st);
		break;
	case CPP_EXPR_OPAQUE:
		strbuf_addf(sb, "{%s}", e->text);
		break;
	}
	return sb->len > st->max ? -1 : 0;
}

void cpp_expr_format(struct strbuf *sb, const struct cpp_expr *e)
{
	const struct format_style exact = { .normal = 0, .max = SIZE_MAX };

	format(sb, e, CPP_EXPR_CONST, &exact);
}

int cpp_expr_format_normal(struct strbuf *sb, const struct cpp_expr *e, size_t max)
{
	const struct format_style normal = { .normal = 1, .max = max };

	return format(sb, e, CPP_EXPR_CONST, &normal);
}
