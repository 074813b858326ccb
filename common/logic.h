/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Boolean formulas over numbered variables, hash-consed: building the same
 * formula twice gives the same id, so identical conditions (thousands of
 * `#ifdef CONFIG_SMP`) are one formula and one cache entry. Knows nothing of
 * where formulas come from.
 *
 * A formula id is (node << 1) | negated: negation is free and `!!f == f`.
 * The ids LOGIC_FALSE and LOGIC_TRUE are the constants. Nodes are variables,
 * n-ary AND (OR is a negated AND of negations), binary XOR (IFF is its
 * negation) and ITE. Constructors fold constants, sort and deduplicate AND
 * arguments, and turn `x && !x` into false.
 *
 * Threads: a store, its formulas and every encoder over it belong to one
 * thread at a time (building a formula or encoding it to CNF writes to the
 * store). A thread that needs its own solver builds its own store and model
 * (building one is cheap), or takes the store over once the owner is done.
 */
#ifndef UT_LOGIC_H
#define UT_LOGIC_H

#include <stdio.h>
#include "util.h"

typedef uint32_t formula;

#define LOGIC_FALSE ((formula)0)
#define LOGIC_TRUE ((formula)1)

struct logic;

struct logic *logic_new(void);
void logic_free(struct logic *l);

/*
 * Variables are numbered from 1 (DIMACS style). A name is optional (NULL for
 * helper variables) and need not be unique: logic_var_find() finds the first
 * variable created under a name.
 */
int logic_var_new(struct logic *l, const char *name);
/* The variable named `name`, created when there is none. */
int logic_var(struct logic *l, const char *name);
/* The variable named `name`, or 0. */
/*
 * The store written with diskcache's encoding (diskcache.h), and read back:
 * the same nodes, variables and names, so that formula ids and variable
 * numbers saved beside it stay valid. NULL when the entry is not a sound
 * store (nodes whose arguments come after them, unknown variables): it sets
 * the reader's `bad`.
 */
struct diskcache_reader;
void logic_save(const struct logic *l, struct strbuf *sb);
struct logic *logic_load(struct diskcache_reader *rd);
int logic_var_find(const struct logic *l, const char *name);
const char *logic_var_name(const struct logic *l, int var);
/* The highest variable number in use. */
int logic_nr_vars(const struct logic *l);
/* The number of formula nodes (for statistics). */
size_t logic_nr_nodes(const struct logic *l);

formula logic_atom(struct logic *l, int var);
static inline formula logic_not(formula f) { return f ^ 1; }
formula logic_and(struct logic *l, formula a, formula b);
formula logic_or(struct logic *l, formula a, formula b);
formula logic_and_n(struct logic *l, const formula *args, size_t n);
formula logic_or_n(struct logic *l, const formula *args, size_t n);
formula logic_implies(struct logic *l, formula a, formula b);
formula logic_xor(struct logic *l, formula a, formula b);
formula logic_iff(struct logic *l, formula a, formula b);
/* if c then t else e */
formula logic_ite(struct logic *l, formula c, formula t, formula e);

/* A formula that is a single literal: its variable (negative when negated), else 0. */
int logic_literal(const struct logic *l, formula f);
/* Appends the variables that f mentions to *vars (each once, any order). */
void logic_vars_of(struct logic *l, formula f, int **vars, size_t *nr, size_t *alloc);
/* A readable rendering (for messages and tests): `A && (!B || C)`. */
void logic_print(const struct logic *l, formula f, struct strbuf *out);

/*
 * Three-valued evaluation under a partial assignment: values[var] is 1 (true),
 * -1 (false) or 0 (unknown) for var 1..nr_vars. Returns 1, -1 or 0. The
 * evaluator memoises shared subformulas between calls; values may not change
 * while it is in use.
 */
struct logic_eval;
struct logic_eval *logic_eval_new(struct logic *l, const int8_t *values, int nr_values);
int logic_eval(struct logic_eval *ev, formula f);
/* Evaluates under other values from now on (forgets only what was computed). */
void logic_eval_set_values(struct logic_eval *ev, const int8_t *values, int nr_values);
void logic_eval_free(struct logic_eval *ev);

/*
 * Two-valued evaluation of `words` * 64 assignments at once, bit j of word w
 * standing for assignment 64 * w + j: for a pool of samples checked word by
 * word. column(data, var) gives a variable's `words` words, or NULL for one
 * the assignments do not know, which is then `free_value` (0 or ~0) in all of
 * them and sets *used_free. Returns f's `words` words, valid until the next
 * call. Each node is computed once and kept for later calls with the same
 * words, free_value, column and data, until logic_bits_forget(): the
 * conditions of a file share their parents' and earlier arms' nodes, and
 * evaluating each whole made an 8,000-deep nesting quadratic.
 */
struct logic_bits;
struct logic_bits *logic_bits_new(struct logic *l);
const uint64_t *logic_bits_eval(struct logic_bits *b, formula f, size_t words,
				const uint64_t *(*column)(void *data, int var), void *data,
				uint64_t free_value, int *used_free);
/* The columns changed: nothing computed so far holds. */
void logic_bits_forget(struct logic_bits *b);
void logic_bits_free(struct logic_bits *b);

/*
 * Formulas with some variables replaced by constants: value(data, var) is 1
 * (true), -1 (false) or 0 (kept), asked once per variable, and may not
 * change. Memoised across calls by node, so the formulas of a file, which
 * share their parents' and earlier arms' conditions, are rewritten in time
 * linear in all of them together, however deep or long their chains.
 */
struct logic_restrict;
struct logic_restrict *logic_restrict_new(struct logic *l, int (*value)(void *data, int var),
					  void *data);
formula logic_restrict(struct logic_restrict *r, formula f);
void logic_restrict_free(struct logic_restrict *r);

/*
 * Values for the free variables of f (value() 0; the others are fixed: > 0
 * true, < 0 false) that make f true, looked for greedily in one pass over f
 * (each node once, no backtracking): 1 when found, so f is satisfiable with
 * the fixed values; 0 when not, though f may be. Forced parts first (the
 * arguments of a conjunction), then a choice per disjunction, taking an
 * argument that already holds when there is one. value() may be asked
 * several times for a variable and must answer alike.
 *
 * holds(data, g), or NULL: 1 when g is true with the fixed values and every
 * free variable false (0 when not or unsure). Such a part is not walked, so
 * the conditions of a chain or a nesting, which share their earlier arms and
 * parents, cost each query its own nodes only, not the whole chain again
 * (holds() keeping its answers). It stays true unless a free variable below
 * it is chosen true elsewhere: then f is walked whole.
 */
struct logic_extend;
struct logic_extend *logic_extend_new(struct logic *l);
int logic_extend(struct logic_extend *x, formula f, int (*value)(void *data, int var),
		 int (*holds)(void *data, formula g), void *data);
void logic_extend_free(struct logic_extend *x);

/*
 * Two-valued evaluation without memo, values from a callback (> 0 true):
 * for small formulas checked against many assignments.
 */
int logic_eval_with(const struct logic *l, formula f, int (*value)(void *data, int var), void *data);

/*
 * Tseitin transformation into CNF, in the polarity each subformula is needed
 * (Plaisted-Greenbaum): a node asserted true only gets the clauses saying
 * "helper -> node"; the other half is added when a later formula needs it.
 * The clauses are equisatisfiable and keep every model's projection onto the
 * original variables, and the definitions of helper variables never constrain
 * the original variables: they can be added to a solver once and for all.
 * Helper variables are new variables of the store.
 */
typedef void (*clause_sink_fn)(void *ctx, const int *lits, size_t nr);

struct cnf_encoder;
struct cnf_encoder *logic_cnf_encoder_new(struct logic *l, clause_sink_fn sink, void *ctx);
void logic_cnf_encoder_free(struct cnf_encoder *enc);
/*
 * An encoder's state (which nodes have literals, in which directions they are
 * defined) with diskcache's encoding, and read back into a new encoder over
 * the store logic_load() read back with it: -1 (and the reader's `bad`) when
 * it does not fit that store.
 */
void logic_cnf_encoder_save(const struct cnf_encoder *enc, struct strbuf *sb);
int logic_cnf_encoder_load(struct cnf_encoder *enc, struct diskcache_reader *rd);
/* Adds clauses making f true (an AND becomes several clauses, an OR one). */
void logic_cnf_assert(struct cnf_encoder *enc, formula f);
/* Adds clauses making `guard -> f` true (guard: a variable). */
void logic_cnf_assert_guarded(struct cnf_encoder *enc, formula f, int guard);
/*
 * A literal standing for f, defined in the needed direction(s): with
 * `want_true`, asserting the literal forces f; with `want_false`, asserting its
 * negation forces !f. Returns 0 for a constant (f is LOGIC_TRUE/FALSE).
 */
int logic_cnf_literal(struct cnf_encoder *enc, formula f, int want_true, int want_false);
/*
 * Every clause the encoder has given its sink so far, again, to `sink`
 * (another copy of them: sat-unit.c's): the definitions of the nodes in
 * the directions they have, and the unit of the variable forced true.
 */
void logic_cnf_replay(const struct cnf_encoder *enc, clause_sink_fn sink, void *ctx);

#endif
