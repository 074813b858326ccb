// SPDX-License-Identifier: GPL-2.0
#include "accept.h"

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
