// SPDX-License-Identifier: GPL-2.0
/* The picosat wrapper; see sat.h. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <picosat/picosat.h>
#include "process.h"
#include "sat.h"
#include "u64map.h"

#define SAT_DEFAULT_WITNESSES 8


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
	struct u64map answers;	/* formula + 1 -> SAT_SAT or SAT_UNSAT */
	size_t queries, cached, calls, witnessed, unsat;
	double sat_seconds, unsat_seconds;	/* thread CPU time in solver calls, by answer */
	/*
	 * Models the solver found, kept to answer later questions without it: a
	 * formula true in one of them is satisfiable. A solver call assigns every
	 * variable (tens of milliseconds on Linux); evaluating a small formula in a
	 * few stored models costs microseconds, and most questions are satisfiable.
	 */
	int8_t *witness[SAT_MAX_WITNESSES];
	int witness_vars[SAT_MAX_WITNESSES];
	size_t nr_witnesses, next_witness, max_witnesses;
	int witnesses_found;	/* the solver found one since sat_load_witnesses() */
	int random_phase;	/* decisions take random phases: diverse witnesses */
	int interrupted;	/* a solve was cut short: answers are made up */
	/*
	 * The store's variable count at the last question: a base clause over
	 * variables above it only (a fact about a variable made since) cannot
	 * touch an earlier answer, which stays. A unit fact's value is kept in
	 * late[] for the witnesses made before the variable; any other variable
	 * they do not know is free.
	 */
	int seen_vars;
	int8_t *late;
	size_t alloc_late;
	struct logic_eval *ev;
};

/* picosat polls this during a solve: an interrupt ends the call early. */
static int solve_interrupted(void *data)
{
	(void)data;
	return process_interrupted() != 0;
}

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
	picosat_set_global_default_phase(s->ps, s->random_phase ? 3 : 0);
	picosat_set_interrupt(s->ps, NULL, solve_interrupted);
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

/* Are all the clause's variables newer than every question asked so far? */
static int fresh_clause(const struct sat *s, const int *lits, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (abs(lits[i]) <= s->seen_vars)
			return 0;
	return 1;
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
	if (nr && fresh_clause(s, lits, nr)) {
		if (nr == 1) {
			int v = abs(lits[0]);

			if ((size_t)v >= s->alloc_late) {
				size_t old = s->alloc_late;

				s->alloc_late = ((size_t)v + 1) * 2;
				s->late = xrealloc(s->late, s->alloc_late);
				memset(s->late + old, 0, s->alloc_late - old);
			}
			s->late[v] = lits[0] > 0 ? 1 : -1;
		} else {
			/* Free variables are tried all false or all true: this clause may want both. */
			s->nr_witnesses = s->next_witness = 0;
		}
		return;
	}
	/* A stronger base may refute earlier answers and witnesses: forget them. */
	u64map_clear(&s->answers);
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
	s->max_witnesses = SAT_DEFAULT_WITNESSES;
	s->base_enc = logic_cnf_encoder_new(l, base_sink, s);
	s->query_enc = logic_cnf_encoder_new(l, query_sink, s);
	return s;
}

void sat_free(struct sat *s)
{
	if (!s)
		return;
	if (s->ps)
		picosat_reset(s->ps);
	logic_cnf_encoder_free(s->base_enc);
	logic_cnf_encoder_free(s->query_enc);
	free(s->log);
	u64map_release(&s->answers);
	for (size_t i = 0; i < SAT_MAX_WITNESSES; i++)
		free(s->witness[i]);
	free(s->late);
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
	logic_cnf_assert(s->base_enc, f);
}

void sat_assert_guarded(struct sat *s, formula f, int guard)
{
	logic_cnf_assert_guarded(s->base_enc, f, guard);
}

size_t sat_nr_base_clauses(const struct sat *s) { return s->nr_base_clauses; }

static void seen(struct sat *s)
{
	int n = logic_nr_vars(s->l);

	if (n > s->seen_vars)
		s->seen_vars = n;
}

int sat_query_literal(struct sat *s, formula f)
{
	seen(s);
	return logic_cnf_literal(s->query_enc, f, 1, 1);
}

static double thread_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int sat_solve(struct sat *s, const int *assumptions, size_t nr)
{
	load_solver(s);
	seen(s);
	/*
	 * Interrupted: the run keeps nothing of this answer, so any will do;
	 * "unsatisfiable" keeps a wrong model out of the witnesses.
	 */
	if (process_interrupted())
		return s->interrupted = 1, SAT_UNSAT;
	for (size_t i = 0; i < nr; i++)
		picosat_assume(s->ps, assumptions[i]);
	s->calls++;
	double start = thread_seconds();
	int r = picosat_sat(s->ps, -1);
	if (r == PICOSAT_SATISFIABLE) {
		s->sat_seconds += thread_seconds() - start;
		return SAT_SAT;
	}
	if (r == PICOSAT_UNSATISFIABLE) {
		s->unsat_seconds += thread_seconds() - start;
		return SAT_UNSAT;
	}
	if (process_interrupted())
		return s->interrupted = 1, SAT_UNSAT;
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
	/* No refutation to ask about: the last answer was made up. */
	if (s->interrupted)
		return 0;
	if (minimise && !picosat_inconsistent(s->ps)) {
		const int *mus;

		/* Its inner solves may not stop halfway: it asks for a refutation. */
		picosat_set_interrupt(s->ps, NULL, NULL);
		mus = picosat_mus_assumptions(s->ps, NULL, NULL, 0);
		picosat_set_interrupt(s->ps, NULL, solve_interrupted);
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

/* Keeps the solver's current model among the witnesses (oldest one replaced). */
static void keep_witness(struct sat *s)
{
	int n = picosat_variables(s->ps);
	size_t i = s->next_witness;
	s->next_witness = (i + 1) % s->max_witnesses;
	if (i == s->nr_witnesses)
		s->nr_witnesses++;
	s->witness[i] = xrealloc(s->witness[i], n + 1);
	s->witness_vars[i] = n;
	s->witness[i][0] = 0;
	for (int v = 1; v <= n; v++)
		s->witness[i][v] = picosat_deref(s->ps, v);
	s->witnesses_found = 1;
}

struct witness_eval {
	const struct sat *s;
	const int8_t *w;
	int n, free_value, used_free;
};

static int witness_value(void *data, int var)
{
	struct witness_eval *we = data;

	if (var <= we->n)
		return we->w[var];
	if ((size_t)var < we->s->alloc_late && we->s->late[var])
		return we->s->late[var];
	/* Made after the witness and constrained by no base clause: either value. */
	we->used_free = 1;
	return we->free_value;
}

/*
 * Is f true in a witness? Variables made since it are fixed by their unit
 * facts, or free: then tried all false, then all true (both extend the
 * witness to a model of the base, which says nothing of them).
 */
static int witnessed(struct sat *s, formula f)
{
	struct witness_eval we = { .s = s };

	if (!s->ev)
		s->ev = logic_eval_new(s->l, NULL, 0);
	for (size_t i = 0; i < s->nr_witnesses; i++) {
		int r;

		/*
		 * Three-valued first, shared subformulas evaluated once (model
		 * formulas are large DAGs): variables the witness does not know
		 * are unknown, and only an unknown result needs them.
		 */
		logic_eval_set_values(s->ev, s->witness[i], s->witness_vars[i]);
		r = logic_eval(s->ev, f);
		if (r > 0)
			return 1;
		if (r < 0)
			continue;
		we.w = s->witness[i];
		we.n = s->witness_vars[i];
		we.used_free = 0;
		we.free_value = -1;
		if (logic_eval_with(s->l, f, witness_value, &we))
			return 1;
		if (!we.used_free)
			continue;
		we.free_value = 1;
		if (logic_eval_with(s->l, f, witness_value, &we))
			return 1;
	}
	return 0;
}

void sat_set_random_phase(struct sat *s)
{
	s->random_phase = 1;
	if (s->ps)
		picosat_set_global_default_phase(s->ps, 3);
}

void sat_set_witnesses(struct sat *s, size_t n)
{
	if (n < 1)
		n = 1;
	if (n > SAT_MAX_WITNESSES)
		n = SAT_MAX_WITNESSES;
	s->max_witnesses = n;
	if (s->nr_witnesses > n)
		s->nr_witnesses = n;
	s->next_witness %= n;
}

/* The file: "undertaker samples 1 <vars> <count>\n", then each witness as a bit per variable. */
#define WITNESS_MAGIC "undertaker samples 1"

void sat_load_witnesses(struct sat *s, const char *path, int nr_vars)
{
	size_t bytes = ((size_t)nr_vars + 8) / 8;
	unsigned char *bits;
	FILE *f = fopen(path, "rb");
	int vars, count;

	if (nr_vars > s->seen_vars)
		s->seen_vars = nr_vars;
	if (!f)
		return;
	if (fscanf(f, WITNESS_MAGIC " %d %d", &vars, &count) != 2 || vars != nr_vars ||
	    count < 0 || count > SAT_MAX_WITNESSES || fgetc(f) != '\n') {
		fclose(f);
		return;
	}
	bits = xmalloc(bytes);
	for (int w = 0; w < count && fread(bits, 1, bytes, f) == bytes; w++) {
		int8_t *v = xmalloc((size_t)nr_vars + 1);
		size_t i;

		v[0] = 0;
		for (int var = 1; var <= nr_vars; var++)
			v[var] = (bits[var / 8] >> (var % 8)) & 1 ? 1 : -1;
		/* Another build of the tool may number variables otherwise: check. */
		if (s->nr_witnesses >= s->max_witnesses || !sat_base_satisfied_by(s, v, nr_vars)) {
			free(v);
			continue;
		}
		i = s->nr_witnesses++;
		free(s->witness[i]);
		s->witness[i] = v;
		s->witness_vars[i] = nr_vars;
	}
	s->next_witness = s->nr_witnesses % s->max_witnesses;
	free(bits);
	fclose(f);
}

void sat_save_witnesses(struct sat *s, const char *path, int nr_vars)
{
	size_t bytes = ((size_t)nr_vars + 8) / 8, nr = 0;
	unsigned char *bits;
	char *tmp, *slash;
	FILE *f;
	int ok;

	if (!s->witnesses_found)
		return;
	for (size_t i = 0; i < s->nr_witnesses; i++)
		nr += s->witness_vars[i] >= nr_vars;
	if (!nr)
		return;
	slash = strrchr(path, '/');
	if (slash) {
		char *dir = xstrndup(path, (size_t)(slash - path));

		mkdir_p(dir);
		free(dir);
	}
	tmp = xstrfmt("%s.tmp%ld", path, (long)getpid());
	f = fopen(tmp, "wb");
	if (!f) {
		free(tmp);
		return;
	}
	bits = xmalloc(bytes);
	ok = fprintf(f, WITNESS_MAGIC " %d %zu\n", nr_vars, nr) > 0;
	for (size_t i = 0; ok && i < s->nr_witnesses; i++) {
		if (s->witness_vars[i] < nr_vars)
			continue;
		memset(bits, 0, bytes);
		for (int var = 1; var <= nr_vars; var++)
			if (s->witness[i][var] > 0)
				bits[var / 8] |= (unsigned char)(1u << (var % 8));
		ok = fwrite(bits, 1, bytes, f) == bytes;
	}
	ok = !fclose(f) && ok;
	if (!ok || rename(tmp, path) < 0)
		unlink(tmp);
	else
		s->witnesses_found = 0;
	free(bits);
	free(tmp);
}

int sat_satisfiable(struct sat *s, formula f)
{
	/* f may name any variable made so far: a later fact on one is no longer fresh. */
	seen(s);
	s->queries++;
	uint64_t known;
	if (u64map_get(&s->answers, (uint64_t)f + 1, &known)) {
		s->cached++;
		return (int)known;
	}
	int r;
	if (f == LOGIC_FALSE) {
		r = SAT_UNSAT;
	} else if (witnessed(s, f)) {
		r = SAT_SAT;
		s->witnessed++;
	} else {
		int lit = f == LOGIC_TRUE ? 0 : logic_cnf_literal(s->query_enc, f, 1, 0);
		r = sat_solve(s, &lit, lit ? 1 : 0);
		if (r == SAT_SAT)
			keep_witness(s);
		else
			s->unsat++;
	}
	u64map_put(&s->answers, (uint64_t)f + 1, (uint64_t)r);
	return r;
}

void sat_get_stats(const struct sat *s, struct sat_stats *st)
{
	st->queries = s->queries;
	st->cached = s->cached;
	st->witnessed = s->witnessed;
	st->calls = s->calls;
	st->unsat = s->unsat;
	st->sat_seconds = s->sat_seconds;
	st->unsat_seconds = s->unsat_seconds;
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
