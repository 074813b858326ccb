// SPDX-License-Identifier: GPL-2.0
/*
 * The Kconfig preprocessor, as the kernel's kconfig defines it: variables
 * (`=` recursive, `:=` simple, `+=`), $(VAR), user functions with $(1)...,
 * and the built-ins. Nothing is ever run: $(shell,...) (on which success,
 * failure, cc-option and the like are built), unknown functions and unknown
 * environment variables expand to a probe marker, which becomes a free symbol
 * where the result is used as a value.
 */
#include "kconfig-internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 256
#define MAX_ARGS 64
/*
 * One line's expansion: at most this many bytes (a variable's value, a
 * probe's text, the line itself), this many $(...) references evaluated,
 * and this many bytes written in all (each reference's text counts again
 * in each expansion that takes it in). Macros that double at each step
 * (A1 := $(A0)$(A0), ...) hit one or the other within a few dozen lines;
 * real trees stay far below all three.
 */
#define MAX_EXPANSION (1u << 20)
#define MAX_STEPS (1u << 20)
#define MAX_WRITTEN (16u << 20)

struct variable {
	char *value;
	int simple;		/* `:=`: value is already expanded */
	int expanding;		/* guards `X = $(X)` */
};

struct preproc {
	struct parse_state *ps;
	struct strmap env;	/* name -> char * */
	struct strmap vars;	/* name -> struct variable */
	struct strvec probes;	/* texts, by index */
	struct strmap probe_index;	/* text -> index + 1 */
	int depth;
	int overflow;	/* set when too deep: the rest of that expansion gives up */
	size_t steps;	/* references evaluated in this line's expansion */
	size_t written;	/* bytes its expansions wrote */
};

/* Stops the expansion of the current line with an error (once). */
static void give_up(struct preproc *pp, const char *why)
{
	if (!pp->overflow)
		kconfig_ps_error(pp->ps, kconfig_ps_current_path(pp->ps), kconfig_ps_current_line(pp->ps),
				 "%s; the expansion is left unknown", why);
	pp->overflow = 1;
}

static void check_size(struct preproc *pp, size_t len)
{
	if (len > MAX_EXPANSION)
		give_up(pp, "macro expansion longer than 1 MiB");
}

struct preproc *kconfig_preproc_new(struct parse_state *ps)
{
	struct preproc *pp = xcalloc(1, sizeof(*pp));

	pp->ps = ps;
	return pp;
}

static void free_variable(void *p)
{
	struct variable *v = p;

	free(v->value);
	free(v);
}

void kconfig_preproc_free(struct preproc *pp)
{
	if (!pp)
		return;
	strmap_clear(&pp->env, free);
	strmap_clear(&pp->vars, free_variable);
	strmap_clear(&pp->probe_index, NULL);
	strvec_clear(&pp->probes);
	free(pp);
}

void kconfig_preproc_set_env(struct preproc *pp, const char *name, const char *value)
{
	free(strmap_put(&pp->env, name, xstrdup(value)));
}

const char *kconfig_preproc_get_env(struct preproc *pp, const char *name)
{
	return strmap_get(&pp->env, name);
}

char *kconfig_preproc_unmark(struct preproc *pp, const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "");
	while (*s) {
		const char *m = strchr(s, PROBE_MARK);
		size_t idx;

		if (!m) {
			strbuf_addstr(&sb, s);
			break;
		}
		strbuf_add(&sb, s, m - s);
		idx = strtoul(m + 1, (char **)&s, 10);
		if (*s == PROBE_END)
			s++;
		if (idx < pp->probes.nr)
			strbuf_addstr(&sb, pp->probes.v[idx]);
		if (sb.len > MAX_EXPANSION) {
			give_up(pp, "macro expansion longer than 1 MiB");
			break;
		}
	}
	return strbuf_detach(&sb, NULL);
}

/* A marker for the probe whose text is `text` (already unmarked). */
static char *probe_marker(struct preproc *pp, const char *text)
{
	size_t idx = (size_t)(uintptr_t)strmap_get(&pp->probe_index, text);

	if (!idx) {
		strvec_push(&pp->probes, text);
		idx = pp->probes.nr;
		strmap_put(&pp->probe_index, text, (void *)(uintptr_t)idx);
	}
	return xstrfmt("%c%zu%c", PROBE_MARK, idx - 1, PROBE_END);
}

struct kconfig_symbol *kconfig_preproc_probe_symbol(struct preproc *pp, const char *s)
{
	char *text = kconfig_preproc_unmark(pp, s);
	struct kconfig_symbol *sym = kconfig_tree_new_probe(kconfig_ps_kconfig(pp->ps), text);

	free(text);
	return sym;
}

static char *expand(struct preproc *pp, const char *s, size_t len, int argc, char **argv);

/* The text of an unknown call, for its probe: $(name,arg,...) with inner probes spelled out. */
static char *call_text(struct preproc *pp, const char *name, int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	char *t;
	int i;

	strbuf_addf(&sb, "$(%s", name);
	for (i = 0; i < argc && !pp->overflow; i++) {
		t = kconfig_preproc_unmark(pp, argv[i]);
		strbuf_addf(&sb, ",%s", t);
		free(t);
		check_size(pp, sb.len);
	}
	strbuf_addch(&sb, ')');
	if (pp->overflow) {
		strbuf_release(&sb);
		return xstrdup("");
	}
	t = probe_marker(pp, sb.buf);
	strbuf_release(&sb);
	return t;
}

static char *builtin(struct preproc *pp, const char *name, int argc, char **argv)
{
	struct parse_state *ps = pp->ps;

	if (!strcmp(name, "filename") && argc == 0)
		return xstrdup(kconfig_ps_current_path(ps));
	if (!strcmp(name, "lineno") && argc == 0)
		return xstrfmt("%d", kconfig_ps_current_line(ps));
	/* The kernel prints it; we are not configuring anything. */
	if (!strcmp(name, "info") && argc == 1)
		return xstrdup("");
	/* A probe's result is never literally "y": no message for toolchain checks. */
	if (!strcmp(name, "warning-if") && argc == 2) {
		if (!strcmp(argv[0], "y"))
			kconfig_ps_warning(ps, kconfig_ps_current_path(ps), kconfig_ps_current_line(ps), "%s", argv[1]);
		return xstrdup("");
	}
	if (!strcmp(name, "error-if") && argc == 2) {
		if (!strcmp(argv[0], "y"))
			kconfig_ps_error(ps, kconfig_ps_current_path(ps), kconfig_ps_current_line(ps), "%s", argv[1]);
		return xstrdup("");
	}
	if (!strcmp(name, "shell") && argc == 1)
		return call_text(pp, name, argc, argv);
	return NULL;
}

static char *expand_variable(struct preproc *pp, const char *name, int argc, char **argv)
{
	struct variable *v = strmap_get(&pp->vars, name);
	char *res;

	if (!v)
		return NULL;
	if (v->simple && !argc)
		return xstrdup(v->value);
	if (v->expanding && !argc) {
		kconfig_ps_error(pp->ps, kconfig_ps_current_path(pp->ps), kconfig_ps_current_line(pp->ps),
			 "recursive variable '%s' references itself (eventually)", name);
		return xstrdup("");
	}
	v->expanding++;
	res = expand(pp, v->value, strlen(v->value), argc, argv);
	v->expanding--;
	return res;
}

/* The inside of one $(...): a variable, an argument, a function call. */
static char *eval(struct preproc *pp, const char *s, size_t len, int argc, char **argv)
{
	char *parts[MAX_ARGS + 1];
	int nr = 0, nest = 0, i;
	const char *start = s, *p;
	char *name, *res;

	for (p = s; p < s + len; p++) {
		if (*p == '(') {
			nest++;
		} else if (*p == ')') {
			nest--;
		} else if (*p == ',' && !nest && nr < MAX_ARGS) {
			parts[nr++] = expand(pp, start, p - start, argc, argv);
			start = p + 1;
		}
	}
	parts[nr++] = expand(pp, start, s + len - start, argc, argv);
	name = parts[0];

	if (pp->overflow) {
		res = xstrdup("");
	} else if (nr == 1 && kconfig_all_digits(name)) {
		/* $(1), $(2): the arguments of the user function being called. */
		long n = atol(name);

		res = xstrdup(n >= 1 && n <= argc ? argv[n - 1] : "");
	} else if ((res = expand_variable(pp, name, nr - 1, parts + 1))) {
		;
	} else if ((res = builtin(pp, name, nr - 1, parts + 1))) {
		;
	} else if (nr == 1 && strmap_get(&pp->env, name)) {
		res = xstrdup(strmap_get(&pp->env, name));
	} else {
		/* An unknown environment variable or function: never guess its value. */
		res = call_text(pp, name, nr - 1, parts + 1);
	}
	for (i = 0; i < nr; i++)
		free(parts[i]);
	return res;
}

static char *expand(struct preproc *pp, const char *s, size_t len, int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	const char *end = s + len;

	strbuf_addstr(&sb, "");
	/* Give up on the whole expansion at once: `F = $(F,x)$(F,x)` would take forever. */
	if (pp->overflow)
		return strbuf_detach(&sb, NULL);
	if (++pp->depth > MAX_DEPTH) {
		give_up(pp, "macro expansion nested too deeply");
		pp->depth--;
		return strbuf_detach(&sb, NULL);
	}
	while (s < end) {
		const char *p = s;
		int nest = 0;
		char *r;

		if (*s != '$' || s + 1 >= end || s[1] != '(') {
			strbuf_addch(&sb, *s++);
			continue;
		}
		for (p = s + 1; p < end; p++) {
			if (*p == '(')
				nest++;
			else if (*p == ')' && --nest == 0)
				break;
		}
		if (p >= end) {
			kconfig_ps_error(pp->ps, kconfig_ps_current_path(pp->ps), kconfig_ps_current_line(pp->ps),
				 "unterminated reference to '%.*s'", (int)(end - s), s);
			break;
		}
		if (++pp->steps > MAX_STEPS) {
			give_up(pp, "more than 1048576 macro references in one line");
			break;
		}
		r = eval(pp, s + 2, p - (s + 2), argc, argv);
		pp->written += strlen(r);
		if (pp->written > MAX_WRITTEN) {
			free(r);
			give_up(pp, "macro expansion writes more than 16 MiB for one line");
			break;
		}
		strbuf_addstr(&sb, r);
		free(r);
		check_size(pp, sb.len);
		if (pp->overflow)
			break;
		s = p + 1;
	}
	pp->depth--;
	return strbuf_detach(&sb, NULL);
}

char *kconfig_preproc_expand(struct preproc *pp, const char *s, size_t len)
{
	char *r;

	if (pp->depth)
		return expand(pp, s, len, 0, NULL);
	pp->overflow = 0;
	pp->steps = 0;
	pp->written = 0;
	r = expand(pp, s, len, 0, NULL);
	if (pp->overflow) {
		/* What the line would have said is unknown: one probe for its text. */
		char *text = xstrndup(s, len);

		free(r);
		r = probe_marker(pp, text);
		free(text);
	}
	pp->overflow = 0;
	return r;
}

void kconfig_preproc_assign(struct preproc *pp, const char *name, int kind, const char *value)
{
	struct variable *v = strmap_get(&pp->vars, name);
	char *new_value;

	if (kind == T_ASSIGN_APPEND && v) {
		char *add = v->simple ? kconfig_preproc_expand(pp, value, strlen(value)) : xstrdup(value);
		char *joined;

		if (strlen(v->value) + strlen(add) > MAX_EXPANSION) {
			kconfig_ps_error(pp->ps, kconfig_ps_current_path(pp->ps), kconfig_ps_current_line(pp->ps),
					 "variable '%s' longer than 1 MiB; this '+=' is left out", name);
			free(add);
			return;
		}
		joined = *v->value ? xstrfmt("%s %s", v->value, add) : xstrdup(add);
		free(add);
		free(v->value);
		v->value = joined;
		return;
	}
	/* Expanded before the old value goes: `X := $(X) more` is fine. */
	new_value = kind == T_ASSIGN_SIMPLE ? kconfig_preproc_expand(pp, value, strlen(value)) : xstrdup(value);
	if (!v) {
		v = xcalloc(1, sizeof(*v));
		strmap_put(&pp->vars, name, v);
	}
	free(v->value);
	v->simple = kind == T_ASSIGN_SIMPLE;
	v->value = new_value;
}
