// SPDX-License-Identifier: GPL-2.0
/*
 * The architectures whose models decide a Kconfig file's selects and
 * options: its own (arch/<a>/...), or the primary one and those whose
 * arch/<a>/ Kconfig files name a symbol of the file (elsewhere a select's
 * verdict is the primary one's).
 */
#include "kcheck-internal.h"

#include <string.h>

struct mentions {
	struct tree_models *tm;
	size_t *scope, nr;
};

static void add_mentioned_arches(const struct kconfig_text_ref *ref, void *arg)
{
	struct mentions *mn = arg;
	char *name = xstrndup(ref->name, ref->len);
	const char *list = strmap_get(mn->tm->arch_mentions, name);

	for (size_t a = 0; list && a < mn->tm->nr_arches; a++) {
		const char *dir = mn->tm->arch_dirs ? mn->tm->arch_dirs[a] : mn->tm->arch_names[a];
		char *needle = xstrfmt(",%s,", dir);
		size_t k = 0;

		while (k < mn->nr && mn->scope[k] != a)
			k++;
		if (k == mn->nr && strstr(list, needle))
			mn->scope[mn->nr++] = a;
		free(needle);
	}
	free(name);
}

size_t kcheck_scope(struct tree_models *tm, const char *path, const char *data, size_t size,
		    size_t *scope)
{
	const char *prefix = tm->arch_prefix ? tm->arch_prefix : "arch/";
	struct mentions mn = { .tm = tm, .scope = scope };

	if (!tm->nr_arches) {
		scope[0] = 0;
		return 1;
	}
	if (starts_with(path, prefix)) {
		const char *a = path + strlen(prefix), *slash = strchr(a, '/');

		for (size_t i = 0; slash && i < tm->nr_arches; i++) {
			const char *dir = tm->arch_dirs ? tm->arch_dirs[i] : tm->arch_names[i];

			if (strlen(dir) == (size_t)(slash - a) && !strncmp(dir, a, (size_t)(slash - a)) &&
			    (!tm->only_arch || !strcmp(tm->only_arch, tm->arch_names[i])))
				scope[mn.nr++] = i;
		}
		if (mn.nr || (slash && !tm->only_arch))
			return mn.nr;
	}
	for (size_t i = 0; tm->only_arch && i < tm->nr_arches; i++)
		if (!strcmp(tm->arch_names[i], tm->only_arch))
			scope[mn.nr++] = i;
	if (tm->only_arch)
		return mn.nr;
	scope[mn.nr++] = tm->primary;
	if (tm->arch_mentions)
		kconfig_text_for_each_reference(data, size, add_mentioned_arches, &mn);
	return mn.nr;
}
