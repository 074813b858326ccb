// SPDX-License-Identifier: GPL-2.0
/*
 * The Kconfig lexer: a file's bytes into logical lines of tokens. Nothing
 * here depends on the architecture, so the result is cached per file id;
 * $(...) stays unexpanded in the tokens that hold it (TF_DOLLAR).
 */
#include "kconfig-internal.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	int kind;
} keywords[] = {
	{ "config", K_CONFIG }, { "menuconfig", K_MENUCONFIG },
	{ "choice", K_CHOICE }, { "endchoice", K_ENDCHOICE },
	{ "menu", K_MENU }, { "endmenu", K_ENDMENU },
	{ "if", K_IF }, { "endif", K_ENDIF },
	{ "comment", K_COMMENT }, { "mainmenu", K_MAINMENU },
	{ "source", K_SOURCE }, { "rsource", K_RSOURCE },
	{ "osource", K_OSOURCE }, { "orsource", K_ORSOURCE },
	/* Kconfiglib's older names for osource and orsource (Zephyr). */
	{ "gsource", K_OSOURCE }, { "grsource", K_ORSOURCE },
	{ "bool", K_BOOL }, { "boolean", K_BOOL }, { "tristate", K_TRISTATE },
	{ "string", K_STRING }, { "int", K_INT }, { "hex", K_HEX },
	{ "def_bool", K_DEF_BOOL }, { "def_tristate", K_DEF_TRISTATE },
	{ "prompt", K_PROMPT }, { "default", K_DEFAULT },
	{ "depends", K_DEPENDS }, { "on", K_ON },
	{ "select", K_SELECT }, { "imply", K_IMPLY },
	{ "visible", K_VISIBLE }, { "range", K_RANGE },
	{ "modules", K_MODULES }, { "option", K_OPTION },
	{ "optional", K_OPTIONAL }, { "transitional", K_TRANSITIONAL },
	{ "help", K_HELP }, { "---help---", K_HELP },
};

const char *kconfig_token_name(int kind)
{
	static const char *const ops[] = {
		[T_WORD] = "word", [T_STRING] = "string", [T_RAW] = "text",
		[T_PROBE] = "probe", [T_AND] = "&&", [T_OR] = "||", [T_NOT] = "!",
		[T_EQUAL] = "=", [T_UNEQUAL] = "!=", [T_LESS] = "<",
		[T_LESS_EQUAL] = "<=", [T_GREATER] = ">", [T_GREATER_EQUAL] = ">=",
		[T_OPEN] = "(", [T_CLOSE] = ")", [T_ASSIGN_RECURSIVE] = "=",
		[T_ASSIGN_SIMPLE] = ":=", [T_ASSIGN_APPEND] = "+=",
	};
	size_t i;

	if (kind < (int)ARRAY_SIZE(ops) && ops[kind])
		return ops[kind];
	for (i = 0; i < ARRAY_SIZE(keywords); i++)
		if (keywords[i].kind == kind)
			return keywords[i].name;
	return "?";
}

static int keyword(const char *s, size_t len)
{
	size_t i;

	/* Keywords start with a lower-case letter or '-'; symbols rarely do. */
	if (!len || !((*s >= 'a' && *s <= 'z') || *s == '-'))
		return -1;
	for (i = 0; i < ARRAY_SIZE(keywords); i++)
		if (strlen(keywords[i].name) == len && !memcmp(keywords[i].name, s, len))
			return keywords[i].kind;
	return -1;
}

static int is_word_char(int c)
{
	/* '/' and '.' for unquoted paths in `source` (older trees). */
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '/' || c == '.';
}

struct lexer {
	const char *p, *end;
	int line;		/* physical line of p */
	struct kconfig_lexed *lf;
};

static void lex_message(struct lexer *lx, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void lex_message(struct lexer *lx, int line, const char *fmt, ...)
{
	struct kconfig_lexed *lf = lx->lf;
	va_list ap;

	ALLOC_GROW(lf->msgs, lf->nr_msgs + 1, lf->alloc_msgs);
	lf->msgs[lf->nr_msgs].line = line;
	va_start(ap, fmt);
	lf->msgs[lf->nr_msgs].msg = xvstrfmt(fmt, ap);
	va_end(ap);
	lf->nr_msgs++;
}

static struct ktoken *add_token(struct kconfig_lexed *lf, int kind)
{
	struct ktoken *t;

	ALLOC_GROW(lf->toks, lf->nr_toks + 1, lf->alloc_toks);
	t = &lf->toks[lf->nr_toks++];
	t->kind = kind;
	t->flags = 0;
	t->off = lf->text.len;
	t->len = 0;
	return t;
}

static void end_token_text(struct kconfig_lexed *lf, struct ktoken *t)
{
	t->len = lf->text.len - t->off;
	strbuf_addch(&lf->text, '\0');
}

/* Skips a $(...) group starting at p (p[0] == '$', p[1] == '('); returns its end. */
static const char *skip_dollar(const char *p, const char *end)
{
	int nest = 0;

	for (p++; p < end && *p != '\n'; p++) {
		if (*p == '(')
			nest++;
		else if (*p == ')' && --nest == 0)
			return p + 1;
	}
	return p;
}

static int at_continuation(const char *p, const char *end)
{
	if (p < end && *p == '\\') {
		if (p + 1 < end && p[1] == '\n')
			return 2;
		if (p + 2 < end && p[1] == '\r' && p[2] == '\n')
			return 3;
	}
	return 0;
}

static void lex_word(struct lexer *lx)
{
	struct kconfig_lexed *lf = lx->lf;
	struct ktoken *t = add_token(lf, T_WORD);
	const char *start = lx->p, *p = lx->p;
	int kw;

	while (p < lx->end) {
		if (*p == '$') {
			t->flags |= TF_DOLLAR;
			if (p + 1 < lx->end && p[1] == '(') {
				p = skip_dollar(p, lx->end);
				continue;
			}
			p++;
		} else if (is_word_char((unsigned char)*p)) {
			p++;
		} else {
			break;
		}
	}
	strbuf_add(&lf->text, start, p - start);
	end_token_text(lf, t);
	lx->p = p;
	if (!t->flags && (kw = keyword(start, p - start)) >= 0)
		t->kind = kw;
}

static void lex_string(struct lexer *lx)
{
	struct kconfig_lexed *lf = lx->lf;
	struct ktoken *t = add_token(lf, T_STRING);
	char quote = *lx->p++;
	const char *p = lx->p, *start = p;

	/* Find the end first: a $(...) group may hold quotes. */
	while (p < lx->end && *p != quote && *p != '\n') {
		if (*p == '\\' && p + 1 < lx->end && p[1] != '\n')
			p += 2;
		else if (*p == '$' && p + 1 < lx->end && p[1] == '(')
			p = skip_dollar(p, lx->end), t->flags |= TF_DOLLAR;
		else if (*p++ == '$')
			t->flags |= TF_DOLLAR;
	}
	if (t->flags & TF_DOLLAR) {
		/* Escapes are resolved with the expansion, outside $(...). */
		strbuf_add(&lf->text, start, p - start);
	} else {
		const char *q;

		for (q = start; q < p; q++) {
			if (*q == '\\' && q + 1 < p)
				q++;
			strbuf_addch(&lf->text, *q);
		}
	}
	end_token_text(lf, t);
	if (p < lx->end && *p == quote)
		p++;
	else
		lex_message(lx, lx->line, "unterminated string");
	lx->p = p;
}

static void lex_raw_value(struct lexer *lx)
{
	struct kconfig_lexed *lf = lx->lf;
	struct ktoken *t = add_token(lf, T_RAW);
	const char *p = lx->p, *e;

	while (p < lx->end && (*p == ' ' || *p == '\t'))
		p++;
	e = p;
	while (e < lx->end && *e != '\n')
		e++;
	lx->p = e;
	while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	strbuf_add(&lf->text, p, e - p);
	end_token_text(lf, t);
}

/* Columns of leading blanks (tabs to the next multiple of 8); *rest gets the first other char. */
static int indentation(const char *p, const char *end, const char **rest)
{
	int ts = 0;

	for (; p < end && (*p == ' ' || *p == '\t'); p++)
		ts = *p == '\t' ? (ts & ~7) + 8 : ts + 1;
	*rest = p;
	return ts;
}

/*
 * The help text after a `help` line: it ends before the first non-blank line
 * indented less than its first line (a first line at column 0 means no text).
 */
static void lex_help(struct lexer *lx)
{
	struct kconfig_lexed *lf = lx->lf;
	struct ktoken *t = add_token(lf, T_RAW);
	int first_ts = -1;
	size_t blank_lines = 0;

	while (lx->p < lx->end) {
		const char *rest, *eol = memchr(lx->p, '\n', lx->end - lx->p);
		const char *e;
		int ts = indentation(lx->p, lx->end, &rest);

		if (!eol)
			eol = lx->end;
		e = eol;
		while (e > rest && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		if (e == rest) {
			blank_lines++;
		} else {
			if (first_ts < 0)
				first_ts = ts;
			if (ts < first_ts || ts == 0)
				break;
			if (lf->text.len > t->off)
				while (blank_lines--)
					strbuf_addch(&lf->text, '\n');
			blank_lines = 0;
			for (ts -= first_ts; ts > 0; ts--)
				strbuf_addch(&lf->text, ' ');
			strbuf_add(&lf->text, rest, e - rest);
			strbuf_addch(&lf->text, '\n');
		}
		lx->p = eol < lx->end ? eol + 1 : eol;
		lx->line++;
	}
	end_token_text(lf, t);
}

static int lex_operator(struct lexer *lx)
{
	const char *p = lx->p;
	int two = p + 1 < lx->end;
	int kind;

	switch (*p) {
	case '&':
		if (!two || p[1] != '&')
			return -1;
		kind = T_AND, p += 2;
		break;
	case '|':
		if (!two || p[1] != '|')
			return -1;
		kind = T_OR, p += 2;
		break;
	case '!':
		if (two && p[1] == '=')
			kind = T_UNEQUAL, p += 2;
		else
			kind = T_NOT, p++;
		break;
	case '=':
		kind = T_EQUAL, p++;
		break;
	case '<':
		if (two && p[1] == '=')
			kind = T_LESS_EQUAL, p += 2;
		else
			kind = T_LESS, p++;
		break;
	case '>':
		if (two && p[1] == '=')
			kind = T_GREATER_EQUAL, p += 2;
		else
			kind = T_GREATER, p++;
		break;
	case '(':
		kind = T_OPEN, p++;
		break;
	case ')':
		kind = T_CLOSE, p++;
		break;
	default:
		return -1;
	}
	lx->p = p;
	add_token(lx->lf, kind);
	end_token_text(lx->lf, &lx->lf->toks[lx->lf->nr_toks - 1]);
	return 0;
}

/* `NAME =`, `NAME :=`, `NAME +=` after the first word of a line. */
static int assignment_op(struct lexer *lx)
{
	const char *p = lx->p;

	while (p < lx->end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < lx->end && *p == '=') {
		lx->p = p + 1;
		return T_ASSIGN_RECURSIVE;
	}
	if (p + 1 < lx->end && p[1] == '=' && (*p == ':' || *p == '+')) {
		lx->p = p + 2;
		return *p == ':' ? T_ASSIGN_SIMPLE : T_ASSIGN_APPEND;
	}
	return -1;
}

static void lex_line(struct lexer *lx)
{
	struct kconfig_lexed *lf = lx->lf;
	struct kline *l;
	size_t first = lf->nr_toks;
	int start_line = lx->line;

	while (lx->p < lx->end) {
		char c = *lx->p;
		int n;

		if (c == ' ' || c == '\t' || c == '\r') {
			lx->p++;
		} else if ((n = at_continuation(lx->p, lx->end))) {
			lx->p += n;
			lx->line++;
		} else if (c == '\n') {
			break;
		} else if (c == '#') {
			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
		} else if (c == '"' || c == '\'') {
			lex_string(lx);
		} else if (c == '$' || is_word_char((unsigned char)c)) {
			lex_word(lx);
			if (lf->nr_toks == first + 1 && lf->toks[first].kind == T_WORD) {
				int op = assignment_op(lx);

				if (op >= 0) {
					end_token_text(lf, add_token(lf, op));
					lex_raw_value(lx);
				}
			}
		} else if (lex_operator(lx) < 0) {
			if (c >= 0x20 && c < 0x7f)
				lex_message(lx, lx->line, "ignoring unsupported character '%c'", c);
			else	/* a NUL or a control byte would cut or garble the message */
				lex_message(lx, lx->line, "ignoring unsupported character '\\x%02x'",
					    (unsigned char)c);
			lx->p++;
		}
	}
	if (lx->p < lx->end)
		lx->p++;	/* the newline */
	lx->line++;
	if (lf->nr_toks == first)
		return;
	ALLOC_GROW(lf->lines, lf->nr_lines + 1, lf->alloc_lines);
	l = &lf->lines[lf->nr_lines++];
	l->lineno = start_line;
	l->first = first;
	l->nr = lf->nr_toks - first;
	l->assignment = l->nr == 3 && lf->toks[first + 1].kind >= T_ASSIGN_RECURSIVE &&
			lf->toks[first + 1].kind <= T_ASSIGN_APPEND;
	l->has_dollar = 0;
	for (size_t i = first; i < lf->nr_toks; i++)
		if (lf->toks[i].flags & TF_DOLLAR)
			l->has_dollar = 1;
	if (l->nr == 1 && lf->toks[first].kind == K_HELP) {
		lex_help(lx);
		lf->lines[lf->nr_lines - 1].nr = 2;
	}
}

struct kconfig_lexed *kconfig_lex(const char *data, size_t size)
{
	struct kconfig_lexed *lf = xcalloc(1, sizeof(*lf));
	struct lexer lx = { data, data + size, 1, lf };

	/* Token texts average well under 16 bytes; most of a file is help. */
	strbuf_grow(&lf->text, size / 2 + 64);
	while (lx.p < lx.end)
		lex_line(&lx);
	return lf;
}

void kconfig_lexed_free(struct kconfig_lexed *lf)
{
	size_t i;

	if (!lf)
		return;
	for (i = 0; i < lf->nr_msgs; i++)
		free(lf->msgs[i].msg);
	free(lf->msgs);
	free(lf->lines);
	free(lf->toks);
	strbuf_release(&lf->text);
	free(lf);
}

struct kconfig_cache *kconfig_cache_new(void)
{
	struct kconfig_cache *c = xcalloc(1, sizeof(*c));

	pthread_mutex_init(&c->lock, NULL);
	c->budget = KCONFIG_CACHE_BUDGET;
	return c;
}

void kconfig_cache_set_budget(struct kconfig_cache *c, size_t bytes)
{
	c->budget = bytes ? bytes : KCONFIG_CACHE_BUDGET;
}

static void free_lexed(void *p)
{
	kconfig_lexed_free(p);
}

void kconfig_cache_free(struct kconfig_cache *c)
{
	if (!c)
		return;
	strmap_clear(&c->lexed, free_lexed);
	strmap_clear(&c->printed, NULL);
	strmap_clear(&c->ids, free);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

void kconfig_cache_stats(const struct kconfig_cache *c, struct kconfig_cache_stats *st)
{
	/* Called between parses: no lock (the mutex is not const). */
	memset(st, 0, sizeof(*st));
	if (!c)
		return;
	st->lexed = c->nr_lexed;
	st->reused = c->nr_reused;
	st->evicted = c->nr_evicted;
	st->bytes = c->bytes;
	st->peak = c->peak;
}
