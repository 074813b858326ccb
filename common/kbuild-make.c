// SPDX-License-Identifier: GPL-2.0
/*
 * Expanding Makefile text into conditional words: just enough of GNU make
 * (variables of both flavours, the list functions kbuild Makefiles use,
 * ifdef/ifeq/else/endif, include) to know every list's words and when each
 * is there. Whatever is not understood expands to KMAKE_UNKNOWN.
 */
#include "kbuild-internal.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* A cross product of alternatives larger than this gives up (unknown text). */
#define MAX_ALTS 64
/* Values with more distinct word conditions than this are unknown as a string. */
#define MAX_GROUPS 5
#define MAX_DEPTH 48
/*
 * Bytes of variable values one Makefile may expand in all: a value that
 * doubles at every line (x := $(x) $(x)) would otherwise grow without end.
 * Beyond it, what is left to expand is unknown. Real Makefiles stay far below.
 */
/* The budget of expanded text per Makefile: KBUILD_EXPANSION_LIMIT unless set. */
static size_t expansion_limit = KBUILD_EXPANSION_LIMIT;

void kbuild_set_expansion_limit(size_t bytes)
{
	expansion_limit = bytes ? bytes : KBUILD_EXPANSION_LIMIT;
}

void kbuild_words_push(struct kwords *w, const struct kbuild_expr *cond, const char *text, size_t len, int raw)
{
	if (cond->op == KB_FALSE)
		return;
	ALLOC_GROW(w->v, w->nr + 1, w->alloc);
	w->v[w->nr].cond = cond;
	w->v[w->nr].text = xstrndup(text, len);
	w->v[w->nr].raw = raw;
	w->v[w->nr].origin = NULL;
	w->nr++;
}

void kbuild_words_set_origin(struct kwords *w, size_t from, const struct kbuild_origin *origin)
{
	for (size_t i = from; i < w->nr; i++)
		w->v[i].origin = origin;
}

void kbuild_words_clear(struct kwords *w)
{
	for (size_t i = 0; i < w->nr; i++)
		free(w->v[i].text);
	free(w->v);
	w->v = NULL;
	w->nr = w->alloc = 0;
}

void kbuild_var_free(void *p)
{
	struct kvar *v = p;

	kbuild_words_clear(&v->val);
	free(v);
}

void kbuild_make_init(struct kmake *mk, struct kbuild_exprs *ex, const struct kbuild_reader *rd,
		const char *dir, const struct strmap *globals, int top)
{
	memset(mk, 0, sizeof(*mk));
	mk->ex = ex;
	mk->rd = rd;
	mk->globals = globals;
	mk->dir = xstrdup(dir);
	mk->top = top;
	mk->incomplete = kbuild_expr_false(ex);
}

void kbuild_make_release(struct kmake *mk)
{
	strmap_clear(&mk->vars, kbuild_var_free);
	for (size_t i = 0; i < mk->nr_patterns; i++) {
		free(mk->patterns[i].glob);
		free(mk->patterns[i].text);
		kbuild_words_clear(&mk->patterns[i].val);
	}
	free(mk->patterns);
	free(mk->dir);
	strvec_clear(&mk->deps);
}

static struct kvar *var_get(struct kmake *mk, const char *name, int create)
{
	struct kvar *v = strmap_get(&mk->vars, name);

	if (!v && create) {
		v = xcalloc(1, sizeof(*v));
		strmap_put(&mk->vars, name, v);
	}
	return v;
}

void kbuild_make_set_readonly(struct kmake *mk, const char *name, const char *value)
{
	struct kvar *v = var_get(mk, name, 1);

	kbuild_words_clear(&v->val);
	if (*value)
		kbuild_words_push(&v->val, kbuild_expr_true(mk->ex), value, strlen(value), 0);
	v->readonly = 1;
	v->exported = 1;
}

void kbuild_make_set_empty(struct kmake *mk, const char *name)
{
	var_get(mk, name, 1);
}

/* ---- scanning ---- */

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* s[i] is '$': returns the index just past the reference. */
static size_t ref_end(const char *s, size_t i, size_t n)
{
	char open, close;
	int depth = 0;

	if (i + 1 >= n)
		return n;
	open = s[i + 1];
	if (open != '(' && open != '{')
		return i + 2;
	close = open == '(' ? ')' : '}';
	for (size_t j = i + 1; j < n; j++) {
		if (s[j] == open)
			depth++;
		else if (s[j] == close && !--depth)
			return j + 1;
	}
	return n;
}

static void trim(const char **s, size_t *n)
{
	while (*n && is_space(**s))
		(*s)++, (*n)--;
	while (*n && is_space((*s)[*n - 1]))
		(*n)--;
}

/* Where the body of the reference at s[start] ('$') begins, and its length given its end. */
static size_t body_start(const char *s, size_t start, size_t n)
{
	return start + 1 < n && (s[start + 1] == '(' || s[start + 1] == '{') ? start + 2 : start + 1;
}

static size_t body_len(const char *s, size_t start, size_t end, size_t n)
{
	size_t b = body_start(s, start, n);

	if (b == start + 1)
		return end - b;
	/* unterminated: everything up to the end */
	if (end == n && (end == b || (s[end - 1] != ')' && s[end - 1] != '}')))
		return end - b;
	return end - b - 1;
}

/* ---- expansion ---- */

static void expand_words(struct kmake *mk, const char *s, size_t n,
			 const struct kbuild_expr *cond, struct kwords *out);
static void expand_alts(struct kmake *mk, const char *s, size_t n, struct kwords *out);

static void push_unknown(struct kmake *mk, struct kwords *out, const struct kbuild_expr *cond)
{
	char u = KMAKE_UNKNOWN;

	kbuild_words_push(out, cond, &u, 1, 0);
}

/*
 * Charges `bytes` of expanded text to the Makefile's budget; 1 (said once)
 * when it is spent. Every string the expansion builds is charged: the words
 * of values, the alternatives of a reference and their concatenations.
 */
static int over_budget(struct kmake *mk, size_t bytes)
{
	mk->expanded += bytes + 64;	/* a string costs more than its bytes */
	if (mk->expanded <= expansion_limit)
		return 0;
	if (!mk->over_limit)
		error("%s:%d: variables expand to more than %zu %s; the rest is unknown",
		      mk->file ? mk->file : "Makefile", mk->line,
		      expansion_limit >> (expansion_limit >> 20 ? 20 : 10),
		      expansion_limit >> 20 ? "MiB" : "KiB");
	mk->over_limit = 1;
	return 1;
}

/* Words of a value; a raw (recursive) entry is expanded now, in the current context. */
static void value_words(struct kmake *mk, const struct kwords *val, const struct kbuild_expr *cond,
			struct kwords *out)
{
	for (size_t i = 0; i < val->nr; i++) {
		const struct kbuild_expr *c = kbuild_expr_and(mk->ex, cond, val->v[i].cond);

		if (c->op == KB_FALSE)
			continue;
		if (over_budget(mk, strlen(val->v[i].text))) {
			push_unknown(mk, out, cond);
			return;
		}
		size_t from = out->nr;

		if (val->v[i].raw)
			expand_words(mk, val->v[i].text, strlen(val->v[i].text), c, out);
		else
			kbuild_words_push(out, c, val->v[i].text, strlen(val->v[i].text), 0);
		/* A variable's words come from the assignment that put them there. */
		if (val->v[i].origin)
			kbuild_words_set_origin(out, from, val->v[i].origin);
	}
}

static int is_config_ref(struct kmake *mk, const char *name)
{
	return starts_with(name, "CONFIG_") && name[7] && !strmap_contains(&mk->vars, name) &&
		!(mk->globals && strmap_contains(mk->globals, name));
}

/*
 * kbuild's lists (obj-y, foo-objs, foo-$(CONFIG_X)...) belong to one
 * directory's Makefile: undefined, they are empty, not unknown.
 */
static int is_local_list(const char *name)
{
	return starts_with(name, "obj-") || starts_with(name, "lib-") ||
		starts_with(name, "subdir-") || ends_with(name, "-y") || ends_with(name, "-m") ||
		ends_with(name, "-objs") || ends_with(name, "-");
}

static void var_words(struct kmake *mk, const char *name, const struct kbuild_expr *cond,
		      struct kwords *out)
{
	struct kvar *v = strmap_get(&mk->vars, name);

	if (!v && mk->globals)
		v = strmap_get(mk->globals, name);
	if (v) {
		value_words(mk, &v->val, cond, out);
		return;
	}
	if (is_config_ref(mk, name)) {
		kbuild_words_push(out, kbuild_expr_and(mk->ex, cond, kbuild_expr_builtin(mk->ex, name)), "y", 1, 0);
		kbuild_words_push(out, kbuild_expr_and(mk->ex, cond, kbuild_expr_module(mk->ex, name)), "m", 1, 0);
		return;
	}
	if (!strcmp(name, "obj") || !strcmp(name, "src")) {
		const char *d = *mk->dir ? mk->dir : ".";

		kbuild_words_push(out, cond, d, strlen(d), 0);
		return;
	}
	if (!strcmp(name, "srctree") || !strcmp(name, "objtree")) {
		kbuild_words_push(out, cond, ".", 1, 0);
		return;
	}
	/* Xen's Rules.mk: srcdir := $(srctree)/$(src). */
	if (!strcmp(name, "srcdir")) {
		char *d = xstrfmt("./%s", mk->dir);

		kbuild_words_push(out, cond, d, strlen(d) - !*mk->dir, 0);
		free(d);
		return;
	}
	if (!mk->top && !is_local_list(name) &&
	    !(mk->phase_prefixes && kbuild_phase_is_prefix(name)))
		push_unknown(mk, out, cond);
}

/*
 * Turns conditional words into exclusive alternatives of the whole string:
 * words that share a condition are one group; every subset of groups that
 * can hold together is one alternative.
 */
static void words_to_alts(struct kmake *mk, const struct kwords *w, struct kwords *alts)
{
	const struct kbuild_expr *gc[MAX_GROUPS];
	struct strbuf gs[MAX_GROUPS];
	size_t k = 0;

	for (size_t i = 0; i < w->nr; i++) {
		size_t g;

		for (g = 0; g < k; g++)
			if (gc[g] == w->v[i].cond)
				break;
		if (g == k) {
			if (k == MAX_GROUPS) {
				for (g = 0; g < k; g++)
					strbuf_release(&gs[g]);
				push_unknown(mk, alts, kbuild_expr_true(mk->ex));
				return;
			}
			gc[k] = w->v[i].cond;
			gs[k].buf = NULL;
			gs[k].len = gs[k].alloc = 0;
			k++;
		}
		if (gs[g].len)
			strbuf_addch(&gs[g], ' ');
		strbuf_addstr(&gs[g], w->v[i].text);
	}
	for (unsigned mask = 0; mask < (1u << k); mask++) {
		const struct kbuild_expr *c = kbuild_expr_true(mk->ex);
		struct strbuf sb = STRBUF_INIT;

		for (size_t g = 0; g < k && c->op != KB_FALSE; g++) {
			if (mask & (1u << g)) {
				c = kbuild_expr_and(mk->ex, c, gc[g]);
				if (sb.len)
					strbuf_addch(&sb, ' ');
				strbuf_addstr(&sb, strbuf_str(&gs[g]));
			} else {
				c = kbuild_expr_and(mk->ex, c, kbuild_expr_not(mk->ex, gc[g]));
			}
		}
		if (c->op != KB_FALSE && over_budget(mk, sb.len)) {
			strbuf_release(&sb);
			push_unknown(mk, alts, c);
			continue;
		}
		kbuild_words_push(alts, c, strbuf_str(&sb), sb.len, 0);
		strbuf_release(&sb);
	}
	for (size_t g = 0; g < k; g++)
		strbuf_release(&gs[g]);
}

static void alts_of(struct kmake *mk, const char *s, size_t n, struct kwords *out)
{
	trim(&s, &n);
	expand_alts(mk, s, n, out);
	for (size_t i = 0; i < out->nr; i++) {
		const char *t = out->v[i].text;
		size_t len = strlen(t);

		trim(&t, &len);
		memmove(out->v[i].text, t, len);
		out->v[i].text[len] = '\0';
	}
}

/* The words of a reference whose body (between the parentheses) is s. */
static void ref_words(struct kmake *mk, const char *s, size_t n, const struct kbuild_expr *cond,
		      struct kwords *out)
{
	size_t fnlen, colon = 0, eq = 0;
	struct kwords names = { 0 };

	if (++mk->depth > MAX_DEPTH) {
		push_unknown(mk, out, cond);
		goto out;
	}
	if (kbuild_make_is_function(s, n, &fnlen)) {
		size_t k = fnlen;

		while (k < n && is_space(s[k]))
			k++;
		kbuild_make_function(mk, s, fnlen, s + k, n - k, cond, out);
		goto out;
	}
	/* $(var:a=b) */
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '$') {
			i = ref_end(s, i, n) - 1;
			continue;
		}
		if (s[i] == ':' && !colon)
			colon = i;
		else if (s[i] == '=' && colon && !eq)
			eq = i;
	}
	if (colon && eq) {
		struct kwords val = { 0 }, pa = { 0 }, ra = { 0 };

		ref_words(mk, s, colon, cond, &val);
		alts_of(mk, s + colon + 1, eq - colon - 1, &pa);
		alts_of(mk, s + eq + 1, n - eq - 1, &ra);
		for (size_t i = 0; i < pa.nr; i++)
			for (size_t j = 0; j < ra.nr; j++) {
				char *p = strchr(pa.v[i].text, '%') ? xstrdup(pa.v[i].text)
								    : xstrfmt("%%%s", pa.v[i].text);
				char *r = strchr(pa.v[i].text, '%') ? xstrdup(ra.v[j].text)
								    : xstrfmt("%%%s", ra.v[j].text);

				kbuild_make_patsubst(mk, p, r, kbuild_expr_and(mk->ex, pa.v[i].cond, ra.v[j].cond), &val, out);
				free(p);
				free(r);
			}
		kbuild_words_clear(&val);
		kbuild_words_clear(&pa);
		kbuild_words_clear(&ra);
		goto out;
	}
	expand_alts(mk, s, n, &names);
	for (size_t i = 0; i < names.nr; i++) {
		const struct kbuild_expr *c = kbuild_expr_and(mk->ex, cond, names.v[i].cond);

		if (c->op == KB_FALSE)
			continue;
		if (has_unknown(names.v[i].text))
			push_unknown(mk, out, c);
		else
			var_words(mk, names.v[i].text, c, out);
	}
	kbuild_words_clear(&names);
out:
	mk->depth--;
}

static void ref_alts(struct kmake *mk, const char *s, size_t n, struct kwords *out)
{
	struct kwords w = { 0 };
	char *name = xstrndup(s, n);

	if (!strpbrk(name, "$: \t") && is_config_ref(mk, name)) {
		/* y, m or empty: exclusive by nature */
		kbuild_words_push(out, kbuild_expr_builtin(mk->ex, name), "y", 1, 0);
		kbuild_words_push(out, kbuild_expr_module(mk->ex, name), "m", 1, 0);
		kbuild_words_push(out, kbuild_expr_not(mk->ex, kbuild_expr_enabled(mk->ex, name)), "", 0, 0);
	} else {
		ref_words(mk, s, n, kbuild_expr_true(mk->ex), &w);
		words_to_alts(mk, &w, out);
	}
	kbuild_words_clear(&w);
	free(name);
}

/* Exclusive alternatives (condition, string) of the whole text; they cover every case. */
static void expand_alts(struct kmake *mk, const char *s, size_t n, struct kwords *out)
{
	struct kwords cur = { 0 }, next = { 0 }, part = { 0 };
	size_t i = 0;

	kbuild_words_push(&cur, kbuild_expr_true(mk->ex), "", 0, 0);
	while (i < n) {
		size_t start = i;

		if (s[i] != '$' || (i + 1 < n && s[i + 1] == '$')) {
			/* a literal run ($$ is a literal $) */
			struct strbuf lit = STRBUF_INIT;

			while (i < n && !(s[i] == '$' && !(i + 1 < n && s[i + 1] == '$'))) {
				strbuf_addch(&lit, s[i]);
				i += s[i] == '$' ? 2 : 1;
			}
			for (size_t k = 0; k < cur.nr; k++) {
				char *t = xstrconcat(cur.v[k].text, lit.buf);

				free(cur.v[k].text);
				cur.v[k].text = t;
			}
			strbuf_release(&lit);
			continue;
		}
		i = ref_end(s, i, n);
		ref_alts(mk, s + body_start(s, start, n), body_len(s, start, i, n), &part);
		if (cur.nr * part.nr > MAX_ALTS) {
			kbuild_words_clear(&cur);
			push_unknown(mk, &cur, kbuild_expr_true(mk->ex));
		} else {
			for (size_t a = 0; a < cur.nr; a++)
				for (size_t b = 0; b < part.nr; b++) {
					const struct kbuild_expr *c = kbuild_expr_and(mk->ex, cur.v[a].cond, part.v[b].cond);
					char *t;

					if (c->op == KB_FALSE)
						continue;
					if (over_budget(mk, strlen(cur.v[a].text) + strlen(part.v[b].text))) {
						push_unknown(mk, &next, c);
						continue;
					}
					t = xstrconcat(cur.v[a].text, part.v[b].text);
					kbuild_words_push(&next, c, t, strlen(t), 0);
					free(t);
				}
			kbuild_words_clear(&cur);
			cur = next;
			memset(&next, 0, sizeof(next));
		}
		kbuild_words_clear(&part);
	}
	for (size_t k = 0; k < cur.nr; k++) {
		kbuild_words_push(out, cur.v[k].cond, cur.v[k].text, strlen(cur.v[k].text), 0);
	}
	kbuild_words_clear(&cur);
}

/* Splits text at top-level blanks; each piece is a word template. */
static void expand_words(struct kmake *mk, const char *s, size_t n,
			 const struct kbuild_expr *cond, struct kwords *out)
{
	size_t i = 0;

	if (cond->op == KB_FALSE)
		return;
	if (++mk->depth > MAX_DEPTH) {
		push_unknown(mk, out, cond);
		mk->depth--;
		return;
	}
	while (i < n) {
		size_t start;

		while (i < n && is_space(s[i]))
			i++;
		if (i == n)
			break;
		start = i;
		while (i < n && !is_space(s[i])) {
			if (s[i] == '$' && i + 1 < n && s[i + 1] != '$')
				i = ref_end(s, i, n);
			else
				i += s[i] == '$' ? 2 : 1;
		}
		if (i > n)
			i = n;
		if (s[start] == '$' && start + 1 < i && (s[start + 1] == '(' || s[start + 1] == '{') &&
		    ref_end(s, start, n) == i) {
			/* a whole reference: its words, each with its own condition */
			ref_words(mk, s + start + 2, body_len(s, start, i, n), cond, out);
		} else {
			struct kwords alts = { 0 };

			expand_alts(mk, s + start, i - start, &alts);
			for (size_t k = 0; k < alts.nr; k++) {
				const struct kbuild_expr *c = kbuild_expr_and(mk->ex, cond, alts.v[k].cond);
				const char *t = alts.v[k].text;

				while (*t) {
					size_t len = 0;

					while (*t && is_space(*t))
						t++;
					while (t[len] && !is_space(t[len]))
						len++;
					if (len)
						kbuild_words_push(out, c, t, len, 0);
					t += len;
				}
			}
			kbuild_words_clear(&alts);
		}
	}
	mk->depth--;
}

/* ---- the end result ---- */

void kbuild_make_words(struct kmake *mk, const char *name, struct kwords *out)
{
	struct kvar *v = strmap_get(&mk->vars, name);

	if (!v && mk->globals)
		v = strmap_get(mk->globals, name);
	if (v)
		value_words(mk, &v->val, kbuild_expr_true(mk->ex), out);
	for (size_t i = 0; i < mk->nr_patterns; i++) {
		struct kpattern *p = &mk->patterns[i];

		if (fnmatch(p->glob, name, 0))
			continue;
		value_words(mk, &p->val, kbuild_expr_and(mk->ex, p->cond, kbuild_expr_free(mk->ex, p->text)), out);
	}
}

int kbuild_make_mentions(struct kmake *mk, const char *name)
{
	struct kvar *v = strmap_get(&mk->vars, name);

	if (v && v->val.nr)
		return 1;
	for (size_t i = 0; i < mk->nr_patterns; i++)
		if (!fnmatch(mk->patterns[i].glob, name, 0) && mk->patterns[i].val.nr)
			return 1;
	return 0;
}

void kbuild_make_export(struct kmake *mk, struct strmap *globals)
{
	struct strmap_entry *e;

	strmap_for_each(&mk->vars, e) {
		struct kvar *v = e->value, *g;

		if (!v->exported)
			continue;
		g = xcalloc(1, sizeof(*g));
		kbuild_make_words(mk, e->key, &g->val);
		g->exported = 1;
		strmap_put(globals, e->key, g);
	}
}

void kbuild_make_expand_words(struct kmake *mk, const char *s, size_t n,
			const struct kbuild_expr *cond, struct kwords *out)
{
	expand_words(mk, s, n, cond, out);
}

void kbuild_make_expand_alts(struct kmake *mk, const char *s, size_t n, struct kwords *out)
{
	alts_of(mk, s, n, out);
}

struct kvar *kbuild_make_var(struct kmake *mk, const char *name, int create)
{
	return var_get(mk, name, create);
}

int kbuild_make_is_config_ref(struct kmake *mk, const char *name)
{
	return is_config_ref(mk, name);
}

size_t kbuild_make_ref_end(const char *s, size_t i, size_t n)
{
	return ref_end(s, i, n);
}
