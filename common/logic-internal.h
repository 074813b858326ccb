/* SPDX-License-Identifier: GPL-2.0 */
/* The store's representation, shared by logic.c and logic-cnf.c; not an interface. */
#ifndef UT_LOGIC_INTERNAL_H
#define UT_LOGIC_INTERNAL_H

#include "logic.h"

enum op { OP_CONST, OP_VAR, OP_AND, OP_XOR, OP_ITE };

struct node {
	uint32_t op : 3;
	uint32_t nargs : 29;
	uint32_t arg;		/* OP_VAR: the variable; else first index into l->args */
	uint32_t hash;
};

struct logic {
	struct node *nodes;
	size_t nr_nodes, alloc_nodes;
	formula *args;
	size_t nr_args, alloc_args;
	/* Open addressing of node numbers (0 = empty: node 0 is the constant), with hashes. */
	struct slot { uint32_t node, hash; } *table;
	size_t table_cap;

	char **var_names;	/* [var], var 0 unused */
	uint32_t *var_node;	/* [var] the OP_VAR node */
	size_t nr_vars, alloc_vars;	/* nr_vars counts var 0 */
	struct strmap by_name;

	formula *scratch;	/* argument lists being built */
	size_t alloc_scratch;
};

/*
 * The length a per-node (or per-variable) array grows to when the store has
 * `want` and the array `have`: by half again at least, so that a store that
 * gains a few nodes per question does not copy the array on every question.
 */
static inline size_t logic_grown(size_t have, size_t want)
{
	size_t more = have + have / 2 + 1024;

	return want > more ? want : more;
}

#define NODE(f) ((f) >> 1)
#define NEG(f) ((f) & 1)
#define MKF(n, neg) (((formula)(n) << 1) | (neg))

#endif
