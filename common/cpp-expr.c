// SPDX-License-Identifier: GPL-2.0
/*
 * #if expressions: tokens, the C preprocessor grammar of a condition, and the
 * CONFIG names it reads. The project macros are expanded by cpp-macro.c
 * first, and the parsed expression becomes a formula in cpp-abstract.c.
 */
#include "cpp-internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- tokens ---- */

int cpp_is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

int cpp_is_ident_char(int c)
{
	return cpp_is_ident_start(c) || (c >= '0' && c <= '9');
}

void cpp_push_token(struct cpp_tokens *out, enum cpp_token_type type,
		       const char *s, size_t len, int from_macro)
{
	struct cpp_token *t;

	ALLOC_GROW(out->v, out->nr + 1, out->alloc);
	t = &out->v[out->nr++];
	t->type = type;
	t->s = s;
	t->len = (uint32_t)len;
	t->from_macro = !!from_macro;
}

void cpp_tokenize(struct cpp_tokens *out, const char *s, size_t len)
{
	const char *p = s, *end = s + len;

	while (p < end) {
		const char *b = p;
		enum cpp_token_type type = T_OTHER;
		int c = (unsigned char)*p;

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
			p++;
			continue;
		}
		if (cpp_is_ident_start(c)) {
			while (p < end && cpp_is_ident_char((unsigned char)*p))
				p++;
			/* L'x', u8"..": an encoding prefix belongs to its literal. */
			if (p < end && (*p == '\'' || *p == '"') && p - b <= 2 &&
			    (*b == 'L' || *b == 'u' || *b == 'U'))
				goto literal;
			cpp_push_token(out, T_IDENT, b, p - b, 0);
			continue;
		}
		if ((c >= '0' && c <= '9') || (c == '.' && p + 1 < end && p[1] >= '0' && p[1] <= '9')) {
			p++;
			while (p < end) {
				if ((*p == '+' || *p == '-') && strchr("eEpP", p[-1]))
					p++;
				else if (cpp_is_ident_char((unsigned char)*p) || *p == '.')
					p++;
				else
					break;
			}
			cpp_push_token(out, T_NUM, b, p - b, 0);
			continue;
		}
		if (c == '\'' || c == '"') {
			char q;
literal:
			q = *p++;
			while (p < end && *p != q) {
				if (*p == '\\' && p + 1 < end)
					p++;
				p++;
			}
			if (p < end)
				p++;
			cpp_push_token(out, q == '"' ? T_STRING : T_CHAR, b, p - b, 0);
			continue;
		}
		p++;
#define TWO(ch, t2, t1) (p < end && *p == (ch) ? (p++, (t2)) : (t1))
		switch (c) {
		case '(': type = T_LPAREN; break;
		case ')': type = T_RPAREN; break;
		case ',': type = T_COMMA; break;
		case '?': type = T_QUEST; break;
		case ':': type = T_COLON; break;
		case '|': type = TWO('|', T_OROR, T_OR); break;
		case '&': type = TWO('&', T_ANDAND, T_AND); break;
		case '^': type = T_XOR; break;
		case '=': type = TWO('=', T_EQ, T_OTHER); break;
		case '!': type = TWO('=', T_NE, T_NOT); break;
		case '<':
			type = TWO('<', T_SHL, T_LT);
			if (type == T_LT)
				type = TWO('=', T_LE, T_LT);
			break;
		case '>':
			type = TWO('>', T_SHR, T_GT);
			if (type == T_GT)
				type = TWO('=', T_GE, T_GT);
			break;
		case '+': type = T_PLUS; break;
		case '-': type = T_MINUS; break;
		case '*': type = T_STAR; break;
		case '/': type = T_SLASH; break;
		case '%': type = T_PERCENT; break;
		case '~': type = T_TILDE; break;
		case '#': type = TWO('#', T_HASHHASH, T_HASH); break;
		}
#undef TWO
		cpp_push_token(out, type, b, p - b, 0);
	}
}

int cpp_tok_is(const struct cpp_token *t, const char *s)
{
	return t->type == T_IDENT && strlen(s) == t->len && !memcmp(t->s, s, t->len);
}

/* ---- parser ---- */

struct parser {
	struct cpp_expr_ctx *ctx;
	const struct cpp_token *t;
	size_t n, i;
	const char *err;
	int depth;	/* of parentheses, unary operators and ?: */
};

/* Far beyond any real #if, well within the C stack of every thread. */
#define MAX_DEPTH 256

static const struct cpp_token eof_token = { T_EOF, "", 0, 0 };

static const struct cpp_token *peek(struct parser *p)
{
	return p->i < p->n ? &p->t[p->i] : &eof_token;
}

static struct cpp_node *new_node(struct parser *p, enum cpp_node_kind kind, size_t begin)
{
	struct cpp_node *n = arena_alloc(&p->ctx->scratch, sizeof(*n));

	n->kind = kind;
	n->tok_begin = begin;
	n->tok_end = p->i;
	return n;
}

static void set_name(struct parser *p, struct cpp_node *n, const struct cpp_token *t)
{
	const struct strmap *fd = p->ctx->file_defined;

	n->name = arena_strndup(&p->ctx->scratch, t->s, t->len);
	n->from_macro = t->from_macro;
	if (fd && fd->nr && strmap_getn(fd, t->s, t->len))
		n->file_defined = 1;
}

static struct cpp_node *parse_cond(struct parser *p);

static int parse_number(const struct cpp_token *t, struct cpp_node *n)
{
	char buf[64], *end;
	unsigned long long v;

	if (t->len >= sizeof(buf))
		return -1;
	memcpy(buf, t->s, t->len);
	buf[t->len] = '\0';
	v = strtoull(buf, &end, 0);
	if (buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B'))
		v = strtoull(buf + 2, &end, 2);
	for (; *end; end++) {
		if (*end == 'u' || *end == 'U')
			n->is_unsigned = 1;
		else if (*end != 'l' && *end != 'L')
			return -1;
	}
	n->value = (int64_t)v;
	return 0;
}

static int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
		return (c | 0x20) - 'a' + 10;
	return -1;
}

/* The value of a character constant: 'a', '\n', '\x41', '\101', 'ab'. */
static int64_t char_value(const struct cpp_token *t)
{
	const char *s = memchr(t->s, '\'', t->len), *end = t->s + t->len;
	uint64_t v = 0;
	int nr = 0;

	if (!s)
		return 0;
	if (end > s + 1 && end[-1] == '\'')
		end--;
	for (s++; s < end; s++, nr++) {
		unsigned c = (unsigned char)*s;

		if (c == '\\' && s + 1 < end) {
			c = (unsigned char)*++s;
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'a': c = '\a'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'v': c = '\v'; break;
			case 'x':
				for (c = 0; s + 1 < end && hex_digit((unsigned char)s[1]) >= 0; s++)
					c = (c << 4 | (unsigned)hex_digit((unsigned char)s[1])) & 0xff;
				break;
			default:
				if (c >= '0' && c <= '7') {
					c -= '0';
					for (int k = 0; k < 2 && s + 1 < end && s[1] >= '0' && s[1] <= '7'; k++)
						c = c * 8 + (unsigned)(*++s - '0');
				}
			}
		}
		v = v << 8 | (c & 0xff);
	}
	/* One plain char is signed on the machines the kernel mostly targets. */
	return nr == 1 ? (int64_t)(signed char)(unsigned char)v : (int64_t)v;
}

static struct cpp_node *parse_primary(struct parser *p)
{
	const struct cpp_token *t = peek(p);
	size_t begin = p->i;
	struct cpp_node *n;

	switch (t->type) {
	case T_NUM:
		p->i++;
		n = new_node(p, N_NUM, begin);
		if (parse_number(t, n) < 0)
			p->err = "bad number in #if";
		return n;
	case T_CHAR:
		p->i++;
		n = new_node(p, N_NUM, begin);
		n->value = char_value(t);
		return n;
	case T_LPAREN:
		p->i++;
		n = parse_cond(p);
		if (p->err)
			return n;
		if (peek(p)->type != T_RPAREN)
			p->err = "missing ')' in #if";
		else
			p->i++;
		return n;
	case T_IDENT:
		p->i++;
		if (cpp_tok_is(t, "defined")) {
			int paren = peek(p)->type == T_LPAREN;
			const struct cpp_token *op;

			if (paren)
				p->i++;
			op = peek(p);
			if (op->type != T_IDENT) {
				p->err = "defined without a macro name";
				return new_node(p, N_NUM, begin);
			}
			p->i++;
			if (paren && peek(p)->type != T_RPAREN)
				p->err = "missing ')' after defined";
			else if (paren)
				p->i++;
			n = new_node(p, N_DEFINED, begin);
			set_name(p, n, op);
			return n;
		}
		if (peek(p)->type == T_LPAREN) {
			/* A function-like macro call: only IS_ENABLED & co. mean something. */
			size_t level = 0, arg = p->i + 1;

			for (p->i++; p->i < p->n; p->i++) {
				if (p->t[p->i].type == T_LPAREN)
					level++;
				else if (p->t[p->i].type == T_RPAREN && !level--)
					break;
			}
			if (p->i >= p->n) {
				p->err = "missing ')' in macro call";
				return new_node(p, N_NUM, begin);
			}
			p->i++;
			n = new_node(p, N_CALL, begin);
			n->name = arena_strndup(&p->ctx->scratch, t->s, t->len);
			if (p->i - arg == 2 && p->t[arg].type == T_IDENT) {
				struct cpp_node tmp = { 0 };

				set_name(p, &tmp, &p->t[arg]);
				n->arg = tmp.name;
				n->from_macro = tmp.from_macro;
				n->file_defined = tmp.file_defined;
			}
			return n;
		}
		n = new_node(p, N_IDENT, begin);
		set_name(p, n, t);
		return n;
	default:
		p->err = t->type == T_EOF ? "missing expression in #if" : "unexpected token in #if";
		if (t->type != T_EOF)
			p->i++;
		return new_node(p, N_NUM, begin);
	}
}

static struct cpp_node *parse_unary(struct parser *p)
{
	enum cpp_token_type op = peek(p)->type;
	size_t begin = p->i;
	struct cpp_node *n;

	if (op != T_NOT && op != T_TILDE && op != T_MINUS && op != T_PLUS)
		return parse_primary(p);
	p->i++;
	if (++p->depth > MAX_DEPTH) {
		p->err = "#if nested too deeply";
		return new_node(p, N_NUM, begin);
	}
	n = parse_unary(p);
	p->depth--;
	if (p->err)
		return n;
	{
		struct cpp_node *u = new_node(p, N_UNARY, begin);

		u->op = op;
		u->a = n;
		return u;
	}
}

static int precedence(enum cpp_token_type t)
{
	switch (t) {
	case T_OROR: return 1;
	case T_ANDAND: return 2;
	case T_OR: return 3;
	case T_XOR: return 4;
	case T_AND: return 5;
	case T_EQ: case T_NE: return 6;
	case T_LT: case T_LE: case T_GT: case T_GE: return 7;
	case T_SHL: case T_SHR: return 8;
	case T_PLUS: case T_MINUS: return 9;
	case T_STAR: case T_SLASH: case T_PERCENT: return 10;
	default: return 0;
	}
}

static struct cpp_node *parse_binary(struct parser *p, int min_prec)
{
	size_t begin = p->i;
	struct cpp_node *lhs = parse_unary(p);

	while (!p->err) {
		enum cpp_token_type op = peek(p)->type;
		int prec = precedence(op);
		struct cpp_node *rhs, *n;

		if (!prec || prec < min_prec)
			break;
		p->i++;
		rhs = parse_binary(p, prec + 1);
		n = new_node(p, N_BINARY, begin);
		n->op = op;
		n->a = lhs;
		n->b = rhs;
		lhs = n;
	}
	return lhs;
}

static struct cpp_node *parse_cond(struct parser *p)
{
	size_t begin = p->i;
	struct cpp_node *c, *n;

	if (++p->depth > MAX_DEPTH) {
		p->err = "#if nested too deeply";
		return new_node(p, N_NUM, begin);
	}
	c = parse_binary(p, 1);
	p->depth--;
	if (p->err || peek(p)->type != T_QUEST)
		return c;
	p->i++;
	n = new_node(p, N_COND, begin);
	n->a = c;
	n->b = parse_cond(p);
	if (peek(p)->type != T_COLON) {
		p->err = "missing ':' in #if";
		return n;
	}
	p->i++;
	n->c = parse_cond(p);
	n->tok_end = p->i;
	return n;
}


/* Past this many names in one directive, they are looked up in a map, not in turn. */
#define SYMBOLS_SCANNED 32

static void add_symbol(struct cpp_expr_ctx *ctx, const struct cpp_token *t, struct strmap *index)
{
	const struct strmap *fd = ctx->file_defined;
	struct cpp_symbol_ref *r = NULL;

	if (ctx->nr_symbols <= SYMBOLS_SCANNED) {
		for (size_t i = 0; i < ctx->nr_symbols && !r; i++)
			if (strlen(ctx->symbols[i].name) == t->len &&
			    !memcmp(ctx->symbols[i].name, t->s, t->len))
				r = &ctx->symbols[i];
	} else {
		uintptr_t at = (uintptr_t)strmap_getn(index, t->s, t->len);

		r = at ? &ctx->symbols[at - 1] : NULL;
	}
	if (r) {
		/* Written by the user anywhere in the line: not only from a macro. */
		r->from_macro &= t->from_macro;
		return;
	}
	ALLOC_GROW(ctx->symbols, ctx->nr_symbols + 1, ctx->alloc_symbols);
	r = &ctx->symbols[ctx->nr_symbols++];
	r->name = arena_strndup(ctx->arena, t->s, t->len);
	r->from_macro = t->from_macro;
	r->file_defined = fd && fd->nr && strmap_getn(fd, t->s, t->len);
	if (ctx->nr_symbols == SYMBOLS_SCANNED + 1)
		for (size_t i = 0; i < ctx->nr_symbols; i++)
			strmap_put(index, ctx->symbols[i].name, (void *)(i + 1));
	else if (ctx->nr_symbols > SYMBOLS_SCANNED + 1)
		strmap_put(index, r->name, (void *)ctx->nr_symbols);
}

void cpp_collect_symbols(struct cpp_expr_ctx *ctx, const struct cpp_token *t, size_t n)
{
	struct strmap index = STRMAP_INIT;

	for (size_t i = 0; i < n; i++)
		if (t[i].type == T_IDENT && t[i].len > 7 && !memcmp(t[i].s, "CONFIG_", 7) &&
		    !(i + 1 < n && t[i + 1].type == T_LPAREN))
			add_symbol(ctx, &t[i], &index);
	strmap_clear(&index, NULL);
}

struct cpp_expr *cpp_parse_condition(struct cpp_expr_ctx *ctx, const char *s, size_t len)
{
	struct parser p = { ctx, NULL, 0, 0, NULL, 0 };
	struct cpp_node *n = NULL;

	ctx->raw.nr = ctx->expanded.nr = 0;
	ctx->nr_symbols = 0;
	ctx->error = NULL;
	cpp_tokenize(&ctx->raw, s, len);
	cpp_expand(ctx, ctx->raw.v, ctx->raw.nr, &ctx->expanded);
	cpp_collect_symbols(ctx, ctx->expanded.v, ctx->expanded.nr);
	p.t = ctx->expanded.v;
	p.n = ctx->expanded.nr;
	/* A formula is walked recursively: keep left-deep chains within reason. */
	if (p.n > 20000)
		p.err = "#if expression too long";
	else
		n = parse_cond(&p);
	if (!p.err && p.i < p.n)
		p.err = "unexpected token in #if";
	if (p.err) {
		/* Keep going: the whole line becomes one atom nobody can decide. */
		ctx->error = p.err;
		n = arena_alloc(&ctx->scratch, sizeof(*n));
		n->kind = N_CALL;
		n->name = "";
		n->tok_begin = 0;
		n->tok_end = p.n;
	}
	return cpp_abstract(ctx, n);
}
