// SPDX-License-Identifier: GPL-2.0
/*
 * Which Kconfig files of a tree belong to its Kconfig model: those its
 * kconfig can read, on some architecture, from the top Kconfig or from a
 * Kconfig root of its own that the build also uses. Not the others, such as
 * kconfig's own test inputs (scripts/kconfig/tests/<case>/Kconfig), which
 * are Kconfig trees of their own that nothing of the tree's reaches.
 *
 * Read from the `source` lines alone, without a parse: a macro or variable
 * in a path ($(SRCARCH), $(ZEPHYR_BASE)) stands for any path, so that every
 * architecture's files are reached at once; a path in a build directory
 * (Zephyr's $(KCONFIG_BINARY_DIR)/soc/Kconfig, a file its build generates
 * to source each SoC's) reaches every file of that name, wherever it is.
 */
#include "buildfiles.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A pattern's character for "a macro or variable here": any path, '/' too. */
#define ANY_PATH '\001'

static int has_wildcard(const char *p)
{
	return strpbrk(p, "\001*?[") != NULL;
}

/* `[...]` at p against c: 1 or 0, *end after the class; -1 when p is no class. */
static int class_match(const char *p, char c, const char **end)
{
	const char *q = p + 1;
	int neg = *q == '!' || *q == '^', hit = 0;

	q += neg;
	if (*q == ']')
		q++;
	q = strchr(q, ']');
	if (!q)
		return -1;
	for (const char *r = p + 1 + neg; r < q; r++) {
		if (r + 2 < q && r[1] == '-') {
			hit |= c >= r[0] && c <= r[2];
			r += 2;
		} else {
			hit |= c == *r;
		}
	}
	*end = q + 1;
	return hit != neg;
}

/*
 * Matching pat[pi..] against path[si..], each pair decided once (memo: 0
 * unknown, 1 no, 2 yes): a `source` line with many variables or stars, as a
 * hostile tree may write, costs the product of the two lengths, not the
 * number of ways to split the path (14 variables against a path of 90
 * characters did not end in 20 s).
 */
struct path_matcher {
	const char *pat, *path;
	size_t plen, slen;
	unsigned char *memo;
};

static int match_from(struct path_matcher *m, size_t pi, size_t si)
{
	unsigned char *memo = &m->memo[pi * (m->slen + 1) + si];
	const char *pat = m->pat + pi, *path = m->path + si, *end;
	int r = 0, c;

	if (*memo)
		return *memo == 2;
	switch (*pat) {
	case '\0':
		r = !*path;
		break;
	case ANY_PATH:
		/* Empty, with the '/' after it: $(ZEPHYR_BASE)/Kconfig is Kconfig. */
		r = (pat[1] == '/' && match_from(m, pi + 2, si)) || match_from(m, pi + 1, si) ||
		    (*path && match_from(m, pi, si + 1));
		break;
	case '*':
		r = match_from(m, pi + 1, si) || (*path && *path != '/' && match_from(m, pi, si + 1));
		break;
	case '?':
		r = *path && *path != '/' && match_from(m, pi + 1, si + 1);
		break;
	case '[':
		if (!*path || *path == '/')
			break;
		c = class_match(pat, *path, &end);
		if (c < 0)
			r = *path == '[' && match_from(m, pi + 1, si + 1);
		else
			r = c && match_from(m, (size_t)(end - m->pat), si + 1);
		break;
	default:
		r = *pat == *path && match_from(m, pi + 1, si + 1);
	}
	*memo = r ? 2 : 1;
	return r;
}

/* Does `path` match `pat` (fnmatch with FNM_PATHNAME, and ANY_PATH)? */
static int path_match(const char *pat, const char *path)
{
	struct path_matcher m = { pat, path, strlen(pat), strlen(path), NULL };
	int r;

	/* Longer than any path a file may have (and a recursion as deep): no match. */
	if (m.plen > 4096 || m.slen > 4096)
		return 0;
	m.memo = xcalloc((m.plen + 1) * (m.slen + 1), 1);
	r = match_from(&m, 0, 0);
	free(m.memo);
	return r;
}

/* "a/./b/../c" -> "a/c" (a ".." above the top is dropped). */
static char *normalize(const char *path)
{
	struct strvec parts = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	const char *p = path;

	while (*p) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);

		if (len == 2 && !strncmp(p, "..", 2)) {
			if (parts.nr)
				free((char *)parts.v[--parts.nr]);
		} else if (len && !(len == 1 && *p == '.')) {
			char *part = xstrndup(p, len);

			strvec_push(&parts, part);
			free(part);
		}
		p += len + (slash != NULL);
	}
	for (size_t i = 0; i < parts.nr; i++)
		strbuf_addf(&sb, "%s%s", i ? "/" : "", parts.v[i]);
	strvec_clear(&parts);
	return strbuf_detach(&sb, NULL);
}

/* Does the macro or variable name [p, p + len) a build directory, whose files the build writes? */
static int names_build_dir(const char *p, size_t len)
{
	static const char *const ends[] = { "BINARY_DIR", "BUILD_DIR", "objtree" };

	for (size_t i = 0; i < sizeof(ends) / sizeof(*ends); i++) {
		size_t n = strlen(ends[i]);

		if (len >= n && !strncmp(p + len - n, ends[i], n))
			return 1;
	}
	return 0;
}

/*
 * A `source` path as a pattern: each macro or variable ANY_PATH; a file
 * under a build directory is one the build generates (Zephyr's
 * $(KCONFIG_BINARY_DIR)/soc/Kconfig sources each SoC's soc/<x>/Kconfig):
 * any file of its name, anywhere.
 */
static char *source_pattern(const char *path)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = path, *base;
	int generated = 0;

	while (*p) {
		const char *name = p + 1 + (p[1] == '(' || p[1] == '{');

		if (*p == '$' && (p[1] == '(' || p[1] == '{')) {
			int depth = 0;

			p++;
			do {
				depth += *p == '(' || *p == '{';
				depth -= *p == ')' || *p == '}';
				p++;
			} while (*p && depth > 0);
			generated |= names_build_dir(name, (size_t)(p - 1 - name));
			strbuf_addch(&sb, ANY_PATH);
		} else if (*p == '$') {
			for (p++; *p && (isalnum((unsigned char)*p) || *p == '_'); p++)
				;
			generated |= names_build_dir(name, (size_t)(p - name));
			strbuf_addch(&sb, ANY_PATH);
		} else {
			strbuf_addch(&sb, *p++);
		}
	}
	if (generated) {
		char *whole = strbuf_detach(&sb, NULL);

		base = strrchr(whole, '/');
		strbuf_addch(&sb, ANY_PATH);
		strbuf_addf(&sb, "/%s", base ? base + 1 : whole);
		free(whole);
	}
	return strbuf_detach(&sb, NULL);
}

struct graph {
	const struct buildfiles_kconfig_file *files;
	size_t nr;
	struct strmap by_path;		/* path -> index + 1 */
	struct strmap by_pattern;	/* wildcard pattern -> struct strvec of "index" */
	size_t **edges, *nr_edges;
};

static void add_edge(struct graph *g, size_t from, size_t to)
{
	size_t alloc = g->nr_edges[from];

	/* Grown by powers of two: alloc is the count itself when a power of two. */
	if (!alloc || !(alloc & (alloc - 1)))
		g->edges[from] = xrealloc(g->edges[from], (alloc ? 2 * alloc : 4) * sizeof(size_t));
	g->edges[from][g->nr_edges[from]++] = to;
}

static void edges_to(struct graph *g, size_t from, const char *pattern)
{
	struct strvec *hits;

	if (!has_wildcard(pattern)) {
		size_t i = (uintptr_t)strmap_get(&g->by_path, pattern);

		if (i)
			add_edge(g, from, i - 1);
		return;
	}
	hits = strmap_get(&g->by_pattern, pattern);
	if (!hits) {
		hits = xcalloc(1, sizeof(*hits));
		for (size_t i = 0; i < g->nr; i++)
			if (path_match(pattern, g->files[i].path))
				strvec_pushf(hits, "%zu", i);
		strmap_put(&g->by_pattern, pattern, hits);
	}
	for (size_t i = 0; i < hits->nr; i++)
		add_edge(g, from, (size_t)strtoul(hits->v[i], NULL, 10));
}

/* The edges of file i: its `source` lines against the root and the top's directory. */
static void file_edges(struct graph *g, size_t i, const char *top_dir)
{
	const struct buildfiles_kconfig_file *f = &g->files[i];

	for (size_t k = 0; k < f->sources->nr; k++) {
		const char *s = f->sources->v[k];
		char *pat = source_pattern(s + 1), *full;

		if (*s == 'r') {
			const char *slash = strrchr(f->path, '/');
			char *joined = slash ? xstrfmt("%.*s/%s", (int)(slash - f->path), f->path, pat) :
					       xstrdup(pat);

			full = normalize(joined);
			edges_to(g, i, full);
			free(joined);
			free(full);
		} else if (*s == 's') {
			full = normalize(pat);
			edges_to(g, i, full);
			free(full);
			if (*top_dir && pat[0] != ANY_PATH) {	/* Xen's, under xen/ */
				char *joined = xstrfmt("%s/%s", top_dir, pat);

				full = normalize(joined);
				edges_to(g, i, full);
				free(joined);
				free(full);
			}
		}
		free(pat);
	}
}

static int says_mainmenu(const struct buildfiles_kconfig_file *f)
{
	for (size_t k = 0; k < f->sources->nr; k++)
		if (f->sources->v[k][0] == 'm')
			return 1;
	return 0;
}

/*
 * The files `from` reaches (itself too). MODEL: from a top, marking them so.
 * APP: from a file no top reaches, marking them TRYING; returns 1 when it met
 * a file of the model (a root of its own the build uses), without entering
 * the model's files or those known OUT (what they reach, reaches no model).
 */
enum { NONE, MODEL, TRYING, OUT };
static int reach(struct graph *g, size_t from, char *marks, int app)
{
	size_t *stack = xmalloc(g->nr * sizeof(*stack)), n = 0;
	char mark = app ? TRYING : MODEL;
	int met = 0;

	marks[from] = mark;
	stack[n++] = from;
	while (n) {
		size_t i = stack[--n];

		for (size_t e = 0; e < g->nr_edges[i]; e++) {
			size_t j = g->edges[i][e];

			/* What an earlier root reached in vain, an application may source too. */
			if (marks[j] == NONE || (app && marks[j] == OUT)) {
				marks[j] = mark;
				stack[n++] = j;
			} else if (app && marks[j] == MODEL) {
				met = 1;
			}
		}
	}
	free(stack);
	return met;
}

static void free_hits(void *p)
{
	strvec_clear(p);
	free(p);
}

void buildfiles_model_files(const struct buildfiles_kconfig_file *files, size_t nr,
			    const char *srctree, char *in)
{
	struct graph g = { .files = files, .nr = nr, .by_path = STRMAP_INIT,
			   .by_pattern = STRMAP_INIT };
	char *marks = xcalloc(nr ? nr : 1, 1), *top_dir = NULL;
	size_t nr_tops = 0, top = 0;	/* top: its index + 1 */

	for (size_t i = 0; i < nr; i++)
		strmap_put(&g.by_path, files[i].path, (void *)(uintptr_t)(i + 1));
	/*
	 * The top, as project_detect() finds it: undertaker.srctree's Kconfig,
	 * the root's, or the one <dir>/Kconfig with a mainmenu (Xen, coreboot).
	 */
	if (srctree) {
		top_dir = xstrdup(srctree);
	} else if (strmap_contains(&g.by_path, "Kconfig")) {
		top_dir = xstrdup("");
	} else {
		for (size_t i = 0; i < nr; i++) {
			const char *slash = strchr(files[i].path, '/');

			if (slash && !strcmp(slash, "/Kconfig") && says_mainmenu(&files[i])) {
				free(top_dir);
				top_dir = xstrndup(files[i].path, (size_t)(slash - files[i].path));
				nr_tops++;
			}
		}
		if (nr_tops != 1) {
			free(top_dir);
			top_dir = NULL;
		}
	}
	if (top_dir) {
		char *path = *top_dir ? xstrfmt("%s/Kconfig", top_dir) : xstrdup("Kconfig");

		top = (uintptr_t)strmap_get(&g.by_path, path);
		free(path);
	}
	if (!top) {
		/* No top: no model to speak of, every file counts. */
		memset(in, 1, nr);
		goto out;
	}
	g.edges = xcalloc(nr, sizeof(*g.edges));
	g.nr_edges = xcalloc(nr, sizeof(*g.nr_edges));
	for (size_t i = 0; i < nr; i++)
		file_edges(&g, i, top_dir);
	reach(&g, top - 1, marks, 0);
	/*
	 * A root of its own the build uses reaches the top's files: a Zephyr
	 * application's, test's or sample's Kconfig sourcing Kconfig.zephyr.
	 */
	for (size_t i = 0; i < nr; i++) {
		int met;

		if (marks[i] != NONE)
			continue;
		met = reach(&g, i, marks, 1);
		for (size_t j = 0; j < nr; j++)
			if (marks[j] == TRYING)
				marks[j] = met ? MODEL : OUT;
	}
	for (size_t i = 0; i < nr; i++)
		in[i] = marks[i] == MODEL;
	for (size_t i = 0; i < nr; i++)
		free(g.edges[i]);
	free(g.edges);
	free(g.nr_edges);
out:
	strmap_clear(&g.by_path, NULL);
	strmap_clear(&g.by_pattern, free_hits);
	free(marks);
	free(top_dir);
}
