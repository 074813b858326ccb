// SPDX-License-Identifier: GPL-2.0
/*
 * Project macros (git config undertaker.macro): definitions, and their
 * expansion in the tokens of an #if line before it is parsed.
 */
#include "cpp-internal.h"

#include <stdlib.h>
#include <string.h>


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
	while (cpp_is_ident_char((unsigned char)*p))
		p++;
	name_len = p - name;
	if (!name_len || !cpp_is_ident_start((unsigned char)*name))
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
			while (cpp_is_ident_char((unsigned char)*p))
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
		cpp_push_token(&m->body, T_NUM, "1", 1, 0);
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
		cpp_push_token(&tmp, T_LPAREN, "(", 1, 1);
	for (size_t i = 0; i < m->body.nr; i++) {
		const struct cpp_token *t = &m->body.v[i];
		int k = t->type == T_IDENT ? param_index(m, t->s, t->len) : -1;

		if (k >= 0) {
			for (size_t j = 0; j < nargs[k]; j++)
				cpp_push_token(&tmp, args[k][j].type, args[k][j].s, args[k][j].len, 1);
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
			prev->type = cpp_is_ident_start((unsigned char)*sb.buf) ? T_IDENT : T_NUM;
			continue;
		}
		if (t->type == T_IDENT && m->nr_params > 0 && paste_params(&sb, m, t, args, nargs)) {
			cpp_push_token(&tmp, T_IDENT, arena_strndup(&ctx->scratch, sb.buf, sb.len), sb.len, 1);
			continue;
		}
		cpp_push_token(&tmp, t->type, t->s, t->len, 1);
	}
	strbuf_release(&sb);
	if (wrap)
		cpp_push_token(&tmp, T_RPAREN, ")", 1, 1);
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

		if (cpp_tok_is(t, "defined")) {
			/* The operand of defined is never expanded. */
			size_t k = i + 1 < n && in[i + 1].type == T_LPAREN ? 3 : 1;

			for (size_t j = i; j <= i + k && j < n; j++)
				cpp_push_token(out, in[j].type, in[j].s, in[j].len, in[j].from_macro);
			i += k;
			continue;
		}
		/* Definitions that double at each level stop growing here. */
		if (t->type == T_IDENT && ctx->macros && ctx->macros->map.nr &&
		    t->len < sizeof(name) && depth < 32 && out->nr < 20000) {
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
		cpp_push_token(out, t->type, t->s, t->len, t->from_macro);
	}
}

void cpp_expand(struct cpp_expr_ctx *ctx, const struct cpp_token *in, size_t n,
		struct cpp_tokens *out)
{
	expand(ctx, in, n, out, NULL, 0);
}
