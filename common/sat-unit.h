/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unit propagation beside the solver (sat.c's, not a solver of its own): a
 * copy of some of the solver's clauses, two literals watched in each, with
 * assumptions kept propagated between questions. A literal whose
 * assumption, propagated with the assumptions, meets a falsified clause is
 * refuted: the clauses held are a subset of the solver's, so the solver
 * with the same assumptions and that literal is unsatisfiable too. Nothing
 * else is answered (a literal not refuted may be anything).
 *
 * A defconfig's questions are the use: its guard implies about 70,000
 * literals on Linux's arm model, and the solver propagates them again at each
 * call, where most questions fail by propagation alone.
 *
 * Clauses come at level 0 (none assumed) or while the assumptions hold;
 * a unit clause then takes the assumptions back (the next
 * sat_unit_assume() propagates them again).
 */
#ifndef UT_SAT_UNIT_H
#define UT_SAT_UNIT_H

#include <stddef.h>
#include <stdint.h>

struct sat_unit;

struct sat_unit *sat_unit_new(void);
void sat_unit_free(struct sat_unit *u);
/* A clause of DIMACS literals (nr may be 0: nothing holds any more). */
void sat_unit_add(struct sat_unit *u, const int *lits, size_t nr);
/*
 * The assumptions, propagated (kept when they are those in force): 1, or
 * 0 when propagation falsifies a clause (nothing is refuted then: the
 * caller asks the solver) or the clauses held already contradict.
 */
int sat_unit_assume(struct sat_unit *u, const int *assumptions, size_t nr);
/* Is lit refuted under the assumptions in force (after sat_unit_assume() said 1)? */
int sat_unit_refutes(struct sat_unit *u, int lit);
/*
 * Under the assumptions in force and lit (unless 0): each free variable of
 * 1..nr_vals in turn set false and propagated, or, when that falsifies a
 * clause at once, true instead; never further back. 1 with every clause
 * held true, the values in vals[v - 1] (1 true, else 0); 0 when a clause
 * failed both ways. The assumptions stay in force, lit does not.
 */
int sat_unit_complete(struct sat_unit *u, int lit, int8_t *vals, int nr_vals);

#endif
