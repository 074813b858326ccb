// SPDX-License-Identifier: GPL-2.0
/* Values for a formula's free variables, looked for greedily; see logic.h. */
#include <stdlib.h>
#include <string.h>
#include "logic-internal.h"

/* The obligations of one logic_extend() call. */
struct logic_extend {
	struct logic *l;
	uint32_t call;
	uint32_t *stamp;	/* per node: the call that committed it */
	uint8_t *want;		/* per node: the value committed to */
	size_t nr_nodes;
	uint32_t *var_stamp;	/* per variable: the call that chose its value */
	uint8_t *var_want;
	size_t nr_vars;
	/* Per node: the least and greatest variable below it (hi + 1; 0: not known yet). */
	uint32_t *lo, *hi;
	size_t nr_span;
	uint32_t *span_stack;
	size_t alloc_span_stack;
	formula *stack, *choices;	/* forced obligations; disjunctions to choose in */
	size_t nr_stack, alloc_stack, nr_choices, alloc_choices;
	uint32_t *assumed;	/* nodes taken true as holds() said, not walked */
	size_t nr_assumed, alloc_assumed;
	uint32_t *raised;	/* free variables chosen true */
	size_t nr_raised, alloc_raised;
	int (*value)(void *data, int var);
	int (*holds)(void *data, formula f);
	void *data;
};

struct logic_extend *logic_extend_new(struct logic *l)
{
	struct logic_extend *x = xcalloc(1, sizeof(*x));

	x->l = l;
	return x;
}

void logic_extend_free(struct logic_extend *x)
{
	if (!x)
		return;
	free(x->stamp);
	free(x->want);
	free(x->var_stamp);
	free(x->var_want);
	free(x->lo);
	free(x->hi);
	free(x->span_stack);
	free(x->stack);
	free(x->choices);
	free(x->assumed);
	free(x->raised);
	free(x);
}

static void extend_fit(struct logic_extend *x)
{
	struct logic *l = x->l;

	if (x->nr_nodes < l->nr_nodes) {
		size_t cap = logic_grown(x->nr_nodes, l->nr_nodes);

		x->stamp = xrealloc(x->stamp, cap * sizeof(*x->stamp));
		x->want = xrealloc(x->want, cap);
		memset(x->stamp + x->nr_nodes, 0, (cap - x->nr_nodes) * sizeof(*x->stamp));
		x->nr_nodes = cap;
	}
	if (x->nr_vars < l->nr_vars) {
		size_t cap = logic_grown(x->nr_vars, l->nr_vars);

		x->var_stamp = xrealloc(x->var_stamp, cap * sizeof(*x->var_stamp));
		x->var_want = xrealloc(x->var_want, cap);
		memset(x->var_stamp + x->nr_vars, 0, (cap - x->nr_vars) * sizeof(*x->var_stamp));
		x->nr_vars = cap;
	}
	if (!++x->call) {
		memset(x->stamp, 0, x->nr_nodes * sizeof(*x->stamp));
		memset(x->var_stamp, 0, x->nr_vars * sizeof(*x->var_stamp));
		x->call = 1;
	}
}

/*
 * The variables below node n lie in [lo[n], hi[n] - 1]: computed once per
 * node (a node never changes), without recursion.
 */
static void extend_span(struct logic_extend *x, uint32_t n)
{
	struct logic *l = x->l;
	size_t nr = 0;

	if (x->nr_span < l->nr_nodes) {
		size_t cap = logic_grown(x->nr_span, l->nr_nodes);

		x->lo = xrealloc(x->lo, cap * sizeof(*x->lo));
		x->hi = xrealloc(x->hi, cap * sizeof(*x->hi));
		memset(x->hi + x->nr_span, 0, (cap - x->nr_span) * sizeof(*x->hi));
		x->nr_span = cap;
	}
	ALLOC_GROW(x->span_stack, 1, x->alloc_span_stack);
	x->span_stack[nr++] = n;
	while (nr) {
		uint32_t m = x->span_stack[nr - 1];
		const struct node *nd = &l->nodes[m];
		uint32_t lo = UINT32_MAX, hi = 1;
		int pending = 0;

		if (x->hi[m]) {
			nr--;
			continue;
		}
		if (nd->op == OP_VAR) {
			x->lo[m] = nd->arg;
			x->hi[m] = nd->arg + 1;
			nr--;
			continue;
		}
		for (uint32_t i = 0; nd->op != OP_CONST && i < nd->nargs; i++) {
			uint32_t c = NODE(l->args[nd->arg + i]);

			if (x->hi[c]) {
				lo = x->lo[c] < lo ? x->lo[c] : lo;
				hi = x->hi[c] > hi ? x->hi[c] : hi;
				continue;
			}
			ALLOC_GROW(x->span_stack, nr + 1, x->alloc_span_stack);
			x->span_stack[nr++] = c;
			pending = 1;
		}
		if (pending)
			continue;
		x->lo[m] = lo;
		x->hi[m] = hi;
		nr--;
	}
}

/* f's value as far as it is known: 1 true, -1 false, 0 not yet (only literals and commitments). */
static int extend_known(struct logic_extend *x, formula f)
{
	const struct node *nd = &x->l->nodes[NODE(f)];
	int v = 0;

	if (nd->op == OP_CONST) {
		v = -1;
	} else if (nd->op == OP_VAR) {
		v = x->value(x->data, (int)nd->arg);
		if (!v && x->var_stamp[nd->arg] == x->call)
			v = x->var_want[nd->arg] ? 1 : -1;
	} else if (x->stamp[NODE(f)] == x->call) {
		v = x->want[NODE(f)] ? 1 : -1;
	}
	return NEG(f) ? -v : v;
}

/* Commits f to be true; 0 on a contradiction. */
static int extend_commit(struct logic_extend *x, formula f)
{
	uint32_t n = NODE(f);
	const struct node *nd = &x->l->nodes[n];
	int want = !NEG(f), known = extend_known(x, f);

	if (known)
		return known > 0;
	if (nd->op == OP_VAR) {
		x->var_stamp[nd->arg] = x->call;
		x->var_want[nd->arg] = (uint8_t)want;
		if (want) {
			ALLOC_GROW(x->raised, x->nr_raised + 1, x->alloc_raised);
			x->raised[x->nr_raised++] = nd->arg;
		}
		return 1;
	}
	x->stamp[n] = x->call;
	x->want[n] = (uint8_t)want;
	if (x->holds && x->holds(x->data, f)) {
		ALLOC_GROW(x->assumed, x->nr_assumed + 1, x->alloc_assumed);
		x->assumed[x->nr_assumed++] = n;
	} else if (nd->op == OP_AND && !want) {
		ALLOC_GROW(x->choices, x->nr_choices + 1, x->alloc_choices);
		x->choices[x->nr_choices++] = f;
	} else {
		ALLOC_GROW(x->stack, x->nr_stack + 1, x->alloc_stack);
		x->stack[x->nr_stack++] = f;
	}
	return 1;
}

/* The obligations of a committed node that are forced. */
static int extend_forced(struct logic_extend *x, formula f)
{
	const struct node *nd = &x->l->nodes[NODE(f)];
	const formula *a = x->l->args + nd->arg;
	int want = !NEG(f), c;

	switch (nd->op) {
	case OP_AND:
		/* Committed true (false ones are choices). */
		for (uint32_t i = 0; i < nd->nargs; i++)
			if (!extend_commit(x, x->l->args[nd->arg + i]))
				return 0;
		return 1;
	case OP_XOR:
		/* a ^ b == want: b follows from a once a is known. */
		c = extend_known(x, a[0]);
		if (!c && !extend_commit(x, a[0] ^ 1))
			return 0;
		c = extend_known(x, a[0]);
		return extend_commit(x, a[1] ^ (formula)((c > 0) == want));
	default:
		c = extend_known(x, a[0]);
		if (!c) {
			if (!extend_commit(x, a[0]))
				return 0;
			c = 1;
		}
		return extend_commit(x, (c > 0 ? a[1] : a[2]) ^ (formula)!want);
	}
}

/* A false conjunction: one argument false, one that is already if there is one. */
static int extend_choose(struct logic_extend *x, formula f)
{
	const struct node *nd = &x->l->nodes[NODE(f)];
	formula pick = 0;
	int found = 0;

	for (uint32_t i = 0; i < nd->nargs; i++) {
		formula a = x->l->args[nd->arg + i] ^ 1;
		int k = extend_known(x, a);

		if (k > 0)
			return 1;
		if (!k && !found) {
			pick = a;
			found = 1;
		}
	}
	return found && extend_commit(x, pick);
}

static int uint32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Does a free variable chosen true lie in the span of a node taken true
 * with its free variables false? Then that node may not hold after all.
 */
static int assumed_broken(struct logic_extend *x)
{
	if (!x->nr_raised)
		return 0;
	qsort(x->raised, x->nr_raised, sizeof(*x->raised), uint32_cmp);
	for (size_t i = 0; i < x->nr_assumed; i++) {
		uint32_t n = x->assumed[i];
		size_t lo = 0, hi = x->nr_raised;

		extend_span(x, n);
		/* The first raised variable >= lo[n]. */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (x->raised[mid] < x->lo[n])
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < x->nr_raised && x->raised[lo] < x->hi[n])
			return 1;
	}
	return 0;
}

static int extend_run(struct logic_extend *x, formula f)
{
	size_t next = 0;

	extend_fit(x);
	x->nr_stack = x->nr_choices = x->nr_assumed = x->nr_raised = 0;
	if (!extend_commit(x, f))
		return 0;
	for (;;) {
		while (x->nr_stack)
			if (!extend_forced(x, x->stack[--x->nr_stack]))
				return 0;
		if (next == x->nr_choices)
			return 1;
		if (!extend_choose(x, x->choices[next++]))
			return 0;
	}
}

int logic_extend(struct logic_extend *x, formula f, int (*value)(void *data, int var),
		 int (*holds)(void *data, formula f), void *data)
{
	int found;

	x->value = value;
	x->holds = holds;
	x->data = data;
	found = extend_run(x, f);
	if (found && holds && x->nr_assumed && assumed_broken(x)) {
		/* Walked whole: the shared parts are taken apart again. */
		x->holds = NULL;
		found = extend_run(x, f);
	}
	return found;
}
