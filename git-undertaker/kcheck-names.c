// SPDX-License-Identifier: GPL-2.0
/*
 * Names in Kconfig files that no Kconfig file of the tree defines (kind
 * `undefined`). The names are found by kconfig's text scan (every
 * statement that names symbols, help text aside), not by a parse: a file
 * is checked against every architecture at once, whether or not some
 * architecture sources it.
 */
#include "kcheck-internal.h"

#include <string.h>

#include "analyze.h"

struct undefined_scan {
	struct tree_models *tm;
	const char *path;
	const struct kcheck_options *opt;
	struct defect_list *out;
	struct defect *cur;	/* the defect of the statement being scanned */
	int cur_line;
	/* A file outside the Kconfig model, a tree of its own: ",A,B," its own names, or NULL. */
	const char *own;
};

static int own_name(const char *own, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = own ? strstr(own, name) : NULL; p; p = strstr(p + 1, name))
		if (p[-1] == ',' && p[len] == ',')
			return 1;
	return 0;
}

/* A statement as one line: a backslash-newline and the indent after it become one space. */
static char *one_line(const char *text, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\\' && i + 1 < len && text[i + 1] == '\n') {
			for (i += 2; i < len && (text[i] == ' ' || text[i] == '\t'); i++)
				;
			if (!sb.len || sb.buf[sb.len - 1] != ' ')
				strbuf_addch(&sb, ' ');
			i--;
		} else {
			strbuf_addch(&sb, text[i] == '\n' || text[i] == '\t' ? ' ' : text[i]);
		}
	}
	return strbuf_detach(&sb, NULL);
}

static void undefined_ref(const struct kconfig_text_ref *ref, void *arg)
{
	struct undefined_scan *us = arg;
	char *name = xstrfmt("CONFIG_%.*s", (int)ref->len, ref->name);
	struct defect *d = us->cur_line == ref->line ? us->cur : NULL;

	if (trees_kconfig_defines(us->tm, name) ||
	    own_name(us->own, name + 7) ||
	    (d && strvec_has(&d->missing, name))) {
		free(name);
		return;
	}
	if (!d) {
		d = kcheck_add_defect(us->out, us->path, ref->line, DEFECT_UNDEFINED, CAUSE_MISSING);
		d->directive = one_line(ref->statement, ref->statement_len);
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

void kcheck_names(struct tree_models *tm, const char *path, const char *data, size_t size,
		  const struct kcheck_options *opt, struct defect_list *out)
{
	struct undefined_scan us = { .tm = tm, .path = path, .opt = opt, .out = out };

	us.own = tm->kconfig_outside ? strmap_get(tm->kconfig_outside, path) : NULL;
	if (us.own)
		us.own = strchr(us.own, ',');

	kconfig_text_for_each_reference(data, size, undefined_ref, &us);
}
