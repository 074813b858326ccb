/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CaDiCaL behind a C interface (sat.c's solver, private to it): the calls
 * of the IPASIR interface and the phases, which CaDiCaL's own C interface
 * lacks. The library is C++; this is the one file of the suite that is.
 *
 * Why CaDiCaL and not picosat, which the suite used before: a question of
 * the census that no witness answers needs a whole model, and picosat
 * assigned Linux's x86 model (74,477 variables, 256,782 clauses) in 21-23 ms
 * a solve with random phases, CaDiCaL in 11-12 ms (400 random one-literal
 * questions over `git undertaker --dump-model` of v6.1, this machine).
 */
#ifndef UT_SAT_CADICAL_H
#define UT_SAT_CADICAL_H

#ifdef __cplusplus
extern "C" {
#endif

struct sat_cadical;

struct sat_cadical *sat_cadical_new(void);
void sat_cadical_free(struct sat_cadical *c);
/* A clause's literals, then 0 (IPASIR's add). */
void sat_cadical_add(struct sat_cadical *c, int lit);
/* For the next solve only. */
void sat_cadical_assume(struct sat_cadical *c, int lit);
/* IPASIR's answers: satisfiable, unsatisfiable; 0 when stopped by the callback. */
enum { SAT_CADICAL_SAT = 10, SAT_CADICAL_UNSAT = 20 };
int sat_cadical_solve(struct sat_cadical *c);
/*
 * After 10, until the next solve (clauses may come between): 1 when lit is
 * true in the model, -1 when false, 0 for a variable it does not know.
 */
int sat_cadical_val(struct sat_cadical *c, int lit);
/* After 20, likewise: did the refutation use assumption lit? */
int sat_cadical_failed(struct sat_cadical *c, int lit);
/* Decisions on lit's variable try lit first; unphase: as by default again. */
void sat_cadical_phase(struct sat_cadical *c, int lit);
void sat_cadical_unphase(struct sat_cadical *c, int var);
/* Decisions try false first (0) or true first (1) by default. */
void sat_cadical_default_phase(struct sat_cadical *c, int value);
/* The highest variable the solver has seen. */
int sat_cadical_vars(struct sat_cadical *c);
/* Polled during a solve: nonzero stops it (the solve then returns 0). */
void sat_cadical_set_stop(struct sat_cadical *c, int (*stop)(void *data), void *data);

#ifdef __cplusplus
}
#endif

#endif
