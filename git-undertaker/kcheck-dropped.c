// SPDX-License-Identifier: GPL-2.0
/*
 * Defconfig lines the tree's kconfig would not keep (kind `dropped`): the
 * defconfig is read as `conf --olddefconfig` reads it (model_defconfig_*),
 * and a line is dropped when no configuration conf can make of the whole
 * defconfig gives its symbol the value it sets, or when the value is not
 * one of its type.
 */
#include "kcheck-internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* One line of the defconfig that sets a symbol this architecture defines. */
struct dc_line {
	int line;		/* the defconfig's (an included line's: its #include's) */
	const char *path;	/* the file that holds it */
	int file_line;		/* its line there */
	const char *text;
	size_t len;
	struct kconfig_symbol *sym;
	const char *value;	/* after '=', up to the end of the line; NULL: is not set */
	size_t value_len;
	int want;		/* 0 n, 1 m, 2 y; 3 an int/hex/string value */
	const char *bad;	/* why conf refuses the value, or NULL */
	size_t later;		/* 1 + the index of the line that sets the symbol again, or 0 */
};

/*
 * Files read as whole defconfigs: defconfig, *_defconfig and coreboot's
 * configs/config.*, not fragments (*.config, U-Boot's included *.defconfig)
 * nor Zephyr's boards/ (merged with prj.conf).
 */
static int is_whole_defconfig(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (starts_with(path, "boards/"))
		return 0;
	return !strcmp(base, "defconfig") || ends_with(base, "_defconfig") ||
	       (starts_with(path, "configs/config.") && !strchr(path + 8, '/'));
}

/*
 * Does kconfig read something else than the text? A defconfig with cpp's
 * conditionals or macros is left alone; with `#include` lines, unless the
 * tree's build follows them (opt->includes) and could follow every one.
 */
static int is_preprocessed(const char *data, size_t size, const struct kcheck_options *opt)
{
	if (opt->includes ? opt->includes->missing : defconfig_has_include(data, size))
		return 1;
	for (const char *p = data, *end = data + size; p && p < end;) {
		if (end - p > 8 && (!strncmp(p, "#define", 7) || !strncmp(p, "#if", 3)))
			return 1;
		p = memchr(p, '\n', (size_t)(end - p));
		if (p)
			p++;
	}
	return 0;
}

/* The architecture whose kconfig reads `path`: arch/<a>/configs/ is a's; -1 for none in scope. */
static long defconfig_arch(const struct tree_models *tm, const char *path)
{
	const char *prefix = tm->arch_prefix ? tm->arch_prefix : "arch/";

	if (!tm->nr_arches)
		return 0;
	if (starts_with(path, prefix)) {
		const char *a = path + strlen(prefix), *slash = strchr(a, '/');

		for (size_t i = 0; slash && i < tm->nr_arches; i++) {
			const char *dir = tm->arch_dirs ? tm->arch_dirs[i] : tm->arch_names[i];

			if (strlen(dir) == (size_t)(slash - a) && !strncmp(dir, a, (size_t)(slash - a)))
				return tm->only_arch && strcmp(tm->only_arch, tm->arch_names[i]) ? -1 :
				       (long)i;
		}
	}
	for (size_t i = 0; tm->only_arch && i < tm->nr_arches; i++)
		if (!strcmp(tm->arch_names[i], tm->only_arch))
			return (long)i;
	return (long)tm->primary;
}

static int is_int(const char *p, size_t n)
{
	size_t i = n && *p == '-';

	if (i == n || !isdigit((unsigned char)p[i]) || (p[i] == '0' && i + 1 < n))
		return 0;
	while (i < n && isdigit((unsigned char)p[i]))
		i++;
	return i == n;
}

static int is_hex(const char *p, size_t n)
{
	size_t i = n >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') ? 2 : 0;

	if (i == n)
		return 0;
	while (i < n && isxdigit((unsigned char)p[i]))
		i++;
	return i == n;
}

static long long number(const char *p, size_t n, int hex)
{
	char *s = xstrndup(p, n);
	long long v = strtoll(s, NULL, hex ? 16 : 10);

	free(s);
	return v;
}

static int const_number(const struct kconfig_expr *e, int hex, long long *out)
{
	if (!e || e->type != KEXPR_CONST ||
	    !(hex ? is_hex(e->value, strlen(e->value)) : is_int(e->value, strlen(e->value))))
		return 0;
	*out = number(e->value, strlen(e->value), hex);
	return 1;
}

/*
 * Is the number out of every range kconfig may apply? Only when a range
 * without condition comes before any other kind, all with constant bounds,
 * and the value is outside each of them up to it (conf clamps it).
 */
static int out_of_range(const struct kconfig_symbol *s, long long v, int hex)
{
	for (size_t k = 0; k < s->nr_defs; k++)
		for (size_t j = 0; j < s->defs[k]->nr_ranges; j++) {
			const struct kconfig_range *r = &s->defs[k]->ranges[j];
			long long lo, hi;

			if (!const_number(r->low, hex, &lo) || !const_number(r->high, hex, &hi) ||
			    (v >= lo && v <= hi))
				return 0;
			if (!r->cond && !s->defs[k]->dep)
				return 1;
		}
	return 0;
}

/* What conf makes of the line's text for the symbol's type: want, or bad. */
static void line_value(struct dc_line *l)
{
	const char *v = l->value;
	size_t n = l->value_len;

	switch (l->sym->type) {
	case KCONFIG_BOOL:
	case KCONFIG_TRISTATE:
		if (!v)
			l->want = 0;
		else if (n && (*v == 'y' || *v == 'n'))
			l->want = *v == 'y' ? 2 : 0;
		else if (n && *v == 'm' && l->sym->type == KCONFIG_TRISTATE)
			l->want = 1;
		else
			l->bad = l->sym->type == KCONFIG_BOOL ? "not a bool value" : "not a tristate value";
		return;
	case KCONFIG_INT:
	case KCONFIG_HEX:
		l->want = 3;
		if (!v)
			l->want = -1;	/* conf ignores it: nothing to keep */
		else if (l->sym->type == KCONFIG_INT ? !is_int(v, n) : !is_hex(v, n))
			l->bad = l->sym->type == KCONFIG_INT ? "not a number" : "not a hex number";
		else if (out_of_range(l->sym, number(v, n, l->sym->type == KCONFIG_HEX),
				      l->sym->type == KCONFIG_HEX))
			l->bad = "out of range";
		return;
	case KCONFIG_STRING:
		l->want = v ? 3 : -1;
		if (v && (n < 2 || v[0] != '"' || v[n - 1] != '"'))
			l->bad = "not a quoted string";
		return;
	default:
		l->want = -1;
	}
}

static int same_setting(const struct dc_line *a, const struct dc_line *b)
{
	if (!a->value || !b->value)
		return !a->value && !b->value;
	return a->value_len == b->value_len && !memcmp(a->value, b->value, a->value_len);
}

struct line_reader {
	const struct tree_models *tm;
	struct kconfig *kc;
	struct dc_line *v;
	size_t nr, alloc;
	struct strmap last;	/* name -> index + 1 of the line that sets it last */
};

static void read_line(const struct kcheck_setting *set, void *arg)
{
	struct line_reader *lr = arg;
	struct kconfig_symbol *s;
	struct dc_line *l;
	size_t prev;

	/* Names no Kconfig defines are another kind's. */
	if (!trees_kconfig_defines(lr->tm, set->name))
		return;
	s = kconfig_lookup(lr->kc, set->name + 7);
	prev = (size_t)(uintptr_t)strmap_get(&lr->last, set->name);
	ALLOC_GROW(lr->v, lr->nr + 1, lr->alloc);
	l = &lr->v[lr->nr++];
	*l = (struct dc_line){ .line = set->line, .path = set->path, .file_line = set->file_line,
			       .text = set->text, .len = set->len,
			       .sym = s && s->nr_defs ? s : NULL, .value = set->value,
			       .value_len = set->value_len };
	/* conf: the last line wins; an earlier one that says otherwise is lost. */
	if (prev && !same_setting(&lr->v[prev - 1], l))
		lr->v[prev - 1].later = lr->nr;
	strmap_put(&lr->last, set->name, (void *)(uintptr_t)lr->nr);
}

/* The lines of the defconfig that set a symbol some Kconfig file defines. */
static size_t read_lines(const struct tree_models *tm, struct kconfig *kc, const char *path,
			 const char *data, size_t size, const struct defconfig_includes *inc,
			 struct dc_line **out)
{
	struct line_reader lr = { .tm = tm, .kc = kc, .last = STRMAP_INIT };

	kcheck_for_each_setting(path, data, size, inc, read_line, &lr);
	strmap_clear(&lr.last, NULL);
	*out = lr.v;
	return lr.nr;
}

static void add_name(struct strvec *sv, const char *name)
{
	if (!strvec_has(sv, name))
		strvec_push(sv, name);
}

/*
 * A symbol that may keep a line's symbol from its value: by being on (y or
 * m: a `!` in a dependency, a choice member set, a select) or off.
 */
struct suspect {
	const struct kconfig_symbol *sym;
	int on;
};

/*
 * The suspects of a defconfig's dropped lines, line i's from[i] to to[i],
 * asked together: keeps[k] when suspect k can take a value that keeps its
 * line, drops[k] when one that drops it (asked only for a line none of
 * whose suspects always drops it).
 */
struct suspects {
	struct suspect *v;
	size_t nr, alloc;
	size_t *from, *to;
	char *keeps, *drops;
};

/*
 * Suspects looked at for a line, at most (the names shown are 6 at most):
 * Linux's MEDIA_CONTROLLER has dozens of selects, and the one that is on
 * may come late.
 */
#define MAX_SUSPECTS 512

static void suspect(struct suspects *ss, size_t from, struct model_defconfig *dc,
		    const struct kconfig_symbol *sym, int on)
{
	if ((sym->flags & KSYM_CONST) || model_defconfig_value(dc, sym) < 0 ||
	    ss->nr - from >= MAX_SUSPECTS)
		return;
	for (size_t i = from; i < ss->nr; i++)
		if (ss->v[i].sym == sym && ss->v[i].on == on)
			return;
	ALLOC_GROW(ss->v, ss->nr + 1, ss->alloc);
	ss->v[ss->nr].sym = sym;
	ss->v[ss->nr++].on = on;
}

/* The symbols of e: each fails it off where e wants it, on under a `!`. */
static void expr_suspects(struct model_defconfig *dc, const struct kconfig_expr *e, int neg,
			  struct suspects *ss, size_t from)
{
	if (!e || e->type == KEXPR_CONST)
		return;
	if (e->type == KEXPR_SYMBOL) {
		suspect(ss, from, dc, e->sym, neg);
		return;
	}
	if (e->type == KEXPR_NOT) {
		expr_suspects(dc, e->left, !neg, ss, from);
		return;
	}
	if (e->type != KEXPR_AND && e->type != KEXPR_OR)
		return;
	expr_suspects(dc, e->left, neg, ss, from);
	expr_suspects(dc, e->right, neg, ss, from);
}

/*
 * which[k] set for each suspect k with want[k] that can take a value that
 * keeps its line (failing 0) or drops it (failing 1), in some
 * configuration conf can make of the defconfig. Exact: the configuration
 * found answers those it shows, one batch of solver questions the others,
 * so the answer is the same whichever configuration that was.
 */
static void suspects_can(struct model_defconfig *dc, const struct suspects *ss, int failing,
			 const char *want, char *which)
{
	struct model_defconfig_question *q = xcalloc(2 * ss->nr + 1, sizeof(*q));
	size_t *at = xcalloc(2 * ss->nr + 1, sizeof(*at));
	char *yes = xcalloc(2 * ss->nr + 1, 1);
	size_t n = 0;

	for (size_t k = 0; k < ss->nr; k++) {
		int on = ss->v[k].on == failing, v = model_defconfig_value(dc, ss->v[k].sym);

		which[k] = want[k] && (on ? v > 0 : v == 0);
		if (!want[k] || which[k])
			continue;
		/* On: y or m (m only for a tristate); off: n. */
		q[n].sym = ss->v[k].sym;
		q[n].value = on ? 2 : 0;
		at[n++] = k;
		if (on && ss->v[k].sym->type == KCONFIG_TRISTATE) {
			q[n].sym = ss->v[k].sym;
			q[n].value = 1;
			at[n++] = k;
		}
	}
	if (n)
		model_defconfig_possible_each(dc, q, n, yes);
	for (size_t k = 0; k < n; k++)
		which[at[k]] |= yes[k];
	free(q);
	free(at);
	free(yes);
}

/* Line i's suspects (want: the value the check asks of it, 1 for a prompt that must show). */
static void line_suspects(struct model_defconfig *dc, const struct kconfig_symbol *s, int want,
			  const struct kconfig_symbol *modules, int hidden, struct suspects *ss,
			  size_t i)
{
	ss->from[i] = ss->nr;
	if (want == 1 && modules)
		suspect(ss, ss->from[i], dc, modules, 0);
	for (size_t k = 0; hidden && k < s->nr_defs; k++) {
		expr_suspects(dc, s->defs[k]->dep, 0, ss, ss->from[i]);
		for (size_t j = 0; j < s->defs[k]->nr_prompts; j++)
			expr_suspects(dc, s->defs[k]->prompts[j].cond, 0, ss, ss->from[i]);
	}
	for (size_t k = 0; k < s->nr_defs; k++) {
		const struct kconfig_choice *c = s->defs[k]->choice;

		for (size_t m = 0; c && want == 2 && m < c->nr_members; m++)
			if (c->members[m] != s)
				suspect(ss, ss->from[i], dc, c->members[m], 1);
	}
	for (size_t k = 0; want == 0 && k < s->nr_selected_by; k++) {
		const struct kconfig_definition *from = s->selected_by[k].from;

		if (from->symbol)
			suspect(ss, ss->from[i], dc, from->symbol, 1);
	}
	ss->to[i] = ss->nr;
}

/* The check's value for line l: 1 for an int/hex/string, whose prompt must show. */
static int suspect_want(const struct dc_line *l)
{
	return l->want == 3 ? 1 : l->want;
}

/*
 * The suspects of the lines report[] marks, asked in a few solver calls for
 * the whole defconfig rather than per line: whether each line's prompt can
 * show (a hidden one's dependencies are suspects), whether each suspect can
 * keep its line, and for the lines none of whose suspects always drops
 * them, which can drop it.
 */
static void dropped_suspects(struct model_defconfig *dc, const struct kconfig *kc,
			     const struct dc_line *lines, size_t nr, const char *report,
			     struct suspects *ss)
{
	struct model_defconfig_question *q = xcalloc(nr + 1, sizeof(*q));
	size_t *at = xcalloc(nr + 1, sizeof(*at)), n = 0;
	char *shows = xcalloc(nr + 1, 1), *can_show = xcalloc(nr + 1, 1), *want, *forced;

	ss->from = xcalloc(nr + 1, sizeof(*ss->from));
	ss->to = xcalloc(nr + 1, sizeof(*ss->to));
	for (size_t i = 0; i < nr; i++) {
		if (!report[i] || suspect_want(&lines[i]) < 1)
			continue;
		shows[i] = (char)model_defconfig_visible(dc, lines[i].sym);
		if (!shows[i]) {
			q[n].sym = lines[i].sym;
			q[n].visible = 1;
			at[n++] = i;
		}
	}
	if (n)
		model_defconfig_possible_each(dc, q, n, can_show);
	for (size_t k = 0; k < n; k++)
		shows[at[k]] = can_show[k];
	for (size_t i = 0; i < nr; i++)
		if (report[i])
			line_suspects(dc, lines[i].sym, suspect_want(&lines[i]),
				      lines[i].want == 3 ? NULL : kc->modules,
				      suspect_want(&lines[i]) >= 1 && !shows[i], ss, i);
	want = xcalloc(ss->nr + 1, 1);
	ss->keeps = xcalloc(ss->nr + 1, 1);
	ss->drops = xcalloc(ss->nr + 1, 1);
	memset(want, 1, ss->nr);
	suspects_can(dc, ss, 0, want, ss->keeps);
	forced = xcalloc(nr + 1, 1);
	for (size_t i = 0; i < nr; i++)
		for (size_t k = ss->from[i]; report[i] && k < ss->to[i]; k++)
			forced[i] |= !ss->keeps[k];
	for (size_t i = 0; i < nr; i++)
		for (size_t k = ss->from[i]; report[i] && k < ss->to[i]; k++)
			want[k] = !forced[i];
	suspects_can(dc, ss, 1, want, ss->drops);
	for (size_t i = 0; i < nr; i++)
		for (size_t k = ss->from[i]; report[i] && forced[i] && k < ss->to[i]; k++)
			ss->drops[k] = !ss->keeps[k];
	free(q);
	free(at);
	free(shows);
	free(can_show);
	free(want);
	free(forced);
}

/*
 * Line i's names: the suspects that drop it in every configuration of the
 * defconfig, else those that drop it in some. Not read off the one
 * configuration found, which depends on what the solver was asked before
 * (in a census, by another worker sharing the model).
 */
static void suspect_names(const struct suspects *ss, size_t i, struct strvec *out)
{
	for (size_t k = ss->from[i]; k < ss->to[i] && out->nr < 6; k++)
		if (ss->drops[k]) {
			char *n = xstrfmt("CONFIG_%s", ss->v[k].sym->name);

			add_name(out, n);
			free(n);
		}
}

static void suspects_release(struct suspects *ss)
{
	free(ss->v);
	free(ss->from);
	free(ss->to);
	free(ss->keeps);
	free(ss->drops);
}

/*
 * The value kconfig gives s instead of the line's: the highest other one
 * some configuration has (the model leaves free what kconfig versions
 * disagree on), so that it does not depend on the configuration found. A
 * bool has one other value.
 */
static int dropped_value(struct model_defconfig *dc, const struct kconfig_symbol *s, int want)
{
	if (s->type == KCONFIG_BOOL && (want == 0 || want == 2))
		return 2 - want;
	for (int v = 2; v >= 0; v--)
		if (v != want && (model_defconfig_value(dc, s) == v || model_defconfig_possible(dc, s, v, 0)))
			return v;
	return model_defconfig_value(dc, s);
}

static const char *value_name(int v)
{
	return v == 2 ? "y" : v == 1 ? "m" : v == 0 ? "n" : "unset";
}

static struct defect *add_dropped(const char *path, const struct dc_line *l, const char *why,
				  const struct strvec *culprit, struct defect_list *out)
{
	struct defect *d = kcheck_add_defect(out, path, l->line, DEFECT_DROPPED, CAUSE_KCONFIG);
	struct strbuf sb = STRBUF_INIT;

	if (strcmp(l->path, path))
		strbuf_addf(&sb, "%s:%d: ", l->path, l->file_line);
	strbuf_add(&sb, l->text, l->len);
	strbuf_addf(&sb, " (%s", why);
	for (size_t i = 0; culprit && i < culprit->nr; i++)
		strbuf_addf(&sb, "%s%s", i ? ", " : ": ", culprit->v[i]);
	strbuf_addch(&sb, ')');
	d->directive = strbuf_detach(&sb, NULL);
	d->condition = xstrfmt("dropped %.*s", (int)l->len, l->text);
	strvec_pushf(&d->symbols, "CONFIG_%s", l->sym ? l->sym->name : "?");
	for (size_t i = 0; culprit && i < culprit->nr; i++)
		if (strcmp(culprit->v[i], d->symbols.v[0]))
			strvec_push(&d->symbols, culprit->v[i]);
	return d;
}

/* Is the text one of the symbol's constant defaults (kept when the prompt is hidden)? */
static int default_is(const struct kconfig_symbol *s, const char *v, size_t n)
{
	for (size_t k = 0; k < s->nr_defs; k++)
		for (size_t j = 0; j < s->defs[k]->nr_defaults; j++) {
			const struct kconfig_expr *e = s->defs[k]->defaults[j].value;

			if (e->type != KEXPR_CONST)
				return 1;	/* a symbol's value: may be anything */
			if (strlen(e->value) == n || (n >= 2 && strlen(e->value) == n - 2 && *v == '"'))
				if (!strncmp(e->value, *v == '"' ? v + 1 : v, strlen(e->value)))
					return 1;
		}
	return 0;
}

/*
 * What a line still needs the solver for, asked for all lines at once
 * (model_defconfig_possible_each): ASK_NONE when the configuration found
 * decides it.
 */
enum ask { ASK_NONE, ASK_VALUE, ASK_VISIBLE };

/* The line's first question, or ASK_NONE; *kept when it is decided kept. */
static enum ask first_question(struct model_defconfig *dc, const struct dc_line *l, int *kept)
{
	int got;

	*kept = 1;
	if (l->want == 3) {
		/* Visible, the user's value counts; else a default equal to it may give it. */
		if (model_defconfig_visible(dc, l->sym))
			return ASK_NONE;
		*kept = 0;
		return ASK_VISIBLE;
	}
	got = model_defconfig_value(dc, l->sym);
	if (got < 0 || got == l->want)
		return ASK_NONE;
	*kept = 0;
	return ASK_VALUE;
}

/*
 * --explain: which Kconfig lines drop a line, and why each symbol they name
 * has the value it has in the configuration conf makes of the defconfig:
 * "CONFIG_SPI_FLASH_BAR is y: line 40 sets it", "CONFIG_A is n: the
 * defconfig does not set it, and nothing that is on selects it".
 */
struct why {
	struct model_defconfig *dc;
	struct kconfig *kc;
	const struct dc_line *lines;
	size_t nr;
	struct strvec *out;
	struct strvec told;	/* the symbols already said */
};

/* The line of the defconfig that sets s and is not set again, or NULL. */
static const struct dc_line *line_setting(const struct why *w, const struct kconfig_symbol *s)
{
	for (size_t i = 0; i < w->nr; i++)
		if (w->lines[i].sym == s && !w->lines[i].later)
			return &w->lines[i];
	return NULL;
}

static void add_where(struct strbuf *sb, const struct dc_line *l)
{
	if (l->path && l->file_line != l->line)
		strbuf_addf(sb, "%s:%d", l->path, l->file_line);
	else
		strbuf_addf(sb, "line %d", l->line);
}

/* The line of from's `select s` (or `imply s`), else from's own. */
static int reverse_line(const struct kconfig_definition *from, const struct kconfig_symbol *s,
			int imply)
{
	const struct kconfig_select *sel = imply ? from->implies : from->selects;
	size_t nr = imply ? from->nr_implies : from->nr_selects;

	for (size_t j = 0; j < nr; j++)
		if (sel[j].target == s)
			return sel[j].line;
	return from->loc.line;
}

/* "; CONFIG_T (path:line) selects it" for the first of rev that is on: T; NULL when none is. */
static const struct kconfig_symbol *on_reverse(const struct why *w, const struct kconfig_symbol *s,
					       const struct kconfig_reverse *rev, size_t nr,
					       int imply, struct strbuf *sb)
{
	for (size_t i = 0; i < nr; i++) {
		const struct kconfig_definition *from = rev[i].from;

		if (!from->symbol || model_defconfig_value(w->dc, from->symbol) <= 0)
			continue;
		strbuf_addf(sb, "; CONFIG_%s (%s:%d) %s it", from->symbol->name, from->loc.path,
			    reverse_line(from, s, imply), imply ? "implies" : "selects");
		return from->symbol;
	}
	return NULL;
}

/* Why s has its value here: the line that sets it, what selects it, or its defaults. */
static void say_value(struct why *w, const struct kconfig_symbol *s)
{
	const struct dc_line *set = line_setting(w, s);
	int v = model_defconfig_value(w->dc, s);
	const struct kconfig_symbol *by = NULL;
	struct strbuf sb = STRBUF_INIT;
	size_t defaults = 0;

	for (size_t i = 0; i < w->told.nr; i++)
		if (!strcmp(w->told.v[i], s->name))
			return;
	strvec_push(&w->told, s->name);
	strbuf_addf(&sb, "CONFIG_%s is %s: ", s->name, value_name(v));
	if (set && set->want == v) {
		add_where(&sb, set);
		strbuf_addstr(&sb, " sets it");
		goto done;
	}
	if (set) {
		add_where(&sb, set);
		strbuf_addf(&sb, " sets %s, which kconfig does not keep", value_name(set->want));
		goto done;
	}
	strbuf_addstr(&sb, "the defconfig does not set it");
	if (v > 0 && ((by = on_reverse(w, s, s->selected_by, s->nr_selected_by, 0, &sb)) ||
		      (by = on_reverse(w, s, s->implied_by, s->nr_implied_by, 1, &sb))))
		goto done;
	for (size_t k = 0; k < s->nr_defs; k++)
		defaults += s->defs[k]->nr_defaults;
	if (!s->nr_defs)
		strbuf_addstr(&sb, ", and no Kconfig of this architecture defines it");
	else if (defaults)
		strbuf_addf(&sb, ", and its default (%s:%d) gives %s", s->defs[0]->loc.path,
			    s->defs[0]->loc.line, value_name(v));
	else
		strbuf_addstr(&sb, v > 0 ? "" : ", it has no default, and nothing that is on selects it");
done:
	strvec_push(w->out, sb.buf);
	strbuf_release(&sb);
	if (by)
		say_value(w, by);
}

/*
 * The symbols of e that fail it in the configuration found (--explain
 * tells that configuration): n where e wants them, y or m under a `!`.
 */
static void off_symbols(struct model_defconfig *dc, const struct kconfig_expr *e, int neg,
			struct strvec *out)
{
	if (!e || e->type == KEXPR_CONST || out->nr >= 6)
		return;
	if (e->type == KEXPR_SYMBOL) {
		int v = model_defconfig_value(dc, e->sym);

		if (!(e->sym->flags & KSYM_CONST) && v >= 0 && (neg ? v > 0 : v == 0)) {
			char *n = xstrfmt("CONFIG_%s", e->sym->name);

			add_name(out, n);
			free(n);
		}
		return;
	}
	if (e->type == KEXPR_NOT) {
		off_symbols(dc, e->left, !neg, out);
		return;
	}
	if (e->type != KEXPR_AND && e->type != KEXPR_OR)
		return;
	off_symbols(dc, e->left, neg, out);
	off_symbols(dc, e->right, neg, out);
}

/* The symbols of e that fail it, each with why it has its value. */
static void say_failing(struct why *w, const struct kconfig_expr *e)
{
	struct strvec off = STRVEC_INIT;

	off_symbols(w->dc, e, 0, &off);
	for (size_t i = 0; i < off.nr; i++) {
		const struct kconfig_symbol *o = kconfig_lookup(w->kc, off.v[i] + 7);

		if (o)
			say_value(w, o);
	}
	strvec_clear(&off);
}

/* The dependency or prompt condition that hides s, and what fails in it. */
static void say_hidden(struct why *w, const struct kconfig_symbol *s)
{
	size_t prompted = 0;

	for (size_t k = 0; k < s->nr_defs; k++)
		prompted += s->defs[k]->nr_prompts > 0;
	for (size_t k = 0; k < s->nr_defs; k++) {
		const struct kconfig_definition *d = s->defs[k];
		struct strbuf sb = STRBUF_INIT;

		/* A definition without a prompt shows none: only those with one count. */
		if (prompted && !d->nr_prompts)
			continue;

		strbuf_addf(&sb, "CONFIG_%s (%s:%d) ", s->name, d->loc.path, d->loc.line);
		if (d->dep) {
			strbuf_addstr(&sb, "depends on ");
			kconfig_expr_print(d->dep, &sb);
		} else if (!d->nr_prompts) {
			strbuf_addstr(&sb, "has no prompt: only its default and what selects it set it");
		}
		for (size_t j = 0; j < d->nr_prompts; j++)
			if (d->prompts[j].cond) {
				strbuf_addstr(&sb, d->dep ? ", and its prompt shows only if " :
					      "shows its prompt only if ");
				kconfig_expr_print(d->prompts[j].cond, &sb);
			}
		if (!d->dep && d->nr_prompts && sb.len && sb.buf[sb.len - 1] == ' ')
			strbuf_addstr(&sb, "has a prompt that does not show");
		strvec_push(w->out, sb.buf);
		strbuf_release(&sb);
		say_failing(w, d->dep);
		for (size_t j = 0; j < d->nr_prompts; j++)
			say_failing(w, d->prompts[j].cond);
	}
}

/* The symbols that are on and select s (the line wants it n). */
static void say_selected(struct why *w, const struct kconfig_symbol *s)
{
	for (size_t i = 0; i < s->nr_selected_by; i++) {
		const struct kconfig_definition *from = s->selected_by[i].from;
		struct strbuf sb = STRBUF_INIT;

		if (!from->symbol || model_defconfig_value(w->dc, from->symbol) <= 0)
			continue;
		strbuf_addf(&sb, "CONFIG_%s is selected by CONFIG_%s (%s:%d)", s->name,
			    from->symbol->name, from->loc.path, reverse_line(from, s, 0));
		if (s->selected_by[i].cond) {
			strbuf_addstr(&sb, " if ");
			kconfig_expr_print(s->selected_by[i].cond, &sb);
		}
		strvec_push(w->out, sb.buf);
		strbuf_release(&sb);
		say_value(w, from->symbol);
	}
}

/*
 * The member of s's choice that is picked instead (the line wants s y), or
 * that the choice picks s (the line wants it n).
 */
static void say_choice(struct why *w, const struct kconfig_symbol *s, int want)
{
	for (size_t k = 0; k < s->nr_defs; k++) {
		const struct kconfig_choice *c = s->defs[k]->choice;
		const struct kconfig_location *at = c ? &c->defs[0]->loc : NULL;

		if (c && !want && model_defconfig_value(w->dc, s) == 2) {
			strvec_pushf(w->out, "CONFIG_%s is the member the choice at %s:%d picks: no other member is set to y, and the choice %s",
				     s->name, at->path, at->line,
				     c->optional ? "is on" : "is not optional");
			return;
		}
		for (size_t i = 0; c && want == 2 && i < c->nr_members; i++) {
			const struct kconfig_symbol *m = c->members[i];

			if (m == s || model_defconfig_value(w->dc, m) != 2)
				continue;
			strvec_pushf(w->out, "CONFIG_%s is a member of the choice at %s:%d, where CONFIG_%s is picked",
				     s->name, at->path, at->line, m->name);
			say_value(w, m);
		}
	}
}

/* A symbol whose prompt does not show takes its default: which one, and its value. */
static void say_default(struct why *w, const struct kconfig_symbol *s)
{
	for (size_t k = 0; k < s->nr_defs; k++)
		if (s->defs[k]->nr_defaults) {
			strvec_pushf(w->out, "so its default (%s:%d) gives CONFIG_%s %s",
				     s->defs[k]->loc.path, s->defs[k]->loc.line, s->name,
				     value_name(model_defconfig_value(w->dc, s)));
			return;
		}
}

static void explain_line(struct model_defconfig *dc, struct kconfig *kc, const struct dc_line *lines,
			 size_t nr, const struct dc_line *l, struct defect *d)
{
	const struct kconfig_symbol *modules = kc->modules;
	struct why w = { .dc = dc, .kc = kc, .lines = lines, .nr = nr, .out = &d->explanation,
			 .told = STRVEC_INIT };

	strvec_push(&w.told, l->sym->name);
	if (l->want == 1 && modules && model_defconfig_value(dc, modules) == 0) {
		strvec_pushf(w.out, "=m needs CONFIG_%s", modules->name);
		say_value(&w, modules);
	}
	if (!model_defconfig_visible(dc, l->sym) && l->want != 1) {
		say_hidden(&w, l->sym);
		if (l->want == 0)
			say_default(&w, l->sym);
	}
	if (l->want == 0)
		say_selected(&w, l->sym);
	if (l->want == 0 || l->want == 2)
		say_choice(&w, l->sym, l->want);
	if (!d->explanation.nr)
		strvec_pushf(w.out, "no configuration conf can make of the defconfig gives CONFIG_%s %s",
			     l->sym->name, l->want == 3 ? "that value" : value_name(l->want));
	strvec_clear(&w.told);
}

/* A line dropped, with what drops it (suspect_names of line i). */
static void report_line(struct model_defconfig *dc, struct kconfig *kc, const char *path,
			const struct dc_line *lines, size_t nr, size_t i, const struct suspects *ss,
			int explain, struct defect_list *out)
{
	const struct dc_line *l = &lines[i];
	struct strvec why = STRVEC_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct defect *d;

	suspect_names(ss, i, &why);
	if (l->want == 3) {
		d = add_dropped(path, l, "its prompt never shows", &why, out);
	} else {
		strbuf_addf(&sb, "kconfig makes it %s", value_name(dropped_value(dc, l->sym, l->want)));
		d = add_dropped(path, l, sb.buf, &why, out);
	}
	if (explain)
		explain_line(dc, kc, lines, nr, l, d);
	strbuf_release(&sb);
	strvec_clear(&why);
}

/*
 * The lines' questions, asked together: kept[i] set for each line some
 * configuration keeps. A hidden int/hex/string line is kept when it may
 * show, or when it is one of its defaults and that default may apply.
 */
static void ask_lines(struct model_defconfig *dc, const struct dc_line *lines, size_t nr,
		      const char *asked, char *kept)
{
	struct model_defconfig_question *q = xcalloc(nr + 1, sizeof(*q));
	size_t *at = xcalloc(nr + 1, sizeof(*at));
	char *yes = xcalloc(nr + 1, 1);
	size_t n = 0;

	for (int round = 0; round < 2; round++) {
		n = 0;
		for (size_t i = 0; i < nr; i++) {
			const struct dc_line *l = &lines[i];

			if (asked[i] == ASK_NONE || kept[i])
				continue;
			if (round == 1 && (l->want != 3 || !default_is(l->sym, l->value, l->value_len)))
				continue;
			if (round == 1 && model_defconfig_value(dc, l->sym) == 2) {
				kept[i] = 1;
				continue;
			}
			q[n].sym = l->sym;
			q[n].value = round ? 2 : l->want == 3 ? 0 : l->want;
			q[n].visible = !round && asked[i] == ASK_VISIBLE;
			at[n++] = i;
		}
		model_defconfig_possible_each(dc, q, n, yes);
		for (size_t k = 0; k < n; k++)
			kept[at[k]] = yes[k];
	}
	free(q);
	free(at);
	free(yes);
}

/*
 * Does a later line of another file than l's set another member of l's
 * choice to y? An included file's pick that the includer changes is
 * overridden, as its own lines are (U-Boot's am62dx_evm_a53_defconfig
 * includes am62ax_evm_a53_defconfig and picks its own target).
 */
static int choice_overridden(const struct dc_line *lines, size_t nr, size_t i)
{
	const struct dc_line *l = &lines[i];

	if (l->want != 2)
		return 0;
	for (size_t j = i + 1; j < nr; j++) {
		const struct dc_line *o = &lines[j];

		if (!o->sym || o->sym == l->sym || o->want != 2 || !strcmp(o->path, l->path))
			continue;
		for (size_t k = 0; k < l->sym->nr_defs; k++) {
			const struct kconfig_choice *c = l->sym->defs[k]->choice;

			for (size_t m = 0; c && m < c->nr_members; m++)
				if (c->members[m] == o->sym)
					return 1;
		}
	}
	return 0;
}

/* --explain of a line whose value is not one of its symbol's type. */
static void explain_type(const struct dc_line *l, struct defect *d)
{
	const struct kconfig_definition *def = l->sym->defs[0];
	static const char *const type[] = { [KCONFIG_BOOL] = "bool", [KCONFIG_TRISTATE] = "tristate",
					    [KCONFIG_STRING] = "string", [KCONFIG_INT] = "int",
					    [KCONFIG_HEX] = "hex" };
	const char *t = (size_t)l->sym->type < ARRAY_SIZE(type) && type[l->sym->type] ?
			type[l->sym->type] : "symbol";

	strvec_pushf(&d->explanation, "CONFIG_%s (%s:%d) is a %s: conf %s", l->sym->name,
		     def->loc.path, def->loc.line, t,
		     strcmp(l->bad, "out of range") ? "ignores the line and keeps its default" :
		     "clamps the value to its range");
}

/* --explain of a line whose symbol only other architectures' Kconfig files define. */
static void explain_undefined_here(const struct arch_model *am, const struct dc_line *l,
				   struct defect *d)
{
	strvec_pushf(&d->explanation, "no Kconfig file that %s reads defines %.*s; another %s",
		     am->arch ? am->arch : "the tree", (int)(strcspn(l->text, "=") < l->len ?
							strcspn(l->text, "=") : l->len), l->text,
		     am->arch ? "architecture's does" : "file does, which no source line reads");
}

/*
 * Is every line that the verdicts below ask about kept in every
 * configuration, by propagation alone (model_defconfig_settled), and none
 * set again in its own file? Then nothing is reported whether the rules
 * hold (every line kept) or not (nothing can be said), and no solve is
 * needed (about 75 of Linux 6.1's 375 defconfigs).
 */
static int all_settled(struct model_defconfig *dc, const struct dc_line *lines, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		const struct dc_line *l = &lines[i];

		if (!l->sym || (l->bad && !l->later) || l->want < 0)
			continue;
		if (l->later) {
			if (!strcmp(lines[l->later - 1].path, l->path))
				return 0;
			continue;
		}
		if (!model_defconfig_settled(dc, l->sym, l->want))
			return 0;
	}
	return 1;
}

/* The verdicts on the lines of one defconfig, on the model of its architecture. */
static void dropped_on(struct arch_model *am, const char *path, struct dc_line *lines, size_t nr,
		       int explain, struct defect_list *out)
{
	struct model_defconfig *dc = model_defconfig_new(am->model, am->kconfig);
	char *asked = xcalloc(nr + 1, 1), *kept = xcalloc(nr + 1, 1), *report = xcalloc(nr + 1, 1);
	struct suspects ss = { 0 };
	struct defect *d;

	for (size_t i = 0; i < nr; i++) {
		struct dc_line *l = &lines[i];

		if (!l->sym) {
			d = add_dropped(path, l, am->arch ? "not a symbol of this architecture" :
					"not a symbol of the tree's Kconfig", NULL, out);
			if (explain)
				explain_undefined_here(am, l, d);
			continue;
		}
		line_value(l);
		if (l->bad && !l->later) {
			d = add_dropped(path, l, l->bad, NULL, out);
			if (explain)
				explain_type(l, d);
		} else if (l->want >= 0 && !l->later)
			model_defconfig_set(dc, l->sym, l->want);
	}
	/* Every line kept as propagation says, or the rules contradict the model: nothing to say. */
	if (all_settled(dc, lines, nr) || !model_defconfig_solve(dc))
		nr = 0;
	for (size_t i = 0; i < nr; i++) {
		struct dc_line *l = &lines[i];
		int keep;

		if (l->sym && !(l->bad && !l->later) && l->want >= 0 && !l->later) {
			asked[i] = (char)first_question(dc, l, &keep);
			kept[i] = (char)keep;
		}
	}
	ask_lines(dc, lines, nr, asked, kept);
	for (size_t i = 0; i < nr; i++)
		report[i] = lines[i].sym && !(lines[i].bad && !lines[i].later) && lines[i].want >= 0 &&
			    !lines[i].later && !kept[i] && !choice_overridden(lines, nr, i);
	dropped_suspects(dc, am->kconfig, lines, nr, report, &ss);
	for (size_t i = 0; i < nr; i++) {
		struct dc_line *l = &lines[i];
		char why[64];

		if (!l->sym || (l->bad && !l->later) || l->want < 0)
			continue;
		if (l->later) {
			const struct dc_line *again = &lines[l->later - 1];

			/* An included file's value that another file sets again is overridden. */
			if (strcmp(again->path, l->path))
				continue;
			snprintf(why, sizeof(why), "set again at line %d", again->file_line);
			d = add_dropped(path, l, why, NULL, out);
			if (explain)
				strvec_pushf(&d->explanation, "conf keeps the last line that sets CONFIG_%s",
					     l->sym->name);
		} else if (report[i]) {
			report_line(dc, am->kconfig, path, lines, nr, i, &ss, explain, out);
		}
	}
	suspects_release(&ss);
	free(report);
	free(asked);
	free(kept);
	model_defconfig_free(dc);
}

void kcheck_dropped(struct tree_models *tm, const char *path, const char *data, size_t size,
		    const struct kcheck_options *opt, struct defect_list *out)
{
	long a = is_whole_defconfig(path) && tm->get && !is_preprocessed(data, size, opt) ?
		 defconfig_arch(tm, path) : -1;
	struct arch_model *am;
	struct dc_line *lines = NULL;

	if (a < 0)
		return;
	if (tm->hold)
		tm->hold(tm->data, (size_t)a);
	am = tm->get(tm->data, (size_t)a);
	if (am && am->model && am->kconfig) {
		size_t nr = read_lines(tm, am->kconfig, path, data, size, opt->includes, &lines);

		dropped_on(am, path, lines, nr, opt->explain, out);
	}
	if (tm->release)
		tm->release(tm->data, (size_t)a);
	free(lines);
}
