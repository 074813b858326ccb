// SPDX-License-Identifier: GPL-2.0
/* The headers spatch reads beside a C file, which its private directory must hold. */
#include "jobs.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void pending_clear_deps(struct pending *p)
{
	for (size_t i = 0; i < p->nr; i++)
		free(p->deps[i].path);
	p->nr = 0;
}

static void add_dep(struct run_context *ctx, struct pending *p, const char *path)
{
	git_oid oid;

	void *idx;

	for (size_t i = 0; i < p->nr; i++)
		if (!strcmp(p->deps[i].path, path))
			return;
	if (repo_path_oid(ctx->repo, ctx->tip, path, &oid) != 0)
		return;
	if (spatch_path_refusal(path)) {
		struct strvec *unread = &ctx->subjects->unread;
		size_t i;

		for (i = 0; i < unread->nr && strcmp(unread->v[i], path); i++)
			;
		if (i == unread->nr)
			strvec_push(unread, path);
		return;
	}
	/* A header the rules so far have changed is read as they left it. */
	idx = strmap_get(&ctx->index, path);
	if (idx)
		oid = ctx->subjects->v[(uintptr_t)idx - 1].cur;
	ALLOC_GROW(p->deps, p->nr + 1, p->alloc);
	p->deps[p->nr].path = xstrdup(path);
	p->deps[p->nr].blob = oid;
	p->nr++;
}

/* dir + "/" + rel with "." and ".." resolved; NULL when it leaves the tree. */
static char *join_path(const char *dir, size_t dirlen, const char *rel, size_t rellen)
{
	struct strbuf sb = STRBUF_INIT;
	char *all = xstrfmt("%.*s%s%.*s", (int)dirlen, dir, dirlen ? "/" : "", (int)rellen, rel);
	char *p = all, *res = NULL;

	while (*p) {
		char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);

		if (!len || (len == 1 && p[0] == '.'))
			; /* the same directory */
		else if (len == 2 && p[0] == '.' && p[1] == '.') {
			char *last;

			if (!sb.len)
				goto out;
			last = strrchr(sb.buf, '/');
			sb.len = last ? (size_t)(last - sb.buf) : 0;
			sb.buf[sb.len] = '\0';
		} else {
			if (sb.len)
				strbuf_addch(&sb, '/');
			strbuf_add(&sb, p, len);
		}
		if (!slash)
			break;
		p = slash + 1;
	}
	if (sb.len)
		res = strbuf_detach(&sb, NULL);
out:
	strbuf_release(&sb);
	free(all);
	return res;
}

char *dep_path_normalize(const char *path)
{
	return join_path("", 0, path, strlen(path));
}

/*
 * The headers spatch reads for a C file by default (its "local includes"):
 * every #include "x" that exists beside the file, and an #include <a/x.h>
 * whose name is the file's own (x.c), found under include/ as spatch does from
 * the top of a tree. A header's own #includes are not followed; nor does
 * spatch follow them for a header it is given.
 */
void find_deps(struct run_context *ctx, struct pending *p, const struct subject *s)
{
	const char *slash = strrchr(s->path, '/');
	size_t dirlen = slash ? (size_t)(slash - s->path) : 0;
	const char *base = slash ? slash + 1 : s->path;
	size_t baselen = strcspn(base, ".");
	const char *line = s->data, *end = s->data + s->size;

	pending_clear_deps(p);
	if (!ends_with(s->path, ".c"))
		return;
	while (line < end) {
		const char *nl = memchr(line, '\n', end - line);
		const char *q = line, *stop = nl ? nl : end;

		while (q < stop && (*q == ' ' || *q == '\t'))
			q++;
		if (q < stop && *q == '#') {
			q++;
			while (q < stop && (*q == ' ' || *q == '\t'))
				q++;
			if (stop - q > 7 && !strncmp(q, "include", 7)) {
				q += 7;
				while (q < stop && (*q == ' ' || *q == '\t'))
					q++;
				if (q < stop && (*q == '"' || *q == '<')) {
					char close = *q == '"' ? '"' : '>';
					const char *name = ++q, *e = memchr(q, close, stop - q);

					if (e && close == '"') {
						char *path = join_path(s->path, dirlen, name, e - name);

						if (path)
							add_dep(ctx, p, path);
						free(path);
					} else if (e) {
						/* <a/b/x.h>: under include/, then shorter suffixes. */
						const char *last = name;

						for (const char *c = name; c < e; c++)
							if (*c == '/')
								last = c + 1;
						if (strcspn(last, ".") == baselen && !strncmp(last, base, baselen)) {
							for (const char *sfx = name; sfx && sfx < e;) {
								char *path = xstrfmt("include/%.*s", (int)(e - sfx), sfx);
								git_oid oid;
								int found = repo_path_oid(ctx->repo, ctx->tip, path, &oid) == 0;

								if (found)
									add_dep(ctx, p, path);
								free(path);
								if (found)
									break;
								sfx = memchr(sfx, '/', e - sfx);
								if (sfx)
									sfx++;
							}
						}
					}
				}
			}
		}
		line = nl ? nl + 1 : end;
	}
}
