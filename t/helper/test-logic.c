// SPDX-License-Identifier: GPL-2.0
/*
 * test-logic selftest: hash-consing and folding laws, then random formulas
 * checked against truth tables through the Tseitin encoding and picosat
 * (as asserted base clauses and as query literals in both polarities).
 * test-logic dimacs: a small base as DIMACS, for the picosat binary.
 * test-logic units: propagation beside picosat (sat-unit.c) against it.
 */
#include <stdlib.h>
#include <string.h>
#include "logic.h"
#include "sat.h"
#include "u64map.h"

#define NV 6

static unsigned long rng = 12345;
static unsigned rnd(unsigned n)
{
	rng = rng * 6364136223846793005ul + 1442695040888963407ul;
	return (unsigned)(rng >> 33) % n;
}

static formula random_formula(struct logic *l, const formula *pool, size_t nr_pool, int depth)
{
	if (!depth || rnd(4) == 0) {
		formula f = pool[rnd(nr_pool)];
		return rnd(2) ? logic_not(f) : f;
	}
	formula a = random_formula(l, pool, nr_pool, depth - 1);
	formula b = random_formula(l, pool, nr_pool, depth - 1);
	switch (rnd(7)) {
	case 0: return logic_and(l, a, b);
	case 1: return logic_or(l, a, b);
	case 2: return logic_xor(l, a, b);
	case 3: return logic_iff(l, a, b);
	case 4: return logic_implies(l, a, b);
	case 5: return logic_ite(l, a, b, random_formula(l, pool, nr_pool, depth - 1));
	default: {
		formula v[4] = { a, b, pool[rnd(nr_pool)], random_formula(l, pool, nr_pool, 1) };
		return rnd(2) ? logic_and_n(l, v, 4) : logic_or_n(l, v, 4);
	}
	}
}

static int check(int cond, const char *what)
{
	if (!cond)
		fprintf(stderr, "FAIL: %s\n", what);
	return !cond;
}

static int laws(struct logic *l, const formula *x)
{
	int bad = 0;
	formula a = x[0], b = x[1], c = x[2];
	bad += check(logic_and(l, a, b) == logic_and(l, b, a), "and commutes");
	bad += check(logic_or(l, a, b) == logic_not(logic_and(l, logic_not(a), logic_not(b))), "de Morgan");
	bad += check(logic_and(l, a, logic_not(a)) == LOGIC_FALSE, "x && !x");
	bad += check(logic_or(l, a, logic_not(a)) == LOGIC_TRUE, "x || !x");
	bad += check(logic_and(l, a, LOGIC_TRUE) == a, "x && true");
	bad += check(logic_or(l, a, LOGIC_TRUE) == LOGIC_TRUE, "x || true");
	bad += check(logic_xor(l, a, a) == LOGIC_FALSE, "x ^ x");
	bad += check(logic_iff(l, a, b) == logic_iff(l, b, a), "iff commutes");
	bad += check(logic_ite(l, a, b, b) == b, "ite same branches");
	bad += check(logic_ite(l, LOGIC_TRUE, b, c) == b, "ite true");
	bad += check(logic_ite(l, logic_not(a), b, c) == logic_ite(l, a, c, b), "ite negated condition");
	bad += check(logic_and(l, logic_and(l, a, b), c) == logic_and(l, a, logic_and(l, b, c)), "and flattens");
	bad += check(logic_and(l, a, a) == a, "and deduplicates");
	bad += check(logic_literal(l, logic_not(a)) == -logic_literal(l, a), "literal");
	return bad;
}

static int selftest(void)
{
	struct logic *l = logic_new();
	formula pool[NV];
	int bad = 0;
	for (int i = 0; i < NV; i++) {
		char name[16];
		snprintf(name, sizeof(name), "V%d", i);
		pool[i] = logic_atom(l, logic_var(l, name));
	}
	bad += laws(l, pool);
	bad += check(logic_var_find(l, "V3") == 4 && logic_var(l, "V3") == 4, "variable table");

	/* One incremental solver for all query literals; fresh ones for asserted bases. */
	struct sat *q = sat_new(l);
	int8_t values[NV + 1];
	size_t checked = 0;
	for (int round = 0; round < 200; round++) {
		formula f = random_formula(l, pool, NV, 4);
		int lit = sat_query_literal(q, f);
		struct sat *base = round % 6 ? NULL : sat_new(l);
		if (base)
			sat_assert(base, f);
		for (unsigned m = 0; m < (1u << NV); m++) {
			int as[NV + 1];
			for (int i = 0; i < NV; i++) {
				values[i + 1] = (m >> i) & 1 ? 1 : -1;
				as[i] = (m >> i) & 1 ? i + 1 : -(i + 1);
			}
			struct logic_eval *ev = logic_eval_new(l, values, NV);
			int want = logic_eval(ev, f) > 0;
			logic_eval_free(ev);
			as[NV] = lit;
			bad += check(sat_solve(q, as, NV + 1) == want, "query literal true");
			as[NV] = -lit;
			bad += check(sat_solve(q, as, NV + 1) == !want, "query literal false");
			if (base)
				bad += check(sat_solve(base, as, NV) == want, "asserted base");
			checked++;
		}
		bad += check(sat_satisfiable(q, f) == sat_satisfiable(q, f), "cache");
		sat_free(base);
		if (bad) {
			struct strbuf sb = STRBUF_INIT;
			logic_print(l, f, &sb);
			fprintf(stderr, "in %s\n", sb.buf);
			strbuf_release(&sb);
			break;
		}
	}
	/* A stronger base refutes what was satisfiable: no stale answer or witness. */
	struct sat *w = sat_new(l);
	bad += check(sat_satisfiable(w, pool[0]) == SAT_SAT, "satisfiable before");
	bad += check(sat_satisfiable(w, logic_and(l, pool[0], pool[1])) == SAT_SAT, "witness found");
	sat_assert(w, logic_not(pool[0]));
	bad += check(sat_satisfiable(w, pool[0]) == SAT_UNSAT, "cache forgotten");
	bad += check(sat_satisfiable(w, logic_and(l, pool[0], pool[1])) == SAT_UNSAT, "witness forgotten");
	sat_free(w);
	/* Unknown inputs: three-valued evaluation. */
	values[1] = 0;
	values[2] = -1;
	struct logic_eval *ev = logic_eval_new(l, values, NV);
	bad += check(logic_eval(ev, logic_and(l, pool[0], pool[1])) == -1, "eval: unknown && false");
	bad += check(logic_eval(ev, logic_or(l, pool[0], pool[1])) == 0, "eval: unknown || false");
	logic_eval_free(ev);
	/* Failed assumptions: a && b is refuted by !a alone. */
	int as[3] = { -1, 2, sat_query_literal(q, logic_and(l, pool[0], pool[1])) }, *failed = NULL;
	size_t alloc = 0, n;
	bad += check(sat_solve(q, as, 3) == SAT_UNSAT, "unsat under assumptions");
	n = sat_failed(q, as, 3, 1, &failed, &alloc);
	bad += check(n == 2 && failed[0] == -1 && failed[1] == as[2], "minimal failed assumptions");
	free(failed);
	sat_free(q);
	logic_free(l);
	printf("%zu assignments checked, %s\n", checked, bad ? "FAILED" : "ok");
	return !!bad;
}

static size_t solver_calls(struct sat *s)
{
	struct sat_stats st;

	sat_get_stats(s, &st);
	return st.calls;
}

/*
 * Witnesses and facts on variables made later: a unit fact on a fresh
 * variable keeps the answers and fixes the variable for older witnesses; a
 * variable without one is free; a clause on an old variable forgets; saved
 * witnesses answer a new solver's first question.
 */
static int witnesses(const char *dir)
{
	struct logic *l = logic_new();
	formula a = logic_atom(l, logic_var(l, "A")), b = logic_atom(l, logic_var(l, "B"));
	struct sat *s = sat_new(l), *t;
	int base_vars, bad = 0;
	size_t calls;
	char *path = xstrfmt("%s/witnesses/one", dir);

	sat_assert(s, logic_or(l, a, b));
	base_vars = logic_nr_vars(l);
	bad += check(sat_satisfiable(s, a) == SAT_SAT, "a");
	calls = solver_calls(s);
	/* A new variable C with the fact !C, as pc.c pins a bool's _MODULE. */
	int c = logic_var(l, "C");
	sat_add_clause(s, (int[]){ -c }, 1);
	bad += check(sat_satisfiable(s, a) == SAT_SAT && solver_calls(s) == calls,
		     "answer kept across a fresh fact");
	bad += check(sat_satisfiable(s, logic_and(l, a, logic_not(logic_atom(l, c)))) == SAT_SAT &&
		     solver_calls(s) == calls, "old witness with the fact's value");
	bad += check(sat_satisfiable(s, logic_and(l, a, logic_atom(l, c))) == SAT_UNSAT,
		     "the fact holds");
	calls = solver_calls(s);
	/* D: no fact, free both ways. */
	formula d = logic_atom(l, logic_var(l, "D"));
	bad += check(sat_satisfiable(s, logic_and(l, a, d)) == SAT_SAT &&
		     sat_satisfiable(s, logic_and(l, a, logic_not(d))) == SAT_SAT &&
		     solver_calls(s) == calls, "free variable either way, no solve");
	/* Saved and loaded by a solver with the same base. */
	sat_save_witnesses(s, path, base_vars);
	t = sat_new(l);
	sat_assert(t, logic_or(l, a, b));
	sat_load_witnesses(t, path, base_vars);
	bad += check(sat_satisfiable(t, a) == SAT_SAT && solver_calls(t) == 0, "loaded witness");
	sat_free(t);
	/* A different base: the saved assignments are no models of it. */
	t = sat_new(l);
	sat_assert(t, logic_and(l, logic_not(a), b));
	sat_load_witnesses(t, path, base_vars);
	bad += check(sat_satisfiable(t, b) == SAT_SAT && solver_calls(t) == 1, "foreign witness dropped");
	sat_free(t);
	/* A fact on a variable a query named is no fresh fact: answers go. */
	formula e = logic_atom(l, logic_var(l, "E"));
	bad += check(sat_satisfiable(s, logic_and(l, a, e)) == SAT_SAT, "free E");
	sat_add_clause(s, (int[]){ -logic_var_find(l, "E") }, 1);
	bad += check(sat_satisfiable(s, logic_and(l, a, e)) == SAT_UNSAT,
		     "a fact on a queried variable refutes the cached answer");
	/* A clause on an old variable may refute: forgotten. */
	sat_add_clause(s, (int[]){ -1 }, 1);
	bad += check(sat_satisfiable(s, a) == SAT_UNSAT, "old variable: answers forgotten");
	sat_free(s);
	logic_free(l);
	free(path);
	printf("witnesses %s\n", bad ? "FAILED" : "ok");
	return !!bad;
}

static const uint64_t *truth_column(void *data, int var)
{
	static uint64_t cols[NV + 1];

	(void)data;
	if (var > NV)
		return NULL;
	for (int v = 1; v <= NV; v++) {
		cols[v] = 0;
		for (unsigned m = 0; m < 64; m++)
			if ((m >> (v - 1)) & 1)
				cols[v] |= (uint64_t)1 << m;
	}
	return &cols[var];
}

/*
 * The sample pool: word-wise evaluation against the truth table of all 64
 * assignments of NV variables; models found by the solver past the first
 * word answer later questions without it, and none do when the pool is off
 * (the same answers, from the solver); a save merges with what another
 * solver saved to the same file. One scenario over one pool, read top to
 * bottom: its steps share the pool's state, so it stays one function
 * (longer than 100 lines).
 */
static int pool(const char *dir)
{
	struct logic *l = logic_new();
	formula vars[NV + 1], x[100];
	int bad = 0;
	char *path = xstrfmt("%s/pool/one", dir);

	/* Bit m of the word is assignment m: the pool's evaluator against logic_eval. */
	for (int i = 0; i < NV; i++)
		vars[i] = logic_atom(l, logic_var_new(l, NULL));
	vars[NV] = logic_atom(l, logic_var_new(l, "FREE"));
	struct logic_bits *b = logic_bits_new(l);
	int8_t values[NV + 1];
	for (int t = 0; t < 300 && !bad; t++) {
		formula f = random_formula(l, vars, NV + 1, 5);
		int used_free = 0;
		uint64_t w0 = logic_bits_eval(b, f, 1, truth_column, NULL, 0, &used_free)[0];
		uint64_t w1 = logic_bits_eval(b, f, 1, truth_column, NULL, ~(uint64_t)0, &used_free)[0];

		for (unsigned m = 0; m < 64; m++) {
			for (int v = 1; v <= NV; v++)
				values[v] = (m >> (v - 1)) & 1 ? 1 : -1;
			for (int fr = 0; fr < 2; fr++) {
				struct logic_eval *ev;

				values[0] = 0;
				int8_t all[NV + 2];
				memcpy(all, values, sizeof(values));
				all[NV + 1] = fr ? 1 : -1;
				ev = logic_eval_new(l, all, NV + 1);
				bad += check((logic_eval(ev, f) > 0) == (int)(((fr ? w1 : w0) >> m) & 1),
					     "bit-parallel evaluation");
				logic_eval_free(ev);
			}
		}
	}
	logic_bits_free(b);

	/* 100 variables, each question one of them alone: 100 models, two words. */
	struct sat *s = sat_new(l), *off = sat_new(l), *t;
	for (int i = 0; i < 100; i++)
		x[i] = logic_atom(l, logic_var_new(l, NULL));
	/* The base names them all, so the models know them. */
	formula any = logic_or_n(l, x, 100);
	sat_assert(s, any);
	sat_assert(off, any);
	/* The base's own variables, numbered alike in every solver: what a file keeps. */
	int nv = logic_nr_vars(l);
	sat_set_witnesses(s, 128);
	sat_set_witnesses(off, 0);
	for (int i = 0; i < 100; i++) {
		formula q = x[i];
		for (int j = 0; j < 100; j++)
			if (j != i)
				q = logic_and(l, q, logic_not(x[j]));
		bad += check(sat_satisfiable(s, q) == SAT_SAT, "one alone");
	}
	size_t calls = solver_calls(s);
	bad += check(calls == 100, "a solve each");
	/* x[90] && !x[91]: true in the 91st model (the second word) only among the pool's. */
	formula q = logic_and(l, x[90], logic_not(x[91]));
	bad += check(sat_satisfiable(s, q) == SAT_SAT && solver_calls(s) == calls,
		     "answered by the pool's second word");
	bad += check(sat_satisfiable(off, q) == SAT_SAT && solver_calls(off) == 1,
		     "the same answer from the solver, pool off");
	bad += check(sat_satisfiable(off, logic_and(l, x[90], logic_not(x[90]))) == SAT_UNSAT,
		     "pool off: unsatisfiable");
	/* Saved, then another solver (another worker) saves other models to the same file: both kept. */
	sat_save_witnesses(s, path, nv);
	t = sat_new(l);
	sat_assert(t, any);
	sat_set_witnesses(t, 128);
	formula both = logic_and(l, x[3], x[4]);
	bad += check(sat_satisfiable(t, both) == SAT_SAT && solver_calls(t) == 1,
		     "another solver's model");
	/* A fact on a variable made since (pc.c's _MODULE), in the base the file is checked against. */
	sat_add_clause(t, (int[]){ -logic_var(l, "LATE") }, 1);
	sat_save_witnesses(t, path, nv);
	struct sat *u = sat_new(l);
	sat_assert(u, any);
	sat_set_witnesses(u, 128);
	sat_load_witnesses(u, path, nv);
	bad += check(sat_satisfiable(u, both) == SAT_SAT && sat_satisfiable(u, q) == SAT_SAT &&
		     solver_calls(u) == 0, "the merged file holds both solvers' models");
	struct sat_stats st;
	sat_get_stats(u, &st);
	bad += check(st.pool == 101, "100 and 1 models, none twice");
	if (bad)
		fprintf(stderr, "pool %zu, calls %zu, witnessed %zu\n", st.pool, st.calls, st.witnessed);
	/* Two solvers of one base in a share: what one finds, the other uses. */
	struct sat_share *sh = sat_share_new(nv, 128);
	struct sat *v = sat_new(l), *w = sat_new(l);
	sat_assert(v, any);
	sat_assert(w, any);
	sat_set_witnesses(v, 128);
	sat_set_witnesses(w, 128);
	sat_load_witnesses(v, "/nonexistent", nv);
	sat_load_witnesses(w, "/nonexistent", nv);
	sat_join_share(v, sh);
	sat_join_share(w, sh);
	bad += check(sat_satisfiable(v, both) == SAT_SAT && solver_calls(v) == 1, "found by one");
	bad += check(sat_satisfiable(w, both) == SAT_SAT && solver_calls(w) == 0, "used by the other");
	sat_get_stats(w, &st);
	bad += check(st.shared == 1 && st.witnessed == 1, "taken from the share");
	/* A clause on the shared variables: its models are no longer the others'. */
	sat_add_clause(w, (int[]){ -logic_var_find(l, "FREE") }, 1);
	/* In no model found so far: v's has every x true (no random phases). */
	formula three = logic_and(l, x[5], logic_not(x[6]));
	bad += check(sat_satisfiable(v, three) == SAT_SAT && solver_calls(v) == 2, "found again");
	calls = solver_calls(w);
	bad += check(sat_satisfiable(w, three) == SAT_SAT && solver_calls(w) == calls + 1,
		     "left the share");
	sat_free(v);
	sat_free(w);
	sat_share_free(sh);
	sat_free(s);
	sat_free(off);
	sat_free(t);
	sat_free(u);
	logic_free(l);
	free(path);
	printf("pool %s\n", bad ? "FAILED" : "ok");
	return !!bad;
}

/*
 * A model found outside the solver (a defconfig's) kept as a witness
 * (sat_keep_model): it answers what it meets, nothing else, and a model
 * that does not know every variable of the base is not kept.
 */
static int kept_model(void)
{
	struct logic *l = logic_new();
	struct sat *s = sat_new(l);
	formula x[8], any = LOGIC_FALSE;
	int8_t vals[16] = { 0 };
	int bad = 0;

	for (int i = 0; i < 8; i++) {
		x[i] = logic_atom(l, logic_var_new(l, NULL));
		any = logic_or(l, any, x[i]);
	}
	sat_assert(s, any);
	sat_set_witnesses(s, 16);
	sat_keep_model(s, vals, 1);
	vals[2] = vals[5] = 1;	/* x[2] and x[5] true, the others false */
	sat_keep_model(s, vals, logic_nr_vars(l));
	bad += check(sat_satisfiable(s, logic_and(l, x[2], logic_not(x[3]))) == SAT_SAT &&
		     sat_satisfiable(s, logic_and(l, x[5], logic_not(x[0]))) == SAT_SAT &&
		     solver_calls(s) == 0, "kept model: answers what it meets without the solver");
	bad += check(sat_satisfiable(s, logic_and(l, x[3], x[4])) == SAT_SAT && solver_calls(s) == 1,
		     "kept model: others are solved");
	/* The short one (all false) was not kept: it would say the base's refutation holds. */
	bad += check(sat_satisfiable(s, logic_not(any)) == SAT_UNSAT, "kept model: a short one is not");
	sat_free(s);
	logic_free(l);
	printf("kept-model %s\n", bad ? "FAILED" : "ok");
	return !!bad;
}

/* The memo map: many keys alike in their low bits (pointers), growth, clear. */
static int u64map(void)
{
	struct u64map m = U64MAP_INIT;
	uint64_t v;
	int bad = 0;

	for (uint64_t i = 1; i <= 20000; i++)
		u64map_put(&m, i * 64, i);
	u64map_put(&m, 64, 7);
	bad += check(u64map_size(&m) == 20000, "u64map: size");
	for (uint64_t i = 2; i <= 20000; i++)
		if (!u64map_get(&m, i * 64, &v) || v != i)
			bad += check(0, "u64map: get");
	bad += check(u64map_get(&m, 64, &v) && v == 7, "u64map: replace");
	bad += check(!u64map_get(&m, 65, &v), "u64map: absent");
	u64map_clear(&m);
	bad += check(!u64map_get(&m, 128, &v) && u64map_size(&m) == 0, "u64map: clear");
	u64map_release(&m);
	printf("u64map %s\n", bad ? "FAILED" : "ok");
	return !!bad;
}

static int dimacs(void)
{
	struct logic *l = logic_new();
	formula a = logic_atom(l, logic_var(l, "A")), b = logic_atom(l, logic_var(l, "B"));
	formula c = logic_atom(l, logic_var(l, "C"));
	struct sat *s = sat_new(l);
	sat_assert(s, logic_and(l, logic_or(l, a, b), logic_implies(l, a, logic_iff(l, b, c))));
	sat_assert(s, logic_not(c));
	printf("c A 1\nc B 2\nc C 3\n");
	sat_write_dimacs(s, stdout);
	sat_free(s);
	logic_free(l);
	return 0;
}

/* Values of V0..V5 for the rewrite checks: fixed[] (1, -1, 0 free) and a full assignment. */
struct assignment {
	int fixed[NV + 1];
	int full[NV + 1];
	struct logic *l;
};

static int fixed_value(void *data, int var)
{
	return var <= NV ? ((struct assignment *)data)->fixed[var] : 0;
}

static int full_value(void *data, int var)
{
	return var <= NV && ((struct assignment *)data)->full[var] > 0;
}

/* Some values of the free variables make f true, the fixed ones kept? */
static int extendable(struct logic *l, formula f, struct assignment *as)
{
	for (int bits = 0; bits < 1 << NV; bits++) {
		int ok = 1;

		for (int v = 1; v <= NV; v++) {
			as->full[v] = (bits >> (v - 1)) & 1 ? 1 : -1;
			if (as->fixed[v] && as->fixed[v] != as->full[v])
				ok = 0;
		}
		if (ok && logic_eval_with(l, f, full_value, as))
			return 1;
	}
	return 0;
}

/* holds() for logic_extend(): g with the free variables false, or at times "unsure". */
static int free_false_holds(void *data, formula g)
{
	struct assignment *as = data;

	if (rnd(4) == 0)
		return 0;
	for (int v = 1; v <= NV; v++)
		as->full[v] = as->fixed[v] ? as->fixed[v] : -1;
	return logic_eval_with(as->l, g, full_value, as);
}

/*
 * logic_restrict() against substitution in every assignment; logic_extend()
 * never finds values where there are none, and finds them where f holds with
 * the free variables unknown.
 */
static int rewrite(void)
{
	struct logic *l = logic_new();
	formula pool[NV];
	int bad = 0;
	size_t found = 0, found_hinted = 0, total = 0;

	for (int i = 0; i < NV; i++) {
		char name[16];
		snprintf(name, sizeof(name), "V%d", i);
		pool[i] = logic_atom(l, logic_var(l, name));
	}
	for (int round = 0; round < 300; round++) {
		struct assignment as = { .l = l };
		struct logic_restrict *r;
		struct logic_extend *x = logic_extend_new(l);

		for (int v = 1; v <= NV; v++)
			as.fixed[v] = (int)rnd(3) - 1;
		r = logic_restrict_new(l, fixed_value, &as);
		for (int k = 0; k < 20; k++) {
			formula f = random_formula(l, pool, NV, 4);
			formula g = logic_restrict(r, f);
			int can = extendable(l, f, &as), ext = logic_extend(x, f, fixed_value, NULL, &as);
			int hinted = logic_extend(x, f, fixed_value, free_false_holds, &as);

			bad += check(logic_restrict(r, f) == g && logic_restrict(r, logic_not(f)) == logic_not(g),
				     "restrict memo");
			for (int bits = 0; bits < 1 << NV; bits++) {
				for (int v = 1; v <= NV; v++)
					as.full[v] = (bits >> (v - 1)) & 1 ? 1 : -1;
				/* g is f with the fixed variables substituted. */
				int fv, gv = logic_eval_with(l, g, full_value, &as);
				int saved[NV + 1];

				memcpy(saved, as.full, sizeof(saved));
				for (int v = 1; v <= NV; v++)
					if (as.fixed[v])
						as.full[v] = as.fixed[v];
				fv = logic_eval_with(l, f, full_value, &as);
				memcpy(as.full, saved, sizeof(saved));
				bad += check(fv == gv, "restrict agrees with substitution");
			}
			bad += check(!ext || can, "extend found values where there are none");
			bad += check(!hinted || can, "extend with holds() found values where there are none");
			found += ext;
			found_hinted += hinted;
			total += can;
		}
		logic_restrict_free(r);
		logic_extend_free(x);
	}
	/* Greedy, so not every one, but most. */
	bad += check(found * 2 > total, "extend finds most");
	bad += check(found_hinted * 2 > total, "extend with holds() finds most");
	printf("rewrite: extend found %zu of %zu, with holds() %zu\n", found, total, found_hinted);
	logic_free(l);
	if (!bad)
		printf("rewrite ok\n");
	return bad ? 1 : 0;
}

/* sat_complete()'s values, by variable. */
static int complete_value(void *data, int var)
{
	return ((const int8_t *)data)[var - 1] > 0;
}

/*
 * Questions without assumptions at once (sat_satisfiable_each: witnesses,
 * then disjunctions), one twice and one false, against the solver one by
 * one. *sat_yes counts those satisfiable.
 */
static int unassumed(struct logic *l, struct sat *s, formula *pool, int nr_pool, int round,
		     size_t *sat_yes)
{
	formula fq[8];
	char yes[8];
	int bad = 0;

	for (int i = 0; i < 6; i++)
		fq[i] = random_formula(l, pool, nr_pool, 2);
	fq[6] = fq[0];
	fq[7] = LOGIC_FALSE;
	if (round % 3 == 0)
		sat_satisfiable(s, fq[1]);
	sat_satisfiable_each(s, fq, 8, yes);
	for (int i = 0; i < 7; i++) {
		int q = sat_query_literal(s, fq[i]), want = sat_solve(s, &q, 1) == SAT_SAT;

		*sat_yes += want;
		bad += check(yes[i] == want, "sat_satisfiable_each answers otherwise than the solver");
	}
	bad += check(yes[7] == 0, "sat_satisfiable_each finds false satisfiable");
	return bad;
}

/*
 * sat-unit.c beside the solver: a question propagation refutes is one the
 * solver refutes, a model sat_complete() finds satisfies every formula of
 * the base and of the guard, and sat_solve_each() (propagation's
 * completions first) answers each question as the solver does alone.
 * Random bases over 12 variables, guards of random rules, random
 * questions.
 */
static int units(void)
{
	enum { VARS = 12, ROUNDS = 300 };
	struct logic *l = logic_new();
	formula pool[VARS], base[4], rule[8];
	size_t refuted = 0, unsat = 0, completed = 0, sat = 0, each_yes = 0, sat_yes = 0;
	int bad = 0;

	for (int i = 0; i < VARS; i++) {
		char name[16];

		snprintf(name, sizeof(name), "U%d", i);
		pool[i] = logic_atom(l, logic_var(l, name));
	}
	for (int round = 0; round < ROUNDS && !bad; round++) {
		struct sat *s = sat_new(l);
		int lits[8], guard, nr_vals;
		int8_t *vals;

		for (int i = 0; i < 3; i++) {
			base[i] = logic_or(l, random_formula(l, pool, VARS, 2), pool[rnd(VARS)]);
			sat_assert(s, base[i]);
		}
		/*
		 * Tracked literals encoded before the solver is made (but one
		 * round in four, where the solver is made after them), and
		 * untracked questions among them, whose definitions the copy
		 * never holds.
		 */
		for (int i = 0; i < 8; i++) {
			rule[i] = random_formula(l, pool, VARS, 3);
			sat_query_literal(s, random_formula(l, pool, VARS, 3));
			if (i < 4 && round % 4 != 3)
				lits[i] = sat_tracked_literal(s, rule[i]);
		}
		if (round % 2 == 0)
			sat_solve(s, NULL, 0);
		sat_track_units(s);
		/*
		 * A base clause after the copy is made, before the solver is (odd
		 * rounds): two variables the guesses, false first, would leave off.
		 */
		base[3] = logic_or(l, pool[rnd(VARS)], pool[rnd(VARS)]);
		sat_assert(s, base[3]);
		for (int i = round % 4 == 3 ? 0 : 4; i < 8; i++)
			lits[i] = sat_tracked_literal(s, rule[i]);
		guard = sat_guard(s, lits, 2 + rnd(7));
		for (int q = 0; q < 12; q++) {
			formula f = random_formula(l, pool, VARS, 2);
			int as[2] = { guard, sat_tracked_literal(s, f) };
			int r = sat_refuted(s, as, 1, as[1]), want = sat_solve(s, as, 2);

			refuted += r;
			unsat += want == SAT_UNSAT;
			bad += check(!r || want == SAT_UNSAT, "refuted by propagation, satisfiable");
		}
		nr_vals = logic_nr_vars(l);
		vals = xcalloc((size_t)nr_vals + 1, 1);
		if (sat_complete(s, &guard, 1, vals, nr_vals)) {
			completed++;
			for (int i = 0; i < 4; i++)
				bad += check(logic_eval_with(l, base[i], complete_value, vals) > 0,
					     "completion breaks the base");
			for (int i = 0; i < 8; i++)
				bad += check(vals[abs(lits[i]) - 1] != (lits[i] > 0) ||
					     logic_eval_with(l, rule[i], complete_value, vals) > 0,
					     "completion breaks a rule's definition");
		}
		/* Many questions at once (sat_solve_each), against the solver one by one. */
		{
			formula fq[6];
			char yes[6];

			for (int i = 0; i < 6; i++)
				fq[i] = random_formula(l, pool, VARS, 2);
			sat_solve_each(s, &guard, 1, fq, 6, yes);
			for (int i = 0; i < 6; i++) {
				int as[2] = { guard, sat_tracked_literal(s, fq[i]) };
				int want = sat_solve(s, as, 2) == SAT_SAT;

				each_yes += want;
				bad += check(yes[i] == want, "sat_solve_each answers otherwise than the solver");
			}
		}
		bad += unassumed(l, s, pool, VARS, round, &sat_yes);
		sat += sat_solve(s, &guard, 1) == SAT_SAT;
		free(vals);
		sat_free(s);
	}
	printf("units: %zu of %zu refutations by propagation; %zu of %zu guards completed; "
	       "%zu questions at once satisfiable\n", refuted, unsat, completed, sat, each_yes);
	bad += check(each_yes > 0, "no question at once satisfiable");
	bad += check(sat_yes > 0 && sat_yes < 7 * ROUNDS, "sat_satisfiable_each never tried both answers");
	bad += check(refuted > 0 && completed > 0, "propagation never answers");
	logic_free(l);
	if (!bad)
		printf("units ok\n");
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "selftest"))
		return selftest();
	if (argc == 2 && !strcmp(argv[1], "dimacs"))
		return dimacs();
	if (argc == 2 && !strcmp(argv[1], "kept-model"))
		return kept_model();
	if (argc == 2 && !strcmp(argv[1], "u64map"))
		return u64map();
	if (argc == 2 && !strcmp(argv[1], "rewrite"))
		return rewrite();
	if (argc == 2 && !strcmp(argv[1], "units"))
		return units();
	if (argc == 3 && !strcmp(argv[1], "witnesses"))
		return witnesses(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "pool"))
		return pool(argv[2]);
	fprintf(stderr, "usage: test-logic (selftest | dimacs | u64map | rewrite | units | witnesses <dir> | pool <dir>)\n");
	return 129;
}
