// SPDX-License-Identifier: GPL-2.0
/* Unit propagation beside the solver; see sat-unit.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"
#include "sat-unit.h"

/* A clause watched, with another of its literals: when that one is true, the clause is not read. */
struct watcher {
	uint32_t clause;	/* its offset */
	int blocker;
};

struct watch {
	struct watcher *v;
	uint32_t nr, alloc;
};

/* The literals a true literal implies through binary clauses: (!p || q) makes q true when p is. */
struct implied {
	int *v;
	uint32_t nr, alloc;
};

/*
 * Levels: 0 what the clauses say alone, 1 the assumptions, 2 the literal a
 * question tries (taken back before it returns).
 */
struct sat_unit {
	int nr_vars;
	int8_t *val;		/* by variable: 0 free, 1 true, -1 false */
	uint8_t *level;		/* by variable, while assigned */
	int *stamp;		/* by variable: sat_unit_add()'s duplicate check */
	int stamp_now;
	int *trail;
	size_t nr_trail, alloc_trail, head;
	size_t lim[3];		/* where levels 1 and 2 begin on the trail */
	int cur;
	/* Clauses: the length, then the literals, the two watched first. */
	int *lits;
	size_t nr_lits, alloc_lits;
	struct watch *watch;	/* by literal: 2 * variable + (negative) */
	struct implied *bin;	/* by literal, likewise: binary clauses are kept only here */
	int broken;		/* the clauses contradict at level 0 */
	int failed;		/* the assumptions falsify a clause */
	int *assumed;		/* the assumptions of level 1, while in force */
	size_t nr_assumed, alloc_assumed;
	int in_force;
	int *tmp;
	size_t alloc_tmp;
};

struct sat_unit *sat_unit_new(void)
{
	return xcalloc(1, sizeof(struct sat_unit));
}

void sat_unit_free(struct sat_unit *u)
{
	if (!u)
		return;
	/* No clause ever added: no lists either. */
	for (int i = 0; u->watch && i < 2 * (u->nr_vars + 1); i++) {
		free(u->watch[i].v);
		free(u->bin[i].v);
	}
	free(u->watch);
	free(u->bin);
	free(u->val);
	free(u->level);
	free(u->stamp);
	free(u->trail);
	free(u->lits);
	free(u->assumed);
	free(u->tmp);
	free(u);
}

static void grow_vars(struct sat_unit *u, int var)
{
	int n = u->nr_vars;

	if (var <= n)
		return;
	n = var * 2 > 1024 ? var * 2 : 1024;
	u->val = xrealloc(u->val, (size_t)n + 1);
	u->level = xrealloc(u->level, (size_t)n + 1);
	u->stamp = xrealloc(u->stamp, ((size_t)n + 1) * sizeof(*u->stamp));
	u->watch = xrealloc(u->watch, 2 * ((size_t)n + 1) * sizeof(*u->watch));
	u->bin = xrealloc(u->bin, 2 * ((size_t)n + 1) * sizeof(*u->bin));
	memset(u->val + u->nr_vars + 1, 0, (size_t)(n - u->nr_vars));
	memset(u->stamp + u->nr_vars + 1, 0, (size_t)(n - u->nr_vars) * sizeof(*u->stamp));
	memset(u->watch + 2 * (u->nr_vars + 1), 0,
	       2 * (size_t)(n - u->nr_vars) * sizeof(*u->watch));
	memset(u->bin + 2 * (u->nr_vars + 1), 0, 2 * (size_t)(n - u->nr_vars) * sizeof(*u->bin));
	if (!u->nr_vars) {
		u->val[0] = 0;
		u->stamp[0] = 0;
		memset(u->watch, 0, 2 * sizeof(*u->watch));
		memset(u->bin, 0, 2 * sizeof(*u->bin));
	}
	u->nr_vars = n;
}

static size_t lit_index(int lit)
{
	return 2 * (size_t)abs(lit) + (lit < 0);
}

static int value(const struct sat_unit *u, int lit)
{
	int v = u->val[abs(lit)];

	return lit > 0 ? v : -v;
}

static void assign(struct sat_unit *u, int lit)
{
	ALLOC_GROW(u->trail, u->nr_trail + 1, u->alloc_trail);
	u->trail[u->nr_trail++] = lit;
	u->val[abs(lit)] = lit > 0 ? 1 : -1;
	u->level[abs(lit)] = (uint8_t)u->cur;
}

static void watch_add(struct sat_unit *u, int lit, uint32_t clause, int blocker)
{
	struct watch *w = &u->watch[lit_index(lit)];

	ALLOC_GROW(w->v, w->nr + 1, w->alloc);
	w->v[w->nr].clause = clause;
	w->v[w->nr++].blocker = blocker;
}

/* Back to `level`: what later levels assigned is free again. */
static void backtrack(struct sat_unit *u, int level)
{
	size_t keep;

	if (u->cur <= level)
		return;
	keep = u->lim[level + 1];
	for (size_t i = keep; i < u->nr_trail; i++)
		u->val[abs(u->trail[i])] = 0;
	u->nr_trail = u->head = keep;
	u->cur = level;
	if (level < 1)
		u->in_force = 0;
}

/* 0 when a clause is falsified. */
static int propagate(struct sat_unit *u)
{
	while (u->head < u->nr_trail) {
		int falsified = -u->trail[u->head++];
		const struct implied *b = &u->bin[lit_index(-falsified)];
		struct watch *w = &u->watch[lit_index(falsified)];
		uint32_t i = 0, j = 0;

		/*
		 * The lists of the literals a few places on, fetched ahead: each
		 * list is a cache miss (perf put half of propagate() on the loads
		 * of the first implied literal and the first watcher), and the
		 * trail says which come next: their heads 12 places on, their
		 * entries 4. U-Boot's 1,552 defconfigs, 45,000 literals each:
		 * 6.1-6.4 s CPU against 7.8-8.0 s without (8 and 3 places: 6.3-6.6 s).
		 */
		if (u->head + 13 <= u->nr_trail) {
			int ahead = u->trail[u->head + 12];

			__builtin_prefetch(&u->bin[lit_index(ahead)]);
			__builtin_prefetch(&u->watch[lit_index(-ahead)]);
		}
		if (u->head + 5 <= u->nr_trail) {
			int next = u->trail[u->head + 4];

			__builtin_prefetch(u->bin[lit_index(next)].v);
			__builtin_prefetch(u->watch[lit_index(-next)].v);
		}

		for (uint32_t k = 0; k < b->nr; k++) {
			int q = b->v[k], vq = value(u, q);

			if (vq < 0)
				return 0;
			if (!vq)
				assign(u, q);
		}

		while (i < w->nr) {
			struct watcher wt = w->v[i++];
			uint32_t c = wt.clause;
			int n, *cl, k;

			if (value(u, wt.blocker) > 0) {
				w->v[j++] = wt;
				continue;
			}
			n = u->lits[c];
			cl = &u->lits[c + 1];
			if (cl[0] == falsified) {
				cl[0] = cl[1];
				cl[1] = falsified;
			}
			wt.blocker = cl[0];
			if (value(u, cl[0]) > 0) {
				w->v[j++] = wt;
				continue;
			}
			for (k = 2; k < n && value(u, cl[k]) < 0; k++)
				;
			if (k < n) {
				cl[1] = cl[k];
				cl[k] = falsified;
				watch_add(u, cl[1], c, cl[0]);
				continue;
			}
			w->v[j++] = wt;
			if (value(u, cl[0]) < 0) {
				while (i < w->nr)
					w->v[j++] = w->v[i++];
				w->nr = j;
				return 0;
			}
			assign(u, cl[0]);
		}
		w->nr = j;
	}
	return 1;
}

/* Puts the literals the watch should take first: free or true, then false from the latest level. */
static int watch_rank(const struct sat_unit *u, int lit)
{
	int v = value(u, lit);

	return v >= 0 ? 4 : u->level[abs(lit)];
}

static void implies(struct sat_unit *u, int p, int q)
{
	struct implied *b = &u->bin[lit_index(p)];

	ALLOC_GROW(b->v, b->nr + 1, b->alloc);
	b->v[b->nr++] = q;
}

static void store_clause(struct sat_unit *u, const int *lits, size_t n)
{
	uint32_t c = (uint32_t)u->nr_lits;

	if (n == 2) {
		implies(u, -lits[0], lits[1]);
		implies(u, -lits[1], lits[0]);
		return;
	}

	if (u->nr_lits + n + 1 >= UINT32_MAX) {
		u->broken = 1;	/* beyond the watch lists' offsets: answer nothing */
		return;
	}
	ALLOC_GROW(u->lits, u->nr_lits + n + 1, u->alloc_lits);
	u->lits[u->nr_lits++] = (int)n;
	memcpy(u->lits + u->nr_lits, lits, n * sizeof(*lits));
	u->nr_lits += n;
	watch_add(u, lits[0], c, lits[1]);
	watch_add(u, lits[1], c, lits[0]);
}

/* A unit clause at level 0: the assumptions are taken back. */
static void add_unit(struct sat_unit *u, int lit)
{
	backtrack(u, 0);
	if (value(u, lit) > 0)
		return;
	if (value(u, lit) < 0 || (assign(u, lit), !propagate(u)))
		u->broken = 1;
}

void sat_unit_add(struct sat_unit *u, const int *lits, size_t nr)
{
	size_t n = 0;

	if (u->broken)
		return;
	ALLOC_GROW(u->tmp, nr + 1, u->alloc_tmp);
	u->stamp_now++;
	for (size_t i = 0; i < nr; i++) {
		int lit = lits[i], var = abs(lit);

		grow_vars(u, var);
		if (u->val[var] && u->level[var] == 0) {
			if (value(u, lit) > 0)
				return;	/* holds for good */
			continue;	/* false for good */
		}
		if (u->stamp[var] == u->stamp_now || u->stamp[var] == -u->stamp_now) {
			if ((u->stamp[var] > 0) != (lit > 0))
				return;	/* a tautology */
			continue;
		}
		u->stamp[var] = lit > 0 ? u->stamp_now : -u->stamp_now;
		u->tmp[n++] = lit;
	}
	if (!n) {
		u->broken = 1;
		return;
	}
	if (n == 1) {
		add_unit(u, u->tmp[0]);
		return;
	}
	/* The two best for the watch first. */
	for (size_t w = 0; w < 2; w++)
		for (size_t i = w + 1; i < n; i++)
			if (watch_rank(u, u->tmp[i]) > watch_rank(u, u->tmp[w])) {
				int t = u->tmp[w];

				u->tmp[w] = u->tmp[i];
				u->tmp[i] = t;
			}
	store_clause(u, u->tmp, n);
	if (u->broken || value(u, u->tmp[1]) >= 0 || value(u, u->tmp[0]) > 0)
		return;
	/* Level 1 (clauses come at no other): the clause is unit or falsified there. */
	if (value(u, u->tmp[0]) < 0 || (assign(u, u->tmp[0]), !propagate(u)))
		u->failed = 1;
}

int sat_unit_assume(struct sat_unit *u, const int *assumptions, size_t nr)
{
	if (u->broken)
		return 0;
	if (u->in_force && u->nr_assumed == nr &&
	    !memcmp(u->assumed, assumptions, nr * sizeof(*assumptions)))
		return !u->failed;
	backtrack(u, 0);
	ALLOC_GROW(u->assumed, nr + 1, u->alloc_assumed);
	memcpy(u->assumed, assumptions, nr * sizeof(*assumptions));
	u->nr_assumed = nr;
	u->in_force = 1;
	u->failed = 0;
	u->cur = 1;
	u->lim[1] = u->nr_trail;
	for (size_t i = 0; i < nr && !u->failed; i++) {
		grow_vars(u, abs(assumptions[i]));
		if (value(u, assumptions[i]) < 0)
			u->failed = 1;
		else if (!value(u, assumptions[i]))
			assign(u, assumptions[i]);
		if (!u->failed && !propagate(u))
			u->failed = 1;
	}
	return !u->failed;
}

int sat_unit_refutes(struct sat_unit *u, int lit)
{
	int refuted;

	if (u->broken || !u->in_force || u->failed || u->cur != 1 || !lit)
		return 0;
	grow_vars(u, abs(lit));
	if (value(u, lit))
		return value(u, lit) < 0;
	u->cur = 2;
	u->lim[2] = u->nr_trail;
	assign(u, lit);
	refuted = !propagate(u);
	backtrack(u, 1);
	return refuted;
}

int sat_unit_complete(struct sat_unit *u, int lit, int8_t *vals, int nr_vals)
{
	int ok = 1;

	if (u->broken || !u->in_force || u->failed || u->cur != 1)
		return 0;
	grow_vars(u, nr_vals > abs(lit) ? nr_vals : abs(lit));
	u->cur = 2;
	u->lim[2] = u->nr_trail;
	if (lit && value(u, lit) < 0)
		ok = 0;
	else if (lit && !value(u, lit))
		ok = (assign(u, lit), propagate(u));
	for (int v = 1; ok && v <= u->nr_vars; v++)
		if (!u->val[v]) {
			size_t mark = u->nr_trail;

			assign(u, -v);
			if (propagate(u))
				continue;
			/* False fails: that guess taken back, true instead (never further back). */
			for (size_t i = mark; i < u->nr_trail; i++)
				u->val[abs(u->trail[i])] = 0;
			u->nr_trail = u->head = mark;
			assign(u, v);
			ok = propagate(u);
		}
	for (int v = 1; ok && v <= nr_vals; v++)
		vals[v - 1] = u->val[v] > 0;
	backtrack(u, 1);
	return ok;
}
