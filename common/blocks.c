// SPDX-License-Identifier: GPL-2.0
/*
 * A file's blocks and their presence conditions, on the library's pieces:
 * cpp for the blocks, the trees' macros, pc for the formulas, the trees'
 * Kbuild maps for the file's own condition.
 */
#include "blocks.h"

#include <stdlib.h>
#include <string.h>

#include "pc.h"

struct blocks {
	struct arch_model *am;
	struct pc_context pcx;
};

struct cpp_file *blocks_scan(const struct tree_models *tm, const char *path, const char *data,
			     size_t size, int print_errors)
{
	struct cpp_options opt = {
		.path = path,
		.macros = tm->macros,
		.asm_file = !ends_with(path, ".c") && !ends_with(path, ".h"),
		.print_errors = print_errors,
	};

	return cpp_scan(data, size, &opt);
}

struct blocks *blocks_new(const struct tree_models *tm, struct arch_model *am)
{
	struct blocks *b = xcalloc(1, sizeof(*b));

	b->am = am;
	pc_context_init(&b->pcx, am->logic, am->kconfig, tm->kconfig_defined, tm->cmdline_defined);
	b->pcx.facts = am->sat;
	return b;
}

void blocks_free(struct blocks *b)
{
	if (!b)
		return;
	pc_context_release(&b->pcx);
	free(b);
}

formula blocks_formula(struct blocks *b, const struct cpp_expr *e)
{
	return pc_formula(&b->pcx, e);
}

int blocks_build_known(const struct kbuild_file *kf)
{
	return kf && kf->kind == KBUILD_OBJECT;
}

int blocks_build_unlisted(const struct kbuild_file *kf)
{
	return kf && kf->kind == KBUILD_UNLISTED;
}

formula blocks_build_formula(struct blocks *b, const struct kbuild_file *kf,
			     enum blocks_build which)
{
	if (!blocks_build_known(kf))
		return LOGIC_TRUE;
	switch (which) {
	case BLOCKS_BUILTIN:
		return pc_kbuild_formula(&b->pcx, kf->builtin);
	case BLOCKS_MODULE:
		return pc_kbuild_formula(&b->pcx, kf->module);
	default:
		return pc_kbuild_formula(&b->pcx, kf->cond);
	}
}

void blocks_forget_exprs(struct blocks *b)
{
	pc_context_forget_exprs(&b->pcx);
}

void blocks_rule_out_missing(struct blocks *b)
{
	struct strmap_entry *e;

	strmap_for_each(&b->pcx.missing, e) {
		int lit = -(int)(intptr_t)e->value;

		sat_add_clause(b->am->sat, &lit, 1);
	}
}

int blocks_of_file(struct trees *t, size_t arch, struct blocks *b, const char *path,
		   struct blocks_file *out)
{
	struct kbuild_map *kb = t->env.no_kbuild ? NULL : trees_kbuild(t, arch);

	memset(out, 0, sizeof(*out));
	out->repo = t->env.repo;
	out->kf = kb ? kbuild_map_lookup(kb, path) : NULL;
	/* Unlisted files may be #included by a listed one: no condition of their own. */
	out->compiled = blocks_build_formula(b, out->kf, BLOCKS_COMPILED);
	if (repo_read_path(t->env.repo, &t->commit, path, &out->blob))
		return error("%s: cannot read it at %s", path, oid_short(t->env.repo, &t->commit));
	out->f = blocks_scan(&t->tm, path, out->blob->data, out->blob->size, 1);
	return 0;
}

void blocks_file_release(struct blocks_file *bf)
{
	cpp_file_free(bf->f);
	if (bf->blob)
		blob_release(bf->repo, bf->blob);
	memset(bf, 0, sizeof(*bf));
}
