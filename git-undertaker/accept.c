// SPDX-License-Identifier: GPL-2.0
#include "accept.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static int name_matches(const char *pattern, const char *name)
{
	const char *bare = starts_with(name, "CONFIG_") ? name + 7 : name;

	if (starts_with(pattern, "CONFIG_"))
		return !fnmatch(pattern, name, 0);
	return !fnmatch(pattern, bare, 0);
}

int accept_matches(const char *pattern, const struct defect *d)
{
	const char *colon = strrchr(pattern, ':');

	if (colon && colon[1] >= '0' && colon[1] <= '9') {
		char *end, *path = xstrndup(pattern, (size_t)(colon - pattern));
		long line = strtol(colon + 1, &end, 10);
		int ok = !*end && line == d->line && !fnmatch(path, d->path, 0);

		free(path);
		return ok;
	}
	for (size_t i = 0; i < d->symbols.nr; i++)
		if (name_matches(pattern, d->symbols.v[i]))
			return 1;
	for (size_t i = 0; i < d->missing.nr; i++)
		if (name_matches(pattern, d->missing.v[i]))
			return 1;
	return 0;
}


int accept_defects(struct repo *r, const git_oid *commit, const struct strvec *config,
		   struct defect_list *l)
{
	struct strvec trailers = STRVEC_INIT;
	int any_new = 0;

	for (size_t i = 0; i < l->nr; i++)
		any_new |= l->v[i].status == STATUS_NEW;
	if (!any_new)
		return 0;
	if (repo_commit_trailers(r, commit, ACCEPT_TRAILER, &trailers) < 0)
		return -1;
	for (size_t i = 0; i < l->nr; i++) {
		struct defect *d = &l->v[i];
		int ok = 0;

		if (d->status != STATUS_NEW)
			continue;
		for (size_t k = 0; !ok && k < trailers.nr; k++)
			ok = accept_matches(trailers.v[k], d);
		for (size_t k = 0; !ok && config && k < config->nr; k++)
			ok = accept_matches(config->v[k], d);
		if (ok)
			d->status = STATUS_ACCEPTED;
	}
	strvec_clear(&trailers);
	return 0;
}

int accept_file_init(struct repo *r, const char *value, struct accept_file *af)
{
	const char *colon = strchr(value, ':');

	memset(af, 0, sizeof(*af));
	af->spec = xstrdup(value);
	if (!colon) {
		af->path = xstrdup(value);
		return 0;
	}
	af->path = xstrdup(colon + 1);
	{
		char *rev = xstrndup(value, (size_t)(colon - value));
		int ret = repo_resolve_commit(r, rev, &af->at);

		free(rev);
		if (ret < 0)
			return error("undertaker.acceptFile: '%s': no such commit", value);
	}
	af->fixed = 1;
	return 0;
}

void accept_file_release(struct accept_file *af)
{
	free(af->spec);
	free(af->path);
	strmap_clear(&af->warned, NULL);
	memset(af, 0, sizeof(*af));
}

void accept_file_id(struct repo *r, const struct accept_file *af, const git_oid *commit,
		    git_oid *out)
{
	if (repo_path_oid(r, af->fixed ? &af->at : commit, af->path, out) != 0)
		memset(out, 0, sizeof(*out));
}

/* A line's pattern, without its comment and blanks; "" for none. */
static char *line_pattern(const char *line, size_t len)
{
	size_t end = 0;

	while (len && isspace((unsigned char)*line))
		line++, len--;
	/* A comment opens the line or follows a blank. */
	while (end < len && !(line[end] == '#' && (!end || isspace((unsigned char)line[end - 1]))))
		end++;
	while (end && isspace((unsigned char)line[end - 1]))
		end--;
	return xstrndup(line, end);
}

/* Is `p` a pattern of the trailer's syntax: a name glob, or path:line? */
static int pattern_valid(const char *p)
{
	const char *colon = strrchr(p, ':');

	if (colon && isdigit((unsigned char)colon[1])) {
		for (const char *q = colon + 1; *q; q++)
			if (!isdigit((unsigned char)*q))
				return 0;
		return colon != p;
	}
	for (const char *q = p; *q; q++)
		if (!isalnum((unsigned char)*q) && !strchr("_*?[]!-", *q))
			return 0;
	return 1;
}

void accept_file_read(struct repo *r, struct accept_file *af, const git_oid *commit,
		      struct strvec *out)
{
	struct blob *b;
	char hex[GIT_OID_HEXSZ + 1];
	int warn;
	size_t lineno = 0;

	if (repo_read_path(r, af->fixed ? &af->at : commit, af->path, &b) != 0)
		return;
	git_oid_tostr(hex, sizeof(hex), &b->oid);
	warn = !strmap_contains(&af->warned, hex);
	if (warn)
		strmap_put(&af->warned, hex, NULL);
	for (size_t i = 0; i < b->size; ) {
		const char *line = b->data + i;
		const char *eol = memchr(line, '\n', b->size - i);
		size_t len = eol ? (size_t)(eol - line) : b->size - i;
		char *p = line_pattern(line, len);

		lineno++;
		i += len + 1;
		if (!*p)
			;
		else if (pattern_valid(p))
			strvec_push(out, p);
		else if (warn)
			warning("%s:%zu: not a CONFIG name or path:line, ignored: %s",
				af->spec, lineno, p);
		free(p);
	}
	blob_release(r, b);
}

void accept_file_line(struct strbuf *sb, const struct defect *d)
{
	/* fnmatch(3) reads the path: its own special characters are escaped. */
	for (const char *p = d->path; *p; p++) {
		if (strchr("*?[\\", *p))
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *p);
	}
	strbuf_addf(sb, ":%d", d->line);
}
