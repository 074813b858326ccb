// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a defconfig's lines (`CONFIG_X=...`, `# CONFIG_X is not set`), and
 * the lines that set a name no Kconfig file defines (kind `undefined`).
 */
#include "kcheck-internal.h"

#include <ctype.h>
#include <string.h>

#include "analyze.h"
#include "pc.h"

/* The name of a `CONFIG_X=...` or `# CONFIG_X is not set` line, or 0. */
static size_t setting_name(const char *line, const char *end, const char **name)
{
	const char *p = line;
	size_t len = 0;

	if (*p == '#') {
		p++;
		while (p < end && *p == ' ')
			p++;
	}
	if (end - p < 8 || strncmp(p, "CONFIG_", 7))
		return 0;
	while (p + 7 + len < end && (isalnum((unsigned char)p[7 + len]) || p[7 + len] == '_'))
		len++;
	if (!len)
		return 0;
	if (*line == '#' ? (size_t)(end - (p + 7 + len)) < 11 ||
			   strncmp(p + 7 + len, " is not set", 11) :
			   p[7 + len] != '=')
		return 0;
	*name = p;
	return 7 + len;
}

void kcheck_for_each_setting(const char *data, size_t size,
			     void (*fn)(const struct kcheck_setting *s, void *arg), void *arg)
{
	const char *p = data, *end = data + size;

	for (int line = 1; p < end; line++) {
		const char *eol = memchr(p, '\n', (size_t)(end - p)), *name;
		size_t len;

		if (!eol)
			eol = end;
		len = setting_name(p, eol, &name);
		if (len) {
			char *full = xstrndup(name, len);
			struct kcheck_setting s = { .line = line, .text = p, .len = (size_t)(eol - p),
						    .name = full };

			if (*p != '#') {
				s.value = name + len + 1;
				s.value_len = (size_t)(eol - s.value);
			}
			fn(&s, arg);
			free(full);
		}
		p = eol + 1;
	}
}

struct undefined_settings {
	struct tree_models *tm;
	const char *path;
	const struct kcheck_options *opt;
	struct defect_list *out;
};

static void undefined_setting(const struct kcheck_setting *s, void *arg)
{
	struct undefined_settings *us = arg;
	struct defect *d;

	if (pc_name_defined_anywhere(us->tm->kconfig_defined, NULL, s->name))
		return;
	d = kcheck_add_defect(us->out, us->path, s->line, DEFECT_UNDEFINED, CAUSE_MISSING);
	d->directive = xstrndup(s->text, s->len);
	d->condition = xstrfmt("defconfig %s", s->name);
	strvec_push(&d->symbols, s->name);
	strvec_push(&d->missing, s->name);
	if (us->opt->explain)
		analyze_explain_missing(d, us->tm, s->name);
}

void kcheck_defconfig_names(struct tree_models *tm, const char *path, const char *data,
			    size_t size, const struct kcheck_options *opt, struct defect_list *out)
{
	struct undefined_settings us = { .tm = tm, .path = path, .opt = opt, .out = out };

	kcheck_for_each_setting(data, size, undefined_setting, &us);
}
