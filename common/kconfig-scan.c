// SPDX-License-Identifier: GPL-2.0
/*
 * Kconfig text scanned line by line, without parsing: where a `config NAME`
 * or `menuconfig NAME` line defines a name. For questions asked of many blobs
 * (every Kconfig file of a commit, every version of one file in a history
 * walk) where a whole model would cost far more than the answer is worth.
 */
#include "kconfig.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

size_t kconfig_line_defines(const char *p, const char *eol, const char **name)
{
	const char *q = p;

	while (q < eol && (*q == ' ' || *q == '\t'))
		q++;
	if ((size_t)(eol - q) > 4 && !strncmp(q, "menu", 4))
		q += 4;
	if ((size_t)(eol - q) <= 6 || strncmp(q, "config", 6) || (q[6] != ' ' && q[6] != '\t'))
		return 0;
	q += 6;
	while (q < eol && (*q == ' ' || *q == '\t'))
		q++;
	*name = q;
	while (q < eol && (isalnum((unsigned char)*q) || *q == '_'))
		q++;
	return (size_t)(q - *name);
}

void kconfig_text_for_each_definition(const char *data, size_t size,
				      void (*fn)(const char *name, size_t len, int line, void *arg),
				      void *arg)
{
	int line = 1;

	for (const char *p = data, *end = data + size; p < end; line++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *name;
		size_t len;

		if (!eol)
			eol = end;
		len = kconfig_line_defines(p, eol, &name);
		if (len)
			fn(name, len, line, arg);
		p = eol + 1;
	}
}

struct find {
	const char *name;
	size_t len;
	int line;
};

static void find_one(const char *name, size_t len, int line, void *arg)
{
	struct find *f = arg;

	if (!f->line && len == f->len && !strncmp(name, f->name, len))
		f->line = line;
}

int kconfig_text_defines(const char *data, size_t size, const char *name)
{
	struct find f = { name, strlen(name), 0 };

	kconfig_text_for_each_definition(data, size, find_one, &f);
	return f.line;
}

struct near {
	int line, best_dist;
	char *best;
};

static void near_one(const char *name, size_t len, int line, void *arg)
{
	struct near *n = arg;
	int dist = line > n->line ? line - n->line : n->line - line;

	if (dist < n->best_dist) {
		free(n->best);
		n->best = xstrndup(name, len);
		n->best_dist = dist;
	}
}

char *kconfig_text_definition_near(const char *data, size_t size, int line, int max_dist)
{
	struct near n = { line, max_dist + 1, NULL };

	kconfig_text_for_each_definition(data, size, near_one, &n);
	return n.best;
}
