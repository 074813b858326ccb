// SPDX-License-Identifier: GPL-2.0
/*
 * Kconfig text scanned line by line, without parsing: where a `config NAME`
 * or `menuconfig NAME` line defines a name. For questions asked of many blobs
 * (every Kconfig file of a commit, every version of one file in a history
 * walk) where a whole model would cost far more than the answer is worth.
 */
#include "kconfig.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

size_t kconfig_line_defines(const char *p, const char *eol, const char **name)
{
	const char *q = p;

	while (q < eol && (*q == ' ' || *q == '\t'))
		q++;
	if ((size_t)(eol - q) > 4 && !strncmp(q, "menu", 4))
		q += 4;
	if ((size_t)(eol - q) <= 6 || strncmp(q, "config", 6) || (q[6] != ' ' && q[6] != '\t'))
		return 0;
	q += 6;
	while (q < eol && (*q == ' ' || *q == '\t'))
		q++;
	*name = q;
	while (q < eol && (isalnum((unsigned char)*q) || *q == '_'))
		q++;
	return (size_t)(q - *name);
}

void kconfig_text_for_each_definition(const char *data, size_t size,
				      void (*fn)(const char *name, size_t len, int line, void *arg),
				      void *arg)
{
	int line = 1;

	for (const char *p = data, *end = data + size; p < end; line++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *name;
		size_t len;

		if (!eol)
			eol = end;
		len = kconfig_line_defines(p, eol, &name);
		if (len)
			fn(name, len, line, arg);
		p = eol + 1;
	}
}

struct find {
	const char *name;
	size_t len;
	int line;
};

static void find_one(const char *name, size_t len, int line, void *arg)
{
	struct find *f = arg;

	if (!f->line && len == f->len && !strncmp(name, f->name, len))
		f->line = line;
}

int kconfig_text_defines(const char *data, size_t size, const char *name)
{
	struct find f = { name, strlen(name), 0 };

	kconfig_text_for_each_definition(data, size, find_one, &f);
	return f.line;
}

struct near {
	int line, best_dist;
	char *best;
};

static void near_one(const char *name, size_t len, int line, void *arg)
{
	struct near *n = arg;
	int dist = line > n->line ? line - n->line : n->line - line;

	if (dist < n->best_dist) {
		free(n->best);
		n->best = xstrndup(name, len);
		n->best_dist = dist;
	}
}

char *kconfig_text_definition_near(const char *data, size_t size, int line, int max_dist)
{
	struct near n = { line, max_dist + 1, NULL };

	kconfig_text_for_each_definition(data, size, near_one, &n);
	return n.best;
}

/* Columns of leading blanks, tabs to the next multiple of 8 (as the lexer counts them). */
static int scan_indent(const char *p, const char *eol, const char **rest)
{
	int ts = 0;

	for (; p < eol && (*p == ' ' || *p == '\t'); p++)
		ts = *p == '\t' ? (ts & ~7) + 8 : ts + 1;
	*rest = p;
	return ts;
}

static int word_is(const char *p, size_t len, const char *kw)
{
	return strlen(kw) == len && !strncmp(p, kw, len);
}

/* Statements whose words after the keyword are symbols (strings and macros aside). */
static const char *const referring[] = {
	"depends", "select", "imply", "visible", "if", "default", "def_bool", "def_tristate",
	"range", "bool", "boolean", "tristate", "string", "int", "hex", "prompt", NULL,
};

/*
 * Is this word of an expression a symbol's name? Kconfig reads every bare
 * word as a symbol, but a name nothing defines has its own text as value,
 * which trees use for literals: `default kernel.itb`, `SYS_CPU = armv8`, a
 * hex value without 0x. Names are upper case by convention: a word with no
 * capital, or all hex digits with a digit among them, is taken for a value.
 */
static int is_symbol_word(const char *w, size_t len)
{
	size_t i, upper = 0, digits = 0, hex = 0;

	if (len > 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X'))
		return 0;
	for (i = 0; i < len; i++) {
		upper += isupper((unsigned char)w[i]) != 0;
		digits += isdigit((unsigned char)w[i]) != 0;
		hex += isxdigit((unsigned char)w[i]) != 0;
	}
	if (!upper)
		return 0;	/* also y, m, n, if, on and decimal numbers */
	return !(digits && hex == len);
}

/* The symbols of one statement [p, end) (its keyword skipped), each to fn. */
static void scan_statement(const char *p, const char *end, struct kconfig_text_ref *ref,
			   void (*fn)(const struct kconfig_text_ref *ref, void *arg), void *arg)
{
	while (p < end) {
		if (*p == '#')
			return;
		if (*p == '"' || *p == '\'') {
			char q = *p++;

			while (p < end && *p != q)
				p += *p == '\\' && p + 1 < end ? 2 : 1;
			p++;
		} else if (*p == '$' && p + 1 < end && p[1] == '(') {
			int depth = 0;

			p++;
			do {
				depth += *p == '(';
				depth -= *p == ')';
				p++;
			} while (p < end && depth > 0);
		} else if (*p == '$') {
			for (p++; p < end && (isalnum((unsigned char)*p) || *p == '_'); p++)
				;
		} else if (isalnum((unsigned char)*p) || *p == '_') {
			const char *w = p;

			while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '-'))
				p++;
			if (is_symbol_word(w, (size_t)(p - w))) {
				ref->name = w;
				ref->len = (size_t)(p - w);
				fn(ref, arg);
			}
		} else {
			p++;
		}
	}
}

/* The end of the logical line at p: backslash-newline continues it; *lines counts its lines. */
static const char *logical_eol(const char *p, const char *end, int *lines)
{
	*lines = 1;
	for (;;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));

		if (!eol)
			return end;
		if (eol > p && eol[-1] == '\\') {
			p = eol + 1;
			(*lines)++;
			continue;
		}
		if (eol - 1 > p && eol[-1] == '\r' && eol[-2] == '\\') {
			p = eol + 1;
			(*lines)++;
			continue;
		}
		return eol;
	}
}

void kconfig_text_for_each_reference(const char *data, size_t size,
				     void (*fn)(const struct kconfig_text_ref *ref, void *arg),
				     void *arg)
{
	int line = 1, in_help = 0, help_ts = -1;

	for (const char *p = data, *end = data + size; p < end;) {
		int lines, ts;
		const char *eol = logical_eol(p, end, &lines), *rest, *w, *stmt_end;
		struct kconfig_text_ref ref = { 0 };

		ts = scan_indent(p, eol, &rest);
		for (stmt_end = eol; stmt_end > rest && isspace((unsigned char)stmt_end[-1]); stmt_end--)
			;
		if (in_help && stmt_end > rest) {
			if (help_ts < 0)
				help_ts = ts;
			if (ts && ts >= help_ts)
				goto next;
			in_help = 0;
		}
		if (in_help || stmt_end == rest)
			goto next;
		for (w = rest; w < stmt_end && (isalnum((unsigned char)*w) || *w == '_' || *w == '-'); w++)
			;
		if (word_is(rest, (size_t)(w - rest), "help") ||
		    word_is(rest, (size_t)(w - rest), "---help---")) {
			in_help = 1;
			help_ts = -1;
			goto next;
		}
		for (size_t k = 0; referring[k]; k++) {
			if (!word_is(rest, (size_t)(w - rest), referring[k]))
				continue;
			ref.line = line;
			ref.keyword = referring[k];
			ref.statement = rest;
			ref.statement_len = (size_t)(stmt_end - rest);
			scan_statement(w, stmt_end, &ref, fn, arg);
			break;
		}
next:
		line += lines;
		p = eol < end ? eol + 1 : end;
	}
}

/* The keywords of kconfig_text_for_each_source, and whether each is relative to its file. */
static const struct {
	const char *word;
	int relative;
} sourcing[] = {
	{ "source", 0 }, { "osource", 0 }, { "gsource", 0 },
	{ "rsource", 1 }, { "orsource", 1 }, { "grsource", 1 },
	{ "mainmenu", -1 },
};

void kconfig_text_for_each_source(const char *data, size_t size,
				  void (*fn)(int relative, const char *path, size_t len, void *arg),
				  void *arg)
{
	int in_help = 0, help_ts = -1;

	for (const char *p = data, *end = data + size; p < end;) {
		int lines, ts;
		const char *eol = logical_eol(p, end, &lines), *rest, *w, *q;

		ts = scan_indent(p, eol, &rest);
		if (in_help && rest < eol && !isspace((unsigned char)*rest)) {
			if (help_ts < 0)
				help_ts = ts;
			if (ts && ts >= help_ts)
				goto next;
			in_help = 0;
		}
		for (w = rest; w < eol && (isalnum((unsigned char)*w) || *w == '_' || *w == '-'); w++)
			;
		if (word_is(rest, (size_t)(w - rest), "help") ||
		    word_is(rest, (size_t)(w - rest), "---help---")) {
			in_help = 1;
			help_ts = -1;
			goto next;
		}
		for (size_t k = 0; k < sizeof(sourcing) / sizeof(*sourcing); k++) {
			if (!word_is(rest, (size_t)(w - rest), sourcing[k].word))
				continue;
			while (w < eol && (*w == ' ' || *w == '\t'))
				w++;
			if (sourcing[k].relative < 0) {
				fn(-1, w, 0, arg);
			} else if (w < eol && (*w == '"' || *w == '\'')) {
				q = memchr(w + 1, *w, (size_t)(eol - w - 1));
				if (q)
					fn(sourcing[k].relative, w + 1, (size_t)(q - w - 1), arg);
			} else if (w < eol && *w != '#') {
				/* Unquoted, one word: kconfig's grammar takes it too. */
				for (q = w; q < eol && !isspace((unsigned char)*q) && *q != '#'; q++)
					;
				fn(sourcing[k].relative, w, (size_t)(q - w), arg);
			}
			break;
		}
next:
		p = eol < end ? eol + 1 : end;
	}
}
