// SPDX-License-Identifier: GPL-2.0
/*
 * A defconfig that U-Boot's build runs through cpp before kconfig reads it
 * (scripts/kconfig/Makefile: `cpp -nostdinc -P -I $(srctree) -undef -x
 * assembler-with-cpp`): its `#include` lines pulled in, as that cpp finds
 * them (`<x>` under the srctree only; `"x"` beside the file holding the
 * directive, then under the srctree), and which defconfigs include a file.
 */
#include "defconfig.h"

#include "buildfiles.h"

#include <string.h>

/* cpp's own limit is 200; a cycle of includes reaches this one first. */
#define INCLUDE_DEPTH_MAX 32

int defconfig_include_directive(const char *line, size_t len, char **name, int *quoted)
{
	const char *p = line, *end = line + len, *close;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p++ != '#')
		return 0;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p < 7 || strncmp(p, "include", 7))
		return 0;
	p += 7;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || (*p != '<' && *p != '"'))
		return 0;
	close = memchr(p + 1, *p == '<' ? '>' : '"', (size_t)(end - p - 1));
	if (!close || close == p + 1)
		return 0;
	*quoted = *p == '"';
	*name = xstrndup(p + 1, (size_t)(close - p - 1));
	return 1;
}

/* dir + "/" + name with `.` and `..` components folded; NULL when it leaves the root. */
static char *join_path(const char *dir, const char *name)
{
	struct strvec parts = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	char *all = xstrfmt("%s%s%s", dir, *dir ? "/" : "", name), *p = all, *slash;
	int bad = 0;

	for (; p; p = slash ? slash + 1 : NULL) {
		slash = strchr(p, '/');
		if (slash)
			*slash = '\0';
		if (!*p || !strcmp(p, "."))
			continue;
		if (!strcmp(p, "..")) {
			if (!parts.nr)
				bad = 1;
			else
				free(parts.v[--parts.nr]);
			continue;
		}
		strvec_push(&parts, p);
	}
	for (size_t i = 0; i < parts.nr; i++)
		strbuf_addf(&sb, "%s%s", i ? "/" : "", parts.v[i]);
	free(all);
	strvec_clear(&parts);
	if (bad || !sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/* The directory of `path` ("" at the root), a new string. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup("");
}

/*
 * The paths cpp tries for a directive of the file at `from`, in its order,
 * pushed to `out` (those that leave the tree left out).
 */
static void include_candidates(const char *srctree, const char *from, const char *name,
			       int quoted, struct strvec *out)
{
	char *p;

	if (quoted) {
		char *dir = dir_of(from);

		p = join_path(dir, name);
		if (p)
			strvec_push(out, p);
		free(p);
		free(dir);
	}
	p = join_path(srctree, name);
	if (p && !(out->nr && !strcmp(out->v[0], p)))
		strvec_push(out, p);
	free(p);
}

struct include_reader {
	struct repo *r;
	const git_oid *commit;
	const char *srctree;
	struct defconfig_includes *out;
};

static void read_includes(struct include_reader *ir, const char *path, const char *data,
			  size_t size, size_t from, int depth);

/* Follows the directive at `line` of file `from` (0: the defconfig, i + 1: include i). */
static void follow(struct include_reader *ir, const char *path, int line, const char *name,
		   int quoted, size_t from, int depth)
{
	struct defconfig_includes *inc = ir->out;
	struct strvec tries = STRVEC_INIT;
	struct defconfig_include *in;
	struct blob *b = NULL;
	size_t i;

	include_candidates(ir->srctree, path, name, quoted, &tries);
	for (i = 0; i < tries.nr; i++)
		if (!repo_read_path(ir->r, ir->commit, tries.v[i], &b))
			break;
	if (i == tries.nr) {
		strvec_pushf(&inc->errors, "%s:%d: cannot include %c%s%c: no such file at this commit",
			     path, line, quoted ? '"' : '<', name, quoted ? '"' : '>');
		inc->missing = 1;
		strvec_clear(&tries);
		return;
	}
	if (depth >= INCLUDE_DEPTH_MAX) {
		strvec_pushf(&inc->errors, "%s:%d: #include nested too deeply (%s)", path, line,
			     tries.v[i]);
		inc->missing = 1;
		blob_release(ir->r, b);
		strvec_clear(&tries);
		return;
	}
	ALLOC_GROW(inc->v, inc->nr + 1, inc->alloc);
	in = &inc->v[inc->nr++];
	in->path = xstrdup(tries.v[i]);
	in->blob = b->oid;
	in->text = b;
	in->from = from;
	in->line = line;
	strvec_clear(&tries);
	read_includes(ir, inc->v[inc->nr - 1].path, b->data, b->size, inc->nr, depth + 1);
}

/*
 * The next `#include` line of [*p, end): 1 with its number (from *line,
 * counted on) and its name, *p past it; 0 at the end.
 */
static int next_include(const char **p, const char *end, int *line, char **name, int *quoted)
{
	while (*p < end) {
		const char *eol = memchr(*p, '\n', (size_t)(end - *p));
		int found;

		if (!eol)
			eol = end;
		found = defconfig_include_directive(*p, (size_t)(eol - *p), name, quoted);
		*p = eol + 1;
		(*line)++;
		if (found)
			return 1;
	}
	return 0;
}

static void read_includes(struct include_reader *ir, const char *path, const char *data,
			  size_t size, size_t from, int depth)
{
	const char *p = data, *end = data + size;
	int line = 0, quoted;
	char *name;

	while (next_include(&p, end, &line, &name, &quoted)) {
		/* The path is copied: inc->v may move as it grows. */
		char *at = xstrdup(path);

		follow(ir, at, line, name, quoted, from, depth);
		free(at);
		free(name);
	}
}

void defconfig_read_includes(struct repo *r, const git_oid *commit, const char *srctree,
			      const char *path, const char *data, size_t size,
			      struct defconfig_includes *out)
{
	struct include_reader ir = { .r = r, .commit = commit, .srctree = srctree, .out = out };

	read_includes(&ir, path, data, size, 0, 0);
}

int defconfig_has_include(const char *data, size_t size)
{
	const char *p = data;
	int line = 0, quoted;
	char *name;

	if (!next_include(&p, data + size, &line, &name, &quoted))
		return 0;
	free(name);
	return 1;
}

void defconfig_includes_release(struct repo *r, struct defconfig_includes *inc)
{
	for (size_t i = 0; i < inc->nr; i++) {
		free(inc->v[i].path);
		blob_release(r, inc->v[i].text);
	}
	free(inc->v);
	strvec_clear(&inc->errors);
	memset(inc, 0, sizeof(*inc));
}

struct line_walk {
	const struct defconfig_includes *inc;
	void (*fn)(const struct defconfig_line *l, void *arg);
	void *arg;
};

static void walk_lines(struct line_walk *w, const char *path, const char *data, size_t size,
		       size_t from, int top_line)
{
	const char *p = data, *end = data + size;

	for (int line = 1; p < end; line++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		struct defconfig_line l = { .path = path, .line = line,
					     .top_line = from ? top_line : line, .text = p };
		size_t i;

		if (!eol)
			eol = end;
		l.len = (size_t)(eol - p);
		for (i = 0; w->inc && i < w->inc->nr; i++)
			if (w->inc->v[i].from == from && w->inc->v[i].line == line)
				break;
		if (w->inc && i < w->inc->nr) {
			const struct defconfig_include *in = &w->inc->v[i];

			walk_lines(w, in->path, in->text->data, in->text->size, i + 1, l.top_line);
		} else {
			w->fn(&l, w->arg);
		}
		p = eol + 1;
	}
}

void defconfig_for_each_line(const char *path, const char *data, size_t size,
					const struct defconfig_includes *inc,
					void (*fn)(const struct defconfig_line *l, void *arg),
					void *arg)
{
	struct line_walk w = { .inc = inc, .fn = fn, .arg = arg };

	walk_lines(&w, path, data, size, 0, 0);
}

struct includer_scan {
	struct repo *r;
	const char *srctree;
	struct strmap *included_by;	/* path -> struct strvec of "path blob" of its includers */
};

static int scan_includer(const struct tree_file *f, void *data)
{
	struct includer_scan *is = data;
	struct blob *b;
	const char *p, *end;

	if (!buildfiles_is_defconfig(f->path) || repo_read_blob(is->r, f->blob, &b) < 0)
		return 0;
	for (p = b->data, end = b->data + b->size; p < end;) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		struct strvec tries = STRVEC_INIT;
		char *name, hex[GIT_OID_HEXSZ + 1];
		int quoted;

		if (!eol)
			eol = end;
		if (defconfig_include_directive(p, (size_t)(eol - p), &name, &quoted)) {
			/* Each path cpp might take: a file that appears first stays covered. */
			include_candidates(is->srctree, f->path, name, quoted, &tries);
			for (size_t i = 0; i < tries.nr; i++) {
				struct strvec *sv = strmap_get(is->included_by, tries.v[i]);

				if (!sv) {
					sv = xcalloc(1, sizeof(*sv));
					strmap_put(is->included_by, tries.v[i], sv);
				}
				strvec_pushf(sv, "%s %s", git_oid_tostr(hex, sizeof(hex), f->blob),
					     f->path);
			}
			strvec_clear(&tries);
			free(name);
		}
		p = eol + 1;
	}
	blob_release(is->r, b);
	return 0;
}

void defconfig_includers(struct repo *r, const git_oid *commit, const char *srctree,
			  const struct strvec *files, struct strvec *paths, struct strvec *blobs)
{
	struct strmap included_by = STRMAP_INIT, seen = STRMAP_INIT;
	struct includer_scan is = { .r = r, .srctree = srctree, .included_by = &included_by };
	struct strvec queue = STRVEC_INIT;
	struct strmap_entry *e;

	repo_for_each_file(r, commit, "", scan_includer, &is);
	for (size_t i = 0; i < files->nr; i++) {
		strvec_push(&queue, files->v[i]);
		strmap_put(&seen, files->v[i], (void *)1);
	}
	/* Breadth first: a defconfig that includes one that includes a changed file. */
	for (size_t i = 0; i < queue.nr; i++) {
		const struct strvec *sv = strmap_get(&included_by, queue.v[i]);

		for (size_t k = 0; sv && k < sv->nr; k++) {
			const char *path = sv->v[k] + GIT_OID_HEXSZ + 1;

			if (strmap_get(&seen, path))
				continue;
			strmap_put(&seen, path, (void *)1);
			strvec_push(&queue, path);
			strvec_push(paths, path);
			strvec_pushf(blobs, "%.*s", GIT_OID_HEXSZ, sv->v[k]);
		}
	}
	strmap_for_each(&included_by, e) {
		strvec_clear(e->value);
		free(e->value);
	}
	strmap_clear(&included_by, NULL);
	strmap_clear(&seen, NULL);
	strvec_clear(&queue);
}
