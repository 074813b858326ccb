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

int kcheck_is_tristate_logic(const struct kconfig_symbol *s)
{
	return s->type == KCONFIG_BOOL || s->type == KCONFIG_TRISTATE;
}

struct kcheck_run {
	struct tree_models *tm;
	struct defect_list *out;
	struct kcheck_unmet_walk *unmet;
	struct kcheck_options_walk *options;
};

struct kcheck_run *kcheck_begin(struct tree_models *tm, const char *path, const char *data,
				size_t size, const struct kcheck_options *opt,
				struct defect_list *out)
{
	struct kcheck_run *r = xcalloc(1, sizeof(*r));
	const char *outside;

	r->tm = tm;
	r->out = out;
	if (!tm->kconfig_defined)
		return r;
	if (!trees_is_kconfig_path(path)) {
		kcheck_defconfig_names(tm, path, data, size, opt, out);
		kcheck_dropped(tm, path, data, size, opt, out);
		return r;
	}
	/*
	 * kconfig's test inputs: no file of the tree. An orphan is, but a
	 * tree of its own: its own names count (kcheck_names).
	 */
	outside = tm->kconfig_outside ? strmap_get(tm->kconfig_outside, path) : NULL;
	if (outside && !strcmp(outside, "test"))
		return r;
	kcheck_names(tm, path, data, size, opt, out);
	if (tm->get) {
		r->unmet = kcheck_unmet_begin(tm, path, data, size);
		r->options = kcheck_options_begin(tm, path, data, size, opt);
	}
	return r;
}

size_t kcheck_next(const struct kcheck_run *r)
{
	size_t n = r->tm->nr_arches ? r->tm->nr_arches : 1, primary = r->tm->primary;

	for (size_t g = 0; r->unmet && g < n; g++) {
		size_t a = !g ? primary : g - 1 < primary ? g - 1 : g;

		if (kcheck_unmet_wants(r->unmet, a) || kcheck_options_wants(r->options, a))
			return a;
	}
	return KCHECK_DONE;
}

void kcheck_step(struct kcheck_run *r)
{
	size_t a = kcheck_next(r);

	if (a == KCHECK_DONE)
		return;
	kcheck_unmet_on(r->unmet, a);
	kcheck_options_on(r->options, a);
}

void kcheck_finish(struct kcheck_run *r)
{
	if (r->unmet) {
		kcheck_unmet_end(r->unmet, r->out);
		kcheck_options_end(r->options, r->out);
	}
	free(r);
}

void kcheck_abandon(struct kcheck_run *r)
{
	if (r->unmet) {
		kcheck_unmet_free(r->unmet);
		kcheck_options_free(r->options);
	}
	free(r);
}

void kcheck_file(struct tree_models *tm, const char *path, const char *data, size_t size,
		 const struct kcheck_options *opt, struct defect_list *out)
{
	kcheck_finish(kcheck_begin(tm, path, data, size, opt, out));
}
