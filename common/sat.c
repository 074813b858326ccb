// SPDX-License-Identifier: GPL-2.0
/* The solver's wrapper (CaDiCaL, sat-cadical.h); see sat.h. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "process.h"
#include "sat.h"
#include "diskcache.h"
#include "u64map.h"
#include "sat-unit.h"
#include "sat-cadical.h"

#define SAT_DEFAULT_WITNESSES 8


struct sat {
	struct logic *l;
	struct sat_cadical *ps;
	/*
	 * Two encoders: base definitions are logged for the DIMACS export, query
	 * definitions go to the solver only (a query may not grow the base).
	 */
	struct cnf_encoder *base_enc, *query_enc;
	/* The definitions of sat_tracked_literal(): given to the unit copy too. */
	struct cnf_encoder *unit_enc;
	int *log;		/* base clauses, each ended by 0 */
	size_t nr_log, alloc_log;
	size_t nr_base_clauses;
	int max_var;		/* the highest variable in the base */
	int hard_var;		/* the highest in a base clause that is no fact in late[] */
	struct u64map answers;	/* formula + 1 -> SAT_SAT or SAT_UNSAT */
	struct u64map facts;	/* sat_add_fact()'s literals (+ 2^32), each added once */
	struct u64map pairs;	/* sat_add_pair()'s clauses, each added once */
	size_t queries, cached, calls, witnessed, unsat;
	double sat_seconds, unsat_seconds;	/* thread CPU time in solver calls, by answer */
	/*
	 * Models the solver found or that were loaded (the pool), kept to answer
	 * later questions without it: a formula true in one of them is
	 * satisfiable. A solver call assigns every variable (tens of milliseconds
	 * on Linux); the pool is kept bit-sliced, 64 models in a word per
	 * variable, so a question is evaluated in all of them word by word.
	 * Every model knows variables 1..pool_vars.
	 */
	uint64_t *pool;		/* (pool_vars + 1) * pool_words: variable v's at v * pool_words */
	int pool_vars;
	size_t pool_words;	/* allocated: doubled as the pool fills, up to max_witnesses / 64 */
	size_t nr_witnesses, next_witness, max_witnesses;
	int pool_hint;		/* the base's own variables (sat_load_witnesses): pool_vars at least */
	int witnesses_found;	/* the solver found one since sat_load_witnesses() */
	uint64_t *ones;		/* pool_words words of ~0, and then of 0 */
	struct sat_share *share;	/* other solvers' models, or NULL */
	size_t share_next;	/* the share's first model not looked at yet */
	size_t shared;
	/* witnessed()'s evaluations with free variables false and true, kept while pool_gen holds. */
	struct logic_bits *bits[2];
	uint64_t pool_gen, bits_gen;	/* changes of the pool or the unit facts; as bits[] saw them */
	struct logic_extend *extend;
	size_t extend_slot;	/* the witness logic_extend() looks at */
	int random_phase;	/* decisions take random phases: diverse witnesses */
	int phases_saved;	/* the solver holds the phases of a model it found */
	uint64_t phase_rng;	/* random_phases()'s generator (xorshift64) */
	/*
	 * Variables made for tracked literals and guards (a defconfig's rules):
	 * random_phases() gives them false, the phase that leaves a released
	 * rule alone. Drawn at random like the others, half the rules of every
	 * defconfig asked before were switched on in each model the census
	 * looked for, and their clauses made it costly: every architecture of
	 * Linux 6.1, cold, 56.2 and 56.7 s CPU against 58.3 and 59.3 s.
	 */
	uint8_t *quiet;
	size_t alloc_quiet;
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
	/*
	 * sat_guard()'s newest guard and its literals, given to the solver only
	 * when a solve assumes it: most defconfigs' guards are released after
	 * propagation alone answered them, and 70,000 clauses a guard on Linux
	 * were the solver's garbage to collect.
	 */
	int pending_guard;
	int *pending;
	size_t nr_pending, alloc_pending;
	/* Unit propagation beside the solver (sat_track_units), or NULL. */
	struct sat_unit *unit;
	size_t unit_refuted;
};

/* The solver polls this during a solve: an interrupt ends the call early. */
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
	s->ps = sat_cadical_new();
	/* False first, unless random phases are drawn before each solve. */
	sat_cadical_default_phase(s->ps, 0);
	sat_cadical_set_stop(s->ps, solve_interrupted, NULL);
	for (size_t i = 0; i < s->nr_log; i++)
		sat_cadical_add(s->ps, s->log[i]);
}

static void add_to_solver(struct sat *s, const int *lits, size_t nr)
{
	load_solver(s);
	for (size_t i = 0; i < nr; i++)
		sat_cadical_add(s->ps, lits[i]);
	sat_cadical_add(s->ps, 0);
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
	s->pool_gen++;
	if (s->ps)
		add_to_solver(s, lits, nr);	/* else the log goes to the solver when it is made */
	if (s->unit)
		sat_unit_add(s->unit, lits, nr);
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
			return;
		} else {
			/* Free variables are tried all false or all true: this clause may want both. */
			s->nr_witnesses = s->next_witness = 0;
		}
	} else {
		/* A stronger base may refute earlier answers and witnesses: forget them. */
		u64map_clear(&s->answers);
		s->nr_witnesses = s->next_witness = 0;
		/* Other solvers' models need not satisfy it. */
		s->share = NULL;
	}
	for (size_t i = 0; i < nr; i++)
		if (abs(lits[i]) > s->hard_var)
			s->hard_var = abs(lits[i]);
}
static void query_sink(void *ctx, const int *lits, size_t nr)
{
	add_to_solver(ctx, lits, nr);
}

static void tracked_sink(void *ctx, const int *lits, size_t nr)
{
	struct sat *s = ctx;

	add_to_solver(s, lits, nr);
	sat_unit_add(s->unit, lits, nr);
}

struct sat *sat_new(struct logic *l)
{
	struct sat *s = xcalloc(1, sizeof(*s));
	s->l = l;
	s->max_witnesses = SAT_DEFAULT_WITNESSES;
	s->phase_rng = 0x9e3779b97f4a7c15ULL;
	s->base_enc = logic_cnf_encoder_new(l, base_sink, s);
	s->query_enc = logic_cnf_encoder_new(l, query_sink, s);
	return s;
}

void sat_free(struct sat *s)
{
	if (!s)
		return;
	sat_cadical_free(s->ps);
	free(s->pending);
	logic_cnf_encoder_free(s->base_enc);
	logic_cnf_encoder_free(s->query_enc);
	logic_cnf_encoder_free(s->unit_enc);
	free(s->quiet);
	free(s->log);
	u64map_release(&s->answers);
	u64map_release(&s->facts);
	u64map_release(&s->pairs);
	free(s->pool);
	free(s->ones);
	free(s->late);
	logic_bits_free(s->bits[0]);
	logic_bits_free(s->bits[1]);
	logic_extend_free(s->extend);
	sat_unit_free(s->unit);
	free(s);
}

void sat_save_base(const struct sat *s, struct strbuf *sb)
{
	diskcache_put_u32s(sb, (const uint32_t *)s->log, s->nr_log);
	logic_cnf_encoder_save(s->base_enc, sb);
}

/*
 * What base_sink() makes of a base read back whole, before any question (no
 * variable seen yet, so every clause is fresh): -1 when a literal is no
 * variable of the store or the last clause is not ended.
 */
static int adopt_log(struct sat *s, int vars)
{
	size_t start = 0;

	for (size_t i = 0; i < s->nr_log; i++) {
		int v;

		/* Not abs() first: abs(INT_MIN) is no variable number. */
		if (s->log[i] < -vars || s->log[i] > vars)
			return -1;
		v = abs(s->log[i]);
		if (v > s->max_var)
			s->max_var = v;
		if (s->log[i])
			continue;
		s->nr_base_clauses++;	/* an empty one too, which keeps nothing more */
		if (i - start == 1) {
			if ((size_t)s->max_var >= s->alloc_late) {
				size_t old = s->alloc_late;

				s->alloc_late = ((size_t)vars + 1);
				s->late = xrealloc(s->late, s->alloc_late);
				memset(s->late + old, 0, s->alloc_late - old);
			}
			s->late[abs(s->log[start])] = s->log[start] > 0 ? 1 : -1;
		} else {
			for (size_t k = start; k < i; k++)
				if (abs(s->log[k]) > s->hard_var)
					s->hard_var = abs(s->log[k]);
		}
		start = i + 1;
	}
	s->pool_gen += s->nr_base_clauses;
	s->nr_witnesses = s->next_witness = 0;
	return start == s->nr_log ? 0 : -1;
}

int sat_load_base(struct sat *s, struct diskcache_reader *rd)
{
	const void *at;
	size_t nr = diskcache_get_u32s_at(rd, &at, (size_t)UINT32_MAX);

	if (rd->bad || s->nr_log || s->ps) {
		rd->bad = 1;
		return -1;
	}
	s->log = xmalloc((nr + 1) * sizeof(*s->log));
	memcpy(s->log, at, nr * sizeof(*s->log));
	s->nr_log = s->alloc_log = nr;
	if (adopt_log(s, logic_nr_vars(s->l)) < 0) {
		rd->bad = 1;
		return -1;
	}
	return logic_cnf_encoder_load(s->base_enc, rd);
}

struct logic *sat_logic(struct sat *s) { return s->l; }

void sat_add_clause(struct sat *s, const int *lits, size_t nr)
{
	base_sink(s, lits, nr);
}

void sat_add_fact(struct sat *s, int lit)
{
	uint64_t key = (uint64_t)((int64_t)lit + ((int64_t)1 << 32)), seen;

	if (u64map_get(&s->facts, key, &seen))
		return;
	u64map_put(&s->facts, key, 1);
	base_sink(s, &lit, 1);
}

void sat_add_pair(struct sat *s, int a, int b)
{
	uint64_t key, seen;
	int lits[2] = { a < b ? a : b, a < b ? b : a };

	key = (uint64_t)(uint32_t)lits[0] << 32 | (uint32_t)lits[1];
	if (u64map_get(&s->pairs, key, &seen))
		return;
	u64map_put(&s->pairs, key, 1);
	base_sink(s, lits, 2);
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

static void quiet_from(struct sat *s, int first)
{
	int n = logic_nr_vars(s->l);

	if (n < first)
		return;
	if ((size_t)n >= s->alloc_quiet) {
		size_t old = s->alloc_quiet;

		s->alloc_quiet = (size_t)n * 2 + 64;
		s->quiet = xrealloc(s->quiet, s->alloc_quiet);
		memset(s->quiet + old, 0, s->alloc_quiet - old);
	}
	memset(s->quiet + first, 1, (size_t)(n - first + 1));
}

int sat_tracked_literal(struct sat *s, formula f)
{
	int first = logic_nr_vars(s->l) + 1, lit;

	sat_track_units(s);
	seen(s);
	lit = logic_cnf_literal(s->unit_enc, f, 1, 0);
	quiet_from(s, first);
	return lit;
}

/* The pending guard's clauses, to the solver: a solve assumes it. */
static void flush_guard(struct sat *s)
{
	if (!s->pending_guard)
		return;
	load_solver(s);
	for (size_t i = 0; i < s->nr_pending; i++) {
		sat_cadical_add(s->ps, -s->pending_guard);
		sat_cadical_add(s->ps, s->pending[i]);
		sat_cadical_add(s->ps, 0);
	}
	s->pending_guard = 0;
	s->nr_pending = 0;
}

int sat_guard(struct sat *s, const int *lits, size_t nr)
{
	int g = logic_var_new(s->l, NULL);

	quiet_from(s, g);
	seen(s);
	/* One guard waits at a time. */
	flush_guard(s);
	for (size_t i = 0; s->unit && i < nr; i++) {
		int clause[2] = { -g, lits[i] };

		sat_unit_add(s->unit, clause, 2);
	}
	ALLOC_GROW(s->pending, nr, s->alloc_pending);
	memcpy(s->pending, lits, nr * sizeof(*lits));
	s->nr_pending = nr;
	s->pending_guard = g;
	return g;
}

void sat_release_guard(struct sat *s, int guard)
{
	int unit = -guard;

	if (guard == s->pending_guard) {
		/* Never assumed in a solve: the solver never had its clauses. */
		s->pending_guard = 0;
		s->nr_pending = 0;
	} else {
		load_solver(s);
		sat_cadical_add(s->ps, -guard);
		sat_cadical_add(s->ps, 0);
	}
	if (s->unit)
		sat_unit_add(s->unit, &unit, 1);
}

void sat_track_units(struct sat *s)
{
	size_t start = 0;

	if (s->unit)
		return;
	s->unit = sat_unit_new();
	for (size_t i = 0; i < s->nr_log; i++)
		if (!s->log[i]) {
			sat_unit_add(s->unit, s->log + start, i - start);
			start = i + 1;
		}
	/*
	 * Not the other questions' definitions (a census's: thousands of #if
	 * conditions), which never constrain the base's variables: propagating
	 * them under each defconfig's rules was wasted.
	 */
	s->unit_enc = logic_cnf_encoder_new(s->l, tracked_sink, s);
}

int sat_complete(struct sat *s, const int *assumptions, size_t nr, int8_t *vals, int nr_vals)
{
	return s->unit && sat_unit_assume(s->unit, assumptions, nr) &&
	       sat_unit_complete(s->unit, 0, vals, nr_vals);
}

int sat_refuted(struct sat *s, const int *assumptions, size_t nr, int lit)
{
	if (!s->unit || !sat_unit_assume(s->unit, assumptions, nr) ||
	    !sat_unit_refutes(s->unit, lit))
		return 0;
	s->unit_refuted++;
	return 1;
}

void sat_prefer(struct sat *s, int lit, int on)
{
	load_solver(s);
	if (on)
		sat_cadical_phase(s->ps, lit);
	else
		sat_cadical_unphase(s->ps, abs(lit));
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
	for (size_t i = 0; s->pending_guard && i < nr; i++)
		if (abs(assumptions[i]) == s->pending_guard)
			flush_guard(s);
	for (size_t i = 0; i < nr; i++)
		sat_cadical_assume(s->ps, assumptions[i]);
	s->calls++;
	double start = thread_seconds();
	int r = sat_cadical_solve(s->ps);
	if (r == SAT_CADICAL_SAT) {
		s->sat_seconds += thread_seconds() - start;
		return SAT_SAT;
	}
	if (r == SAT_CADICAL_UNSAT) {
		s->unsat_seconds += thread_seconds() - start;
		return SAT_UNSAT;
	}
	if (process_interrupted())
		return s->interrupted = 1, SAT_UNSAT;
	die("CaDiCaL: no answer without a limit (%d)", r);
}

int sat_value(struct sat *s, int var)
{
	if (!s->ps || var <= 0)
		return 0;
	return sat_cadical_val(s->ps, var);
}

/*
 * The assumptions of out[0..n) that the last refutation used, and then the
 * fewest of them still refuted: each left out in turn, and kept out when
 * the rest is still refuted (then only the part of the rest that this
 * refutation used stays). n the count left.
 */
static size_t minimise_failed(struct sat *s, int *out, size_t n)
{
	int *rest = xcalloc(n + 1, sizeof(*rest));

	/* Its solves may not stop halfway: the caller asks for a refutation. */
	sat_cadical_set_stop(s->ps, NULL, NULL);
	for (size_t i = 0; i < n;) {
		size_t m = 0;

		for (size_t k = 0; k < n; k++)
			if (k != i)
				rest[m++] = out[k];
		for (size_t k = 0; k < m; k++)
			sat_cadical_assume(s->ps, rest[k]);
		s->calls++;
		if (sat_cadical_solve(s->ps) != SAT_CADICAL_UNSAT) {
			i++;
			continue;
		}
		/* Refuted without out[i]: keep what this refutation used, in order. */
		n = 0;
		for (size_t k = 0; k < m; k++)
			if (sat_cadical_failed(s->ps, rest[k]))
				out[n++] = rest[k];
		if (i > n)
			i = n;
	}
	sat_cadical_set_stop(s->ps, solve_interrupted, NULL);
	free(rest);
	return n;
}

size_t sat_failed(struct sat *s, const int *assumptions, size_t nr, int minimise,
		  int **out, size_t *alloc)
{
	size_t n = 0;
	/* No refutation to ask about: the last answer was made up. */
	if (s->interrupted)
		return 0;
	for (size_t i = 0; i < nr; i++) {
		if (!sat_cadical_failed(s->ps, assumptions[i]))
			continue;
		ALLOC_GROW(*out, n + 1, *alloc);
		(*out)[n++] = assumptions[i];
	}
	if (minimise && n)
		n = minimise_failed(s, *out, n);
	return n;
}

/* Room for `words` * 64 models, those held kept: a model of Linux takes 70k bits. */
static void pool_resize(struct sat *s, int vars, size_t words)
{
	uint64_t *pool = xcalloc(((size_t)vars + 1) * words, sizeof(uint64_t));

	s->pool_gen++;
	if (s->pool && vars == s->pool_vars)
		for (int v = 0; v <= vars; v++)
			memcpy(pool + (size_t)v * words, s->pool + (size_t)v * s->pool_words,
			       (words < s->pool_words ? words : s->pool_words) * sizeof(uint64_t));
	free(s->pool);
	s->pool = pool;
	s->pool_words = words;
	s->pool_vars = vars;
	free(s->ones);
	s->ones = xcalloc(2 * words, sizeof(uint64_t));
	memset(s->ones, 0xff, words * sizeof(uint64_t));
}

/*
 * The slot of the next model (the oldest one replaced when the pool is
 * full), cleared. An empty pool is made anew over the base's variables.
 */
static size_t pool_slot(struct sat *s, int vars)
{
	size_t i = s->next_witness;
	uint64_t bit;

	s->pool_gen++;
	if (!s->nr_witnesses) {
		if (vars < s->pool_hint)
			vars = s->pool_hint;
		if (!s->pool || vars != s->pool_vars)
			pool_resize(s, vars, 1);
		s->nr_witnesses = 0;
		i = 0;
	}
	if (i / 64 >= s->pool_words) {
		size_t words = 2 * s->pool_words, most = (s->max_witnesses + 63) / 64;

		pool_resize(s, s->pool_vars, words < most ? words : most);
	}
	s->next_witness = (i + 1) % s->max_witnesses;
	if (i == s->nr_witnesses)
		s->nr_witnesses++;
	bit = (uint64_t)1 << (i % 64);
	for (int v = 0; v <= s->pool_vars; v++)
		s->pool[(size_t)v * s->pool_words + i / 64] &= ~bit;
	return i;
}

static void pool_set(struct sat *s, size_t slot, int var)
{
	s->pool_gen++;
	s->pool[(size_t)var * s->pool_words + slot / 64] |= (uint64_t)1 << (slot % 64);
}

struct sat_share {
	pthread_mutex_t lock;
	size_t users;		/* sat_shares_get() not yet put back (the set's lock) */
	int nr_vars;
	size_t bytes, max;
	unsigned char *rows;	/* bit var % 8 of byte var / 8 */
	const struct sat **from;
	size_t nr, alloc;
};

struct sat_share *sat_share_new(int nr_vars, size_t max)
{
	struct sat_share *sh = xcalloc(1, sizeof(*sh));

	pthread_mutex_init(&sh->lock, NULL);
	sh->nr_vars = nr_vars;
	sh->bytes = ((size_t)nr_vars + 8) / 8;
	sh->max = max;
	return sh;
}

void sat_share_free(struct sat_share *sh)
{
	if (!sh)
		return;
	pthread_mutex_destroy(&sh->lock);
	free(sh->rows);
	free(sh->from);
	free(sh);
}

void sat_join_share(struct sat *s, struct sat_share *sh)
{
	s->share = sh;
	s->share_next = 0;
}

static int can_share(const struct sat *s)
{
	/* Its pool over the share's variables: each model fills the same columns. */
	return s->share && (!s->nr_witnesses || s->pool_vars == s->share->nr_vars) &&
	       s->hard_var <= s->share->nr_vars;
}

/* The solver's current model, for the others. */
static void share_model(struct sat *s)
{
	struct sat_share *sh = s->share;
	unsigned char *row;

	if (!can_share(s))
		return;
	pthread_mutex_lock(&sh->lock);
	if (sh->nr < sh->max) {
		if (sh->nr == sh->alloc) {
			sh->alloc = sh->alloc ? 2 * sh->alloc : 16;
			sh->rows = xrealloc(sh->rows, sh->alloc * sh->bytes);
			sh->from = xrealloc(sh->from, sh->alloc * sizeof(*sh->from));
		}
		row = sh->rows + sh->nr * sh->bytes;
		memset(row, 0, sh->bytes);
		for (int v = 1; v <= sh->nr_vars; v++)
			if (sat_cadical_val(s->ps, v) > 0)
				row[v / 8] |= (unsigned char)(1u << (v % 8));
		sh->from[sh->nr++] = s;
	}
	pthread_mutex_unlock(&sh->lock);
}

static size_t pool_slot(struct sat *s, int vars);
static void pool_set(struct sat *s, size_t slot, int var);

/* The models others found since the last look, into the pool; how many. */
static size_t take_shared(struct sat *s)
{
	struct sat_share *sh = s->share;
	size_t n = 0;

	if (!can_share(s) || !s->max_witnesses)
		return 0;
	pthread_mutex_lock(&sh->lock);
	for (; s->share_next < sh->nr; s->share_next++) {
		const unsigned char *row = sh->rows + s->share_next * sh->bytes;
		size_t i;

		if (sh->from[s->share_next] == s)
			continue;
		i = pool_slot(s, sh->nr_vars);
		for (int v = 1; v <= sh->nr_vars; v++)
			if ((row[v / 8] >> (v % 8)) & 1)
				pool_set(s, i, v);
		n++;
	}
	pthread_mutex_unlock(&sh->lock);
	s->shared += n;
	return n;
}

struct sat_shares {
	pthread_mutex_t lock;
	struct strmap by_key;
};

struct sat_shares *sat_shares_new(void)
{
	struct sat_shares *shs = xcalloc(1, sizeof(*shs));

	pthread_mutex_init(&shs->lock, NULL);
	return shs;
}

struct sat_share *sat_shares_get(struct sat_shares *shs, const char *key, int nr_vars, size_t max)
{
	struct sat_share *sh;

	pthread_mutex_lock(&shs->lock);
	sh = strmap_get(&shs->by_key, key);
	if (!sh) {
		sh = sat_share_new(nr_vars, max);
		strmap_put(&shs->by_key, key, sh);
	}
	sh->users++;
	pthread_mutex_unlock(&shs->lock);
	/* Another build of the same key cannot differ, but be safe. */
	return sh->nr_vars == nr_vars ? sh : NULL;
}

static void free_share(void *p)
{
	sat_share_free(p);
}

void sat_shares_put(struct sat_shares *shs, const char *key)
{
	struct sat_share *sh;

	pthread_mutex_lock(&shs->lock);
	sh = strmap_get(&shs->by_key, key);
	if (sh && !--sh->users) {
		/* No solver of that base left: the map without it (no removal in place). */
		struct strmap kept = STRMAP_INIT;
		struct strmap_entry *e;

		strmap_for_each(&shs->by_key, e)
			if (e->value != sh)
				strmap_put(&kept, e->key, e->value);
		strmap_clear(&shs->by_key, NULL);
		shs->by_key = kept;
		sat_share_free(sh);
	}
	pthread_mutex_unlock(&shs->lock);
}

void sat_shares_free(struct sat_shares *shs)
{
	if (!shs)
		return;
	strmap_clear(&shs->by_key, free_share);
	pthread_mutex_destroy(&shs->lock);
	free(shs);
}

/* Keeps the solver's current model in the pool (the oldest one replaced). */
static void keep_witness(struct sat *s)
{
	int n = sat_cadical_vars(s->ps);
	size_t i;

	if (!s->max_witnesses)
		return;
	i = pool_slot(s, s->hard_var);

	for (int v = 1; v <= s->pool_vars && v <= n; v++)
		if (sat_cadical_val(s->ps, v) > 0)
			pool_set(s, i, v);
	s->witnesses_found = 1;
	if (s->share)
		share_model(s);
}

void sat_keep_model(struct sat *s, const int8_t *vals, int nr_vals)
{
	size_t i;

	/* It must know every variable of the pool, as pool_slot() makes it when empty. */
	if (!s->max_witnesses || nr_vals < s->hard_var || nr_vals < s->pool_hint ||
	    (s->nr_witnesses && nr_vals < s->pool_vars))
		return;
	i = pool_slot(s, s->hard_var);
	for (int v = 1; v <= s->pool_vars; v++)
		if (vals[v - 1] > 0)
			pool_set(s, i, v);
	s->witnesses_found = 1;
}

/* A variable's words: the pool's, a later unit fact's, or NULL (free). */
static const uint64_t *pool_column(void *data, int var)
{
	struct sat *s = data;

	if (var <= s->pool_vars)
		return s->pool + (size_t)var * s->pool_words;
	if ((size_t)var < s->alloc_late && s->late[var])
		return s->late[var] > 0 ? s->ones : s->ones + s->pool_words;
	return NULL;
}

/*
 * f's words over the pool's models, the variables no model knows all false
 * (pass 0) or all true (pass 1); sets *used_free when f names one. Each
 * node's words are kept until the pool or the unit facts change.
 */
static const uint64_t *pool_eval(struct sat *s, formula f, int pass, int *used_free)
{
	size_t words = (s->nr_witnesses + 63) / 64;

	if (!s->bits[0]) {
		s->bits[0] = logic_bits_new(s->l);
		s->bits[1] = logic_bits_new(s->l);
	}
	if (s->bits_gen != s->pool_gen) {
		logic_bits_forget(s->bits[0]);
		logic_bits_forget(s->bits[1]);
		s->bits_gen = s->pool_gen;
	}
	return logic_bits_eval(s->bits[pass], f, words, pool_column, s,
			       pass ? ~(uint64_t)0 : 0, used_free);
}

/*
 * Is f true in a model of the pool? Variables made since it are fixed by
 * their unit facts, or free: then tried all false, then all true (both extend
 * a model of the base, which says nothing of them).
 */
static int witnessed(struct sat *s, formula f)
{
	size_t words = (s->nr_witnesses + 63) / 64;
	uint64_t last = s->nr_witnesses % 64 ? ((uint64_t)1 << (s->nr_witnesses % 64)) - 1 : ~(uint64_t)0;
	int used_free = 0;

	if (!s->nr_witnesses)
		return 0;
	for (int pass = 0; pass < 2; pass++) {
		const uint64_t *r = pool_eval(s, f, pass, &used_free);
		uint64_t any = r[words - 1] & last;

		for (size_t i = 0; i + 1 < words; i++)
			any |= r[i];
		if (any)
			return 1;
		if (!used_free)
			break;
	}
	return 0;
}

/* A variable's value in witness extend_slot (fixed), or 0: one no base clause names. */
static int extend_value(void *data, int var)
{
	struct sat *s = data;
	const uint64_t *col = pool_column(s, var);

	if (!col)
		return 0;
	return (col[s->extend_slot / 64] >> (s->extend_slot % 64)) & 1 ? 1 : -1;
}

/* Is g true in witness extend_slot with the variables no base clause names false? */
static int extend_holds(void *data, formula g)
{
	struct sat *s = data;
	int used_free = 0;

	return (pool_eval(s, g, 0, &used_free)[s->extend_slot / 64] >> (s->extend_slot % 64)) & 1;
}

/*
 * The witnesses logic_extend() tries, newest first. Each try is one pass
 * over f (its parts that hold are taken from the pool's evaluations), a
 * solve that finds a model tens of milliseconds on Linux. The x86 census of
 * Linux 6.1, default -j: with 4, 25.3 s CPU cold and 12.2 s again (the
 * samples file of the first run loaded: the witness a question needed was
 * seldom among the newest four); with 64, 23.6 s and 9.0 s, 336 models
 * found instead of 434 and none the second time; with 1024, 23.4 s and
 * 8.6 s. The same output.
 */
#define SAT_EXTEND_TRIES 64

/*
 * Does one of the newest witnesses become a model of f with other values
 * for the variables no base clause names (C names outside Kconfig, missing
 * ones)? One pass over f each: the conditions of an #elif chain's arms
 * differ from the last arms' models only there, and without this each arm
 * took a solve. Several: the #ifdef and #else inside an arm want a Kconfig
 * symbol both ways.
 */
static int extended(struct sat *s, formula f)
{
	size_t tries = s->nr_witnesses < SAT_EXTEND_TRIES ? s->nr_witnesses : SAT_EXTEND_TRIES;

	if (!s->extend && tries)
		s->extend = logic_extend_new(s->l);
	for (size_t k = 1; k <= tries; k++) {
		s->extend_slot = (s->next_witness + s->max_witnesses - k) % s->max_witnesses;
		if (s->extend_slot < s->nr_witnesses && logic_extend(s->extend, f, extend_value, extend_holds, s))
			return 1;
	}
	return 0;
}

void sat_set_random_phase(struct sat *s)
{
	s->random_phase = 1;
	/* Drawn before the first solve too. */
	s->phases_saved = 1;
}

void sat_set_witnesses(struct sat *s, size_t n)
{
	if (n > SAT_MAX_WITNESSES)
		n = SAT_MAX_WITNESSES;
	s->max_witnesses = n;
	/* Another size of pool: the models go (it is set before the first question). */
	s->nr_witnesses = s->next_witness = 0;
	s->pool_gen++;
}

/*
 * Which of 64 assignments (cols[v]: variable v's word, 1..nr_vars) satisfy
 * every base clause. A variable above nr_vars has its unit fact's value
 * (late[]), else it makes the literal false.
 */
static uint64_t base_satisfied_mask(const struct sat *s, const uint64_t *cols, int nr_vars)
{
	uint64_t all = ~(uint64_t)0, clause = 0;

	for (size_t i = 0; i < s->nr_log && all; i++) {
		int lit = s->log[i], var = lit < 0 ? -lit : lit;

		if (!lit) {
			all &= clause;
			clause = 0;
			continue;
		}
		if (var <= nr_vars)
			clause |= lit > 0 ? cols[var] : ~cols[var];
		else if ((size_t)var < s->alloc_late && s->late[var] == (lit > 0 ? 1 : -1))
			clause = ~(uint64_t)0;
	}
	return all;
}

/* The file: "undertaker samples 1 <vars> <count>\n", then each model as a bit per variable. */
#define WITNESS_MAGIC "undertaker samples 1"

/*
 * The models of the file that satisfy the base, as rows of bytes (bit
 * var % 8 of byte var / 8), at most `max`; their number.
 */
static size_t read_rows(const struct sat *s, const char *path, int nr_vars, size_t max,
			unsigned char **rows)
{
	size_t bytes = ((size_t)nr_vars + 8) / 8, nr = 0;
	uint64_t *cols = xcalloc((size_t)nr_vars + 1, sizeof(uint64_t));
	unsigned char *batch = xmalloc(64 * bytes);
	FILE *f = fopen(path, "rb");
	int vars, count;

	*rows = NULL;
	if (!f)
		goto out;
	if (fscanf(f, WITNESS_MAGIC " %d %d", &vars, &count) != 2 || vars != nr_vars ||
	    count < 0 || fgetc(f) != '\n')
		goto out;
	*rows = xmalloc((count < (int)max ? (size_t)count : max) * bytes + 1);
	for (int done = 0; done < count && nr < max;) {
		int in = 0;
		uint64_t ok;

		while (in < 64 && done < count && fread(batch + in * bytes, 1, bytes, f) == bytes)
			in++, done++;
		if (!in)
			break;
		if (in < 64 && done < count)
			done = count;	/* a short file: what was read is checked, then the end */
		/* Another build of the tool may number variables otherwise: check, 64 at once. */
		memset(cols, 0, ((size_t)nr_vars + 1) * sizeof(uint64_t));
		for (int r = 0; r < in; r++)
			for (int var = 1; var <= nr_vars; var++)
				if ((batch[r * bytes + var / 8] >> (var % 8)) & 1)
					cols[var] |= (uint64_t)1 << r;
		ok = base_satisfied_mask(s, cols, nr_vars);
		for (int r = 0; r < in && nr < max; r++)
			if ((ok >> r) & 1)
				memcpy(*rows + nr++ * bytes, batch + r * bytes, bytes);
	}
out:
	if (f)
		fclose(f);
	free(batch);
	free(cols);
	return nr;
}

void sat_load_witnesses(struct sat *s, const char *path, int nr_vars)
{
	size_t bytes = ((size_t)nr_vars + 8) / 8, nr;
	unsigned char *rows;

	if (nr_vars > s->seen_vars)
		s->seen_vars = nr_vars;
	s->pool_hint = nr_vars;
	/* Models over other variables than the pool's cannot join it. */
	if (!s->max_witnesses || (s->nr_witnesses && s->pool_vars != nr_vars))
		return;
	nr = read_rows(s, path, nr_vars, s->max_witnesses - s->nr_witnesses, &rows);
	for (size_t r = 0; r < nr; r++) {
		size_t i = pool_slot(s, nr_vars);

		for (int var = 1; var <= nr_vars; var++)
			if ((rows[r * bytes + var / 8] >> (var % 8)) & 1)
				pool_set(s, i, var);
	}
	free(rows);
}

static uint64_t row_hash(const unsigned char *row, size_t bytes)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < bytes; i++)
		h = (h ^ row[i]) * 0x100000001b3ULL;
	return h | 1;
}

/*
 * Writes the pool's models and then those of the file not among them (other
 * workers of the run save theirs to the same file): a pool at most.
 */
void sat_save_witnesses(struct sat *s, const char *path, int nr_vars)
{
	size_t bytes = ((size_t)nr_vars + 8) / 8, nr = 0, nr_old;
	unsigned char *rows, *old;
	struct u64map have = U64MAP_INIT;
	char *tmp, *slash;
	FILE *f;
	int ok;

	if (!s->witnesses_found || !s->nr_witnesses || s->pool_vars < nr_vars)
		return;
	rows = xcalloc(s->max_witnesses, bytes);
	for (size_t i = 0; i < s->nr_witnesses; i++) {
		unsigned char *row = rows + nr * bytes;
		uint64_t dummy;

		for (int var = 1; var <= nr_vars; var++)
			if ((s->pool[(size_t)var * s->pool_words + i / 64] >> (i % 64)) & 1)
				row[var / 8] |= (unsigned char)(1u << (var % 8));
		if (u64map_get(&have, row_hash(row, bytes), &dummy)) {
			memset(row, 0, bytes);
			continue;
		}
		u64map_put(&have, row_hash(row, bytes), 1);
		nr++;
	}
	nr_old = read_rows(s, path, nr_vars, s->max_witnesses, &old);
	for (size_t r = 0; r < nr_old && nr < s->max_witnesses; r++) {
		uint64_t h = row_hash(old + r * bytes, bytes), dummy;

		if (u64map_get(&have, h, &dummy))
			continue;
		u64map_put(&have, h, 1);
		memcpy(rows + nr++ * bytes, old + r * bytes, bytes);
	}
	free(old);
	u64map_release(&have);
	slash = strrchr(path, '/');
	if (slash) {
		char *dir = xstrndup(path, (size_t)(slash - path));

		mkdir_p(dir);
		free(dir);
	}
	tmp = xstrfmt("%s.tmp%ld.%lx", path, (long)getpid(), (unsigned long)(uintptr_t)s);
	f = fopen(tmp, "wb");
	if (!f) {
		free(rows);
		free(tmp);
		return;
	}
	ok = fprintf(f, WITNESS_MAGIC " %d %zu\n", nr_vars, nr) > 0;
	ok = ok && fwrite(rows, bytes, nr, f) == nr;
	ok = !fclose(f) && ok;
	if (!ok || rename(tmp, path) < 0)
		unlink(tmp);
	else
		s->witnesses_found = 0;
	free(rows);
	free(tmp);
}

/*
 * A phase of its own for each variable, drawn from the solver's generator
 * (the same from run to run). With picosat, the suite's solver before
 * CaDiCaL, its own random phase per decision took 7.7% of the x86 census
 * of Linux 6.1 (perf, its callees included), and the models found with
 * phases drawn here differed more: that census found 277-301 models instead
 * of 351-365 and took 22.0-23.1 s user instead of 25.4-29.2 s, the same
 * output.
 */
static void random_phases(struct sat *s)
{
	int n = sat_cadical_vars(s->ps);

	for (int v = 1; v <= n; v++) {
		if ((size_t)v < s->alloc_quiet && s->quiet[v]) {
			sat_cadical_phase(s->ps, -v);
			continue;
		}
		s->phase_rng ^= s->phase_rng << 13;
		s->phase_rng ^= s->phase_rng >> 7;
		s->phase_rng ^= s->phase_rng << 17;
		sat_cadical_phase(s->ps, (s->phase_rng >> 20) & 1 ? v : -v);
	}
}

/* SAT_SAT or SAT_UNSAT without a solve (cached, constant, witnessed), else -1. */
static int answer_known(struct sat *s, formula f)
{
	uint64_t known;

	s->queries++;
	if (u64map_get(&s->answers, (uint64_t)f + 1, &known)) {
		s->cached++;
		return (int)known;
	}
	if (f == LOGIC_FALSE) {
		u64map_put(&s->answers, (uint64_t)f + 1, SAT_UNSAT);
		return SAT_UNSAT;
	}
	if (witnessed(s, f) || extended(s, f) || (take_shared(s) && witnessed(s, f))) {
		s->witnessed++;
		u64map_put(&s->answers, (uint64_t)f + 1, SAT_SAT);
		return SAT_SAT;
	}
	return -1;
}

/*
 * A solve of f (random phases after a model: otherwise each model found is
 * much like the one before, and answers few more questions than it), its
 * model kept as a witness.
 */
static int solve_fresh(struct sat *s, formula f)
{
	int lit = f == LOGIC_TRUE ? 0 : logic_cnf_literal(s->query_enc, f, 1, 0), r;

	/* Only after a model: new phases cost time per variable, and a refutation assigns few. */
	if (s->random_phase && s->phases_saved) {
		load_solver(s);
		random_phases(s);
		s->phases_saved = 0;
	}
	r = sat_solve(s, &lit, lit ? 1 : 0);
	if (r == SAT_SAT) {
		keep_witness(s);
		s->phases_saved = 1;
	}
	return r;
}

int sat_satisfiable(struct sat *s, formula f)
{
	int r;

	/* f may name any variable made so far: a later fact on one is no longer fresh. */
	seen(s);
	r = answer_known(s, f);
	if (r >= 0)
		return r;
	r = solve_fresh(s, f);
	if (r != SAT_SAT)
		s->unsat++;
	u64map_put(&s->answers, (uint64_t)f + 1, (uint64_t)r);
	return r;
}

static int solution_true(void *data, int var)
{
	return sat_value(data, var) > 0;
}

static int vals_true(void *data, int var)
{
	return ((const int8_t *)data)[var - 1] > 0;
}

/* The open questions a model (value(data, var)) meets, set in yes[]: how many. */
static size_t met_in(struct sat *s, const formula *f, size_t n, const char *closed, char *yes,
		     int (*value)(void *data, int var), void *data)
{
	size_t found = 0;

	for (size_t i = 0; i < n; i++)
		if (!yes[i] && !closed[i] && logic_eval_with(s->l, f[i], value, data) > 0) {
			yes[i] = 1;
			found++;
		}
	return found;
}

void sat_satisfiable_each(struct sat *s, const formula *f, size_t n, char *yes)
{
	char *refuted = xcalloc(n + 1, 1);
	size_t open = 0;

	seen(s);
	for (size_t i = 0; i < n; i++) {
		int r = answer_known(s, f[i]);

		yes[i] = r == SAT_SAT;
		refuted[i] = r == SAT_UNSAT;
		open += r < 0;
	}
	while (open) {
		formula any = LOGIC_FALSE;
		size_t found;

		for (size_t i = 0; i < n; i++)
			if (!yes[i] && !refuted[i])
				any = logic_or(s->l, any, f[i]);
		if (solve_fresh(s, any) != SAT_SAT) {
			/* Refuted all at once. */
			for (size_t i = 0; i < n; i++)
				if (!yes[i] && !refuted[i]) {
					refuted[i] = 1;
					s->unsat++;
					u64map_put(&s->answers, (uint64_t)f[i] + 1, SAT_UNSAT);
				}
			break;
		}
		found = met_in(s, f, n, refuted, yes, solution_true, s);
		if (!found) {
			/* Cannot be (the model meets `any`), but never loop: one by one. */
			for (size_t i = 0; i < n; i++)
				if (!yes[i] && !refuted[i])
					yes[i] = (char)(sat_satisfiable(s, f[i]) == SAT_SAT);
			break;
		}
		open -= found;
	}
	for (size_t i = 0; i < n; i++)
		if (yes[i])
			u64map_put(&s->answers, (uint64_t)f[i] + 1, SAT_SAT);
	free(refuted);
}

void sat_solve_each(struct sat *s, const int *assumptions, size_t nr, const formula *f, size_t n,
		    char *yes)
{
	int *lits = xcalloc(nr + 1, sizeof(*lits));
	char *closed = xcalloc(n + 1, 1);
	size_t open = n;
	int nr_vals = 0;
	int8_t *vals = NULL;

	sat_track_units(s);
	memcpy(lits, assumptions, nr * sizeof(*lits));
	memset(yes, 0, n);
	/* Those that propagation refutes need no call (and no part in the disjunction). */
	for (size_t i = 0; i < n; i++)
		if (f[i] == LOGIC_FALSE ||
		    sat_refuted(s, assumptions, nr, sat_tracked_literal(s, f[i]))) {
			closed[i] = 1;
			open--;
		}
	while (open) {
		formula any = LOGIC_FALSE;
		size_t found = 0;

		for (size_t i = 0; i < n; i++)
			if (!yes[i] && !closed[i])
				any = logic_or(s->l, any, f[i]);
		lits[nr] = sat_tracked_literal(s, any);
		if (nr_vals < logic_nr_vars(s->l)) {
			nr_vals = logic_nr_vars(s->l);
			vals = xrealloc(vals, (size_t)nr_vals + 1);
		}
		/*
		 * A configuration found by propagation and one-step guesses with
		 * `any` assumed answers as well as the solver's: on U-Boot every
		 * such question of a defconfig's lines was satisfiable (213 of 213
		 * solver calls), and the guard stays propagated.
		 */
		if (sat_unit_assume(s->unit, assumptions, nr) &&
		    sat_unit_complete(s->unit, lits[nr], vals, nr_vals))
			found = met_in(s, f, n, closed, yes, vals_true, vals);
		if (!found) {
			if (sat_solve(s, lits, nr + 1) != SAT_SAT)
				break;
			found = met_in(s, f, n, closed, yes, solution_true, s);
		}
		if (!found) {
			/* Cannot be (the model meets `any`), but never loop nor guess: one by one. */
			for (size_t i = 0; i < n; i++)
				if (!yes[i] && !closed[i]) {
					lits[nr] = sat_tracked_literal(s, f[i]);
					yes[i] = sat_solve(s, lits, nr + 1) == SAT_SAT;
				}
			break;
		}
		open -= found;
	}
	free(lits);
	free(closed);
	free(vals);
}

void sat_get_stats(const struct sat *s, struct sat_stats *st)
{
	st->queries = s->queries;
	st->pool = s->nr_witnesses;
	st->cached = s->cached;
	st->witnessed = s->witnessed;
	st->shared = s->shared;
	st->calls = s->calls;
	st->unsat = s->unsat;
	st->unit_refuted = s->unit_refuted;
	st->sat_seconds = s->sat_seconds;
	st->unsat_seconds = s->unsat_seconds;
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
