// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a Makefile line by line: continuation lines, comments, recipes,
 * define blocks, conditionals (each line is read under the condition of the
 * branches around it), assignments and includes.
 */
#include "kbuild-internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_INCLUDE_DEPTH 8

struct cond_frame {
	const struct kbuild_expr *parent;	/* condition around the ifxxx */
	const struct kbuild_expr *taken;	/* some earlier branch was taken */
	const struct kbuild_expr *cur;		/* this branch */
	int unknown;				/* top mode: both branches */
	int line;
};

struct parse_state {
	struct cond_frame *v;
	size_t nr, alloc;
	int define_depth;
	int in_rule;
	const struct kbuild_expr *base;
};

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static const struct kbuild_expr *current(struct kmake *mk, struct parse_state *st)
{
	if (!st->nr)
		return st->base;
	return kbuild_expr_and(mk->ex, st->v[st->nr - 1].parent, st->v[st->nr - 1].cur);
}

/* The condition under which `name` has a non-empty value (ifdef does not expand it). */
static const struct kbuild_expr *defined(struct kmake *mk, const char *name)
{
	struct kvar *v = kbuild_make_var(mk, name, 0);
	const struct kbuild_expr *c = kbuild_expr_false(mk->ex);

	if (!v && mk->globals)
		v = strmap_get(mk->globals, name);
	if (v) {
		for (size_t i = 0; i < v->val.nr; i++)
			c = kbuild_expr_or(mk->ex, c, v->val.v[i].cond);
		return c;
	}
	if (kbuild_make_is_config_ref(mk, name))
		return kbuild_expr_enabled(mk->ex, name);
	if (!strcmp(name, "obj") || !strcmp(name, "src") || !strcmp(name, "srctree") ||
	    !strcmp(name, "objtree"))
		return kbuild_expr_true(mk->ex);
	if (mk->top)
		return kbuild_expr_false(mk->ex);
	{
		char *t = xstrfmt("ifdef %s", name);

		c = kbuild_expr_free(mk->ex, t);
		free(t);
	}
	return c;
}

static const struct kbuild_expr *ifdef_cond(struct kmake *mk, const char *arg, size_t n)
{
	struct kwords names = { 0 };
	const struct kbuild_expr *c = kbuild_expr_false(mk->ex);

	kbuild_make_expand_alts(mk, arg, n, &names);
	for (size_t i = 0; i < names.nr; i++) {
		const struct kbuild_expr *d;

		if (has_unknown(names.v[i].text) || !*names.v[i].text) {
			char *t = xstrfmt("ifdef %.*s", (int)n, arg);

			d = has_unknown(names.v[i].text) ? kbuild_expr_free(mk->ex, t) : kbuild_expr_false(mk->ex);
			free(t);
		} else {
			d = defined(mk, names.v[i].text);
		}
		c = kbuild_expr_or(mk->ex, c, kbuild_expr_and(mk->ex, names.v[i].cond, d));
	}
	kbuild_words_clear(&names);
	return c;
}

/* Splits the argument of ifeq/ifneq: (a,b), "a" "b", 'a' 'b' and mixes. */
static int ifeq_args(const char *s, size_t n, const char **a, size_t *al, const char **b, size_t *bl)
{
	size_t i = 0;

	if (n && s[0] == '(' && s[n - 1] == ')') {
		int depth = 0;

		for (i = 1; i < n - 1; i++) {
			if (s[i] == '$') {
				i = kbuild_make_ref_end(s, i, n - 1) - 1;
				continue;
			}
			if (s[i] == '(')
				depth++;
			else if (s[i] == ')')
				depth--;
			else if (s[i] == ',' && !depth)
				break;
		}
		if (i >= n - 1)
			return -1;
		*a = s + 1;
		*al = i - 1;
		*b = s + i + 1;
		*bl = n - 2 - i;
		return 0;
	}
	for (int k = 0; k < 2; k++) {
		char q;
		size_t start;

		while (i < n && is_blank(s[i]))
			i++;
		if (i == n || (s[i] != '"' && s[i] != '\''))
			return -1;
		q = s[i++];
		start = i;
		while (i < n && s[i] != q)
			i++;
		if (i == n)
			return -1;
		if (!k) {
			*a = s + start;
			*al = i - start;
		} else {
			*b = s + start;
			*bl = i - start;
		}
		i++;
	}
	return 0;
}

static const struct kbuild_expr *ifeq_cond(struct kmake *mk, const char *arg, size_t n)
{
	const char *a, *b;
	size_t al, bl;
	struct kwords wa = { 0 }, wb = { 0 };
	const struct kbuild_expr *c = kbuild_expr_false(mk->ex), *unknown = NULL;

	if (ifeq_args(arg, n, &a, &al, &b, &bl)) {
		error("%s:%d: malformed conditional", mk->file, mk->line);
		char *t = xstrfmt("ifeq %.*s", (int)n, arg);

		c = kbuild_expr_free(mk->ex, t);
		free(t);
		return c;
	}
	kbuild_make_expand_alts(mk, a, al, &wa);
	kbuild_make_expand_alts(mk, b, bl, &wb);
	for (size_t i = 0; i < wa.nr; i++)
		for (size_t j = 0; j < wb.nr; j++) {
			const struct kbuild_expr *p = kbuild_expr_and(mk->ex, wa.v[i].cond, wb.v[j].cond);

			if (has_unknown(wa.v[i].text) || has_unknown(wb.v[j].text)) {
				if (!unknown) {
					char *t = xstrfmt("ifeq %.*s", (int)n, arg);

					unknown = kbuild_expr_free(mk->ex, t);
					free(t);
				}
				p = kbuild_expr_and(mk->ex, p, unknown);
			} else if (strcmp(wa.v[i].text, wb.v[j].text)) {
				continue;
			}
			c = kbuild_expr_or(mk->ex, c, p);
		}
	kbuild_words_clear(&wa);
	kbuild_words_clear(&wb);
	return c;
}

/* Evaluates "ifdef X", "ifeq (a,b)", ...; returns 0 when line is no conditional. */
static int cond_directive(struct kmake *mk, const char *s, size_t n, const struct kbuild_expr **out)
{
	static const char *const kw[] = { "ifdef", "ifndef", "ifeq", "ifneq" };

	for (size_t k = 0; k < ARRAY_SIZE(kw); k++) {
		size_t l = strlen(kw[k]);

		if (n <= l || strncmp(s, kw[k], l) || !(is_blank(s[l]) || s[l] == '(' ))
			continue;
		s += l;
		n -= l;
		while (n && is_blank(*s))
			s++, n--;
		*out = k < 2 ? ifdef_cond(mk, s, n) : ifeq_cond(mk, s, n);
		if (k & 1)
			*out = kbuild_expr_not(mk->ex, *out);
		return 1;
	}
	return 0;
}

static int has_config(const struct kbuild_expr *e)
{
	if (e->op >= KB_ENABLED && e->op <= KB_MODULE)
		return 1;
	for (unsigned i = 0; i < e->nr; i++)
		if (has_config(e->sub[i]))
			return 1;
	return 0;
}

/*
 * The top Makefile's other conditionals are about how make was invoked (O=,
 * M=, its own sub-make, config targets): for the lists, both branches.
 */
static int top_both_branches(struct kmake *mk, const struct kbuild_expr *c)
{
	return mk->top && (kbuild_expr_has_free(c) || !has_config(c));
}

static void push_frame(struct kmake *mk, struct parse_state *st, const struct kbuild_expr *c)
{
	struct cond_frame f = { current(mk, st), c, c, 0, mk->line };

	if (top_both_branches(mk, c)) {
		f.unknown = 1;
		f.cur = kbuild_expr_true(mk->ex);
	}
	ALLOC_GROW(st->v, st->nr + 1, st->alloc);
	st->v[st->nr++] = f;
}

static void else_directive(struct kmake *mk, struct parse_state *st, const char *s, size_t n)
{
	struct cond_frame *f;
	const struct kbuild_expr *c = kbuild_expr_true(mk->ex);

	if (!st->nr) {
		error("%s:%d: else without if", mk->file, mk->line);
		return;
	}
	f = &st->v[st->nr - 1];
	if (n && !cond_directive(mk, s, n, &c))
		error("%s:%d: extraneous text after else", mk->file, mk->line);
	if (f->unknown || (n && top_both_branches(mk, c))) {
		f->unknown = 1;
		f->cur = kbuild_expr_true(mk->ex);
		return;
	}
	f->cur = kbuild_expr_and(mk->ex, kbuild_expr_not(mk->ex, f->taken), c);
	f->taken = kbuild_expr_or(mk->ex, f->taken, c);
}

/* Removes `from` where it is true from a value: a later := or = replaces it there. */
static void mask(struct kmake *mk, struct kvar *v, const struct kbuild_expr *where)
{
	size_t j = 0;

	for (size_t i = 0; i < v->val.nr; i++) {
		v->val.v[i].cond = kbuild_expr_and(mk->ex, v->val.v[i].cond, kbuild_expr_not(mk->ex, where));
		if (v->val.v[i].cond->op == KB_FALSE) {
			free(v->val.v[i].text);
			continue;
		}
		v->val.v[j++] = v->val.v[i];
	}
	v->val.nr = j;
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const void *const *)a, y = (uintptr_t)*(const void *const *)b;

	return x < y ? -1 : x > y;
}

/*
 * The origins in a variable's value, sorted, so that `x := $(patsubst %/,
 * %/built-in.a, $(x))` keeps where each word of x was first written.
 */
static const struct kbuild_origin **own_origins(const struct kvar *v, size_t upto, size_t *nr)
{
	const struct kbuild_origin **o = xcalloc(upto + 1, sizeof(*o));

	*nr = 0;
	for (size_t i = 0; i < upto; i++)
		if (v->val.v[i].origin)
			o[(*nr)++] = v->val.v[i].origin;
	qsort(o, *nr, sizeof(*o), cmp_ptr);
	return o;
}

/* Words appended from `from` on come from this assignment, unless from the variable itself. */
static void set_origins(struct kmake *mk, struct kvar *v, size_t from,
			const struct kbuild_origin **own, size_t nr_own)
{
	for (size_t i = from; i < v->val.nr; i++) {
		const struct kbuild_origin *o = v->val.v[i].origin;

		if (!o || !nr_own || !bsearch(&o, own, nr_own, sizeof(*own), cmp_ptr))
			v->val.v[i].origin = mk->origin;
	}
}

static void set_var(struct kmake *mk, const char *name, const char *op, const char *rhs, size_t rl,
		    const struct kbuild_expr *cond, int exported)
{
	struct kvar *v = kbuild_make_var(mk, name, 0);
	int existed = v != NULL;
	size_t from = 0, nr_own = 0;
	const struct kbuild_origin **own = NULL;

	if (!v) {
		struct kvar *g = mk->globals ? strmap_get(mk->globals, name) : NULL;

		v = kbuild_make_var(mk, name, 1);
		if (g) {
			/* the environment's value, as make sees an exported variable */
			for (size_t i = 0; i < g->val.nr; i++) {
				size_t at = v->val.nr;

				kbuild_words_push(&v->val, g->val.v[i].cond, g->val.v[i].text,
					    strlen(g->val.v[i].text), g->val.v[i].raw);
				kbuild_words_set_origin(&v->val, at, g->val.v[i].origin);
			}
			existed = 1;
		}
	}
	if (exported)
		v->exported = 1;
	if (v->readonly)
		return;
	if (!strcmp(op, ":=") || !strcmp(op, "::=")) {
		struct kwords w = { 0 };

		if (mk->origin)
			own = own_origins(v, v->val.nr, &nr_own);
		kbuild_make_expand_words(mk, rhs, rl, cond, &w);
		mask(mk, v, cond);
		from = v->val.nr;
		for (size_t i = 0; i < w.nr; i++) {
			kbuild_words_push(&v->val, w.v[i].cond, w.v[i].text, strlen(w.v[i].text), 0);
			kbuild_words_set_origin(&v->val, v->val.nr - 1, w.v[i].origin);
		}
		kbuild_words_clear(&w);
		v->recursive = 0;
	} else if (!strcmp(op, "=") || (!strcmp(op, "?=") && !existed)) {
		mask(mk, v, cond);
		from = v->val.nr;
		if (rl)
			kbuild_words_push(&v->val, cond, rhs, rl, 1);
		v->recursive = 1;
	} else if (!strcmp(op, "+=")) {
		from = v->val.nr;
		if (!existed || v->recursive) {
			if (rl)
				kbuild_words_push(&v->val, cond, rhs, rl, 1);
			v->recursive = 1;
		} else {
			/* Expanded apart: `x += $(x)` must not read what it appends. */
			struct kwords w = { 0 };

			/*
			 * The value before is left as it was: its origins are
			 * sorted below only when a word appended has one (a
			 * reference to a variable), so that a Makefile of
			 * many `x += word` lines stays linear.
			 */
			kbuild_make_expand_words(mk, rhs, rl, cond, &w);
			for (size_t i = 0; i < w.nr; i++) {
				kbuild_words_push(&v->val, w.v[i].cond, w.v[i].text, strlen(w.v[i].text), 0);
				kbuild_words_set_origin(&v->val, v->val.nr - 1, w.v[i].origin);
			}
			kbuild_words_clear(&w);
		}
	} else if (!strcmp(op, "!=")) {
		char u = KMAKE_UNKNOWN;

		mask(mk, v, cond);
		from = v->val.nr;
		kbuild_words_push(&v->val, cond, &u, 1, 0);
	} else {
		return;
	}
	if (mk->origin && !own && !strcmp(op, "+=")) {
		size_t i = from;

		while (i < v->val.nr && !v->val.v[i].origin)
			i++;
		if (i < v->val.nr)
			own = own_origins(v, from, &nr_own);
	}
	if (mk->origin)
		set_origins(mk, v, from, own, nr_own);
	free(own);
}

static void assign(struct kmake *mk, const char *lhs, size_t ll, const char *op,
		   const char *rhs, size_t rl, const struct kbuild_expr *cond, int exported)
{
	struct kwords names = { 0 };

	while (rl && (rhs[0] == ' ' || rhs[0] == '\t'))
		rhs++, rl--;
	while (rl && (rhs[rl - 1] == ' ' || rhs[rl - 1] == '\t'))
		rl--;
	kbuild_make_expand_alts(mk, lhs, ll, &names);
	for (size_t i = 0; i < names.nr; i++) {
		const struct kbuild_expr *c = kbuild_expr_and(mk->ex, cond, names.v[i].cond);
		const char *name = names.v[i].text;

		if (c->op == KB_FALSE || !*name)
			continue;
		if (has_unknown(name)) {
			struct kpattern *p;

			ALLOC_GROW(mk->patterns, mk->nr_patterns + 1, mk->alloc_patterns);
			p = &mk->patterns[mk->nr_patterns++];
			memset(p, 0, sizeof(*p));
			p->glob = xstrdup(name);
			for (char *q = p->glob; *q; q++)
				if (*q == KMAKE_UNKNOWN)
					*q = '*';
			p->text = xstrfmt("%s:%d: %.*s", mk->file, mk->line, (int)ll, lhs);
			p->cond = c;
			kbuild_make_expand_words(mk, rhs, rl, kbuild_expr_true(mk->ex), &p->val);
			kbuild_words_set_origin(&p->val, 0, mk->origin);
			continue;
		}
		set_var(mk, name, op, rhs, rl, c, exported);
	}
	kbuild_words_clear(&names);
}

char *kbuild_make_normalize_path(const char *p)
{
	struct strvec parts = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;

	while (*p) {
		const char *e = strchr(p, '/');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l == 2 && !strncmp(p, "..", 2) && parts.nr && strcmp(parts.v[parts.nr - 1], "..")) {
			free(parts.v[--parts.nr]);
		} else if (l && !(l == 1 && *p == '.')) {
			char *s = xstrndup(p, l);

			strvec_push(&parts, s);
			free(s);
		}
		p += l;
		if (*p == '/')
			p++;
	}
	for (size_t i = 0; i < parts.nr; i++) {
		if (i)
			strbuf_addch(&sb, '/');
		strbuf_addstr(&sb, parts.v[i]);
	}
	strvec_clear(&parts);
	return strbuf_detach(&sb, NULL);
}

static void include_directive(struct kmake *mk, const char *s, size_t n, int optional,
			      const struct kbuild_expr *cond)
{
	struct kwords w = { 0 };

	kbuild_make_expand_words(mk, s, n, cond, &w);
	for (size_t i = 0; i < w.nr; i++) {
		const char *path = w.v[i].text;
		char *norm;
		int r = 1;

		if (has_unknown(path) || path[0] == '/') {
			if (!mk->top && !optional) {
				char *t = xstrfmt("%s:%d: include %.*s", mk->file, mk->line, (int)n, s);

				mk->incomplete = kbuild_expr_or(mk->ex, mk->incomplete,
						       kbuild_expr_and(mk->ex, w.v[i].cond, kbuild_expr_free(mk->ex, t)));
				free(t);
			}
			continue;
		}
		norm = kbuild_make_normalize_path(path);
		/* The top Makefile's own includes (scripts/) say nothing about lists. */
		if ((!mk->top || starts_with(norm, "arch/")) && mk->include_depth < MAX_INCLUDE_DEPTH) {
			const char *file = mk->file;
			int line = mk->line;

			mk->include_depth++;
			r = kbuild_make_parse_file(mk, norm, w.v[i].cond);
			mk->include_depth--;
			mk->file = file;
			mk->line = line;
		} else if (mk->top) {
			r = 0;
		}
		if (r == 1 && !optional && !mk->top) {
			char *t = xstrfmt("%s:%d: include %s", mk->file, mk->line, norm);

			mk->incomplete = kbuild_expr_or(mk->ex, mk->incomplete,
					       kbuild_expr_and(mk->ex, w.v[i].cond, kbuild_expr_free(mk->ex, t)));
			free(t);
		}
		free(norm);
	}
	kbuild_words_clear(&w);
}

static int word_is(const char *s, size_t n, const char *kw, size_t *rest)
{
	size_t l = strlen(kw);

	if (n < l || strncmp(s, kw, l) || (n > l && !is_blank(s[l])))
		return 0;
	*rest = l;
	while (*rest < n && is_blank(s[*rest]))
		(*rest)++;
	return 1;
}

/* Finds an assignment operator at top level; 0 when the line is none (a rule or other). */
static int find_assignment(const char *s, size_t n, size_t *op_start, size_t *op_len)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '$') {
			i = kbuild_make_ref_end(s, i, n) - 1;
			continue;
		}
		if (s[i] == ':') {
			if (i + 1 < n && s[i + 1] == '=') {
				*op_start = i;
				*op_len = 2;
				return 1;
			}
			if (i + 2 < n && s[i + 1] == ':' && s[i + 2] == '=') {
				*op_start = i;
				*op_len = 3;
				return 1;
			}
			return 0;	/* a rule */
		}
		if (s[i] == '=') {
			*op_start = i;
			*op_len = 1;
			if (i && (s[i - 1] == '+' || s[i - 1] == '?' || s[i - 1] == '!')) {
				(*op_start)--;
				*op_len = 2;
			}
			return 1;
		}
	}
	return 0;
}

/* Inside a define, or a conditional (ifeq, else, endif): 1 when it was one. */
static int conditional_statement(struct kmake *mk, struct parse_state *st, const char *s, size_t n)
{
	const struct kbuild_expr *c;
	size_t rest;

	if (st->define_depth) {
		if (word_is(s, n, "endef", &rest))
			st->define_depth--;
		else if (word_is(s, n, "define", &rest))
			st->define_depth++;
		return 1;
	}
	if (cond_directive(mk, s, n, &c)) {
		push_frame(mk, st, c);
		return 1;
	}
	if (word_is(s, n, "else", &rest)) {
		else_directive(mk, st, s + rest, n - rest);
		return 1;
	}
	if (word_is(s, n, "endif", &rest)) {
		if (!st->nr)
			error("%s:%d: endif without if", mk->file, mk->line);
		else
			st->nr--;
		return 1;
	}
	return 0;
}

/* NAME op value, its operator at s[os..os+ol). */
static void assignment_statement(struct kmake *mk, struct parse_state *st, const char *s, size_t n,
				 size_t os, size_t ol, const struct kbuild_expr *c, int exported)
{
	const struct kbuild_origin *saved;
	size_t ll = os, rest;
	char op[4];

	memcpy(op, s + os, ol);
	op[ol] = '\0';
	while (ll && is_blank(s[ll - 1]))
		ll--;
	if (word_is(s, ll, "define", &rest)) {
		st->define_depth = 1;
		return;
	}
	/* Its words remember it: --explain names the lines that list a file. */
	saved = mk->origin;
	mk->origin = kbuild_exprs_origin(mk->ex, mk->file ? mk->file : "Makefile", mk->line, s, n);
	assign(mk, s, ll, op, s + os + ol, n - os - ol, c, exported);
	mk->origin = saved;	/* an $(eval) inside an assignment reads its own */
	st->in_rule = 0;
}

/* Neither a directive nor an assignment: `export NAME...`, a rule, or a bare $(eval). */
static void other_statement(struct kmake *mk, struct parse_state *st, const char *s, size_t n,
			    const struct kbuild_expr *c, int exported)
{
	struct kwords w = { 0 };

	if (exported) {
		/* export NAME...: names only */
		kbuild_make_expand_words(mk, s, n, kbuild_expr_true(mk->ex), &w);
		for (size_t i = 0; i < w.nr; i++)
			if (!has_unknown(w.v[i].text))
				kbuild_make_var(mk, w.v[i].text, 1)->exported = 1;
		kbuild_words_clear(&w);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '$') {
			i = kbuild_make_ref_end(s, i, n) - 1;
			continue;
		}
		if (s[i] == ':') {
			st->in_rule = 1;
			return;
		}
	}
	/* A bare $(eval ...) or $(foreach ...): expand it for what it may do. */
	if (memchr(s, '$', n)) {
		kbuild_make_expand_words(mk, s, n, c, &w);
		kbuild_words_clear(&w);
	}
}

static void statement(struct kmake *mk, struct parse_state *st, const char *s, size_t n)
{
	const struct kbuild_expr *c;
	size_t rest, os, ol;
	int exported = 0;

	if (conditional_statement(mk, st, s, n))
		return;
	/*
	 * Like make, only a rule makes the following tab-indented lines a
	 * recipe; any other statement but a conditional ends it.
	 */
	st->in_rule = 0;
	c = current(mk, st);
	if (word_is(s, n, "define", &rest)) {
		st->define_depth = 1;
		return;
	}
	if (word_is(s, n, "include", &rest)) {
		include_directive(mk, s + rest, n - rest, 0, c);
		return;
	}
	if (word_is(s, n, "-include", &rest) || word_is(s, n, "sinclude", &rest)) {
		include_directive(mk, s + rest, n - rest, 1, c);
		return;
	}
	if (word_is(s, n, "vpath", &rest) || word_is(s, n, "unexport", &rest))
		return;
	for (;;) {
		if (word_is(s, n, "export", &rest))
			exported = 1;
		else if (!word_is(s, n, "override", &rest) && !word_is(s, n, "private", &rest))
			break;
		s += rest;
		n -= rest;
	}
	if (find_assignment(s, n, &os, &ol))
		assignment_statement(mk, st, s, n, os, ol, c, exported);
	else
		other_statement(mk, st, s, n, c, exported);
}

void kbuild_make_parse_text(struct kmake *mk, const char *text, size_t len, const char *file,
		      const struct kbuild_expr *cond)
{
	struct parse_state st = { 0 };
	struct strbuf line = STRBUF_INIT;
	size_t pos = 0;
	int lineno = 0;

	st.base = cond;
	/*
	 * Interned: a recursive variable's $(eval) names the file when it is
	 * expanded, after the caller has freed its path.
	 */
	mk->file = kbuild_exprs_string(mk->ex, file);
	while (pos < len) {
		int recipe = text[pos] == '\t' && st.in_rule;
		size_t start;

		strbuf_reset(&line);
		mk->line = ++lineno;
		for (;;) {
			size_t e = pos, bs = 0;

			while (e < len && text[e] != '\n')
				e++;
			for (size_t k = e; k > pos && text[k - 1] == '\\'; k--)
				bs++;
			if (bs % 2 && e < len) {
				strbuf_add(&line, text + pos, e - pos - 1);
				strbuf_addch(&line, ' ');
				pos = e + 1;
				lineno++;
				while (pos < len && is_blank(text[pos]))
					pos++;
				continue;
			}
			strbuf_add(&line, text + pos, e - pos);
			pos = e < len ? e + 1 : e;
			break;
		}
		if (recipe && !st.define_depth)
			continue;
		/* A comment runs to the end of the line, unless the # is escaped. */
		for (size_t i = 0; i < line.len; i++) {
			if (line.buf[i] == '\\' && i + 1 < line.len) {
				i++;
				continue;
			}
			if (line.buf[i] == '#' && !st.define_depth) {
				line.len = i;
				line.buf[i] = '\0';
				break;
			}
		}
		start = 0;
		while (start < line.len && (line.buf[start] == ' ' || line.buf[start] == '\t'))
			start++;
		while (line.len > start && (line.buf[line.len - 1] == ' ' || line.buf[line.len - 1] == '\t' ||
					    line.buf[line.len - 1] == '\r'))
			line.len--;
		if (line.len == start)
			continue;
		line.buf[line.len] = '\0';
		statement(mk, &st, line.buf + start, line.len - start);
	}
	if (st.nr)
		error("%s:%d: missing endif", file, st.v[st.nr - 1].line);
	free(st.v);
	strbuf_release(&line);
}

int kbuild_make_parse_file(struct kmake *mk, const char *path, const struct kbuild_expr *cond)
{
	struct kbuild_text t = { 0 };
	int r = mk->rd->read(mk->rd->ctx, path, &t);

	if (r == 1)
		strvec_pushf(&mk->deps, "%s -", path);	/* its absence matters too */
	if (r)
		return r;
	strvec_pushf(&mk->deps, "%s %s", path, t.id);
	mk->makefiles++;
	kbuild_make_parse_text(mk, t.data, t.len, path, cond);
	if (mk->rd->release)
		mk->rd->release(mk->rd->ctx, &t);
	return 0;
}
