// SPDX-License-Identifier: GPL-2.0
/*
 * Kconfig's own defects: what a Kconfig file says that cannot be right
 * whatever the user picks. The names are found by kconfig's text scan
 * (every statement that names symbols, help text aside), not by a parse:
 * a file is checked against every architecture at once, whether or not
 * some architecture sources it.
 */
#include "kcheck.h"

#include <string.h>

#include "analyze.h"
#include "buildfiles.h"
#include "pc.h"

int kcheck_is_kconfig_path(const char *path)
{
	const char *base = strrchr(path, '/');

	return buildfiles_is_kconfig_file(base ? base + 1 : path);
}

struct undefined_scan {
	struct tree_models *tm;
	const char *path;
	const struct kcheck_options *opt;
	struct defect_list *out;
	struct defect *cur;	/* the defect of the statement being scanned */
	int cur_line;
};

static int has_name(const struct strvec *sv, const char *name)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], name))
			return 1;
	return 0;
}

static void undefined_ref(const struct kconfig_text_ref *ref, void *arg)
{
	struct undefined_scan *us = arg;
	char *name = xstrfmt("CONFIG_%.*s", (int)ref->len, ref->name);
	struct defect *d = us->cur_line == ref->line ? us->cur : NULL;

	if (pc_name_defined_anywhere(us->tm->kconfig_defined, NULL, name) ||
	    (d && has_name(&d->missing, name))) {
		free(name);
		return;
	}
	if (!d) {
		d = defect_list_add(us->out);
		d->path = xstrdup(us->path);
		d->line = d->end_line = ref->line;
		d->block = DEFECT_NO_BLOCK;
		d->kind = DEFECT_UNDEFINED;
		d->cause = CAUSE_MISSING;
		d->global = 1;
		d->directive = xstrfmt("%.*s", (int)ref->statement_len, ref->statement);
		d->condition = xstrfmt("kconfig %s", ref->keyword);
		us->cur = d;
		us->cur_line = ref->line;
	}
	strvec_push(&d->symbols, name);
	strvec_push(&d->missing, name);
	if (us->opt->explain)
		analyze_explain_missing(d, us->tm, name);
	free(name);
}

void kcheck_file(struct tree_models *tm, const char *path, const char *data, size_t size,
		 const struct kcheck_options *opt, struct defect_list *out)
{
	struct undefined_scan us = { .tm = tm, .path = path, .opt = opt, .out = out };

	if (!tm->kconfig_defined)
		return;
	kconfig_text_for_each_reference(data, size, undefined_ref, &us);
}
