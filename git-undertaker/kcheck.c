// SPDX-License-Identifier: GPL-2.0
/*
 * Kconfig's own defects: which files are checked and which check reads
 * which file (kcheck-names.c, kcheck-unmet.c, kcheck-options.c for a
 * Kconfig file; kcheck-defconfig.c and kcheck-dropped.c for a defconfig),
 * and the little they share.
 */
#include "kcheck-internal.h"

#include <string.h>

int kcheck_is_checked_path(const char *path)
{
	return trees_is_kconfig_path(path) || trees_is_defconfig(path);
}

struct defect *kcheck_add_defect(struct defect_list *out, const char *path, int line,
				 enum defect_kind kind, enum defect_cause cause)
{
	struct defect *d = defect_list_add(out);

	d->path = xstrdup(path);
	d->line = d->end_line = line;
	d->block = DEFECT_NO_BLOCK;
	d->kind = kind;
	d->cause = cause;
	d->global = 1;
	return d;
}

int kcheck_has_name(const struct strvec *sv, const char *name)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], name))
			return 1;
	return 0;
}

int kcheck_is_tristate_logic(const struct kconfig_symbol *s)
{
	return s->type == KCONFIG_BOOL || s->type == KCONFIG_TRISTATE;
}

void kcheck_file(struct tree_models *tm, const char *path, const char *data, size_t size,
		 const struct kcheck_options *opt, struct defect_list *out)
{
	if (!tm->kconfig_defined)
		return;
	if (!trees_is_kconfig_path(path)) {
		kcheck_defconfig_names(tm, path, data, size, opt, out);
		kcheck_dropped(tm, path, data, size, opt, out);
		return;
	}
	kcheck_names(tm, path, data, size, opt, out);
	if (tm->get) {
		kcheck_unmet(tm, path, data, size, out);
		kcheck_dead_options(tm, path, data, size, opt, out);
	}
}
