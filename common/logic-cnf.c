// SPDX-License-Identifier: GPL-2.0
/* The Tseitin encoding of the store's formulas into CNF; see logic.h. */
#include <stdlib.h>
#include <string.h>
#include "logic-internal.h"
#include "diskcache.h"

struct cnf_encoder {
	struct logic *l;
	clause_sink_fn sink;
	void *ctx;
	int *lit;		/* per node: its literal, 0 = none yet */
	uint8_t *done;		/* per node: 1 = "lit -> node" added, 2 = "node -> lit" added */
	size_t nr;
	int true_var;
	uint32_t *stack;	/* pending (node << 2 | polarity) */
	size_t nr_stack, alloc_stack;
	int *clause;
	size_t nr_clause, alloc_clause;
};

struct cnf_encoder *logic_cnf_encoder_new(struct logic *l, clause_sink_fn sink, void *ctx)
{
	struct cnf_encoder *enc = xcalloc(1, sizeof(*enc));
	enc->l = l;
	enc->sink = sink;
	enc->ctx = ctx;
	return enc;
}

void logic_cnf_encoder_free(struct cnf_encoder *enc)
{
	if (!enc)
		return;
	free(enc->lit);
	free(enc->done);
	free(enc->stack);
	free(enc->clause);
	free(enc);
}

static void enc_fit(struct cnf_encoder *enc)
{
	size_t want = enc->l->nr_nodes;
	if (enc->nr >= want)
		return;
	size_t n = want + want / 2 + 64;
	enc->lit = xrealloc(enc->lit, n * sizeof(*enc->lit));
	enc->done = xrealloc(enc->done, n);
	memset(enc->lit + enc->nr, 0, (n - enc->nr) * sizeof(*enc->lit));
	memset(enc->done + enc->nr, 0, n - enc->nr);
	enc->nr = n;
}

static int node_lit(struct cnf_encoder *enc, uint32_t n)
{
	enc_fit(enc);
	if (enc->lit[n])
		return enc->lit[n];
	int v;
	if (enc->l->nodes[n].op == OP_VAR) {
		v = enc->l->nodes[n].arg;
	} else if (enc->l->nodes[n].op == OP_CONST) {
		/* Node 0 is "false": its literal is the negation of a variable forced true. */
		if (!enc->true_var) {
			enc->true_var = logic_var_new(enc->l, NULL);
			enc->sink(enc->ctx, &enc->true_var, 1);
		}
		v = -enc->true_var;
	} else {
		v = logic_var_new(enc->l, NULL);
	}
	enc_fit(enc);
	enc->lit[n] = v;
	return v;
}

static int flit(struct cnf_encoder *enc, formula f)
{
	int v = node_lit(enc, NODE(f));
	return NEG(f) ? -v : v;
}

/* Needs lit(f) -> f (want_true) or !lit(f) -> !f: a polarity of f's node. */
static void require(struct cnf_encoder *enc, formula f, int want_true)
{
	unsigned pol = (want_true ^ NEG(f)) ? 1 : 2;
	ALLOC_GROW(enc->stack, enc->nr_stack + 1, enc->alloc_stack);
	enc->stack[enc->nr_stack++] = NODE(f) << 2 | pol;
}

static void emit(struct cnf_encoder *enc, int a, int b, int c)
{
	int v[3] = { a, b, c };
	enc->sink(enc->ctx, v, c ? 3 : 2);
}

static void drain(struct cnf_encoder *enc)
{
	while (enc->nr_stack) {
		uint32_t item = enc->stack[--enc->nr_stack];
		uint32_t n = item >> 2;
		enc_fit(enc);
		unsigned missing = (item & 3) & ~enc->done[n];
		if (!missing)
			continue;
		enc->done[n] |= missing;
		struct node nd = enc->l->nodes[n];
		if (nd.op == OP_VAR || nd.op == OP_CONST)
			continue;
		int x = node_lit(enc, n);
		/* l->args only grows when a non-variable node is made: never here. */
		const formula *a = enc->l->args + nd.arg;
		if (nd.op == OP_AND) {
			if (missing & 1) {
				for (uint32_t i = 0; i < nd.nargs; i++) {
					emit(enc, -x, flit(enc, a[i]), 0);
					require(enc, a[i], 1);
				}
			}
			if (missing & 2) {
				enc->nr_clause = 0;
				ALLOC_GROW(enc->clause, nd.nargs + 1, enc->alloc_clause);
				enc->clause[enc->nr_clause++] = x;
				for (uint32_t i = 0; i < nd.nargs; i++) {
					int li = flit(enc, a[i]);
					enc->clause[enc->nr_clause++] = -li;
					require(enc, a[i], 0);
				}
				enc->sink(enc->ctx, enc->clause, enc->nr_clause);
			}
		} else if (nd.op == OP_XOR) {
			int p = flit(enc, a[0]), q = flit(enc, a[1]);
			if (missing & 1) {
				emit(enc, -x, p, q);
				emit(enc, -x, -p, -q);
			}
			if (missing & 2) {
				emit(enc, x, -p, q);
				emit(enc, x, p, -q);
			}
			require(enc, a[0], 1);
			require(enc, a[0], 0);
			require(enc, a[1], 1);
			require(enc, a[1], 0);
		} else if (nd.op == OP_ITE) {
			int c = flit(enc, a[0]), t = flit(enc, a[1]), e = flit(enc, a[2]);
			require(enc, a[0], 1);
			require(enc, a[0], 0);
			if (missing & 1) {
				emit(enc, -x, -c, t);
				emit(enc, -x, c, e);
				require(enc, a[1], 1);
				require(enc, a[2], 1);
			}
			if (missing & 2) {
				emit(enc, x, -c, -t);
				emit(enc, x, c, -e);
				require(enc, a[1], 0);
				require(enc, a[2], 0);
			}
		}
	}
}

int logic_cnf_literal(struct cnf_encoder *enc, formula f, int want_true, int want_false)
{
	int v = flit(enc, f);
	if (want_true)
		require(enc, f, 1);
	if (want_false)
		require(enc, f, 0);
	drain(enc);
	return v;
}

void logic_cnf_replay(const struct cnf_encoder *enc, clause_sink_fn sink, void *ctx)
{
	size_t n = enc->nr < enc->l->nr_nodes ? enc->nr : enc->l->nr_nodes;
	int *c = NULL;
	size_t alloc = 0;

	if (enc->true_var)
		sink(ctx, &enc->true_var, 1);
	for (size_t i = 0; i < n; i++) {
		struct node nd = enc->l->nodes[i];
		const formula *a = enc->l->args + nd.arg;
		int x = enc->lit[i], v[3];
		unsigned done = enc->done[i];

		if (!done || !x || nd.op == OP_VAR || nd.op == OP_CONST)
			continue;
		/* The literals of the arguments: drain() made them before these clauses. */
#define LIT_OF(f) (NEG(f) ? -enc->lit[NODE(f)] : enc->lit[NODE(f)])
#define EMIT(p, q, r) (v[0] = (p), v[1] = (q), v[2] = (r), sink(ctx, v, (r) ? 3 : 2))
		if (nd.op == OP_AND) {
			for (uint32_t k = 0; (done & 1) && k < nd.nargs; k++)
				EMIT(-x, LIT_OF(a[k]), 0);
			if (done & 2) {
				ALLOC_GROW(c, nd.nargs + 1, alloc);
				c[0] = x;
				for (uint32_t k = 0; k < nd.nargs; k++)
					c[k + 1] = -LIT_OF(a[k]);
				sink(ctx, c, nd.nargs + 1);
			}
		} else if (nd.op == OP_XOR) {
			int p = LIT_OF(a[0]), q = LIT_OF(a[1]);

			if (done & 1) {
				EMIT(-x, p, q);
				EMIT(-x, -p, -q);
			}
			if (done & 2) {
				EMIT(x, -p, q);
				EMIT(x, p, -q);
			}
		} else if (nd.op == OP_ITE) {
			int cnd = LIT_OF(a[0]), t = LIT_OF(a[1]), e = LIT_OF(a[2]);

			if (done & 1) {
				EMIT(-x, -cnd, t);
				EMIT(-x, cnd, e);
			}
			if (done & 2) {
				EMIT(x, -cnd, -t);
				EMIT(x, cnd, -e);
			}
		}
#undef LIT_OF
#undef EMIT
	}
	free(c);
}

/* Emits a top-level clause, weakened by !guard when there is a guard. */
static void emit_top(struct cnf_encoder *enc, int *c, size_t nr, int guard)
{
	if (guard)
		c[nr++] = -guard;
	enc->sink(enc->ctx, c, nr);
}

void logic_cnf_assert_guarded(struct cnf_encoder *enc, formula f, int guard)
{
	int unit[2];
	if (f == LOGIC_TRUE)
		return;
	if (f == LOGIC_FALSE) {
		emit_top(enc, unit, 0, guard);
		return;
	}
	struct node nd = enc->l->nodes[NODE(f)];
	if (nd.op == OP_AND && !NEG(f)) {
		for (uint32_t i = 0; i < nd.nargs; i++)
			logic_cnf_assert_guarded(enc, enc->l->args[nd.arg + i], guard);
		return;
	}
	if (nd.op == OP_AND) {
		/* !(a && b && ...) is the clause (!a || !b || ...). */
		int *c = xmalloc((nd.nargs + 1) * sizeof(*c));
		for (uint32_t i = 0; i < nd.nargs; i++) {
			formula ai = enc->l->args[nd.arg + i] ^ 1;
			c[i] = flit(enc, ai);
			require(enc, ai, 1);
		}
		drain(enc);
		emit_top(enc, c, nd.nargs, guard);
		free(c);
		return;
	}
	unit[0] = logic_cnf_literal(enc, f, 1, 0);
	emit_top(enc, unit, 1, guard);
}

void logic_cnf_assert(struct cnf_encoder *enc, formula f)
{
	logic_cnf_assert_guarded(enc, f, 0);
}

void logic_cnf_encoder_save(const struct cnf_encoder *enc, struct strbuf *sb)
{
	size_t n = enc->nr < enc->l->nr_nodes ? enc->nr : enc->l->nr_nodes;
	uint32_t *done = xmalloc((n + 1) * sizeof(*done));

	for (size_t i = 0; i < n; i++)
		done[i] = enc->done[i];
	diskcache_put_u64(sb, (uint64_t)enc->true_var);
	diskcache_put_u32s(sb, (const uint32_t *)enc->lit, n);
	diskcache_put_u32s(sb, done, n);
	free(done);
}

int logic_cnf_encoder_load(struct cnf_encoder *enc, struct diskcache_reader *rd)
{
	uint64_t true_var = diskcache_get_u64(rd);
	uint32_t *lit, *done;
	size_t n = diskcache_get_u32s(rd, &lit, enc->l->nr_nodes);
	size_t nd = diskcache_get_u32s(rd, &done, enc->l->nr_nodes);
	long vars = (long)enc->l->nr_vars;
	int ok = !rd->bad && n == nd && true_var < (uint64_t)vars && !enc->nr;

	for (size_t i = 0; ok && i < n; i++) {
		long v = (int)lit[i];

		ok = v > -vars && v < vars && done[i] <= 3;
	}
	if (ok && n) {
		enc_fit(enc);
		memcpy(enc->lit, lit, n * sizeof(*enc->lit));
		for (size_t i = 0; i < n; i++)
			enc->done[i] = (uint8_t)done[i];
		enc->true_var = (int)true_var;
	}
	free(lit);
	free(done);
	if (!ok)
		rd->bad = 1;
	return ok ? 0 : -1;
}
