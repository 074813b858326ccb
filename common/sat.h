/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SAT solver's wrapper (CaDiCaL, sat-cadical.h): one incremental
 * solver per model. The base is a CNF (clauses and asserted formulas) that
 * stays; queries are formulas encoded
 * with fresh helper variables whose definitions never constrain the base, and
 * asked under assumptions, so a query leaves no trace but cached definitions.
 * Knows nothing of Kconfig.
 *
 * Threads: a solver belongs to one thread at a time, with its logic store.
 */
#ifndef UT_SAT_H
#define UT_SAT_H

#include <stdint.h>
#include <stdio.h>
#include "logic.h"

struct sat;

struct sat *sat_new(struct logic *l);
void sat_free(struct sat *s);
struct logic *sat_logic(struct sat *s);
/*
 * The base (its clauses and its encoder's state) with diskcache's encoding,
 * and read back into a new solver over the store read back with it: the
 * same base as the solver that was saved, before any question. -1 (and the
 * reader's `bad`) when the entry does not fit the store.
 */
struct diskcache_reader;
void sat_save_base(const struct sat *s, struct strbuf *sb);
int sat_load_base(struct sat *s, struct diskcache_reader *rd);

/* The base: clauses of DIMACS literals over the store's variables. */
void sat_add_clause(struct sat *s, const int *lits, size_t nr);
/* Asserts f in the base (Tseitin encoded, polarity-aware). */
/*
 * The unit clause `lit`, added once: a later call with the same literal adds
 * nothing. For a fact several callers may state about one variable, whoever
 * made the variable (pc.c's "another architecture's symbol is n here",
 * model_config()'s names the model leaves undefined): a variable that exists
 * need not have its fact yet.
 */
void sat_add_fact(struct sat *s, int lit);
/* The clause (a || b), added once, likewise. */
void sat_add_pair(struct sat *s, int a, int b);
void sat_assert(struct sat *s, formula f);
/* Asserts `guard -> f` in the base: f holds when guard is assumed. */
void sat_assert_guarded(struct sat *s, formula f, int guard);
/* Clauses in the base, helper definitions included. */
size_t sat_nr_base_clauses(const struct sat *s);

/*
 * A literal equivalent to f (both directions defined), to be used as an
 * assumption; its definitions are query clauses, not part of the base.
 */
int sat_query_literal(struct sat *s, formula f);
/*
 * A literal that forces f when assumed (defined in that direction only:
 * its negation says nothing), its definitions also in the unit copy (made
 * now if it was not: sat_track_units): for the literals sat_refuted(),
 * sat_complete() and guards are to assume. Half the clauses of both
 * directions, which each defconfig's propagation read again (U-Boot's
 * 1,552 defconfigs: 4.1 s CPU against 4.6 s). Those of sat_query_literal()
 * are the solver's only.
 */
int sat_tracked_literal(struct sat *s, formula f);

/*
 * Many assumptions at once (a defconfig's thousands): a fresh guard variable
 * that implies each literal, by clauses outside the base (never logged nor
 * saved); assume the guard in sat_solve. sat_release_guard makes it false for
 * good, and the solver drops its clauses as satisfied.
 */
int sat_guard(struct sat *s, const int *lits, size_t nr);
void sat_release_guard(struct sat *s, int guard);
/* Decisions on lit's variable try lit first (on), or as by default again (off). */
void sat_prefer(struct sat *s, int lit, int on);

enum { SAT_UNSAT = 0, SAT_SAT = 1 };
/* Solves the base under assumptions (literals); SAT_SAT or SAT_UNSAT. */
int sat_solve(struct sat *s, const int *assumptions, size_t nr);
/*
 * Unit propagation beside the solver from now on (sat-unit.h): a copy of
 * the base, the guards and sat_tracked_literal()'s definitions. The other
 * questions' definitions are left out: they never constrain the base's
 * variables (logic_cnf_literal), so propagation under the copy's clauses
 * assigns the base's as under all the solver's. sat_refuted() says 1 when
 * propagating the assumptions and lit (a tracked literal) alone falsifies
 * a clause, so that sat_solve() would say unsatisfiable, and 0 when it
 * does not or nothing is tracked; sat_solve_each() asks it first.
 */
void sat_track_units(struct sat *s);
int sat_refuted(struct sat *s, const int *assumptions, size_t nr, int lit);
/*
 * A model found by propagation and decisions that go back one guess at
 * most (each variable false first, true when false fails at once; on
 * Linux 6.1 that found 269 of its 287 defconfigs' configurations where
 * false alone found 151): vals[v - 1] 1 or 0 for v in 1..nr_vals,
 * and 1, when no clause fails on the way; 0 when one does, or nothing is
 * tracked (then ask sat_solve()). The copy holds every clause of the
 * solver but untracked questions' definitions, so the model's values of
 * the other variables are those of a model of the solver's (those
 * definitions' helpers take the values the formulas give them).
 */
int sat_complete(struct sat *s, const int *assumptions, size_t nr, int8_t *vals, int nr_vals);
/* After SAT_SAT: 1 (true), -1 (false) or 0 (unassigned) for a variable. */
int sat_value(struct sat *s, int var);
/*
 * After SAT_UNSAT: the assumptions that took part in the refutation, in the
 * order given; with `minimise`, a minimal such set (several solver calls).
 * Returns how many were stored in *out (grown as needed).
 */
size_t sat_failed(struct sat *s, const int *assumptions, size_t nr, int minimise,
		  int **out, size_t *alloc);

/*
 * Is base && f satisfiable? Answers are cached by formula, and a formula that
 * holds in a model the solver found before (a witness) is answered without
 * it: a solve of the Linux model costs tens of milliseconds, evaluating a
 * query in a few witnesses microseconds, and most queries are satisfiable.
 * The newest 64 witnesses are also tried with other values for the
 * variables no base clause names (logic_extend(): one pass over the parts
 * of f that do not already hold), so the arms of a long #elif chain over C
 * names take no solve each. Evaluations are kept by node until the
 * witnesses change: a query costs its own nodes, not its parents' again.
 * Variables made after a witness are taken from their unit facts (a base
 * clause on a variable no question named yet), or are free: the query is then
 * tried with them all false and all true. Such facts keep every answer.
 */
int sat_satisfiable(struct sat *s, formula f);
/*
 * Many questions at once (a Kconfig file's options): yes[i] as
 * sat_satisfiable(f[i]) would say, each kept as its answer. Those the cache
 * and the witnesses do not answer are asked as their disjunction: a model
 * answers yes for each it meets (and becomes a witness), a refutation no
 * for all those left. U-Boot's census, perf: 190 samples in the options
 * asked so against 213 one by one. Its unmet selects so (mostly refuted,
 * each model meets one): no faster, on Linux's Kconfig files neither
 * (22.4 s against 22.6 s). Nor were they faster asked by a solve stopped
 * after 200 decisions, then a model by propagation (sat_unit_complete),
 * then a whole solve: every Linux architecture, perf, 580 samples in the
 * unmet selects against 471.
 */
void sat_satisfiable_each(struct sat *s, const formula *f, size_t n, char *yes);
/*
 * Many questions at once (a defconfig's lines): yes[i] 1 when f[i] is
 * satisfiable with the assumptions, else 0. Tracks units (sat_track_units):
 * those propagation refutes are no; for the others, a model of their
 * disjunction is looked for by propagation (sat_complete() with it
 * assumed), else by the solver, and answers yes for each it meets, until
 * the solver says no for all those left. (A file's unmet selects, asked so
 * on Linux with picosat, cost more than one by one: 8,290 calls took 52 s
 * against 35,701 calls' 42 s.)
 */
void sat_solve_each(struct sat *s, const int *assumptions, size_t nr, const formula *f, size_t n,
		    char *yes);

/*
 * Witnesses kept (the oldest replaced): 8 unless set, at most
 * SAT_MAX_WITNESSES; 0 keeps none (every question not cached is solved).
 * They are kept bit-sliced, 64 to a word per variable, and a question is
 * evaluated in all of them at once, word by word.
 */
#define SAT_MAX_WITNESSES 4096
void sat_set_witnesses(struct sat *s, size_t n);
/*
 * Keeps a model found otherwise (vals[v - 1] > 0: variable v true, for
 * every variable the pool knows) as a witness. It may set guards and
 * tracked literals: those only imply, and no question names them.
 */
void sat_keep_model(struct sat *s, const int8_t *vals, int nr_vals);
/*
 * Decisions take random phases instead of false first: the models found,
 * and so the witnesses, differ more from each other and answer more later
 * questions. After each model, before the next sat_satisfiable() solve,
 * every variable gets a new phase from the solver's own seeded generator
 * (so a run is repeatable), or each model would be much like the last.
 * Answers do not change, only which model a satisfiable solve returns.
 */
void sat_set_random_phase(struct sat *s);
/*
 * Witnesses kept between runs in `path`, over variables 1..nr_vars (the
 * base's own, numbered alike by the caller's next run): the first query is
 * then answered without the slowest, first solve. Loading keeps only
 * assignments that satisfy every base clause; saving (only when the solver
 * found new ones) writes aside and renames. A file that cannot be read or
 * written only costs time: both are silent. Saving merges: the file
 * keeps the solver's witnesses and then those it held (written by another
 * worker of the run) that are not among them, as many as the solver keeps.
 */
void sat_load_witnesses(struct sat *s, const char *path, int nr_vars);
void sat_save_witnesses(struct sat *s, const char *path, int nr_vars);

/*
 * Models shared by the solvers of one base in one process (a census's worker
 * threads, each with its own model of the architecture): a model one of them
 * finds joins the others' witnesses when they next miss. Every solver that
 * joins must have the same base over variables 1..nr_vars (models built
 * alike from one Kconfig tree, as the samples file's key says); their facts
 * on later variables may differ. One that gets another base clause there
 * leaves. A share holds up to `max` models (the first found) and locks.
 */
struct sat_share;
struct sat_share *sat_share_new(int nr_vars, size_t max);
void sat_share_free(struct sat_share *sh);
void sat_join_share(struct sat *s, struct sat_share *sh);

/*
 * A set of shares by key (the samples file's path), for the workers of one
 * run: the first to ask for a key makes its share.
 */
struct sat_shares;
struct sat_shares *sat_shares_new(void);
struct sat_share *sat_shares_get(struct sat_shares *shs, const char *key, int nr_vars, size_t max);
/*
 * Gives back what sat_shares_get() returned (even NULL), once the solver
 * that joined it is freed: the last one frees the share, so a range's
 * shares are those of the models alive, not of every model it built.
 */
void sat_shares_put(struct sat_shares *shs, const char *key);
void sat_shares_free(struct sat_shares *shs);

struct sat_stats {
	size_t queries;		/* sat_satisfiable() calls */
	size_t pool;		/* witnesses held now */
	size_t cached;		/* answered from the cache */
	size_t witnessed;	/* answered by a witness (the pool) */
	size_t shared;		/* witnesses taken from other solvers (sat_share) */
	size_t calls;		/* solver calls (sat_solve() included) */
	size_t unsat;		/* sat_satisfiable() questions the solver refuted */
	size_t unit_refuted;	/* questions refuted by propagation, no call (sat_refuted) */
	double sat_seconds;	/* thread CPU time in solver calls that found a model */
	double unsat_seconds;	/* and in those that did not */
};
void sat_get_stats(const struct sat *s, struct sat_stats *st);

/*
 * The base in DIMACS CNF: "p cnf <vars> <clauses>" and the clauses. Comment
 * lines, if any, are the caller's, written before.
 */
void sat_write_dimacs(const struct sat *s, FILE *out);

#endif
