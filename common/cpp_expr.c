// SPDX-License-Identifier: GPL-2.0
/*
 * #if expressions: tokens, project macros, the C preprocessor grammar, and
 * the abstraction of an integer expression to a boolean formula.
 */
#include "cpp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- tokens ---- */

static int is_ident_start(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

static int is_ident_char(int c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

static void push_token(struct cpp_tokens *out, enum cpp_token_type type,
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
		if (is_ident_start(c)) {
			while (p < end && is_ident_char((unsigned char)*p))
				p++;
			/* L'x', u8"..": an encoding prefix belongs to its literal. */
			if (p < end && (*p == '\'' || *p == '"') && p - b <= 2 &&
			    (*b == 'L' || *b == 'u' || *b == 'U'))
				goto literal;
			push_token(out, T_IDENT, b, p - b, 0);
			continue;
		}
		if ((c >= '0' && c <= '9') || (c == '.' && p + 1 < end && p[1] >= '0' && p[1] <= '9')) {
			p++;
			while (p < end) {
				if ((*p == '+' || *p == '-') && strchr("eEpP", p[-1]))
					p++;
				else if (is_ident_char((unsigned char)*p) || *p == '.')
					p++;
				else
					break;
			}
			push_token(out, T_NUM, b, p - b, 0);
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
			push_token(out, q == '"' ? T_STRING : T_CHAR, b, p - b, 0);
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
		push_token(out, type, b, p - b, 0);
	}
}

static int tok_is(const struct cpp_token *t, const char *s)
{
	return t->type == T_IDENT && strlen(s) == t->len && !memcmp(t->s, s, t->len);
}

/* ---- project macros ---- */

struct cpp_macro {
	char *text;		/* owns the spellings of params and body */
	int nr_params;		/* -1: object-like */
	const char *params[16];
	size_t param_len[16];
	struct cpp_tokens body;
};

struct cpp_macros {
	struct strmap map;	/* name -> struct cpp_macro * */
};

struct cpp_macros *cpp_macros_new(void)
{
	return xcalloc(1, sizeof(struct cpp_macros));
}

static void macro_free(void *p)
{
	struct cpp_macro *m = p;

	free(m->body.v);
	free(m->text);
	free(m);
}

void cpp_macros_free(struct cpp_macros *m)
{
	if (!m)
		return;
	strmap_clear(&m->map, macro_free);
	free(m);
}

int cpp_macros_add(struct cpp_macros *macros, const char *def)
{
	struct cpp_macro *m = xcalloc(1, sizeof(*m));
	char *p, *name;
	size_t name_len;
	void *old;

	m->text = xstrdup(def);
	m->nr_params = -1;
	p = m->text;
	while (*p == ' ' || *p == '\t')
		p++;
	name = p;
	while (is_ident_char((unsigned char)*p))
		p++;
	name_len = p - name;
	if (!name_len || !is_ident_start((unsigned char)*name))
		goto bad;
	if (*p == '(') {
		m->nr_params = 0;
		*p++ = '\0';
		for (;;) {
			char *b;

			while (*p == ' ' || *p == '\t')
				p++;
			if (*p == ')' && !m->nr_params) {
				p++;
				break;
			}
			b = p;
			while (is_ident_char((unsigned char)*p))
				p++;
			if (p == b || m->nr_params == (int)ARRAY_SIZE(m->params))
				goto bad;
			m->params[m->nr_params] = b;
			m->param_len[m->nr_params++] = p - b;
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p == ')') {
				p++;
				break;
			}
			if (*p != ',')
				goto bad;
			p++;
		}
	}
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '=') {
		name[name_len] = '\0';
		p++;
		cpp_tokenize(&m->body, p, strlen(p));
	} else if (!*p) {
		name[name_len] = '\0';
		push_token(&m->body, T_NUM, "1", 1, 0);
	} else {
		goto bad;
	}
	old = strmap_put(&macros->map, name, m);
	if (old)
		macro_free(old);
	return 0;
bad:
	error("bad macro definition '%s': want NAME(args)=body or NAME=body", def);
	macro_free(m);
	return -1;
}

struct hide {
	const char *name;
	const struct hide *up;
};

static int param_index(const struct cpp_macro *m, const char *s, size_t len)
{
	for (int k = 0; k < m->nr_params; k++)
		if (m->param_len[k] == len && !memcmp(m->params[k], s, len))
			return k;
	return -1;
}

/* The spelling of tokens [b, e) without spaces, for pasting. */
static void add_spelling(struct strbuf *sb, const struct cpp_token *b, const struct cpp_token *e)
{
	for (; b < e; b++)
		strbuf_add(sb, b->s, b->len);
}

/*
 * An identifier of the body in which a parameter occurs between `_`
 * boundaries (CONFIG_SPL_x): the argument is pasted in. A leading CONFIG_ of
 * the argument goes when something precedes it, so that U-Boot's
 * CONFIG_IS_ENABLED(CONFIG_FOO) and CONFIG_IS_ENABLED(FOO) agree.
 */
static int paste_params(struct strbuf *sb, const struct cpp_macro *m, const struct cpp_token *t,
			const struct cpp_token **args, const size_t *nargs)
{
	int pasted = 0;
	size_t i = 0;

	while (i < t->len) {
		size_t seg = i;
		int k;

		while (seg < t->len && t->s[seg] != '_')
			seg++;
		k = param_index(m, t->s + i, seg - i);
		if (k < 0) {
			strbuf_add(sb, t->s + i, seg - i);
		} else {
			struct strbuf arg = STRBUF_INIT;
			const char *a;

			add_spelling(&arg, args[k], args[k] + nargs[k]);
			a = strbuf_str(&arg);
			if (i > 0 && starts_with(a, "CONFIG_"))
				a += 7;
			strbuf_addstr(sb, a);
			strbuf_release(&arg);
			pasted = 1;
		}
		if (seg < t->len)
			strbuf_addch(sb, '_');
		i = seg + 1;
	}
	return pasted;
}

static void expand(struct cpp_expr_ctx *ctx, const struct cpp_token *in, size_t n,
		   struct cpp_tokens *out, const struct hide *hide, int depth);

static void substitute(struct cpp_expr_ctx *ctx, const struct cpp_macro *m, const char *name,
		       const struct cpp_token **args, const size_t *nargs,
		       struct cpp_tokens *out, const struct hide *hide, int depth)
{
	struct cpp_tokens tmp = { NULL, 0, 0 };
	struct hide h = { name, hide };
	struct strbuf sb = STRBUF_INIT;
	/*
	 * Project macros stand for truth values: `!CONFIG_IS_ENABLED(X)` must
	 * negate the whole disjunction, so a body of several tokens is
	 * parenthesised (a real macro would be written to act as one value).
	 */
	int wrap = m->body.nr > 1;

	if (wrap)
		push_token(&tmp, T_LPAREN, "(", 1, 1);
	for (size_t i = 0; i < m->body.nr; i++) {
		const struct cpp_token *t = &m->body.v[i];
		int k = t->type == T_IDENT ? param_index(m, t->s, t->len) : -1;

		if (k >= 0) {
			for (size_t j = 0; j < nargs[k]; j++)
				push_token(&tmp, args[k][j].type, args[k][j].s, args[k][j].len, 1);
			continue;
		}
		strbuf_reset(&sb);
		if (t->type == T_HASHHASH && tmp.nr && i + 1 < m->body.nr) {
			struct cpp_token *prev = &tmp.v[tmp.nr - 1];
			const struct cpp_token *next = &m->body.v[++i];

			strbuf_add(&sb, prev->s, prev->len);
			k = next->type == T_IDENT ? param_index(m, next->s, next->len) : -1;
			if (k >= 0)
				add_spelling(&sb, args[k], args[k] + nargs[k]);
			else
				strbuf_add(&sb, next->s, next->len);
			prev->s = arena_strndup(&ctx->scratch, sb.buf, sb.len);
			prev->len = (uint32_t)sb.len;
			prev->type = is_ident_start((unsigned char)*sb.buf) ? T_IDENT : T_NUM;
			continue;
		}
		if (t->type == T_IDENT && m->nr_params > 0 && paste_params(&sb, m, t, args, nargs)) {
			push_token(&tmp, T_IDENT, arena_strndup(&ctx->scratch, sb.buf, sb.len), sb.len, 1);
			continue;
		}
		push_token(&tmp, t->type, t->s, t->len, 1);
	}
	strbuf_release(&sb);
	if (wrap)
		push_token(&tmp, T_RPAREN, ")", 1, 1);
	expand(ctx, tmp.v, tmp.nr, out, &h, depth + 1);
	free(tmp.v);
}

static void expand(struct cpp_expr_ctx *ctx, const struct cpp_token *in, size_t n,
		   struct cpp_tokens *out, const struct hide *hide, int depth)
{
	for (size_t i = 0; i < n; i++) {
		const struct cpp_token *t = &in[i];
		const struct cpp_token *args[16];
		size_t nargs[16];
		const struct cpp_macro *m = NULL;
		const struct hide *h;
		char name[128];

		if (tok_is(t, "defined")) {
			/* The operand of defined is never expanded. */
			size_t k = i + 1 < n && in[i + 1].type == T_LPAREN ? 3 : 1;

			for (size_t j = i; j <= i + k && j < n; j++)
				push_token(out, in[j].type, in[j].s, in[j].len, in[j].from_macro);
			i += k;
			continue;
		}
		if (t->type == T_IDENT && ctx->macros && ctx->macros->map.nr &&
		    t->len < sizeof(name) && depth < 32) {
			memcpy(name, t->s, t->len);
			name[t->len] = '\0';
			m = strmap_get(&ctx->macros->map, name);
			for (h = hide; m && h; h = h->up)
				if (!strcmp(h->name, name))
					m = NULL;
		}
		if (m && m->nr_params >= 0) {
			size_t j = i + 2, level = 0;
			int k = 0;

			if (i + 1 >= n || in[i + 1].type != T_LPAREN)
				m = NULL;
			else {
				args[0] = &in[j];
				nargs[0] = 0;
				for (; j < n; j++) {
					if (in[j].type == T_LPAREN)
						level++;
					else if (in[j].type == T_RPAREN && !level--)
						break;
					else if (in[j].type == T_COMMA && !level && k + 1 < 16) {
						args[++k] = &in[j + 1];
						nargs[k] = 0;
						continue;
					}
					nargs[k]++;
				}
				if (j >= n || k + 1 != (m->nr_params ? m->nr_params : 1))
					m = NULL;	/* unbalanced, or the wrong number of arguments */
				else {
					substitute(ctx, m, name, args, nargs, out, hide, depth);
					i = j;
					continue;
				}
			}
		}
		if (m) {
			substitute(ctx, m, name, NULL, NULL, out, hide, depth);
			continue;
		}
		push_token(out, t->type, t->s, t->len, t->from_macro);
	}
}

/* ---- parser ---- */

struct parser {
	struct cpp_expr_ctx *ctx;
	const struct cpp_token *t;
	size_t n, i;
	const char *err;
};

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

static int64_t char_value(const struct cpp_token *t)
{
	const char *s = memchr(t->s, '\'', t->len);
	int64_t v = 0;

	if (!s)
		return 0;
	for (s++; s < t->s + t->len - 1 && *s != '\''; s++) {
		int c = (unsigned char)*s;

		if (c == '\\' && s + 1 < t->s + t->len - 1) {
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
				c = (int)strtol(s + 1, NULL, 16);
				while (strchr("0123456789abcdefABCDEF", s[1]) && s[1])
					s++;
				break;
			default:
				if (c >= '0' && c <= '7') {
					c -= '0';
					for (int k = 0; k < 2 && s[1] >= '0' && s[1] <= '7'; k++)
						c = c * 8 + (*++s - '0');
				}
			}
		}
		v = (v << 8) | (c & 0xff);
	}
	/* A plain char is signed on the machines the kernel mostly targets. */
	return t->len == 3 || (t->s[1] == '\\' && v < 256) ? (int64_t)(signed char)v : v;
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
		if (peek(p)->type != T_RPAREN)
			p->err = "missing ')' in #if";
		else
			p->i++;
		return n;
	case T_IDENT:
		p->i++;
		if (tok_is(t, "defined")) {
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
	n = parse_unary(p);
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
	struct cpp_node *c = parse_binary(p, 1), *n;

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


static void add_symbol(struct cpp_expr_ctx *ctx, const struct cpp_token *t)
{
	const struct strmap *fd = ctx->file_defined;
	struct cpp_symbol_ref *r;

	for (size_t i = 0; i < ctx->nr_symbols; i++) {
		r = &ctx->symbols[i];
		if (strlen(r->name) == t->len && !memcmp(r->name, t->s, t->len)) {
			/* Written by the user anywhere in the line: not only from a macro. */
			r->from_macro &= t->from_macro;
			return;
		}
	}
	ALLOC_GROW(ctx->symbols, ctx->nr_symbols + 1, ctx->alloc_symbols);
	r = &ctx->symbols[ctx->nr_symbols++];
	r->name = arena_strndup(ctx->arena, t->s, t->len);
	r->from_macro = t->from_macro;
	r->file_defined = fd && fd->nr && strmap_getn(fd, t->s, t->len);
}

void cpp_collect_symbols(struct cpp_expr_ctx *ctx, const struct cpp_token *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].type == T_IDENT && t[i].len > 7 && !memcmp(t[i].s, "CONFIG_", 7) &&
		    !(i + 1 < n && t[i + 1].type == T_LPAREN))
			add_symbol(ctx, &t[i]);
}

struct cpp_expr *cpp_parse_condition(struct cpp_expr_ctx *ctx, const char *s, size_t len)
{
	struct parser p = { ctx, NULL, 0, 0, NULL };
	struct cpp_node *n;

	ctx->raw.nr = ctx->expanded.nr = 0;
	ctx->nr_symbols = 0;
	ctx->error = NULL;
	cpp_tokenize(&ctx->raw, s, len);
	expand(ctx, ctx->raw.v, ctx->raw.nr, &ctx->expanded, NULL, 0);
	cpp_collect_symbols(ctx, ctx->expanded.v, ctx->expanded.nr);
	p.t = ctx->expanded.v;
	p.n = ctx->expanded.nr;
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
