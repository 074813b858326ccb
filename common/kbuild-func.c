// SPDX-License-Identifier: GPL-2.0
/*
 * GNU make's functions over conditional words: the ones kbuild Makefiles use
 * to build their lists (addprefix, patsubst, filter, foreach, if, ...).
 * Any other function is unknown text, except $(eval), whose expansion is
 * read as Makefile text, and $(error)/$(warning)/$(info), which are empty.
 */
#include "kbuild-internal.h"

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
				kbuild_words_push(out, c, sb.buf, sb.len, 0);
		} else {
			kbuild_words_push(out, c, w, strlen(w), 0);
		}
		strbuf_release(&sb);
	}
}

void kbuild_make_function(struct kmake *mk, const char *fn, size_t fnlen, const char *args, size_t n,
		     const struct kbuild_expr *cond, struct kwords *out)
{
	const char *a[3];
	size_t l[3];
	struct kwords w1 = { 0 }, w2 = { 0 }, w3 = { 0 };

#define IS(name) (fnlen == strlen(name) && !strncmp(fn, name, fnlen))
	if (IS("addprefix") || IS("addsuffix")) {
		int prefix = IS("addprefix");

		if (split_args(args, n, 2, a, l) < 2)
			goto unknown;
		kbuild_make_expand_alts(mk, a[0], l[0], &w1);
		kbuild_make_expand_words(mk, a[1], l[1], cond, &w2);
		for (size_t i = 0; i < w1.nr; i++)
			for (size_t j = 0; j < w2.nr; j++) {
				char *t = prefix ? xstrfmt("%s%s", w1.v[i].text, w2.v[j].text)
						 : xstrfmt("%s%s", w2.v[j].text, w1.v[i].text);

				kbuild_words_push(out, kbuild_expr_and(mk->ex, w1.v[i].cond, w2.v[j].cond), t, strlen(t), 0);
				free(t);
			}
	} else if (IS("patsubst")) {
		if (split_args(args, n, 3, a, l) < 3)
			goto unknown;
		kbuild_make_expand_alts(mk, a[0], l[0], &w1);
		kbuild_make_expand_alts(mk, a[1], l[1], &w2);
		kbuild_make_expand_words(mk, a[2], l[2], cond, &w3);
		for (size_t i = 0; i < w1.nr; i++)
			for (size_t j = 0; j < w2.nr; j++)
				kbuild_make_patsubst(mk, w1.v[i].text, w2.v[j].text,
					       kbuild_expr_and(mk->ex, w1.v[i].cond, w2.v[j].cond), &w3, out);
	} else if (IS("subst")) {
		if (split_args(args, n, 3, a, l) < 3)
			goto unknown;
		kbuild_make_expand_alts(mk, a[0], l[0], &w1);
		kbuild_make_expand_alts(mk, a[1], l[1], &w2);
		kbuild_make_expand_words(mk, a[2], l[2], cond, &w3);
		for (size_t i = 0; i < w1.nr; i++)
			for (size_t j = 0; j < w2.nr; j++)
				for (size_t k = 0; k < w3.nr; k++) {
					const struct kbuild_expr *c = kbuild_expr_and(mk->ex, kbuild_expr_and(mk->ex,
						w1.v[i].cond, w2.v[j].cond), w3.v[k].cond);
					const char *from = w1.v[i].text, *w = w3.v[k].text, *p;
					struct strbuf sb = STRBUF_INIT;

					if (!*from || has_unknown(from) || has_unknown(w2.v[j].text)) {
						kbuild_words_push(out, c, w, strlen(w), 0);
						if (*from)
							push_unknown(mk, out, c);
						continue;
					}
					while ((p = strstr(w, from))) {
						strbuf_add(&sb, w, (size_t)(p - w));
						strbuf_addstr(&sb, w2.v[j].text);
						w = p + strlen(from);
					}
					strbuf_addstr(&sb, w);
					/* The result may hold spaces: re-split it. */
					kbuild_make_expand_words(mk, strbuf_str(&sb), sb.len, c, out);
					strbuf_release(&sb);
				}
	} else if (IS("filter") || IS("filter-out")) {
		int keep_match = IS("filter");

		if (split_args(args, n, 2, a, l) < 2)
			goto unknown;
		kbuild_make_expand_words(mk, a[0], l[0], kbuild_expr_true(mk->ex), &w1);
		kbuild_make_expand_words(mk, a[1], l[1], cond, &w2);
		for (size_t j = 0; j < w2.nr; j++) {
			const struct kbuild_expr *c = w2.v[j].cond;
			int keep;

			if (has_unknown(w2.v[j].text)) {
				keep = 1;	/* might pass: over-approximate */
			} else {
				/* A pattern that is there under some condition: the word may go either way. */
				const struct kbuild_expr *m = kbuild_expr_false(mk->ex);
				int unknown_pat = 0;

				for (size_t i = 0; i < w1.nr; i++) {
					size_t off, len;

					if (has_unknown(w1.v[i].text))
						unknown_pat = 1;
					else if (pat_match(w1.v[i].text, w2.v[j].text, &off, &len))
						m = kbuild_expr_or(mk->ex, m, w1.v[i].cond);
				}
				if (unknown_pat)
					keep = 1;
				else {
					c = kbuild_expr_and(mk->ex, c, keep_match ? m : kbuild_expr_not(mk->ex, m));
					keep = c->op != KB_FALSE;
				}
			}
			if (keep)
				kbuild_words_push(out, c, w2.v[j].text, strlen(w2.v[j].text), 0);
		}
	} else if (IS("sort") || IS("strip")) {
		kbuild_make_expand_words(mk, args, n, cond, out);
	} else if (IS("foreach")) {
		if (split_args(args, n, 3, a, l) < 3)
			goto unknown;
		kbuild_make_expand_alts(mk, a[0], l[0], &w1);
		kbuild_make_expand_words(mk, a[1], l[1], cond, &w2);
		if (w1.nr != 1 || has_unknown(w1.v[0].text) || !*w1.v[0].text)
			goto unknown;
		struct kvar *saved = strmap_get(&mk->vars, w1.v[0].text);
		struct kvar tmp = { 0 };

		for (size_t j = 0; j < w2.nr; j++) {
			kbuild_words_clear(&tmp.val);
			kbuild_words_push(&tmp.val, kbuild_expr_true(mk->ex), w2.v[j].text, strlen(w2.v[j].text), 0);
			strmap_put(&mk->vars, w1.v[0].text, &tmp);
			kbuild_make_expand_words(mk, a[2], l[2], w2.v[j].cond, out);
		}
		kbuild_words_clear(&tmp.val);
		/* make forgets the loop variable after the loop: an empty one is close enough */
		strmap_put(&mk->vars, w1.v[0].text, saved ? saved : xcalloc(1, sizeof(struct kvar)));
	} else if (IS("if")) {
		size_t nr = split_args(args, n, 3, a, l);

		if (nr < 2)
			goto unknown;
		kbuild_make_expand_alts(mk, a[0], l[0], &w1);
		for (size_t i = 0; i < w1.nr; i++) {
			const struct kbuild_expr *c = kbuild_expr_and(mk->ex, cond, w1.v[i].cond);

			if (has_unknown(w1.v[i].text)) {
				/* either branch */
				kbuild_make_expand_words(mk, a[1], l[1], c, out);
				if (nr == 3)
					kbuild_make_expand_words(mk, a[2], l[2], c, out);
			} else if (*w1.v[i].text) {
				kbuild_make_expand_words(mk, a[1], l[1], c, out);
			} else if (nr == 3) {
				kbuild_make_expand_words(mk, a[2], l[2], c, out);
			}
		}
	} else if (IS("notdir") || IS("basename") || IS("dir") || IS("suffix")) {
		kbuild_make_expand_words(mk, args, n, cond, &w1);
		for (size_t i = 0; i < w1.nr; i++) {
			const char *w = w1.v[i].text, *slash = strrchr(w, '/');
			const char *dot = strrchr(slash ? slash : w, '.');

			if (has_unknown(w))
				push_unknown(mk, out, w1.v[i].cond);
			else if (IS("notdir"))
				kbuild_words_push(out, w1.v[i].cond, slash ? slash + 1 : w,
					    strlen(slash ? slash + 1 : w), 0);
			else if (IS("dir"))
				kbuild_words_push(out, w1.v[i].cond, slash ? w : "./",
					    slash ? (size_t)(slash - w) + 1 : 2, 0);
			else if (IS("basename"))
				kbuild_words_push(out, w1.v[i].cond, w, dot ? (size_t)(dot - w) : strlen(w), 0);
			else if (dot)
				kbuild_words_push(out, w1.v[i].cond, dot, strlen(dot), 0);
		}
	} else if (IS("error") || IS("warning") || IS("info")) {
		/* expands to nothing */
	} else if (IS("eval")) {
		/* make expands the argument, then reads it as Makefile text */
		kbuild_make_expand_alts(mk, args, n, &w1);
		for (size_t i = 0; i < w1.nr; i++) {
			const struct kbuild_expr *c = kbuild_expr_and(mk->ex, cond, w1.v[i].cond);
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
	} else {
		goto unknown;
	}
	goto out;
#undef IS
unknown:
	push_unknown(mk, out, cond);
out:
	kbuild_words_clear(&w1);
	kbuild_words_clear(&w2);
	kbuild_words_clear(&w3);
}

int kbuild_make_is_function(const char *s, size_t n, size_t *fnlen)
{
	static const char *const fns[] = {
		"addprefix", "addsuffix", "patsubst", "subst", "filter", "filter-out", "sort",
		"strip", "foreach", "if", "notdir", "basename", "dir", "suffix", "error",
		"warning", "info", "eval", "shell", "call", "wildcard", "origin", "flavor",
		"value", "firstword", "lastword", "word", "words", "wordlist", "join",
		"realpath", "abspath", "or", "and", "findstring", "file", "let", "intcmp",
	};
	size_t i = 0;

	while (i < n && !is_space(s[i]))
		i++;
	if (i == n)
		return 0;
	for (size_t k = 0; k < ARRAY_SIZE(fns); k++)
		if (strlen(fns[k]) == i && !strncmp(fns[k], s, i)) {
			*fnlen = i;
			return 1;
		}
	return 0;
}

