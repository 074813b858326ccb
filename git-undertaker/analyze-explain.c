// SPDX-License-Identifier: GPL-2.0
/*
 * --explain: the enclosing blocks of a defect, the Kconfig lines whose
 * constraints exclude its condition (model_explain), the Makefile lines
 * that decide its file, and where a missing name went
 * (analyze-internal.h).
 */
#include "analyze-internal.h"

#include <stdlib.h>
#include <string.h>

#include "model.h"

/* f && every variable of f that `off` names false; *any: whether one did. */
static formula with_vars_off(struct file_arch *fa, formula f,
			     int (*off)(struct file_arch *fa, const char *name), int *any)
{
	struct logic *l = fa->am->logic;
	int *vars = NULL;
	size_t nr = 0, alloc = 0, n = 1;
	formula *conj;

	*any = 0;
	logic_vars_of(l, f, &vars, &nr, &alloc);
	/* One conjunction of them all: a chain of pairs is quadratic in the names. */
	conj = xmalloc((nr + 1) * sizeof(*conj));
	conj[0] = f;
	for (size_t i = 0; i < nr; i++) {
		const char *name = logic_var_name(l, vars[i]);

		if (name && off(fa, name))
			conj[n++] = logic_not(logic_atom(l, vars[i]));
	}
	*any = n > 1;
	formula g = n > 1 ? logic_and_n(l, conj, n) : f;
	free(conj);
	free(vars);
	return g;
}

/* The enclosing blocks and earlier arms, nearest first: MAX_DEFECT_SYMBOLS of each at most. */
static void explain_code(struct defect *d, const char *path, const struct cpp_file *f, size_t i)
{
	int n = 0;

	for (int j = f->blocks[i].parent; j >= 0 && n++ < MAX_DEFECT_SYMBOLS; j = f->blocks[j].parent)
		strvec_pushf(&d->explanation, "%s:%d: enclosed by: %s", path, f->blocks[j].line,
			     f->blocks[j].directive);
	n = 0;
	for (int j = f->blocks[i].prev_sibling; j >= 0 && n++ < MAX_DEFECT_SYMBOLS;
	     j = f->blocks[j].prev_sibling)
		strvec_pushf(&d->explanation, "%s:%d: after: %s", path, f->blocks[j].line,
			     f->blocks[j].directive);
}

/* The definition of sym at path:line, or its first one. */
static const struct kconfig_definition *definition_at(const struct kconfig_symbol *sym,
						      const char *path, int line)
{
	for (size_t i = 0; i < sym->nr_defs; i++)
		if (sym->defs[i]->loc.line == line && !strcmp(sym->defs[i]->loc.path, path))
			return sym->defs[i];
	return sym->nr_defs ? sym->defs[0] : NULL;
}

/*
 * One constraint of the solver's reasons as a sentence about the Kconfig
 * lines: "CONFIG_FOO (drivers/x/Kconfig:49) has no prompt and nothing
 * selects it", "CONFIG_BAR (Kconfig:4) depends on FOO", "CONFIG_FOO is
 * selected by CONFIG_SEL (Kconfig:9)".
 */
static void explain_reason(struct strbuf *sb, const struct kconfig *kc,
			   const struct model_reason *r)
{
	const char *name = starts_with(r->symbol, "CONFIG_") ? r->symbol + 7 : r->symbol;
	const struct kconfig_symbol *sym = kc ? kconfig_lookup(kc, name) : NULL;
	const struct kconfig_definition *def;
	size_t prompts = 0, defaults = 0;

	if (!sym || !sym->nr_defs) {
		strbuf_addf(sb, "%s (%s:%d): %s", r->symbol, r->path, r->line, r->what);
		return;
	}
	if (!strcmp(r->what, "select")) {
		for (size_t i = 0; i < sym->nr_selected_by; i++) {
			const struct kconfig_definition *from = sym->selected_by[i].from;

			if (from->loc.line != r->line || strcmp(from->loc.path, r->path) ||
			    !from->symbol)
				continue;
			strbuf_addf(sb, "%s is selected by CONFIG_%s (%s:%d)", r->symbol,
				    from->symbol->name, r->path, r->line);
			if (sym->selected_by[i].cond) {
				strbuf_addstr(sb, " if ");
				kconfig_expr_print(sym->selected_by[i].cond, sb);
			}
			return;
		}
		strbuf_addf(sb, "%s is selected at %s:%d", r->symbol, r->path, r->line);
		return;
	}
	for (size_t i = 0; i < sym->nr_defs; i++) {
		prompts += sym->defs[i]->nr_prompts;
		defaults += sym->defs[i]->nr_defaults;
	}
	def = definition_at(sym, r->path, r->line);
	strbuf_addf(sb, "%s (%s:%d) ", r->symbol, r->path, r->line);
	if (!strcmp(r->what, "depends on") || !strcmp(r->what, "default")) {
		if (!prompts && !sym->nr_selected_by && !sym->nr_implied_by) {
			strbuf_addstr(sb, defaults ? "has no prompt, nothing selects it, and its default decides" :
				      "has no prompt and nothing selects it");
			return;
		}
		if (!prompts) {
			strbuf_addstr(sb, "has no prompt: only its default and what selects it set it");
			return;
		}
		if (def && def->dep) {
			strbuf_addstr(sb, "depends on ");
			kconfig_expr_print(def->dep, sb);
			return;
		}
	}
	strbuf_addstr(sb, r->what);
}

/* CONFIG_FOO no Kconfig of this architecture defines, CONFIG_FOO_MODULE of a bool: always n. */
static int off_by_kconfig(struct file_arch *fa, const char *name)
{
	const struct kconfig_symbol *sym;
	char *base;
	int fact;

	if (!starts_with(name, "CONFIG_"))
		return 0;
	base = xstrdup(name + 7);
	sym = kconfig_lookup(fa->am->kconfig, base);
	fact = !sym || !sym->nr_defs;
	if (ends_with(base, "_MODULE")) {
		const struct kconfig_symbol *of;

		base[strlen(base) - 7] = '\0';
		of = kconfig_lookup(fa->am->kconfig, base);
		if (of && of->nr_defs)
			fact = of->type == KCONFIG_BOOL;
	}
	free(base);
	return fact;
}

/*
 * f with the facts that pc.c gives the model's solver only (a bool is never
 * m; another architecture's symbol is n here) and that the explainer, built
 * from the model's own constraints, lacks: without them
 * IS_ENABLED(CONFIG_BOOL_OPTION) is never unsatisfiable there.
 */
static formula with_kconfig_facts(struct file_arch *fa, formula f)
{
	int any;

	return with_vars_off(fa, f, off_by_kconfig, &any);
}

/* The Kconfig lines whose constraints exclude f: a minimal set, from the model. */
static void explain_kconfig(struct defect *d, struct file_arch *fa, formula f)
{
	const struct model_reason **reasons;
	size_t n = model_explain(fa->am->model, with_kconfig_facts(fa, f), &reasons);
	struct strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < n; k++) {
		strbuf_reset(&sb);
		explain_reason(&sb, fa->am->kconfig, reasons[k]);
		strvec_push(&d->explanation, sb.buf);
	}
	strbuf_release(&sb);
}

/*
 * The Makefile lines that decide whether kbuild compiles the file, on
 * architecture i, as one sentence: "drivers/foo/bar.c is built only by
 * `obj-$(CONFIG_BAR) += bar.o` (drivers/foo/Makefile:12), and drivers/foo/
 * only by `obj-$(CONFIG_FOO) += foo/` (drivers/Makefile:40)".
 */
#define MAX_KBUILD_WHY 12
static void explain_kbuild(struct defect *d, struct file_state *fs, size_t i)
{
	struct kbuild_why why[MAX_KBUILD_WHY];
	struct strbuf sb = STRBUF_INIT;
	size_t n;

	if (!fs->tm->file_why)
		return;
	n = fs->tm->file_why(fs->tm->data, i, fs->path, why, MAX_KBUILD_WHY);
	for (size_t k = 0; k < n; k++) {
		if (k)
			strbuf_addstr(&sb, k + 1 == n ? (n > 2 ? ", and " : " and ") : ", ");
		strbuf_addf(&sb, "%s%s %s `%s` (%s:%d)", why[k].subject, k ? "" : " is built",
			    why[k].more ? "by" : "only by", why[k].origin->text,
			    why[k].origin->path, why[k].origin->line);
		if (why[k].more)
			strbuf_addstr(&sb, " among others");
	}
	if (n)
		strvec_push(&d->explanation, sb.buf);
	strbuf_release(&sb);
}

/* analyze_explain_missing's placeholder: the name follows (no line of text starts so). */
#define REMOVAL_MARK "\001removed "

void analyze_resolve_removals(struct defect_list *l, int show_all,
			      int (*removed)(void *data, const char *name, struct strbuf *out),
			      void *data)
{
	struct strbuf where = STRBUF_INIT;

	for (size_t i = 0; i < l->nr; i++) {
		struct defect *d = &l->v[i];
		int shown = d->status == STATUS_NEW || show_all;
		size_t kept = 0;

		for (size_t k = 0; k < d->explanation.nr; k++) {
			char *line = (char *)d->explanation.v[k];
			const char *name;

			if (!starts_with(line, REMOVAL_MARK)) {
				d->explanation.v[kept++] = line;
				continue;
			}
			name = line + strlen(REMOVAL_MARK);
			strbuf_reset(&where);
			if (shown && removed(data, name, &where) > 0)
				d->explanation.v[kept++] =
					xstrfmt("%s was defined at %s", name, where.buf);
			free(line);
		}
		d->explanation.nr = kept;
		if (kept < d->explanation.alloc)
			d->explanation.v[kept] = NULL;
	}
	strbuf_release(&where);
}

void analyze_explain_missing(struct defect *d, const struct tree_models *tm, const char *name)
{
	const char *s = starts_with(name, "CONFIG_") ? name + 7 : name;
	size_t best = 4, len = strlen(s);
	struct strvec near = STRVEC_INIT;
	struct strmap_entry *e;

	strmap_for_each(tm->kconfig_defined, e) {
		size_t el = strlen(e->key), dist;

		if ((el > len ? el - len : len - el) > best)
			continue;
		dist = edit_distance(s, e->key);
		if (dist < best) {
			strvec_clear(&near);
			best = dist;
		}
		if (dist == best && near.nr < 3)
			strvec_pushf(&near, "CONFIG_%s (%s)", e->key, (const char *)e->value);
	}
	if (tm->explain_removals)
		strvec_pushf(&d->explanation, REMOVAL_MARK "%s", name);
	if (!near.nr)
		strvec_pushf(&d->explanation, "%s is defined by no Kconfig file of this tree", name);
	else
		for (size_t i = 0; i < near.nr; i++)
			strvec_pushf(&d->explanation, "%s is defined nowhere; did you mean %s?", name,
				     near.v[i]);
	strvec_clear(&near);
}

/* --explain: why block i of defect d is dead or undead. */
void analyze_explain_block(struct defect *d, struct file_state *fs, size_t i, enum verdict v,
			  const size_t *scope)
{
	const struct tree_models *tm = fs->tm;
	const struct cpp_block *b = &fs->f->blocks[i];
	enum defect_cause cause = d->cause;
	struct file_arch *fa;

	if (cause == CAUSE_CODE)
		explain_code(d, fs->path, fs->f, i);
	/* The block's own missing names, and for a missing cause those of its #if chain. */
	for (size_t k = 0; k < d->symbols.nr; k++)
		if (strvec_has(&d->missing, d->symbols.v[k]) ||
		    (cause == CAUSE_MISSING &&
		     !trees_defines(tm, d->symbols.v[k])))
			analyze_explain_missing(d, tm, d->symbols.v[k]);
	if (cause != CAUSE_KCONFIG && cause != CAUSE_KBUILD)
		return;
	analyze_hold_model(fs, scope[0]);
	/* Its formulas as the walk had them there: kbuild's condition in (walk_step, k 0). */
	fa = analyze_file_arch(fs, scope[0]);
	if (fa)
		analyze_ensure_kbuild(fs, fa, scope[0]);
	/* kbuild: the Makefile lines, then the Kconfig lines that join them to the block. */
	if (cause == CAUSE_KBUILD)
		explain_kbuild(d, fs, scope[0]);
	if (fa) {
		formula g = v == DEAD ? fa->pc[i] :
			logic_and(fa->am->logic, analyze_parent_pc(fa, b), logic_not(fa->local[i]));

		if (cause == CAUSE_KBUILD)
			g = logic_and(fa->am->logic, g, fa->file);
		explain_kconfig(d, fa, g);
	}
	analyze_release_model(fs, scope[0]);
	explain_code(d, fs->path, fs->f, i);
}
/* --explain of a file no configuration builds (file_defect): the Makefile and Kconfig lines. */
void analyze_explain_file(struct defect *d, struct file_state *fs, size_t a)
{
	struct file_arch *fa;

	analyze_hold_model(fs, a);
	fa = analyze_file_arch(fs, a);
	if (fa)
		analyze_ensure_kbuild(fs, fa, a);
	explain_kbuild(d, fs, a);
	if (fa)
		explain_kconfig(d, fa, fa->file);
	analyze_release_model(fs, a);
}
