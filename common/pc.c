// SPDX-License-Identifier: GPL-2.0
#include "pc.h"
#include "model.h"

#include <stdlib.h>
#include <string.h>

void pc_context_init(struct pc_context *ctx, struct logic *l, const struct kconfig *kc,
		     const struct strmap *kconfig_defined, const struct strmap *cmdline_defined)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->logic = l;
	ctx->kconfig = kc;
	ctx->kconfig_defined = kconfig_defined;
	ctx->cmdline_defined = cmdline_defined;
}

void pc_context_release(struct pc_context *ctx)
{
	strmap_clear(&ctx->missing, NULL);
	u64map_release(&ctx->memo);
}

void pc_context_forget_exprs(struct pc_context *ctx)
{
	u64map_clear(&ctx->memo);
}

static const char *strip_config(const char *name)
{
	return starts_with(name, "CONFIG_") ? name + 7 : name;
}

static int in_map(const struct strmap *m, const char *key)
{
	return m && strmap_get(m, key) != NULL;
}

static int in_map_n(const struct strmap *m, const char *key, size_t len)
{
	return m && strmap_getn(m, key, len) != NULL;
}

int pc_name_defined_anywhere(const struct strmap *kconfig_defined,
			     const struct strmap *cmdline_defined, const char *name)
{
	const char *s = strip_config(name);
	size_t len = strlen(s);

	if (in_map(kconfig_defined, s) || in_map(cmdline_defined, s))
		return 1;
	/* CONFIG_FOO_MODULE is how a tristate FOO=m reaches C. */
	return len > 7 && !strcmp(s + len - 7, "_MODULE") && in_map_n(kconfig_defined, s, len - 7);
}

static const struct kconfig_symbol *kconfig_symbol(const struct pc_context *ctx, const char *s)
{
	const struct kconfig_symbol *sym;

	if (!ctx->kconfig)
		return NULL;
	sym = kconfig_lookup(ctx->kconfig, s);
	return sym && sym->nr_defs ? sym : NULL;
}

enum pc_symbol_state pc_symbol_state(const struct pc_context *ctx, const char *name)
{
	const char *s = strip_config(name);
	size_t len = strlen(s);

	if (kconfig_symbol(ctx, s))
		return PC_SYMBOL_KCONFIG;
	if (len > 7 && !strcmp(s + len - 7, "_MODULE")) {
		char *base = xstrndup(s, len - 7);
		const struct kconfig_symbol *sym = kconfig_symbol(ctx, base);

		free(base);
		if (sym && sym->type == KCONFIG_TRISTATE)
			return PC_SYMBOL_KCONFIG;
	}
	if (in_map(ctx->cmdline_defined, s))
		return PC_SYMBOL_CMDLINE;
	if (pc_name_defined_anywhere(ctx->kconfig_defined, NULL, name))
		return PC_SYMBOL_OTHER_ARCH;
	return PC_SYMBOL_MISSING;
}

static formula named_var(struct logic *l, const char *prefix, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	formula f;

	strbuf_addf(&sb, "%s%s", prefix, name);
	f = logic_atom(l, logic_var(l, sb.buf));
	strbuf_release(&sb);
	return f;
}

/* y and m of a Kconfig symbol; m is false for anything but a tristate. */
static void symbol_vars(struct pc_context *ctx, const struct kconfig_symbol *sym,
			formula *y, formula *m)
{
	*y = named_var(ctx->logic, "CONFIG_", sym->name);
	*m = LOGIC_FALSE;
	if (sym->type == KCONFIG_BOOL && ctx->facts) {
		/*
		 * A bool is never m: a fact of Kconfig, not of the code, so the
		 * variable is false in the model's solver only. Unless a symbol
		 * of that name is defined too (U-Boot's MTD_UBI and
		 * MTD_UBI_MODULE, both bool): CONFIG_MTD_UBI_MODULE is then that
		 * symbol's macro, its variable the model's, and saying it false
		 * contradicted every configuration that sets it.
		 */
		struct strbuf sb = STRBUF_INIT;
		int var;

		strbuf_addf(&sb, "CONFIG_%s_MODULE", sym->name);
		var = logic_var(ctx->logic, sb.buf);
		if (!kconfig_symbol(ctx, sb.buf + strlen("CONFIG_")))
			sat_add_fact(ctx->facts, -var);
		*m = logic_atom(ctx->logic, var);
		strbuf_release(&sb);
	} else if (sym->type == KCONFIG_TRISTATE) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addf(&sb, "CONFIG_%s_MODULE", sym->name);
		*m = logic_atom(ctx->logic, logic_var(ctx->logic, sb.buf));
		strbuf_release(&sb);
	}
}

static formula variant_of(struct pc_context *ctx, enum cpp_variant v, formula y, formula m)
{
	struct logic *l = ctx->logic;

	switch (v) {
	case CPP_DEFINED:
	case CPP_BUILTIN:
		return y;
	case CPP_ENABLED:
		return logic_or(l, y, m);
	case CPP_MODULE:
		return m;
	case CPP_REACHABLE:
		/* MODULE is defined by kbuild for code built as a module: free. */
		return logic_or(l, y, logic_and(l, m, named_var(l, "cpp:", "MODULE")));
	}
	return y;
}

/*
 * A symbol that Kconfig files of the tree define, but not this model's: n
 * here, a fact of Kconfig (the model's solver only), not of the code. As
 * LOGIC_FALSE, `#ifdef CONFIG_ARM` in a driver would be dead with cause
 * `code` on x86, and a `code` defect holds on every architecture.
 */
static formula kconfig_false(struct pc_context *ctx, const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	int var;

	if (!ctx->facts)
		return LOGIC_FALSE;
	strbuf_addf(&sb, "CONFIG_%s", s);
	/*
	 * The variable may exist without its fact (model_config() of a
	 * Kconfig check made it): the fact is added once, whoever made it.
	 * Deciding by the variable's existence made a census's verdicts depend
	 * on the order of its files (`#ifdef CONFIG_ARM64` in a driver lost its
	 * x86 defect once arch/x86/Kconfig had been checked).
	 */
	var = logic_var(ctx->logic, sb.buf);
	sat_add_fact(ctx->facts, -var);
	strbuf_release(&sb);
	return logic_atom(ctx->logic, var);
}

static formula config_formula(struct pc_context *ctx, const struct cpp_expr *e)
{
	const char *s = strip_config(e->name);
	size_t len = strlen(s);
	const struct kconfig_symbol *sym = kconfig_symbol(ctx, s);
	formula y, m;

	if (sym) {
		symbol_vars(ctx, sym, &y, &m);
		/* `#if CONFIG_NR_CPUS`: the value of an int or hex, not whether it is set. */
		if (e->bare && (sym->type == KCONFIG_INT || sym->type == KCONFIG_HEX ||
				sym->type == KCONFIG_STRING))
			return logic_and(ctx->logic, y, named_var(ctx->logic, "value:", e->name));
		return variant_of(ctx, e->variant, y, m);
	}
	if (len > 7 && !strcmp(s + len - 7, "_MODULE")) {
		char *base = xstrndup(s, len - 7);

		sym = kconfig_symbol(ctx, base);
		free(base);
		if (sym && sym->type == KCONFIG_TRISTATE) {
			/* defined(CONFIG_FOO_MODULE): FOO=m; that macro is never =m itself. */
			symbol_vars(ctx, sym, &y, &m);
			return e->variant == CPP_MODULE ? LOGIC_FALSE : m;
		}
	}
	if (in_map(ctx->cmdline_defined, s))
		/* -DCONFIG_SPL_BUILD: set for some objects, not others. */
		return e->variant == CPP_MODULE ? LOGIC_FALSE : named_var(ctx->logic, "cpp:", e->name);
	if (pc_name_defined_anywhere(ctx->kconfig_defined, NULL, e->name))
		/* another architecture's symbol: n here */
		return e->variant == CPP_MODULE ? LOGIC_FALSE : kconfig_false(ctx, s);
	if (e->from_macro)
		return LOGIC_FALSE;	/* a variant this project does not have */
	{
		formula f = named_var(ctx->logic, "missing:", e->name);
		int var = logic_literal(ctx->logic, f);

		if (!strmap_get(&ctx->missing, s))
			strmap_put(&ctx->missing, s, (void *)(intptr_t)var);
		/* IS_MODULE of an unknown symbol: the same free variable is as good as any. */
		return f;
	}
}

static formula pc_formula_uncached(struct pc_context *ctx, const struct cpp_expr *e);

formula pc_formula(struct pc_context *ctx, const struct cpp_expr *e)
{
	uint64_t key = (uint64_t)(uintptr_t)e, v;
	formula f;

	if (e->kind == CPP_EXPR_CONST)
		return e->value ? LOGIC_TRUE : LOGIC_FALSE;
	if (u64map_get(&ctx->memo, key, &v))
		return (formula)v;
	f = pc_formula_uncached(ctx, e);
	u64map_put(&ctx->memo, key, (uint64_t)f);
	return f;
}

static formula pc_formula_uncached(struct pc_context *ctx, const struct cpp_expr *e)
{
	struct logic *l = ctx->logic;

	switch (e->kind) {
	case CPP_EXPR_CONST:
		return e->value ? LOGIC_TRUE : LOGIC_FALSE;
	case CPP_EXPR_NOT:
		return logic_not(pc_formula(ctx, e->a));
	case CPP_EXPR_AND:
		return logic_and(l, pc_formula(ctx, e->a), pc_formula(ctx, e->b));
	case CPP_EXPR_OR:
		return logic_or(l, pc_formula(ctx, e->a), pc_formula(ctx, e->b));
	case CPP_EXPR_CONFIG:
		return config_formula(ctx, e);
	case CPP_EXPR_FREE:
		/* `#if X` needs X defined and non-zero: `defined(X) && !X` is satisfiable. */
		if (e->bare)
			return logic_and(l, named_var(l, "cpp:", e->name), named_var(l, "value:", e->name));
		return named_var(l, "cpp:", e->name);
	case CPP_EXPR_OPAQUE:
		return named_var(l, "opaque:", e->text);
	}
	return LOGIC_TRUE;
}

/*
 * A string option's value in a Kbuild condition (U-Boot's board directory):
 * the model's "S=text" variable where it enumerates S's values (a text no
 * default gives: only as typed by the user, S=*, or false without a prompt);
 * false for S undefined but as ""; else free.
 */
static formula equals_formula(struct pc_context *ctx, const struct kbuild_expr *e)
{
	const char *eq = strchr(e->name, '=');
	char *name = xstrndup(e->name, eq - e->name);
	const struct kconfig_symbol *sym = kconfig_symbol(ctx, name);
	struct strvec values = STRVEC_INIT;
	formula f;

	free(name);
	if (!ctx->kconfig)
		f = named_var(ctx->logic, "kbuild:", e->name);
	else if (!sym)
		f = eq[1] ? LOGIC_FALSE : LOGIC_TRUE;
	else if (sym->type != KCONFIG_STRING || !model_string_values(sym, &values))
		f = named_var(ctx->logic, "kbuild:", e->name);
	else {
		int possible = !eq[1];

		for (size_t i = 0; i < values.nr && !possible; i++)
			possible = !strcmp(values.v[i], eq + 1);
		if (possible) {
			f = named_var(ctx->logic, "", e->name);
		} else if (model_string_typed(sym)) {
			/* Only as the user's own value: a fact of Kconfig, S=text implies S=*. */
			char *typed = xstrfmt("%s=*", sym->name);
			int t = logic_var(ctx->logic, typed);

			f = named_var(ctx->logic, "", e->name);
			/*
			 * Once per solver: the clause again, for every file, was a
			 * stronger base each time, which dropped the solver's
			 * answers and samples.
			 */
			if (ctx->facts)
				sat_add_pair(ctx->facts, -logic_literal(ctx->logic, f), t);
			free(typed);
		} else {
			f = LOGIC_FALSE;
		}
	}
	strvec_clear(&values);
	return f;
}

formula pc_kbuild_formula(struct pc_context *ctx, const struct kbuild_expr *e)
{
	struct logic *l = ctx->logic;
	const struct kconfig_symbol *sym;
	formula r, y, m;

	switch (e->op) {
	case KB_FALSE:
		return LOGIC_FALSE;
	case KB_TRUE:
		return LOGIC_TRUE;
	case KB_FREE:
		return named_var(l, "kbuild:", e->name);
	case KB_DEFINED:
		/* The variable of `defined(CONFIG_SPL_BUILD)` in the file's blocks. */
		return named_var(l, "cpp:", e->name);
	case KB_EQUALS:
		return equals_formula(ctx, e);
	case KB_NOT:
		return logic_not(pc_kbuild_formula(ctx, e->sub[0]));
	case KB_AND:
	case KB_OR:
		r = e->op == KB_AND ? LOGIC_TRUE : LOGIC_FALSE;
		for (unsigned i = 0; i < e->nr; i++) {
			formula a = pc_kbuild_formula(ctx, e->sub[i]);

			r = e->op == KB_AND ? logic_and(l, r, a) : logic_or(l, r, a);
		}
		return r;
	case KB_ENABLED:
	case KB_BUILTIN:
	case KB_MODULE:
		sym = kconfig_symbol(ctx, strip_config(e->name));
		if (!sym) {
			/* Not this architecture's (or no Kconfig's): kbuild sees it empty. */
			return ctx->kconfig ? LOGIC_FALSE : named_var(l, "kbuild:", e->name);
		}
		symbol_vars(ctx, sym, &y, &m);
		if (e->op == KB_BUILTIN)
			return y;
		if (e->op == KB_MODULE)
			return m;
		return logic_or(l, y, m);
	}
	return LOGIC_TRUE;
}
