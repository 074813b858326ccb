// SPDX-License-Identifier: GPL-2.0
/*
 * The tokens of one line after macro expansion, and Kconfig expressions over
 * them, with kconfig's precedence: || < && < = != < < <= > >= < !.
 */
#include "kconfig-internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- tokens of the current line ---- */

static void push_xtok(struct parse_state *ps, int kind, const char *text, struct kconfig_symbol *probe)
{
	ALLOC_GROW(ps->xt, ps->nr_xt + 1, ps->alloc_xt);
	ps->xt[ps->nr_xt].kind = kind;
	ps->xt[ps->nr_xt].text = text;
	ps->xt[ps->nr_xt].probe = probe;
	ps->nr_xt++;
}

/* Resolves backslash escapes outside $(...), then expands. */
static char *expand_string_token(struct parse_state *ps, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	char *r;

	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			strbuf_addch(&sb, *++s);
		} else if (*s == '$' && s[1] == '(') {
			int nest = 0;

			do {
				if (*s == '(')
					nest++;
				else if (*s == ')')
					nest--;
				strbuf_addch(&sb, *s++);
			} while (*s && nest > 0);
			s--;
		} else {
			strbuf_addch(&sb, *s);
		}
	}
	r = kconfig_preproc_expand(ps->pp, strbuf_str(&sb), sb.len);
	strbuf_release(&sb);
	return r;
}

void kconfig_expand_line(struct parse_state *ps, const struct kconfig_lexed *lf, const struct kline *l)
{
	size_t i;

	ps->nr_xt = 0;
	ps->pos = 0;
	strvec_clear(&ps->scratch);
	for (i = 0; i < l->nr; i++) {
		const struct ktoken *t = &lf->toks[l->first + i];
		const char *text = tok_text(lf, t);
		char *x;

		if (!(t->flags & TF_DOLLAR)) {
			push_xtok(ps, t->kind, text, NULL);
			continue;
		}
		x = t->kind == T_STRING ? expand_string_token(ps, text)
					: kconfig_preproc_expand(ps->pp, text, t->len);
		strvec_push(&ps->scratch, x);
		free(x);
		x = ps->scratch.v[ps->scratch.nr - 1];
		if (t->kind == T_STRING)
			push_xtok(ps, T_STRING, x, NULL);
		else if (strchr(x, PROBE_MARK))
			push_xtok(ps, T_PROBE, x, kconfig_preproc_probe_symbol(ps->pp, x));
		else if (*x)	/* an empty expansion is no token at all */
			push_xtok(ps, T_WORD, x, NULL);
	}
}

const struct xtok *kconfig_peek(struct parse_state *ps)
{
	return ps->pos < ps->nr_xt ? &ps->xt[ps->pos] : NULL;
}

int kconfig_peek_kind(struct parse_state *ps)
{
	return ps->pos < ps->nr_xt ? ps->xt[ps->pos].kind : -1;
}

int kconfig_accept(struct parse_state *ps, int kind)
{
	if (kconfig_peek_kind(ps) != kind)
		return 0;
	ps->pos++;
	return 1;
}

static void describe_next(struct parse_state *ps, struct strbuf *sb)
{
	const struct xtok *t = kconfig_peek(ps);

	if (!t)
		strbuf_addstr(sb, "end of line");
	else if (t->kind == T_WORD)
		strbuf_addf(sb, "'%s'", t->text);
	else if (t->kind == T_STRING)
		strbuf_addstr(sb, "a string");
	else if (t->kind == T_PROBE)
		strbuf_addstr(sb, "a macro");
	else
		strbuf_addf(sb, "'%s'", kconfig_token_name(t->kind));
}

int kconfig_syntax_error(struct parse_state *ps, const char *what)
{
	struct strbuf sb = STRBUF_INIT;

	describe_next(ps, &sb);
	kconfig_ps_error(ps, ps->path, ps->line, "syntax error: %s, found %s", what, sb.buf);
	strbuf_release(&sb);
	return -1;
}

int kconfig_expect_end(struct parse_state *ps)
{
	return ps->pos == ps->nr_xt ? 0 : kconfig_syntax_error(ps, "expected end of line");
}

/* ---- expressions ---- */

struct kconfig_symbol *kconfig_constant_symbol(struct kconfig *kc, const char *s)
{
	if (s[0] && !s[1]) {
		if (s[0] == 'y')
			return kc->sym_y;
		if (s[0] == 'm')
			return kc->sym_m;
		if (s[0] == 'n')
			return kc->sym_n;
	}
	return NULL;
}

/* A symbol, a quoted constant, a number, or a probe. */
struct kconfig_expr *kconfig_parse_term(struct parse_state *ps)
{
	struct kconfig *kc = ps->kc;
	const struct xtok *t = kconfig_peek(ps);
	struct kconfig_symbol *sym;

	if (!t || (t->kind != T_WORD && t->kind != T_STRING && t->kind != T_PROBE)) {
		kconfig_syntax_error(ps, "expected a symbol");
		return NULL;
	}
	ps->pos++;
	if (t->kind == T_PROBE)
		return kconfig_tree_expr_symbol(kc, t->probe);
	if ((sym = kconfig_constant_symbol(kc, t->text)))
		return kconfig_tree_expr_symbol(kc, sym);
	if (t->kind == T_STRING) {
		if (strchr(t->text, PROBE_MARK))
			return kconfig_tree_expr_symbol(kc, kconfig_preproc_probe_symbol(ps->pp, t->text));
		return kconfig_tree_expr_const(kc, t->text, strlen(t->text));
	}
	/* A number is a symbol until the end shows nothing defines it (`config 8260`). */
	return kconfig_tree_expr_symbol(kc, kconfig_tree_symbol(kc, t->text, strlen(t->text)));
}

struct kconfig_expr *kconfig_parse_or(struct parse_state *ps);

static struct kconfig_expr *too_deep(struct parse_state *ps)
{
	kconfig_ps_error(ps, ps->path, ps->line,
			 "expression nested deeper than %d levels; the line is left out",
			 KCONFIG_MAX_EXPR_DEPTH);
	return NULL;
}

/* e, or NULL with an error when it is deeper than KCONFIG_MAX_EXPR_DEPTH. */
static struct kconfig_expr *within_limit(struct parse_state *ps, struct kconfig_expr *e)
{
	return e && e->depth > KCONFIG_MAX_EXPR_DEPTH ? too_deep(ps) : e;
}

static struct kconfig_expr *parse_primary(struct parse_state *ps)
{
	struct kconfig_expr *e, *r;
	int op;

	if (kconfig_peek_kind(ps) == T_OPEN || kconfig_peek_kind(ps) == T_NOT) {
		/* Each level recurses: stop before the stack is at risk. */
		if (ps->expr_nesting >= KCONFIG_MAX_EXPR_DEPTH)
			return too_deep(ps);
		ps->expr_nesting++;
		if (kconfig_accept(ps, T_OPEN)) {
			e = kconfig_parse_or(ps);
			if (e && !kconfig_accept(ps, T_CLOSE)) {
				kconfig_syntax_error(ps, "expected ')'");
				e = NULL;
			}
		} else {
			kconfig_accept(ps, T_NOT);
			e = parse_primary(ps);
			e = e ? within_limit(ps, kconfig_tree_expr(ps->kc, KEXPR_NOT, e, NULL)) : NULL;
		}
		ps->expr_nesting--;
		return e;
	}
	if (!(e = kconfig_parse_term(ps)))
		return NULL;
	switch (kconfig_peek_kind(ps)) {
	case T_EQUAL: op = KEXPR_EQUAL; break;
	case T_UNEQUAL: op = KEXPR_UNEQUAL; break;
	case T_LESS: op = KEXPR_LESS; break;
	case T_LESS_EQUAL: op = KEXPR_LESS_EQUAL; break;
	case T_GREATER: op = KEXPR_GREATER; break;
	case T_GREATER_EQUAL: op = KEXPR_GREATER_EQUAL; break;
	default:
		return e;
	}
	ps->pos++;
	if (!(r = kconfig_parse_term(ps)))
		return NULL;
	return kconfig_tree_expr(ps->kc, op, e, r);
}

static struct kconfig_expr *parse_and(struct parse_state *ps)
{
	struct kconfig_expr *e = parse_primary(ps), *r;

	while (e && kconfig_accept(ps, T_AND)) {
		if (!(r = parse_primary(ps)))
			return NULL;
		e = within_limit(ps, kconfig_tree_expr(ps->kc, KEXPR_AND, e, r));
	}
	return e;
}

struct kconfig_expr *kconfig_parse_or(struct parse_state *ps)
{
	struct kconfig_expr *e = parse_and(ps), *r;

	while (e && kconfig_accept(ps, T_OR)) {
		if (!(r = parse_and(ps)))
			return NULL;
		e = within_limit(ps, kconfig_tree_expr(ps->kc, KEXPR_OR, e, r));
	}
	return e;
}

/* An optional trailing `if <expr>`: 0 with *cond set (NULL when absent), -1 on error. */
int kconfig_parse_if(struct parse_state *ps, struct kconfig_expr **cond)
{
	*cond = NULL;
	if (kconfig_accept(ps, K_IF) && !(*cond = kconfig_parse_or(ps)))
		return -1;
	return kconfig_expect_end(ps);
}

