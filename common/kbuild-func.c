// SPDX-License-Identifier: GPL-2.0
/*
 * GNU make's functions over conditional words: the ones kbuild Makefiles use
 * to build their lists (addprefix, patsubst, filter, foreach, if, ...).
 * Any other function is unknown text, except $(eval), whose expansion is
 * read as Makefile text, and $(error)/$(warning)/$(info), which are empty.
 */
#include "kbuild-internal.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static void push_unknown(struct kmake *mk, struct kwords *out, const struct kbuild_expr *cond)
{
	char u = KMAKE_UNKNOWN;

	kbuild_words_push(out, cond, &u, 1, 0);
}

/* Splits s at top-level commas (outside references), at most max pieces. */
static size_t split_args(const char *s, size_t n, size_t max, const char **arg, size_t *len)
{
	size_t nr = 0, start = 0, i = 0;

	while (i < n && nr + 1 < max) {
		if (s[i] == '$') {
			i = kbuild_make_ref_end(s, i, n);
			continue;
		}
		if (s[i] == '(' || s[i] == '{') {
			/* make counts plain parentheses too when splitting arguments */
			int depth = 0;
			char o = s[i], c = o == '(' ? ')' : '}';

			for (; i < n; i++) {
				if (s[i] == o)
					depth++;
				else if (s[i] == c && !--depth)
					break;
			}
			i++;
			continue;
		}
		if (s[i] == ',') {
			arg[nr] = s + start;
			len[nr++] = i - start;
			start = i + 1;
		}
		i++;
	}
	arg[nr] = s + start;
	len[nr++] = n - start;
	return nr;
}

/* One literal word from an argument that is normally a constant (a prefix, a pattern). */
static int pat_match(const char *pat, const char *word, size_t *stem_off, size_t *stem_len)
{
	const char *pc = strchr(pat, '%');
	size_t wl = strlen(word);

	if (!pc)
		return !strcmp(pat, word) ? (*stem_off = 0, *stem_len = 0, 1) : 0;
	size_t pre = (size_t)(pc - pat), suf = strlen(pc + 1);

	if (wl < pre + suf || strncmp(word, pat, pre) || strcmp(word + wl - suf, pc + 1))
		return 0;
	*stem_off = pre;
	*stem_len = wl - pre - suf;
	return 1;
}

static void subst_pattern(struct strbuf *sb, const char *rep, const char *word, size_t off, size_t len)
{
	const char *pc = strchr(rep, '%');

	if (!pc) {
		strbuf_addstr(sb, rep);
		return;
	}
	strbuf_add(sb, rep, (size_t)(pc - rep));
	strbuf_add(sb, word + off, len);
	strbuf_addstr(sb, pc + 1);
}

/* A word made from `src` (patsubst, filter, addprefix...) keeps where src was written. */
static void push_from(struct kwords *out, const struct kbuild_expr *c, const char *text, size_t len,
		      const struct kword *src)
{
	size_t at = out->nr;

	kbuild_words_push(out, c, text, len, 0);
	kbuild_words_set_origin(out, at, src->origin);
}

/* patsubst of every word; a word with unknown text stays unknown. */
void kbuild_make_patsubst(struct kmake *mk, const char *pat, const char *rep,
			   const struct kbuild_expr *cond, const struct kwords *in, struct kwords *out)
{
	for (size_t i = 0; i < in->nr; i++) {
		const char *w = in->v[i].text;
		const struct kbuild_expr *c = kbuild_expr_and(mk->ex, cond, in->v[i].cond);
		struct strbuf sb = STRBUF_INIT;
		size_t off, len;

		if (has_unknown(w) || has_unknown(pat) || has_unknown(rep))
			push_unknown(mk, out, c);
		else if (pat_match(pat, w, &off, &len)) {
			subst_pattern(&sb, rep, w, off, len);
			if (sb.len)
				push_from(out, c, sb.buf, sb.len, &in->v[i]);
		} else {
			push_from(out, c, w, strlen(w), &in->v[i]);
		}
		strbuf_release(&sb);
	}
}

/*
 * One GNU make function: `name` is the function's own name (several share a
 * handler), `args` its unexpanded arguments. Returns 0 when it expanded the
 * call into `out`, -1 when the call's value is unknown text.
 */
struct fn_call {
	struct kmake *mk;
	const char *name;
	const char *args;
	size_t n;
	const struct kbuild_expr *cond;
	struct kwords *out;
};

static int fn_addfix(const struct fn_call *f)
{
	struct kmake *mk = f->mk;
	int prefix = !strcmp(f->name, "addprefix");
	struct kwords w1 = { 0 }, w2 = { 0 };
	const char *a[2];
	size_t l[2];

	if (split_args(f->args, f->n, 2, a, l) < 2)
		return -1;
	kbuild_make_expand_alts(mk, a[0], l[0], &w1);
	kbuild_make_expand_words(mk, a[1], l[1], f->cond, &w2);
	for (size_t i = 0; i < w1.nr; i++)
		for (size_t j = 0; j < w2.nr; j++) {
			char *t = prefix ? xstrconcat(w1.v[i].text, w2.v[j].text)
					 : xstrconcat(w2.v[j].text, w1.v[i].text);

			push_from(f->out, kbuild_expr_and(mk->ex, w1.v[i].cond, w2.v[j].cond),
				  t, strlen(t), &w2.v[j]);
			free(t);
		}
	kbuild_words_clear(&w1);
	kbuild_words_clear(&w2);
	return 0;
}

/*
 * The arguments of $(patsubst ...) and $(subst ...): the choices of the
 * first two, the words of the text.
 */
static int from_to_text(const struct fn_call *f, struct kwords w[3])
{
	const char *a[3];
	size_t l[3];

	if (split_args(f->args, f->n, 3, a, l) < 3)
		return -1;
	kbuild_make_expand_alts(f->mk, a[0], l[0], &w[0]);
	kbuild_make_expand_alts(f->mk, a[1], l[1], &w[1]);
	kbuild_make_expand_words(f->mk, a[2], l[2], f->cond, &w[2]);
	return 0;
}

static void from_to_text_clear(struct kwords w[3])
{
	for (int i = 0; i < 3; i++)
		kbuild_words_clear(&w[i]);
}

static int fn_patsubst(const struct fn_call *f)
{
	struct kmake *mk = f->mk;
	struct kwords w[3] = { { 0 } };

	if (from_to_text(f, w) < 0)
		return -1;
	for (size_t i = 0; i < w[0].nr; i++)
		for (size_t j = 0; j < w[1].nr; j++)
			kbuild_make_patsubst(mk, w[0].v[i].text, w[1].v[j].text,
					     kbuild_expr_and(mk->ex, w[0].v[i].cond, w[1].v[j].cond), &w[2], f->out);
	from_to_text_clear(w);
	return 0;
}

/* $(subst from,to,text) of one choice of each argument. */
static void subst_one(struct kmake *mk, const struct kword *from, const struct kword *to,
		      const struct kword *text, struct kwords *out)
{
	const struct kbuild_expr *c = kbuild_expr_and(mk->ex, kbuild_expr_and(mk->ex, from->cond, to->cond),
						      text->cond);
	const char *w = text->text, *p;
	struct strbuf sb = STRBUF_INIT;

	if (!*from->text || has_unknown(from->text) || has_unknown(to->text)) {
		kbuild_words_push(out, c, w, strlen(w), 0);
		if (*from->text)
			push_unknown(mk, out, c);
		return;
	}
	while ((p = strstr(w, from->text))) {
		strbuf_add(&sb, w, (size_t)(p - w));
		strbuf_addstr(&sb, to->text);
		w = p + strlen(from->text);
	}
	strbuf_addstr(&sb, w);
	/* The result may hold spaces: re-split it. */
	kbuild_make_expand_words(mk, strbuf_str(&sb), sb.len, c, out);
	strbuf_release(&sb);
}

static int fn_subst(const struct fn_call *f)
{
	struct kwords w[3] = { { 0 } };

	if (from_to_text(f, w) < 0)
		return -1;
	for (size_t i = 0; i < w[0].nr; i++)
		for (size_t j = 0; j < w[1].nr; j++)
			for (size_t k = 0; k < w[2].nr; k++)
				subst_one(f->mk, &w[0].v[i], &w[1].v[j], &w[2].v[k], f->out);
	from_to_text_clear(w);
	return 0;
}

/* Whether `word` passes $(filter) (keep_match) or $(filter-out) of `pats`: 0, or 1 with *c narrowed. */
static int filter_keeps(struct kmake *mk, int keep_match, const struct kwords *pats,
			const char *word, const struct kbuild_expr **c)
{
	/* A pattern that is there under some condition: the word may go either way. */
	const struct kbuild_expr *m = kbuild_expr_false(mk->ex);

	if (has_unknown(word))
		return 1;	/* might pass: over-approximate */
	for (size_t i = 0; i < pats->nr; i++) {
		size_t off, len;

		if (has_unknown(pats->v[i].text))
			return 1;
		if (pat_match(pats->v[i].text, word, &off, &len))
			m = kbuild_expr_or(mk->ex, m, pats->v[i].cond);
	}
	*c = kbuild_expr_and(mk->ex, *c, keep_match ? m : kbuild_expr_not(mk->ex, m));
	return (*c)->op != KB_FALSE;
}

static int fn_filter(const struct fn_call *f)
{
	struct kmake *mk = f->mk;
	int keep_match = !strcmp(f->name, "filter");
	struct kwords w1 = { 0 }, w2 = { 0 };
	const char *a[2];
	size_t l[2];

	if (split_args(f->args, f->n, 2, a, l) < 2)
		return -1;
	kbuild_make_expand_words(mk, a[0], l[0], kbuild_expr_true(mk->ex), &w1);
	kbuild_make_expand_words(mk, a[1], l[1], f->cond, &w2);
	for (size_t j = 0; j < w2.nr; j++) {
		const struct kbuild_expr *c = w2.v[j].cond;

		if (filter_keeps(mk, keep_match, &w1, w2.v[j].text, &c))
			push_from(f->out, c, w2.v[j].text, strlen(w2.v[j].text), &w2.v[j]);
	}
	kbuild_words_clear(&w1);
	kbuild_words_clear(&w2);
	return 0;
}

static int fn_words(const struct fn_call *f)
{
	kbuild_make_expand_words(f->mk, f->args, f->n, f->cond, f->out);
	return 0;
}

void kbuild_paths_with_prefix(const struct strvec *sorted, const char *prefix, size_t len,
			      size_t *lo, size_t *hi)
{
	size_t l = 0, h = sorted->nr;

	while (l < h) {
		size_t mid = l + (h - l) / 2;

		if (strncmp(sorted->v[mid], prefix, len) < 0)
			l = mid + 1;
		else
			h = mid;
	}
	*lo = l;
	h = sorted->nr;
	while (l < h) {
		size_t mid = l + (h - l) / 2;

		if (strncmp(sorted->v[mid], prefix, len) <= 0)
			l = mid + 1;
		else
			h = mid;
	}
	*hi = l;
}

/*
 * $(wildcard pattern...) over the tree's files and directories, when the
 * walk gave them (coreboot's subdirs-y += $(wildcard src/soc/...)); else
 * unknown. Paths are from the root, as make sees them from the top.
 */
static int fn_wildcard(const struct fn_call *f)
{
	struct kmake *mk = f->mk;
	struct kwords w = { 0 };
	struct strvec found = STRVEC_INIT;
	size_t lo, hi;

	if (!mk->tree_paths)
		return -1;
	mk->read_tree = 1;
	kbuild_make_expand_words(mk, f->args, f->n, f->cond, &w);
	for (size_t i = 0; i < w.nr; i++) {
		const char *pat = w.v[i].text;
		const struct kbuild_expr *c = kbuild_expr_and(mk->ex, f->cond, w.v[i].cond);
		int flags = FNM_PATHNAME | FNM_PERIOD;
		char *glob = NULL;

		/* ./x, and /x where $(top) is empty (coreboot's $(top)/src) */
		while (starts_with(pat, "./") || *pat == '/')
			pat += *pat == '/' ? 1 : 2;
		/*
		 * $(wildcard src/mainboard/$(MAINBOARDDIR)/romstage.c): any path
		 * the unknown part may give, each under the pattern's free variable.
		 */
		if (has_unknown(pat)) {
			glob = xstrdup(pat);
			for (char *q = glob; *q; q++)
				if (*q == KMAKE_UNKNOWN)
					*q = '*';
			if (glob[0] == '*') {
				/* nothing known of where it looks: any path at all */
				free(glob);
				kbuild_words_clear(&w);
				strvec_clear(&found);
				return -1;
			}
			c = kbuild_expr_and(mk->ex, c, kbuild_expr_free(mk->ex, glob));
			pat = glob;
			flags = 0;
		}
		if (!strpbrk(pat, "*?[")) {
			size_t len = strlen(pat);

			while (len > 1 && pat[len - 1] == '/')
				len--;
			kbuild_paths_with_prefix(mk->tree_paths, pat, len, &lo, &hi);
			for (size_t k = lo; k < hi; k++)
				if (!mk->tree_paths->v[k][len] || mk->tree_paths->v[k][len] == '/') {
					kbuild_words_push(f->out, c, pat, strlen(pat), 0);
					break;
				}
			continue;
		}
		strvec_clear(&found);
		/* only the paths that start with the pattern's literal part */
		kbuild_paths_with_prefix(mk->tree_paths, pat, strcspn(pat, "*?[\\"), &lo, &hi);
		for (size_t k = lo; k < hi; k++)
			if (!fnmatch(pat, mk->tree_paths->v[k], flags))
				strvec_push(&found, mk->tree_paths->v[k]);
		strvec_sort(&found);
		for (size_t k = 0; k < found.nr; k++)
			kbuild_words_push(f->out, c, found.v[k], strlen(found.v[k]), 0);
		free(glob);
	}
	kbuild_words_clear(&w);
	strvec_clear(&found);
	return 0;
}

static int fn_foreach(const struct fn_call *f)
{
	struct kmake *mk = f->mk;
	struct kwords w1 = { 0 }, w2 = { 0 };
	struct kvar tmp = { 0 }, *saved;
	const char *a[3];
	size_t l[3];
	int ret = -1;

	if (split_args(f->args, f->n, 3, a, l) < 3)
		return -1;
	kbuild_make_expand_alts(mk, a[0], l[0], &w1);
	kbuild_make_expand_words(mk, a[1], l[1], f->cond, &w2);
	if (w1.nr != 1 || has_unknown(w1.v[0].text) || !*w1.v[0].text)
		goto out;
	saved = strmap_get(&mk->vars, w1.v[0].text);
	for (size_t j = 0; j < w2.nr; j++) {
		kbuild_words_clear(&tmp.val);
		kbuild_words_push(&tmp.val, kbuild_expr_true(mk->ex), w2.v[j].text, strlen(w2.v[j].text), 0);
		strmap_put(&mk->vars, w1.v[0].text, &tmp);
		kbuild_make_expand_words(mk, a[2], l[2], w2.v[j].cond, f->out);
	}
	kbuild_words_clear(&tmp.val);
	/* make forgets the loop variable after the loop: an empty one is close enough */
	strmap_put(&mk->vars, w1.v[0].text, saved ? saved : xcalloc(1, sizeof(struct kvar)));
	ret = 0;
out:
	kbuild_words_clear(&w1);
	kbuild_words_clear(&w2);
	return ret;
}

static int fn_if(const struct fn_call *f)
{
	struct kmake *mk = f->mk;
	struct kwords w1 = { 0 };
	const char *a[3];
	size_t l[3];
	size_t nr = split_args(f->args, f->n, 3, a, l);

	if (nr < 2)
		return -1;
	kbuild_make_expand_alts(mk, a[0], l[0], &w1);
	for (size_t i = 0; i < w1.nr; i++) {
		const struct kbuild_expr *c = kbuild_expr_and(mk->ex, f->cond, w1.v[i].cond);

		if (has_unknown(w1.v[i].text)) {
			/* either branch */
			kbuild_make_expand_words(mk, a[1], l[1], c, f->out);
			if (nr == 3)
				kbuild_make_expand_words(mk, a[2], l[2], c, f->out);
		} else if (*w1.v[i].text) {
			kbuild_make_expand_words(mk, a[1], l[1], c, f->out);
		} else if (nr == 3) {
			kbuild_make_expand_words(mk, a[2], l[2], c, f->out);
		}
	}
	kbuild_words_clear(&w1);
	return 0;
}

/* notdir, dir, basename, suffix: one piece of each word's path. */
static int fn_path_part(const struct fn_call *f)
{
	struct kwords w1 = { 0 };
	const char *fn = f->name;

	kbuild_make_expand_words(f->mk, f->args, f->n, f->cond, &w1);
	for (size_t i = 0; i < w1.nr; i++) {
		const char *w = w1.v[i].text, *slash = strrchr(w, '/');
		const char *dot = strrchr(slash ? slash : w, '.');
		const struct kbuild_expr *c = w1.v[i].cond;

		if (has_unknown(w))
			push_unknown(f->mk, f->out, c);
		else if (!strcmp(fn, "notdir"))
			kbuild_words_push(f->out, c, slash ? slash + 1 : w, strlen(slash ? slash + 1 : w), 0);
		else if (!strcmp(fn, "dir"))
			kbuild_words_push(f->out, c, slash ? w : "./", slash ? (size_t)(slash - w) + 1 : 2, 0);
		else if (!strcmp(fn, "basename"))
			kbuild_words_push(f->out, c, w, dot ? (size_t)(dot - w) : strlen(w), 0);
		else if (dot)
			kbuild_words_push(f->out, c, dot, strlen(dot), 0);
	}
	kbuild_words_clear(&w1);
	return 0;
}

static int fn_nothing(const struct fn_call *f)
{
	return 0;	/* $(error), $(warning), $(info) expand to nothing */
}

static int fn_eval(const struct fn_call *f)
{
	struct kmake *mk = f->mk;
	struct kwords w1 = { 0 };

	/* make expands the argument, then reads it as Makefile text */
	kbuild_make_expand_alts(mk, f->args, f->n, &w1);
	for (size_t i = 0; i < w1.nr; i++) {
		const struct kbuild_expr *c = kbuild_expr_and(mk->ex, f->cond, w1.v[i].cond);
		const char *file = mk->file;
		int line = mk->line;

		if (has_unknown(w1.v[i].text)) {
			char *t = xstrfmt("%s:%d: $(eval)", mk->file, mk->line);

			mk->incomplete = kbuild_expr_or(mk->ex, mk->incomplete,
							kbuild_expr_and(mk->ex, c, kbuild_expr_free(mk->ex, t)));
			free(t);
			continue;
		}
		kbuild_make_parse_text(mk, w1.v[i].text, strlen(w1.v[i].text), file, c);
		mk->file = file;
		mk->line = line;
	}
	kbuild_words_clear(&w1);
	return 0;
}

/*
 * The functions of GNU make, as the kernel's kconfig preprocessor keeps its
 * own: a name and what expands it. Those without a handler are known to be
 * functions, and their value is unknown text.
 */
static const struct make_function {
	const char *name;
	int (*expand)(const struct fn_call *f);
} make_functions[] = {
	{ "addprefix", fn_addfix }, { "addsuffix", fn_addfix },
	{ "patsubst", fn_patsubst }, { "subst", fn_subst },
	{ "filter", fn_filter }, { "filter-out", fn_filter },
	{ "sort", fn_words }, { "strip", fn_words },
	{ "foreach", fn_foreach }, { "if", fn_if },
	{ "notdir", fn_path_part }, { "basename", fn_path_part },
	{ "dir", fn_path_part }, { "suffix", fn_path_part },
	{ "error", fn_nothing }, { "warning", fn_nothing }, { "info", fn_nothing },
	{ "eval", fn_eval },
	{ "wildcard", fn_wildcard },
	{ "shell" }, { "call" }, { "origin" }, { "flavor" },
	{ "value" }, { "firstword" }, { "lastword" }, { "word" }, { "words" },
	{ "wordlist" }, { "join" }, { "realpath" }, { "abspath" }, { "or" },
	{ "and" }, { "findstring" }, { "file" }, { "let" }, { "intcmp" },
};

static const struct make_function *find_function(const char *s, size_t len)
{
	for (size_t k = 0; k < ARRAY_SIZE(make_functions); k++)
		if (strlen(make_functions[k].name) == len && !strncmp(make_functions[k].name, s, len))
			return &make_functions[k];
	return NULL;
}

void kbuild_make_function(struct kmake *mk, const char *fn, size_t fnlen, const char *args, size_t n,
			  const struct kbuild_expr *cond, struct kwords *out)
{
	const struct make_function *mf = find_function(fn, fnlen);
	struct fn_call f = { mk, mf ? mf->name : NULL, args, n, cond, out };

	if (!mf || !mf->expand || mf->expand(&f) < 0)
		push_unknown(mk, out, cond);
}

int kbuild_make_is_function(const char *s, size_t n, size_t *fnlen)
{
	size_t i = 0;

	while (i < n && !is_space(s[i]))
		i++;
	if (i == n || !find_function(s, i))
		return 0;
	*fnlen = i;
	return 1;
}
