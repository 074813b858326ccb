// SPDX-License-Identifier: GPL-2.0
#include "defect.h"

#include <stdlib.h>
#include <string.h>

struct defect *defect_list_add(struct defect_list *l)
{
	struct defect *d;

	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	d = &l->v[l->nr++];
	memset(d, 0, sizeof(*d));
	d->block = -1;
	return d;
}

static void defect_release(struct defect *d)
{
	free(d->path);
	free(d->directive);
	free(d->condition);
	strvec_clear(&d->arches);
	strvec_clear(&d->symbols);
	strvec_clear(&d->missing);
	strvec_clear(&d->explanation);
}

void defect_list_clear(struct defect_list *l)
{
	for (size_t i = 0; i < l->nr; i++)
		defect_release(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void defect_list_take(struct defect_list *dst, struct defect_list *src)
{
	for (size_t i = 0; i < src->nr; i++) {
		ALLOC_GROW(dst->v, dst->nr + 1, dst->alloc);
		dst->v[dst->nr++] = src->v[i];
	}
	free(src->v);
	memset(src, 0, sizeof(*src));
}

static void strvec_copy(struct strvec *dst, const struct strvec *src)
{
	for (size_t i = 0; i < src->nr; i++)
		strvec_push(dst, src->v[i]);
}

void defect_list_copy(struct defect_list *dst, const struct defect *d, const char *path)
{
	struct defect *c = defect_list_add(dst);

	*c = *d;
	memset(&c->arches, 0, sizeof(c->arches));
	memset(&c->symbols, 0, sizeof(c->symbols));
	memset(&c->missing, 0, sizeof(c->missing));
	memset(&c->explanation, 0, sizeof(c->explanation));
	c->path = xstrdup(path ? path : d->path);
	c->directive = xstrdup(d->directive ? d->directive : "");
	c->condition = xstrdup(d->condition ? d->condition : "");
	strvec_copy(&c->arches, &d->arches);
	strvec_copy(&c->symbols, &d->symbols);
	strvec_copy(&c->missing, &d->missing);
	strvec_copy(&c->explanation, &d->explanation);
}

static int cmp_defect(const void *a, const void *b)
{
	const struct defect *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return (int)x->status - (int)y->status;
}

void defect_list_sort(struct defect_list *l)
{
	if (l->nr)
		qsort(l->v, l->nr, sizeof(*l->v), cmp_defect);
}

static int same_names(const struct strvec *a, const struct strvec *b)
{
	if (a->nr != b->nr)
		return 0;
	for (size_t i = 0; i < a->nr; i++) {
		size_t j = 0;

		while (j < b->nr && strcmp(a->v[i], b->v[j]))
			j++;
		if (j == b->nr)
			return 0;
	}
	return 1;
}

/*
 * What makes it a defect: kind, cause, and the names nothing defines (a
 * typo stays the same typo however its #if is rewritten) or else the
 * condition. Never the line nor the directive's text.
 */
static int same_defect(const struct defect *a, const struct defect *b)
{
	if (a->kind != b->kind || a->cause != b->cause || strcmp(a->path, b->path))
		return 0;
	if (a->missing.nr || b->missing.nr)
		return same_names(&a->missing, &b->missing);
	return !strcmp(a->condition, b->condition);
}

int defect_list_has(const struct defect_list *l, const struct defect *d)
{
	for (size_t i = 0; i < l->nr; i++)
		if (l->v[i].status != STATUS_FIXED && same_defect(&l->v[i], d))
			return 1;
	return 0;
}

void defect_match(const struct defect_list *before, struct defect_list *after)
{
	char *used = xcalloc(before->nr + 1, 1);
	size_t nr_after = after->nr;

	/* Quadratic, but per file and over defects only: a handful each. */
	for (size_t i = 0; i < nr_after; i++) {
		struct defect *d = &after->v[i];

		d->status = STATUS_NEW;
		for (size_t j = 0; j < before->nr; j++) {
			if (!used[j] && same_defect(&before->v[j], d)) {
				used[j] = 1;
				d->status = STATUS_UNCHANGED;
				break;
			}
		}
	}
	for (size_t j = 0; j < before->nr; j++) {
		if (used[j])
			continue;
		defect_list_copy(after, &before->v[j], NULL);
		after->v[after->nr - 1].status = STATUS_FIXED;
	}
	free(used);
}

const char *defect_kind_name(enum defect_kind k)
{
	static const char *const names[] = { "dead", "undead", "undefined", "unmet", "dropped" };

	return names[k];
}

const char *defect_cause_name(enum defect_cause c)
{
	static const char *const names[] = { "code", "kconfig", "kbuild", "missing" };

	return names[c];
}

static const char *const status_names[] = { "new", "fixed", "unchanged", "accepted" };

const char *defect_status_name(enum defect_status s)
{
	return status_names[s];
}

int defect_status_parse(const char *word, size_t len, enum defect_status *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(status_names); i++)
		if (strlen(status_names[i]) == len && !memcmp(status_names[i], word, len)) {
			*s = (enum defect_status)i;
			return 0;
		}
	return -1;
}

static void add_scope(struct strbuf *sb, const struct defect *d)
{
	if (d->global) {
		strbuf_addstr(sb, "global");
		return;
	}
	strbuf_addstr(sb, "local: ");
	for (size_t i = 0; i < d->arches.nr; i++)
		strbuf_addf(sb, "%s%s", i ? "," : "", d->arches.v[i]);
}

/* The cause, then the missing names: `missing CONFIG_A CONFIG_B` or `kconfig, missing CONFIG_A`. */
static void add_cause(struct strbuf *sb, const struct defect *d)
{
	strbuf_addstr(sb, defect_cause_name(d->cause));
	if (!d->missing.nr)
		return;
	if (d->cause != CAUSE_MISSING)
		strbuf_addstr(sb, ", missing");
	for (size_t i = 0; i < d->missing.nr; i++)
		strbuf_addf(sb, " %s", d->missing.v[i]);
}

void defect_format_text(struct strbuf *sb, const struct defect *d, int with_status)
{
	/* A path with a newline must not split the line: quoted as git quotes it. */
	strbuf_add_path(sb, d->path);
	if (d->block == DEFECT_NO_BLOCK)
		strbuf_addf(sb, ":%d: %s (", d->line, defect_kind_name(d->kind));
	else if (d->block < 0)
		strbuf_addf(sb, ":%d: %s block B00 (", d->line, defect_kind_name(d->kind));
	else
		strbuf_addf(sb, ":%d: %s block B%d (", d->line, defect_kind_name(d->kind), d->block);
	add_cause(sb, d);
	strbuf_addstr(sb, ", ");
	add_scope(sb, d);
	strbuf_addf(sb, "): %s", d->directive);
	if (with_status && d->status != STATUS_NEW)
		strbuf_addf(sb, " [%s]", defect_status_name(d->status));
}

void defect_format_json(struct json_writer *w, const char *key, const struct defect *d)
{
	json_object_begin(w, key);
	json_add_str(w, "path", d->path);
	json_add_int(w, "line", d->line);
	json_add_int(w, "end_line", d->end_line);
	if (d->block != DEFECT_NO_BLOCK)
		json_add_int(w, "block", d->block);
	json_add_str(w, "kind", defect_kind_name(d->kind));
	json_add_str(w, "cause", defect_cause_name(d->cause));
	json_add_str(w, "scope", d->global ? "global" : "local");
	json_add_strvec(w, "arches", &d->arches);
	json_add_str(w, "directive", d->directive);
	json_add_strvec(w, "symbols", &d->symbols);
	if (d->missing.nr)
		json_add_strvec(w, "missing", &d->missing);
	json_add_str(w, "status", defect_status_name(d->status));
	if (d->explanation.nr)
		json_add_strvec(w, "explanation", &d->explanation);
	json_object_end(w);
}

const char *defect_kind_help(enum defect_kind k)
{
	switch (k) {
	case DEFECT_DEAD:
		return "No valid configuration compiles this block: its code is never built.";
	case DEFECT_UNDEAD:
		return "Every valid configuration compiles this block: its condition is always true "
		       "where its parent is compiled.";
	case DEFECT_UNDEFINED:
		return "The condition names a CONFIG symbol that no Kconfig file defines.";
	case DEFECT_DROPPED:
		return "The defconfig sets a value the tree's kconfig would not keep.";
	default:
		return NULL;
	}
}

const char *defect_cause_help(enum defect_cause c)
{
	switch (c) {
	case CAUSE_CODE:
		return "the #if conditions themselves contradict each other, whatever Kconfig says.";
	case CAUSE_KCONFIG:
		return "the Kconfig model (dependencies, selects, choices, defaults) decides it.";
	case CAUSE_KBUILD:
		return "the Makefiles decide it: the file is built only where its condition "
		       "settles the block's.";
	case CAUSE_MISSING:
		return "a CONFIG symbol that no Kconfig file defines (a typo, a removed option) "
		       "is never set.";
	default:
		return NULL;
	}
}
