// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a defconfig's lines (`CONFIG_X=...`, `# CONFIG_X is not set`), and
 * the lines that set a name no Kconfig file defines (kind `undefined`).
 */
#include "kcheck-internal.h"

#include <ctype.h>
#include <string.h>

#include "analyze.h"

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

struct setting_walk {
	void (*fn)(const struct kcheck_setting *s, void *arg);
	void *arg;
};

static void setting_line(const struct defconfig_line *bl, void *arg)
{
	struct setting_walk *w = arg;
	const char *name, *eol = bl->text + bl->len;
	size_t len = setting_name(bl->text, eol, &name);
	char *full;
	struct kcheck_setting s = { .line = bl->top_line, .path = bl->path, .file_line = bl->line,
				    .text = bl->text, .len = bl->len };

	if (!len)
		return;
	full = xstrndup(name, len);
	s.name = full;
	if (*bl->text != '#') {
		s.value = name + len + 1;
		s.value_len = (size_t)(eol - s.value);
	}
	w->fn(&s, w->arg);
	free(full);
}

void kcheck_for_each_setting(const char *path, const char *data, size_t size,
			     const struct defconfig_includes *inc,
			     void (*fn)(const struct kcheck_setting *s, void *arg), void *arg)
{
	struct setting_walk w = { .fn = fn, .arg = arg };

	defconfig_for_each_line(path, data, size, inc, setting_line, &w);
}

char *kcheck_setting_text(const char *path, const struct kcheck_setting *s)
{
	if (!strcmp(s->path, path))
		return xstrndup(s->text, s->len);
	return xstrfmt("%s:%d: %.*s", s->path, s->file_line, (int)s->len, s->text);
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

	/* An included defconfig's own lines are its own defects, said where it is checked. */
	if (trees_kconfig_defines(us->tm, s->name) ||
	    (strcmp(s->path, us->path) && kcheck_is_checked_path(s->path)))
		return;
	d = kcheck_add_defect(us->out, us->path, s->line, DEFECT_UNDEFINED, CAUSE_MISSING);
	d->directive = kcheck_setting_text(us->path, s);
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

	kcheck_for_each_setting(path, data, size, opt->includes, undefined_setting, &us);
}
