// SPDX-License-Identifier: GPL-2.0
/*
 * The output directory of -o: a manifest (.vampyr-manifest) names the
 * fragments a run wrote there, so the next run in the same directory removes
 * those it does not write again (config-5.config of a run that found five,
 * when this one finds three), and never a file of anyone else.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vampyr.h"

#define MANIFEST ".vampyr-manifest"

static char *manifest_path(const char *dir)
{
	return xstrfmt("%s/" MANIFEST, dir);
}

/* A name we could have written: no directory part, no way out of `dir`. */
static int plain_name(const char *name)
{
	return *name && *name != '.' && !strchr(name, '/');
}

void manifest_read(const char *dir, struct strvec *names)
{
	char *path = manifest_path(dir);
	FILE *f = fopen(path, "r");
	char line[4096];

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (plain_name(line))
			strvec_push(names, line);
	}
	if (f)
		fclose(f);
	free(path);
}

int manifest_write(const char *dir, const struct strvec *names)
{
	char *path = manifest_path(dir);
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;

	for (size_t i = 0; i < names->nr; i++)
		strbuf_addf(&sb, "%s\n", names->v[i]);
	if (write_file_atomic(path, strbuf_str(&sb), sb.len) < 0)
		ret = error("cannot write %s: %s", path, strerror(errno));
	strbuf_release(&sb);
	free(path);
	return ret;
}

void manifest_remove_stale(const char *dir, const struct strvec *old, const struct strvec *now)
{
	for (size_t i = 0; i < old->nr; i++) {
		int kept = 0;

		for (size_t j = 0; j < now->nr && !kept; j++)
			kept = !strcmp(old->v[i], now->v[j]);
		if (!kept) {
			char *path = xstrfmt("%s/%s", dir, old->v[i]);

			if (unlink(path) < 0 && errno != ENOENT)
				warning("cannot remove %s: %s", path, strerror(errno));
			free(path);
		}
	}
}
