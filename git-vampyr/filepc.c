// SPDX-License-Identifier: GPL-2.0
/*
 * The file presence condition from kbuild (obj-$(CONFIG_X) += foo.o and the
 * directories above), as a formula over the model's variables: a block is
 * compiled only when its file is, so the condition is ANDed into every block's.
 */
#include <stdlib.h>

#include "kbuild.h"
#include "vampyr.h"

static formula symbol_part(struct vampyr *v, const char *name, enum kbuild_op op)
{
	int y = model_var_y(v->model, name), m = model_var_m(v->model, name);
	formula fy, fm;

	/* A symbol this architecture's Kconfig does not define is n: obj- is never built. */
	if (!y || !strmap_get(&v->defined, name))
		return LOGIC_FALSE;
	fy = logic_atom(v->logic, y);
	fm = m ? logic_atom(v->logic, m) : LOGIC_FALSE;
	switch (op) {
	case KB_BUILTIN:
		return fy;
	case KB_MODULE:
		return fm;
	default:
		return logic_or(v->logic, fy, fm);
	}
}

formula kbuild_formula(struct vampyr *v, const struct kbuild_expr *e)
{
	formula f;

	switch (e->op) {
	case KB_FALSE:
		return LOGIC_FALSE;
	case KB_TRUE:
		return LOGIC_TRUE;
	case KB_ENABLED:
	case KB_BUILTIN:
	case KB_MODULE:
		return symbol_part(v, e->name, e->op);
	case KB_FREE: {
		char *name = xstrfmt("kbuild:%s", e->name);

		f = logic_atom(v->logic, logic_var(v->logic, name));
		free(name);
		return f;
	}
	case KB_NOT:
		return logic_not(kbuild_formula(v, e->sub[0]));
	case KB_AND:
		f = LOGIC_TRUE;
		for (unsigned i = 0; i < e->nr; i++)
			f = logic_and(v->logic, f, kbuild_formula(v, e->sub[i]));
		return f;
	case KB_OR:
		f = LOGIC_FALSE;
		for (unsigned i = 0; i < e->nr; i++)
			f = logic_or(v->logic, f, kbuild_formula(v, e->sub[i]));
		return f;
	}
	return LOGIC_TRUE;
}
