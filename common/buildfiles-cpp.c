// SPDX-License-Identifier: GPL-2.0
/*
 * Which sources a Makefile runs through the C preprocessor: the suffixes of
 * the prerequisites of its rules whose recipe calls cpp ($(CPP), `-E` on a
 * compiler, `-x assembler-with-cpp`), directly, through a command variable
 * (`cmd_cpp_lds`, called as `$(call if_changed_dep,cpp_lds)`) or through a
 * variable that holds the flags (coreboot's PREPROCESS_ONLY). A prerequisite
 * given as a variable ($(LDSCRIPT), $(ENV_FILE)) is looked up in the same
 * text, a few levels deep. Read from the text alone: no make semantics beyond
 * continuation lines, assignments, rules and recipes.
 */
#include "buildfiles.h"

#include <ctype.h>
#include <string.h>

struct logical_line {
	char *text;		/* continuation lines joined */
	int line;		/* where it starts */
	int recipe;		/* starts with a tab */
};

struct mkscan {
	struct logical_line *v;
	size_t nr, alloc;
	struct strvec markers;	/* names whose value calls cpp: cmd_X's X, variables */
};

static void split_lines(struct mkscan *s, const char *text, size_t len)
{
	size_t i = 0;
	int line = 1;

	while (i < len) {
		struct strbuf sb = STRBUF_INIT;
		int start = line, recipe = text[i] == '\t';

		for (;;) {
			size_t e = i;

			while (e < len && text[e] != '\n')
				e++;
			if (e > i && text[e - 1] == '\\') {
				strbuf_add(&sb, text + i, e - 1 - i);
				strbuf_addch(&sb, ' ');
			} else {
				strbuf_add(&sb, text + i, e - i);
				e = e < len ? e + 1 : e;
				line++;
				i = e;
				break;
			}
			line++;
			i = e + 1;
			if (i >= len)
				break;
		}
		ALLOC_GROW(s->v, s->nr + 1, s->alloc);
		s->v[s->nr].text = strbuf_detach(&sb, NULL);
		s->v[s->nr].line = start;
		s->v[s->nr].recipe = recipe;
		s->nr++;
	}
}

static int is_name_char(int c)
{
	return isalnum(c) || c == '_' || c == '-';
}

/* Does `s` contain the reference $(name), $$(name) or ${name}? */
static int refers(const char *s, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = strstr(s, name); p; p = strstr(p + 1, name))
		if (p > s && (p[-1] == '(' || p[-1] == '{') && !is_name_char((unsigned char)p[n]))
			return 1;
	return 0;
}

/* Does this text run the preprocessor, by itself or through a known marker? */
static int calls_cpp(const struct mkscan *s, const char *t)
{
	const char *e;

	if (strstr(t, "$(CPP)") || strstr(t, "assembler-with-cpp"))
		return 1;
	for (e = strstr(t, " -E"); e; e = strstr(e + 1, " -E"))
		if ((e[3] == ' ' || !e[3]) && strstr(t, "CC"))
			return 1;
	for (size_t i = 0; i < s->markers.nr; i++) {
		const char *m = s->markers.v[i];

		if (refers(t, m))
			return 1;
		/* $(call cmd,X), $(call if_changed_dep,X): the command's name after a comma */
		if (starts_with(m, "cmd_")) {
			const char *name = m + 4;
			size_t n = strlen(name);

			for (const char *p = strstr(t, name); p; p = strstr(p + 1, name))
				if (p > t && p[-1] == ',' && !is_name_char((unsigned char)p[n]))
					return 1;
		}
	}
	return 0;
}

/* The variable an assignment line sets ("cmd_dtc", "LDSCRIPT"), or NULL. */
static char *assigned_name(const char *t)
{
	const char *p = t, *b;

	while (*p == ' ' || *p == '\t')
		p++;
	if (starts_with(p, "override "))
		p += 9;
	if (starts_with(p, "export "))
		p += 7;
	b = p;
	while (*p && !isspace((unsigned char)*p) && *p != '=' && *p != ':' && *p != '+' &&
	       *p != '?' && *p != '$' && *p != '(')
		p++;
	if (p == b)
		return NULL;
	{
		const char *q = p;

		while (*q == ' ' || *q == '\t')
			q++;
		if (*q == '=' || starts_with(q, ":=") || starts_with(q, "::=") ||
		    starts_with(q, "+=") || starts_with(q, "?="))
			return xstrndup(b, (size_t)(p - b));
	}
	return NULL;
}

/* The value of an assignment line: what follows its operator. */
static const char *assigned_value(const char *t)
{
	const char *eq = strchr(t, '=');

	return eq ? eq + 1 : t + strlen(t);
}

/* Markers to a fixed point: names whose value calls cpp. */
static void find_markers(struct mkscan *s)
{
	int changed = 1;

	for (int round = 0; changed && round < 4; round++) {
		changed = 0;
		for (size_t i = 0; i < s->nr; i++) {
			char *name = assigned_name(s->v[i].text);
			int known = 0;

			if (!name)
				continue;
			for (size_t k = 0; k < s->markers.nr && !known; k++)
				known = !strcmp(s->markers.v[k], name);
			if (!known && calls_cpp(s, assigned_value(s->v[i].text))) {
				strvec_push(&s->markers, name);
				changed = 1;
			}
			free(name);
		}
	}
}

/* Appends the suffixes a text names (`%.dts`, `$(1).asl`, `u-boot.lds`) to out. */
static void text_suffixes(const char *t, int line, struct strvec *out)
{
	static const char *const outputs[] = {
		"c", "h", "S", "o", "a", "d", "tmp", "cmd", "pre", "i", "s",
	};

	for (const char *p = t; (p = strchr(p, '.')); p++) {
		const char *q = p + 1;
		char *sfx;
		int skip = 0;

		if (p == t || !(isalnum((unsigned char)p[-1]) || strchr("%)_-", p[-1])))
			continue;
		while (isalnum((unsigned char)*q) || *q == '_')
			q++;
		if (q == p + 1 || !isalpha((unsigned char)p[1]) || *q == '.' || *q == '/' ||
		    *q == '(' || (*q && !strchr(" \t),;|:\"'", *q)))
			continue;
		sfx = xstrndup(p + 1, (size_t)(q - p - 1));
		for (size_t i = 0; i < ARRAY_SIZE(outputs) && !skip; i++)
			skip = !strcmp(sfx, outputs[i]);
		if (!skip)
			strvec_pushf(out, "%s %d", sfx, line);
		free(sfx);
	}
}

/* The suffixes of `t` and of the values of the variables it names, depth levels down. */
static void value_suffixes(const struct mkscan *s, const char *t, int line, int depth,
			   struct strvec *out)
{
	text_suffixes(t, line, out);
	if (depth <= 0)
		return;
	for (size_t i = 0; i < s->nr; i++) {
		char *name = assigned_name(s->v[i].text);

		if (name && refers(t, name))
			value_suffixes(s, assigned_value(s->v[i].text), s->v[i].line, depth - 1, out);
		free(name);
	}
}

/* The prerequisites of a rule line ("targets: prereqs"), or NULL when it is none. */
static const char *rule_prereqs(const char *t)
{
	const char *p = t;
	int depth = 0;

	if (*t == '#' || starts_with(t, "ifeq") || starts_with(t, "ifneq") || starts_with(t, "define"))
		return NULL;
	for (; *p; p++) {
		if (*p == '(' || *p == '{')
			depth++;
		else if ((*p == ')' || *p == '}') && depth)
			depth--;
		else if (!depth && *p == '=')
			return NULL;
		else if (!depth && *p == ':') {
			if (p[1] == '=' || (p[1] == ':' && p[2] == '='))
				return NULL;
			return p + 1 + (p[1] == ':');
		}
	}
	return NULL;
}

static void split_words(struct strvec *out, const char *s)
{
	while (*s) {
		size_t n;

		s += strspn(s, " \t");
		n = strcspn(s, " \t");
		if (n)
			strvec_pushf(out, "%.*s", (int)n, s);
		s += n;
	}
}

/*
 * A prerequisite that another rule of the text makes (U-Boot's env.txt, a
 * copy of $(ENV_FILE)): that rule's prerequisites instead, depth levels down.
 */
static void prereq_suffixes(const struct mkscan *s, const char *prereqs, int line, int depth,
			    struct strvec *out)
{
	struct strvec words = STRVEC_INIT;

	split_words(&words, prereqs);
	for (size_t w = 0; w < words.nr; w++) {
		int made = 0;

		for (size_t i = 0; i < s->nr && depth > 0; i++) {
			const char *t = s->v[i].text, *pre = s->v[i].recipe ? NULL : rule_prereqs(t);
			struct strvec targets = STRVEC_INIT;
			char *tg;

			if (!pre)
				continue;
			tg = xstrndup(t, (size_t)(pre - t - 1 - (pre[-2] == ':')));
			split_words(&targets, tg);
			for (size_t k = 0; k < targets.nr && !made; k++)
				if (!strcmp(targets.v[k], words.v[w])) {
					char *p = xstrndup(pre, strcspn(pre, ";|"));

					prereq_suffixes(s, p, s->v[i].line, depth - 1, out);
					free(p);
					made = 1;
				}
			strvec_clear(&targets);
			free(tg);
		}
		/* The Makefile itself as a prerequisite is no source. */
		if (!made && !strstr(words.v[w], "Makefile") && !strstr(words.v[w], "Kconfig"))
			value_suffixes(s, words.v[w], line, 4, out);
	}
	strvec_clear(&words);
}

static void mkscan_release(struct mkscan *s)
{
	for (size_t i = 0; i < s->nr; i++)
		free(s->v[i].text);
	free(s->v);
	strvec_clear(&s->markers);
}

void buildfiles_cpp_markers(const char *text, size_t len, struct strvec *out)
{
	struct mkscan s = { 0 };

	split_lines(&s, text, len);
	find_markers(&s);
	for (size_t i = 0; i < s.markers.nr; i++)
		strvec_push(out, s.markers.v[i]);
	mkscan_release(&s);
}

void buildfiles_cpp_suffixes(const char *text, size_t len, const struct strvec *markers,
			     struct strvec *out)
{
	struct mkscan s = { 0 };

	split_lines(&s, text, len);
	for (size_t i = 0; markers && i < markers->nr; i++)
		strvec_push(&s.markers, markers->v[i]);
	find_markers(&s);
	for (size_t i = 0; i < s.nr; i++) {
		const char *pre, *t = s.v[i].text;
		char *prereqs;
		int cpp = 0;
		size_t k;

		while (*t == ' ')
			t++;
		if (s.v[i].recipe || !(pre = rule_prereqs(t)))
			continue;
		for (k = i + 1; k < s.nr && (s.v[k].recipe || !*s.v[k].text); k++)
			cpp = cpp || (s.v[k].recipe && calls_cpp(&s, s.v[k].text));
		/* `target: prereqs ; recipe` */
		if (strchr(pre, ';'))
			cpp = cpp || calls_cpp(&s, strchr(pre, ';'));
		if (!cpp)
			continue;
		prereqs = xstrndup(pre, strcspn(pre, ";|"));
		prereq_suffixes(&s, prereqs, s.v[i].line, 2, out);
		free(prereqs);
	}
	mkscan_release(&s);
}
