// SPDX-License-Identifier: GPL-2.0
/*
 * Dead and undead options (kinds `dead`, `undead`): a `config` whose
 * dependencies never hold, or a bool/tristate with a prompt that every
 * valid configuration sets, on every architecture that reads the file.
 */
#include "kcheck-internal.h"

#include <string.h>

#include "model.h"

#include "analyze.h"

/* An option of the file while architectures are asked: still dead, still undead? */
struct option_state {
	int line;
	const char *keyword;		/* "config", "menuconfig" */
	char *name, *dep;		/* its dependency as Kconfig text, or NULL */
	int seen, dead, undead;		/* on every architecture where it was seen so far */
	struct strvec missing;		/* names of its dependency that nothing defines */
};

/* The names of e that no Kconfig file of the tree defines, as CONFIG_ names. */
static void missing_names(const struct tree_models *tm, const struct kconfig_expr *e,
			  struct strvec *out)
{
	if (!e)
		return;
	if (e->type == KEXPR_SYMBOL) {
		char *name;

		if (e->sym->flags & (KSYM_CONST | KSYM_PROBE | KSYM_ENV))
			return;
		name = xstrfmt("CONFIG_%s", e->sym->name);
		if (!trees_kconfig_defines(tm, name) && !strvec_has(out, name))
			strvec_push(out, name);
		free(name);
		return;
	}
	if (e->type == KEXPR_CONST)
		return;
	missing_names(tm, e->left, out);
	if (e->type != KEXPR_NOT)
		missing_names(tm, e->right, out);
}

static int has_prompt(const struct kconfig_symbol *s)
{
	for (size_t k = 0; k < s->nr_defs; k++)
		if (s->defs[k]->nr_prompts)
			return 1;
	return 0;
}

/*
 * Is an option switched off on purpose, as `#if 0` is: a conjunct of its
 * dependency is `n` or BROKEN, or a symbol whose own dependency has one
 * (ARM64_ERRATUM_4193714 depends on ARM64_SME, which depends on BROKEN)?
 */
static int switched_off(const struct kconfig_expr *e, int depth)
{
	if (!e || depth > 3)
		return 0;
	if (e->type == KEXPR_AND)
		return switched_off(e->left, depth) || switched_off(e->right, depth);
	if (e->type != KEXPR_SYMBOL)
		return 0;
	if (!strcmp(e->sym->name, "n") || !strcmp(e->sym->name, "BROKEN"))
		return 1;
	if (e->sym->flags & KSYM_CONST)
		return 0;
	for (size_t k = 0; k < e->sym->nr_defs; k++)
		if (switched_off(e->sym->defs[k]->dep, depth + 1))
			return 1;
	return 0;
}

/* What one architecture says of an option of the file it reads (kcheck_options_on). */
struct option_answer {
	int line;
	const char *keyword;
	char *name, *dep;		/* its dependency as Kconfig text, or NULL */
	int eligible;			/* a prompt and no choice: may be undead */
	int has_prompt;			/* the symbol's, on this architecture */
	int alive, undead;		/* its dependency may hold; it is on in every configuration */
	int ask_undead;			/* undead on every architecture asked before, or none asked */
	struct strvec missing;
};

/* One architecture's answers, in its definitions' order; `asked` once it was asked. */
struct arch_answers {
	int asked;
	struct option_answer *v;
	size_t nr;
};

/*
 * The questions of the options of `path` on one architecture, but those
 * whose answers the verdicts cannot use: `states` holds the verdicts of
 * architectures before this one in the walk's order, and they only go
 * from dead to alive and from undead to not (an option dead so far is not
 * undead). An option dead here is not undead here either: its condition
 * never holds, so it is off in some configuration.
 */
static void answer_options(struct tree_models *tm, struct arch_model *am, const char *path,
			   const struct strmap *states, struct arch_answers *out)
{
	struct kconfig_definition *const *defs;
	size_t nr = kconfig_file_definitions(am->kconfig, path, &defs), n = 0;
	struct strbuf key = STRBUF_INIT;
	formula *q = xcalloc(nr + 1, sizeof(*q));
	size_t *of = xcalloc(nr + 1, sizeof(*of));
	char *yes = xcalloc(nr + 1, 1);

	out->v = xcalloc(nr + 1, sizeof(*out->v));
	for (size_t i = 0; i < nr; i++) {
		const struct kconfig_definition *d = defs[i];
		struct option_answer *oa = &out->v[out->nr];
		const struct option_state *os;
		formula d1, d2;

		if (!d->symbol || !kcheck_is_tristate_logic(d->symbol) || switched_off(d->dep, 0))
			continue;
		out->nr++;
		oa->line = d->loc.line;
		oa->keyword = d->kind == KDEF_MENUCONFIG ? "menuconfig" : "config";
		oa->name = xstrdup(d->symbol->name);
		if (d->dep) {
			struct strbuf sb = STRBUF_INIT;

			kconfig_expr_print(d->dep, &sb);
			oa->dep = strbuf_detach(&sb, NULL);
		}
		oa->eligible = d->nr_prompts && !d->choice;
		oa->has_prompt = has_prompt(d->symbol);
		missing_names(tm, d->dep, &oa->missing);
		strbuf_reset(&key);
		strbuf_addf(&key, "%d %s", oa->line, oa->name);
		os = strmap_get(states, key.buf);
		oa->alive = 1;
		oa->ask_undead = !os || os->undead;
		if (!os || os->dead) {
			model_definition_dep(am->model, d->index, &d1, &d2);
			of[n] = out->nr - 1;
			q[n++] = d1;
		}
	}
	/* Most options are alive: a model of any of them answers several. */
	arch_model_satisfiable_each(am, q, n, yes);
	for (size_t k = 0; k < n; k++)
		out->v[of[k]].alive = yes[k];
	n = 0;
	for (size_t i = 0; i < out->nr; i++) {
		struct option_answer *oa = &out->v[i];

		if (oa->has_prompt && oa->alive && oa->ask_undead) {
			char *y = xstrfmt("CONFIG_%s", oa->name), *m = xstrfmt("%s_MODULE", y);
			int defined;
			formula on = logic_or(am->logic, model_config(am->model, y, &defined),
					      model_config(am->model, m, &defined));

			of[n] = i;
			q[n++] = logic_not(on);
			free(y);
			free(m);
		}
	}
	arch_model_satisfiable_each(am, q, n, yes);
	for (size_t k = 0; k < n; k++)
		out->v[of[k]].undead = !yes[k];
	free(q);
	free(of);
	free(yes);
	strbuf_release(&key);
}

static void answers_clear(struct arch_answers *aa)
{
	for (size_t i = 0; i < aa->nr; i++) {
		free(aa->v[i].name);
		free(aa->v[i].dep);
		strvec_clear(&aa->v[i].missing);
	}
	free(aa->v);
	aa->v = NULL;
	aa->nr = 0;
}

/*
 * One architecture's verdicts, in the walk's order: an option's text and
 * place are those of the first architecture that has it; it is dead while
 * dead on every one, undead while alive on that first and undead on every
 * one with a prompt.
 */
static void options_apply(const struct arch_answers *aa, struct strmap *states,
			  struct strvec *order)
{
	struct strbuf key = STRBUF_INIT;

	for (size_t i = 0; i < aa->nr; i++) {
		const struct option_answer *oa = &aa->v[i];
		struct option_state *os;

		strbuf_reset(&key);
		strbuf_addf(&key, "%d %s", oa->line, oa->name);
		os = strmap_get(states, key.buf);
		if (!os) {
			os = xcalloc(1, sizeof(*os));
			os->line = oa->line;
			os->keyword = oa->keyword;
			os->name = xstrdup(oa->name);
			os->dep = oa->dep ? xstrdup(oa->dep) : NULL;
			os->dead = 1;
			os->undead = oa->eligible;
			for (size_t k = 0; k < oa->missing.nr; k++)
				strvec_push(&os->missing, oa->missing.v[k]);
			strmap_put(states, key.buf, os);
			strvec_push(order, key.buf);
		}
		os->seen = 1;
		if (os->dead)
			os->dead = !oa->alive;
		if (os->undead && !os->dead && oa->has_prompt)
			os->undead = oa->undead;
		else
			os->undead = 0;
	}
	strbuf_release(&key);
}

static void add_option_defects(struct tree_models *tm, const char *path, struct strmap *states,
			       struct strvec *order, const struct kcheck_options *opt,
			       struct defect_list *out)
{
	for (size_t i = 0; i < order->nr; i++) {
		struct option_state *os = strmap_get(states, order->v[i]);

		if (os->dead || os->undead) {
			struct defect *d = kcheck_add_defect(out, path, os->line,
				os->dead ? DEFECT_DEAD : DEFECT_UNDEAD,
				os->dead && os->missing.nr ? CAUSE_MISSING : CAUSE_KCONFIG);

			if (os->dep)
				d->directive = xstrfmt("%s %s (depends on %s)", os->keyword, os->name, os->dep);
			else
				d->directive = xstrfmt("%s %s", os->keyword, os->name);
			d->condition = xstrfmt("option %s", os->name);
			strvec_pushf(&d->symbols, "CONFIG_%s", os->name);
			for (size_t k = 0; d->cause == CAUSE_MISSING && k < os->missing.nr; k++) {
				strvec_push(&d->missing, os->missing.v[k]);
				if (opt->explain)
					analyze_explain_missing(d, tm, os->missing.v[k]);
			}
		}
		free(os->name);
		free(os->dep);
		strvec_clear(&os->missing);
		free(os);
	}
	strmap_clear(states, NULL);
	strvec_clear(order);
}

/*
 * Options of `path` whose dependency no configuration meets (dead) or that
 * every configuration sets though they have a prompt (undead), on every
 * architecture that reads the file: the primary one first, then those its
 * symbols point to, then the others, stopping when none is left.
 *
 * The walk's verdicts go in that order (options_apply, one architecture
 * after the other, until an architecture that reads the file leaves no
 * option dead or undead), but the architectures are asked in any order
 * (kcheck_options_wants: any not asked while the verdicts go on), each
 * one's answers kept until their turn: a census that builds the models
 * one after the other, in index order, asks each file's options in one
 * round of builds, not one round per architecture out of index order.
 * An architecture asked beyond the point where the verdicts stop costs
 * its questions and changes nothing.
 */
struct kcheck_options_walk {
	struct tree_models *tm;
	char *path;
	int explain;
	size_t *scope, nr_scope;
	struct arch_answers *answers;	/* by position in scope */
	size_t k;			/* the next position whose answers apply */
	int ended;			/* no option left, or every position applied */
	struct strmap states;
	struct strvec order;
};

struct kcheck_options_walk *kcheck_options_begin(struct tree_models *tm, const char *path,
						 const char *data, size_t size,
						 const struct kcheck_options *opt)
{
	struct kcheck_options_walk *w = xcalloc(1, sizeof(*w));
	int own = tm->nr_arches && !starts_with(path, tm->arch_prefix ? tm->arch_prefix : "arch/");

	w->tm = tm;
	w->path = xstrdup(path);
	w->explain = opt->explain;
	w->scope = xcalloc(tm->nr_arches + 1, sizeof(*w->scope));
	w->nr_scope = kcheck_scope(tm, path, data, size, w->scope);
	/* Outside arch/, every other architecture after those of kcheck_scope. */
	for (size_t a = 0; own && !tm->only_arch && a < tm->nr_arches; a++) {
		size_t k = 0;

		while (k < w->nr_scope && w->scope[k] != a)
			k++;
		if (k == w->nr_scope)
			w->scope[w->nr_scope++] = a;
	}
	w->answers = xcalloc(w->nr_scope + 1, sizeof(*w->answers));
	w->ended = !w->nr_scope;
	return w;
}

int kcheck_options_wants(const struct kcheck_options_walk *w, size_t a)
{
	if (w->ended)
		return 0;
	for (size_t k = w->k; k < w->nr_scope; k++)
		if (w->scope[k] == a)
			return !w->answers[k].asked;
	return 0;
}

/* The verdicts of the answers in scope order, as far as they are there. */
static void options_advance(struct kcheck_options_walk *w)
{
	while (!w->ended && w->k < w->nr_scope && w->answers[w->k].asked) {
		int left = 0;

		options_apply(&w->answers[w->k], &w->states, &w->order);
		answers_clear(&w->answers[w->k]);
		w->k++;
		/* An architecture that does not read the file settles nothing. */
		for (size_t i = 0; i < w->order.nr && !left; i++) {
			const struct option_state *os = strmap_get(&w->states, w->order.v[i]);

			left = os->dead || os->undead;
		}
		if (!left && w->order.nr)
			w->ended = 1;
	}
	if (w->k == w->nr_scope)
		w->ended = 1;
}

void kcheck_options_on(struct kcheck_options_walk *w, size_t a)
{
	struct tree_models *tm = w->tm;
	struct arch_model *am;
	size_t k = w->k;

	if (!kcheck_options_wants(w, a))
		return;
	while (w->scope[k] != a)
		k++;
	w->answers[k].asked = 1;
	if (tm->hold)
		tm->hold(tm->data, a);
	am = tm->get(tm->data, a);
	if (am && am->model && am->kconfig)
		answer_options(tm, am, w->path, &w->states, &w->answers[k]);
	if (tm->release)
		tm->release(tm->data, a);
	options_advance(w);
}

void kcheck_options_end(struct kcheck_options_walk *w, struct defect_list *out)
{
	struct kcheck_options opt = { .explain = w->explain };

	while (!w->ended)
		kcheck_options_on(w, w->scope[w->k]);
	add_option_defects(w->tm, w->path, &w->states, &w->order, &opt, out);
	kcheck_options_free(w);
}

void kcheck_options_free(struct kcheck_options_walk *w)
{
	for (size_t i = 0; i < w->order.nr; i++) {
		struct option_state *os = strmap_get(&w->states, w->order.v[i]);

		free(os->name);
		free(os->dep);
		strvec_clear(&os->missing);
		free(os);
	}
	strmap_clear(&w->states, NULL);
	strvec_clear(&w->order);
	for (size_t k = 0; k < w->nr_scope; k++)
		answers_clear(&w->answers[k]);
	free(w->answers);
	free(w->scope);
	free(w->path);
	free(w);
}

void kcheck_dead_options(struct tree_models *tm, const char *path, const char *data, size_t size,
			 const struct kcheck_options *opt, struct defect_list *out)
{
	kcheck_options_end(kcheck_options_begin(tm, path, data, size, opt), out);
}
