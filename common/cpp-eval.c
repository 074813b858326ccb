// SPDX-License-Identifier: GPL-2.0
/*
 * Evaluating block trees under an assignment of macros, as a preprocessor
 * would: what checks the scanner and the abstraction against unifdef.
 */
#include "cpp-internal.h"

#include <stdlib.h>
#include <string.h>

void cpp_assignment_define(struct cpp_assignment *a, const char *name, const char *value)
{
	free(strmap_put(&a->values, name, xstrdup(value ? value : "1")));
}

void cpp_assignment_undefine(struct cpp_assignment *a, const char *name)
{
	free(strmap_put(&a->values, name, NULL));
}

void cpp_assignment_clear(struct cpp_assignment *a)
{
	strmap_clear(&a->values, free);
}

static int parse_value(const char *s, int64_t *v)
{
	char *end;

	*v = (int64_t)strtoull(s, &end, 0);
	if (end == s)
		return -1;
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
		end++;
	return *end ? -1 : 0;
}

/* The value of macro `name` in an #if: 0 when undefined. */
static enum cpp_truth macro_value(const struct cpp_assignment *a, const char *name, int64_t *v)
{
	const char *s;

	if (!a || !strmap_contains(&a->values, name))
		return CPP_UNKNOWN;
	s = strmap_get(&a->values, name);
	*v = 0;
	if (s && parse_value(s, v) < 0)
		return CPP_UNKNOWN;
	return *v != 0;
}

static enum cpp_truth macro_defined(const struct cpp_assignment *a, const char *name)
{
	if (!a || !strmap_contains(&a->values, name))
		return CPP_UNKNOWN;
	return strmap_get(&a->values, name) != NULL;
}

/* The kernel's IS_* macros test that a macro is defined to exactly 1. */
static enum cpp_truth macro_is_one(const struct cpp_assignment *a, const char *name,
				   const char *suffix)
{
	struct strbuf sb = STRBUF_INIT;
	enum cpp_truth t;
	int64_t v;

	strbuf_addstr(&sb, name);
	strbuf_addstr(&sb, suffix);
	t = macro_value(a, sb.buf, &v);
	strbuf_release(&sb);
	return t == CPP_UNKNOWN ? t : v == 1;
}

static enum cpp_truth and3(enum cpp_truth x, enum cpp_truth y)
{
	if (x == CPP_FALSE || y == CPP_FALSE)
		return CPP_FALSE;
	return x == CPP_UNKNOWN || y == CPP_UNKNOWN ? CPP_UNKNOWN : CPP_TRUE;
}

static enum cpp_truth or3(enum cpp_truth x, enum cpp_truth y)
{
	if (x == CPP_TRUE || y == CPP_TRUE)
		return CPP_TRUE;
	return x == CPP_UNKNOWN || y == CPP_UNKNOWN ? CPP_UNKNOWN : CPP_FALSE;
}

static enum cpp_truth variant_value(const struct cpp_assignment *a, const char *name,
				    enum cpp_variant variant, int bare)
{
	int64_t v;

	switch (variant) {
	case CPP_DEFINED:
		return bare ? macro_value(a, name, &v) : macro_defined(a, name);
	case CPP_ENABLED:
		return or3(macro_is_one(a, name, ""), macro_is_one(a, name, "_MODULE"));
	case CPP_BUILTIN:
		return macro_is_one(a, name, "");
	case CPP_MODULE:
		return macro_is_one(a, name, "_MODULE");
	case CPP_REACHABLE:
		return or3(macro_is_one(a, name, ""),
			   and3(macro_is_one(a, name, "_MODULE"), macro_defined(a, "MODULE")));
	}
	return CPP_UNKNOWN;
}

#define KNOWN(t, val) ((t) == CPP_UNKNOWN ? CPP_UNKNOWN : (*value = (val), *value != 0))

enum cpp_truth cpp_node_value(const struct cpp_node *n, const struct cpp_assignment *a,
			      int64_t *value)
{
	enum cpp_truth x, y;
	int64_t u = 0, v = 0;
	uint64_t uu, uv;

	switch (n->kind) {
	case N_NUM:
		*value = n->value;
		return *value != 0;
	case N_IDENT:
		return KNOWN(macro_value(a, n->name, &v), v);
	case N_DEFINED:
		x = macro_defined(a, n->name);
		return KNOWN(x, x == CPP_TRUE);
	case N_CALL: {
		enum cpp_variant variant;

		if (n->arg && cpp_variant_of_call(n->name, &variant)) {
			x = variant_value(a, n->arg, variant, 0);
			return KNOWN(x, x == CPP_TRUE);
		}
		return CPP_UNKNOWN;
	}
	case N_UNARY:
		x = cpp_node_value(n->a, a, &v);
		switch (n->op) {
		case T_NOT: return KNOWN(x, !v);
		case T_TILDE: return KNOWN(x, (int64_t)~(uint64_t)v);
		case T_MINUS: return KNOWN(x, (int64_t)(0 - (uint64_t)v));
		default: return KNOWN(x, v);
		}
	case N_COND:
		x = cpp_node_value(n->a, a, &v);
		if (x != CPP_UNKNOWN)
			return cpp_node_value(v ? n->b : n->c, a, value);
		x = cpp_node_value(n->b, a, &u);
		y = cpp_node_value(n->c, a, &v);
		return x != CPP_UNKNOWN && y != CPP_UNKNOWN && u == v ? KNOWN(x, u) : CPP_UNKNOWN;
	case N_BINARY:
		break;
	}
	x = cpp_node_value(n->a, a, &u);
	y = cpp_node_value(n->b, a, &v);
	if (n->op == T_ANDAND) {
		x = and3(x, y);
		return KNOWN(x, x == CPP_TRUE);
	}
	if (n->op == T_OROR) {
		x = or3(x, y);
		return KNOWN(x, x == CPP_TRUE);
	}
	if (x == CPP_UNKNOWN || y == CPP_UNKNOWN)
		return CPP_UNKNOWN;
	uu = (uint64_t)u;
	uv = (uint64_t)v;
	switch (n->op) {
	case T_OR: return KNOWN(x, (int64_t)(uu | uv));
	case T_XOR: return KNOWN(x, (int64_t)(uu ^ uv));
	case T_AND: return KNOWN(x, (int64_t)(uu & uv));
	case T_EQ: return KNOWN(x, u == v);
	case T_NE: return KNOWN(x, u != v);
	case T_LT: return KNOWN(x, u < v);
	case T_LE: return KNOWN(x, u <= v);
	case T_GT: return KNOWN(x, u > v);
	case T_GE: return KNOWN(x, u >= v);
	case T_PLUS: return KNOWN(x, (int64_t)(uu + uv));
	case T_MINUS: return KNOWN(x, (int64_t)(uu - uv));
	case T_STAR: return KNOWN(x, (int64_t)(uu * uv));
	case T_SHL:
		return v < 0 || v > 63 ? CPP_UNKNOWN : KNOWN(x, (int64_t)(uu << v));
	case T_SHR:
		return v < 0 || v > 63 ? CPP_UNKNOWN : KNOWN(x, u >> v);
	case T_SLASH:
	case T_PERCENT:
		if (v == 0 || (v == -1 && u == INT64_MIN))
			return CPP_UNKNOWN;
		return KNOWN(x, n->op == T_SLASH ? u / v : u % v);
	default:
		return CPP_UNKNOWN;
	}
}

enum cpp_truth cpp_eval(const struct cpp_expr *e, const struct cpp_assignment *a)
{
	enum cpp_truth x;
	int64_t v;

	switch (e->kind) {
	case CPP_EXPR_CONST:
		return e->value != 0;
	case CPP_EXPR_NOT:
		x = cpp_eval(e->a, a);
		return x == CPP_UNKNOWN ? x : !x;
	case CPP_EXPR_AND:
		x = cpp_eval(e->a, a);
		return x == CPP_FALSE ? x : and3(x, cpp_eval(e->b, a));
	case CPP_EXPR_OR:
		x = cpp_eval(e->a, a);
		return x == CPP_TRUE ? x : or3(x, cpp_eval(e->b, a));
	case CPP_EXPR_CONFIG:
	case CPP_EXPR_FREE:
		return variant_value(a, e->name, e->variant, e->bare);
	case CPP_EXPR_OPAQUE:
		return e->node ? cpp_node_value(e->node, a, &v) : CPP_UNKNOWN;
	}
	return CPP_UNKNOWN;
}

static void clear_lines(unsigned char *keep, int from, int to, int nr_lines)
{
	if (to > nr_lines)
		to = nr_lines;
	if (from < 1)
		from = 1;
	if (from <= to)
		memset(keep + from, 0, to - from + 1);
}

void cpp_keep_lines(const struct cpp_file *f, const struct cpp_assignment *a,
		    unsigned char *keep)
{
	int *next = xmalloc(sizeof(*next) * (f->nr_blocks + 1));
	unsigned char *decided = xcalloc(f->nr_blocks + 1, 1);

	memset(keep, 1, f->nr_lines + 1);
	for (size_t i = 0; i < f->nr_blocks; i++)
		next[i] = -1;
	for (size_t i = 0; i < f->nr_blocks; i++)
		if (f->blocks[i].prev_sibling >= 0)
			next[f->blocks[i].prev_sibling] = (int)i;
	/* A chain's directives go only when every one of its conditions is decided. */
	for (size_t i = 0; i < f->nr_blocks; i++) {
		const struct cpp_block *b = &f->blocks[i];
		int all = 1;

		if (b->prev_sibling >= 0)
			continue;
		for (int j = (int)i; j >= 0; j = next[j])
			if (cpp_eval(f->blocks[j].local, a) == CPP_UNKNOWN)
				all = 0;
		for (int j = (int)i; j >= 0; j = next[j])
			decided[j] = all;
	}
	for (size_t i = 0; i < f->nr_blocks; i++) {
		const struct cpp_block *b = &f->blocks[i];

		/* The presence condition alone decides: that is what is under test. */
		if (cpp_eval(b->pc, a) == CPP_FALSE)
			clear_lines(keep, b->line_last + 1, b->end_line - 1, f->nr_lines);
		if (!decided[i])
			continue;
		clear_lines(keep, b->line, b->line_last, f->nr_lines);
		if (next[i] < 0 && !b->unterminated)
			clear_lines(keep, b->end_line, b->end_line_last, f->nr_lines);
	}
	free(next);
	free(decided);
}
