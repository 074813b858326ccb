// SPDX-License-Identifier: GPL-2.0
/* The picosat wrapper; see sat.h. */
#include <stdlib.h>
#include <string.h>
#include <picosat/picosat.h>
#include "sat.h"

#define SAT_WITNESSES 8

/* The answer cache: formula -> 1 (sat) / 0 (unsat), open addressing. */
struct answer {
	formula f;
	int8_t used, value;
};

struct sat {
	struct logic *l;
	PicoSAT *ps;
	/*
	 * Two encoders: base definitions are logged for the DIMACS export, query
	 * definitions go to the solver only (a query may not grow the base).
	 */
	struct cnf_encoder *base_enc, *query_enc;
	int *log;		/* base clauses, each ended by 0 */
	size_t nr_log, alloc_log;
	size_t nr_base_clauses;
	int max_var;		/* the highest variable in the base */
	struct answer *answers;
	size_t nr_answers, cap_answers;
	size_t queries, cached, calls, witnessed;
	/*
	 * Models the solver found, kept to answer later questions without it: a
	 * formula true in one of them is satisfiable. A solver call assigns every
	 * variable (tens of milliseconds on Linux); evaluating a small formula in a
	 * few stored models costs microseconds, and most questions are satisfiable.
	 */
	int8_t *witness[SAT_WITNESSES];
	int witness_vars[SAT_WITNESSES];
	size_t nr_witnesses, next_witness;
	struct logic_eval *ev;
};

/*
 * The solver is made on the first question: a model that is only built,
 * dumped or never asked about costs no solver. Until then the log is the base.
 */
static void load_solver(struct sat *s)
{
	if (s->ps)
		return;
	s->ps = picosat_init();
	if (!s->ps)
		die("cannot initialise picosat");
	picosat_set_global_default_phase(s->ps, 0);
	for (size_t i = 0; i < s->nr_log; i++)
		picosat_add(s->ps, s->log[i]);
}

static void add_to_solver(struct sat *s, const int *lits, size_t nr)
{
	load_solver(s);
	for (size_t i = 0; i < nr; i++)
		picosat_add(s->ps, lits[i]);
	picosat_add(s->ps, 0);
}

static void base_sink(void *ctx, const int *lits, size_t nr)
{
	struct sat *s = ctx;
	ALLOC_GROW(s->log, s->nr_log + nr + 1, s->alloc_log);
	for (size_t i = 0; i < nr; i++) {
		int v = abs(lits[i]);
		s->log[s->nr_log++] = lits[i];
		if (v > s->max_var)
			s->max_var = v;
	}
	s->log[s->nr_log++] = 0;
	s->nr_base_clauses++;
	if (s->ps)
		add_to_solver(s, lits, nr);
	/* A stronger base may refute earlier answers and witnesses: forget them. */
	if (s->nr_answers) {
		memset(s->answers, 0, s->cap_answers * sizeof(*s->answers));
		s->nr_answers = 0;
	}
	s->nr_witnesses = s->next_witness = 0;
}

static void query_sink(void *ctx, const int *lits, size_t nr)
{
	add_to_solver(ctx, lits, nr);
}

struct sat *sat_new(struct logic *l)
{
	struct sat *s = xcalloc(1, sizeof(*s));
	s->l = l;
	s->base_enc = cnf_encoder_new(l, base_sink, s);
	s->query_enc = cnf_encoder_new(l, query_sink, s);
	return s;
}

void sat_free(struct sat *s)
{
	if (!s)
		return;
	if (s->ps)
		picosat_reset(s->ps);
	cnf_encoder_free(s->base_enc);
	cnf_encoder_free(s->query_enc);
	free(s->log);
	free(s->answers);
	for (size_t i = 0; i < SAT_WITNESSES; i++)
		free(s->witness[i]);
	logic_eval_free(s->ev);
	free(s);
}

struct logic *sat_logic(struct sat *s) { return s->l; }

void sat_add_clause(struct sat *s, const int *lits, size_t nr)
{
	base_sink(s, lits, nr);
}

void sat_assert(struct sat *s, formula f)
{
	cnf_assert(s->base_enc, f);
}

void sat_assert_guarded(struct sat *s, formula f, int guard)
{
	cnf_assert_guarded(s->base_enc, f, guard);
}

size_t sat_nr_base_clauses(const struct sat *s) { return s->nr_base_clauses; }

int sat_query_literal(struct sat *s, formula f)
{
	return cnf_literal(s->query_enc, f, 1, 1);
}

int sat_solve(struct sat *s, const int *assumptions, size_t nr)
{
	load_solver(s);
	for (size_t i = 0; i < nr; i++)
		picosat_assume(s->ps, assumptions[i]);
	s->calls++;
	int r = picosat_sat(s->ps, -1);
	if (r == PICOSAT_SATISFIABLE)
		return SAT_SAT;
	if (r == PICOSAT_UNSATISFIABLE)
		return SAT_UNSAT;
	die("picosat: no answer without a limit (%d)", r);
}

int sat_value(struct sat *s, int var)
{
	if (!s->ps || var <= 0 || var > picosat_variables(s->ps))
		return 0;
	return picosat_deref(s->ps, var);
}

size_t sat_failed(struct sat *s, const int *assumptions, size_t nr, int minimise,
		  int **out, size_t *alloc)
{
	size_t n = 0;
	if (minimise && !picosat_inconsistent(s->ps)) {
		const int *mus = picosat_mus_assumptions(s->ps, NULL, NULL, 0);
		/* Keep the caller's order: the MUS is a subset of the assumptions. */
		for (size_t i = 0; i < nr; i++) {
			for (const int *p = mus; p && *p; p++) {
				if (*p != assumptions[i])
					continue;
				ALLOC_GROW(*out, n + 1, *alloc);
				(*out)[n++] = assumptions[i];
				break;
			}
		}
		return n;
	}
	for (size_t i = 0; i < nr; i++) {
		if (!picosat_failed_assumption(s->ps, assumptions[i]))
			continue;
		ALLOC_GROW(*out, n + 1, *alloc);
		(*out)[n++] = assumptions[i];
	}
	return n;
}

static struct answer *answer_slot(struct sat *s, formula f)
{
	size_t mask = s->cap_answers - 1;
	size_t i = (f * 2654435761u) & mask;
	while (s->answers[i].used && s->answers[i].f != f)
		i = (i + 1) & mask;
	return &s->answers[i];
}

static void answers_grow(struct sat *s)
{
	struct answer *old = s->answers;
	size_t old_cap = s->cap_answers;
	s->cap_answers = old_cap ? old_cap * 2 : 256;
	s->answers = xcalloc(s->cap_answers, sizeof(*s->answers));
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].used)
			*answer_slot(s, old[i].f) = old[i];
	free(old);
}

/* Keeps the solver's current model among the witnesses (oldest one replaced). */
static void keep_witness(struct sat *s)
{
	int n = picosat_variables(s->ps);
	size_t i = s->next_witness;
	s->next_witness = (i + 1) % SAT_WITNESSES;
	if (i == s->nr_witnesses)
		s->nr_witnesses++;
	s->witness[i] = xrealloc(s->witness[i], n + 1);
	s->witness_vars[i] = n;
	s->witness[i][0] = 0;
	for (int v = 1; v <= n; v++)
		s->witness[i][v] = picosat_deref(s->ps, v);
}

static int witnessed(struct sat *s, formula f)
{
	if (!s->ev)
		s->ev = logic_eval_new(s->l, NULL, 0);
	for (size_t i = 0; i < s->nr_witnesses; i++) {
		logic_eval_set_values(s->ev, s->witness[i], s->witness_vars[i]);
		if (logic_eval(s->ev, f) > 0)
			return 1;
	}
	return 0;
}

int sat_satisfiable(struct sat *s, formula f)
{
	s->queries++;
	if ((s->nr_answers + 1) * 2 > s->cap_answers)
		answers_grow(s);
	struct answer *a = answer_slot(s, f);
	if (a->used) {
		s->cached++;
		return a->value;
	}
	int r;
	if (f == LOGIC_FALSE) {
		r = SAT_UNSAT;
	} else if (witnessed(s, f)) {
		r = SAT_SAT;
		s->witnessed++;
	} else {
		int lit = f == LOGIC_TRUE ? 0 : cnf_literal(s->query_enc, f, 1, 0);
		r = sat_solve(s, &lit, lit ? 1 : 0);
		if (r == SAT_SAT)
			keep_witness(s);
	}
	a = answer_slot(s, f);
	a->used = 1;
	a->f = f;
	a->value = r;
	s->nr_answers++;
	return r;
}

void sat_stats(const struct sat *s, size_t *queries, size_t *cached, size_t *calls)
{
	*queries = s->queries;
	*cached = s->cached + s->witnessed;
	*calls = s->calls;
}

int sat_base_satisfied_by(const struct sat *s, const int8_t *values, int nr_vars)
{
	int sat = 0;

	for (size_t i = 0; i < s->nr_log; i++) {
		int lit = s->log[i], var = lit < 0 ? -lit : lit;

		if (!lit) {
			if (!sat)
				return 0;
			sat = 0;
			continue;
		}
		if (!sat && var <= nr_vars && (values[var] > 0) == (lit > 0))
			sat = 1;
	}
	return 1;
}

void sat_write_dimacs(const struct sat *s, FILE *out)
{
	/* Variables of the store may exceed the base's: count them all, as DIMACS allows. */
	int vars = logic_nr_vars(s->l);
	if (s->max_var > vars)
		vars = s->max_var;
	fprintf(out, "p cnf %d %zu\n", vars, s->nr_base_clauses);
	for (size_t i = 0; i < s->nr_log; i++) {
		if (s->log[i])
			fprintf(out, "%d ", s->log[i]);
		else
			fputs("0\n", out);
	}
}
