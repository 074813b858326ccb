// SPDX-License-Identifier: GPL-2.0
/*
 * vampyr's "min" covering on one incremental solver: each round starts a
 * configuration and keeps adding still-uncovered blocks as assumptions while
 * they stay satisfiable together. The lower bound is a clique of blocks that
 * exclude each other: no configuration compiles two of them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vampyr.h"

void vconfig_release(struct vconfig *c)
{
	free(c->name);
	free(c->path);
	free(c->values);
	free(c->claims);
	strvec_clear(&c->assignments);
	free(c->expanded_path);
	strvec_clear(&c->pins);
	strvec_clear(&c->changed);
	for (size_t i = 0; i < c->nr_lost; i++)
		vlost_release(&c->lost[i]);
	free(c->lost);
}

static int live_target(const struct vblock *b)
{
	return b->target && !b->dead && !b->toolchain;
}

/* Is the block's condition true in the solver's current model? */
static int lit_true(struct sat *s, const struct vblock *b)
{
	if (b->pc == LOGIC_TRUE)
		return 1;
	if (!b->lit)
		return 0;
	return b->lit > 0 ? sat_value(s, b->lit) > 0 : sat_value(s, -b->lit) < 0;
}

void vampyr_find_dead(const struct vampyr_source *src, struct vampyr_cover *cv)
{
	for (size_t i = 0; i < cv->nr_blocks; i++) {
		struct vblock *b = &cv->blocks[i];

		/* An interrupted solve says "unsatisfiable": nothing of the run is kept. */
		process_exit_if_interrupted();
		b->config = -1;
		if (b->pc == LOGIC_FALSE) {
			b->dead = 1;
		} else if (b->pc != LOGIC_TRUE) {
			b->lit = sat_query_literal(src->sat, b->pc);
			/* A child of a dead block is dead without asking again. */
			if (b->parent >= 0 && cv->blocks[b->parent].dead)
				b->dead = 1;
			else	/* Most blocks hold in a model found before (a witness): no solve. */
				b->dead = sat_satisfiable(src->sat, b->pc) != SAT_SAT;
		}
		if (b->target) {
			cv->nr_targets++;
			if (b->dead)
				cv->nr_dead++;
		}
	}
}

static void snapshot(const struct vampyr_source *src, struct vconfig *c)
{
	int n = logic_nr_vars(src->logic);

	c->nr_values = n;
	c->values = xcalloc((size_t)n + 1, 1);
	for (int var = 1; var <= n; var++)
		c->values[var] = (int8_t)sat_value(src->sat, var);
}

/*
 * The rounds. Round r < nr_seeds starts from block seeds[r] when it is still
 * unclaimed (vampyr_recover gives the members of the lower bound's clique:
 * one per configuration, as any cover of that size must do).
 */
static void cover(const struct vampyr_source *src, struct vampyr_cover *cv, const size_t *seeds,
		  size_t nr_seeds)
{
	int *assume = NULL;
	size_t nr_assume = 0, alloc_assume = 0, round = 0;
	/* Whether each block is true in the latest model of this round. */
	unsigned char *now = xcalloc(cv->nr_blocks + 1, 1);

	while (cv->nr_covered + cv->nr_dead + cv->nr_toolchain < cv->nr_targets) {
		struct vconfig *c;
		int have_model = 0;
		size_t seed = SIZE_MAX;

		process_exit_if_interrupted();
		nr_assume = 0;
		if (round < nr_seeds && cv->blocks[seeds[round]].config < 0 &&
		    cv->blocks[seeds[round]].lit) {
			seed = seeds[round];
			ALLOC_GROW(assume, nr_assume + 1, alloc_assume);
			assume[nr_assume++] = cv->blocks[seed].lit;
			if (sat_solve(src->sat, assume, nr_assume) != SAT_SAT)
				die("a live block is unsatisfiable (a bug)");
			have_model = 1;
			for (size_t j = 0; j < cv->nr_blocks; j++)
				if (live_target(&cv->blocks[j]) && cv->blocks[j].config < 0)
					now[j] = (unsigned char)lit_true(src->sat, &cv->blocks[j]);
		}
		round++;
		for (size_t i = 0; i < cv->nr_blocks; i++) {
			struct vblock *b = &cv->blocks[i];

			if (!live_target(b) || b->config >= 0 || i == seed)
				continue;
			if (b->pc == LOGIC_TRUE || (have_model && now[i])) {
				/* Already true in the current model: adding it keeps it satisfiable. */
				if (b->pc != LOGIC_TRUE) {
					ALLOC_GROW(assume, nr_assume + 1, alloc_assume);
					assume[nr_assume++] = b->lit;
				}
				continue;
			}
			ALLOC_GROW(assume, nr_assume + 1, alloc_assume);
			assume[nr_assume++] = b->lit;
			if (sat_solve(src->sat, assume, nr_assume) != SAT_SAT) {
				nr_assume--;
				continue;
			}
			have_model = 1;
			for (size_t j = i + 1; j < cv->nr_blocks; j++)
				if (live_target(&cv->blocks[j]) && cv->blocks[j].config < 0)
					now[j] = (unsigned char)lit_true(src->sat, &cv->blocks[j]);
		}
		if (sat_solve(src->sat, assume, nr_assume) != SAT_SAT)
			die("the solver lost a model it had found (a bug)");
		ALLOC_GROW(cv->configs, cv->nr_configs + 1, cv->alloc_configs);
		c = &cv->configs[cv->nr_configs];
		memset(c, 0, sizeof(*c));
		c->name = xstrfmt("config-%zu", cv->nr_configs + 1);
		snapshot(src, c);
		for (size_t i = 0; i < cv->nr_blocks; i++) {
			struct vblock *b = &cv->blocks[i];

			if (!live_target(b) || b->config >= 0 || !lit_true(src->sat, b))
				continue;
			b->config = (long)cv->nr_configs;
			ALLOC_GROW(c->claims, c->nr_claims + 1, c->alloc_claims);
			c->claims[c->nr_claims++] = i;
			cv->nr_covered++;
		}
		cv->nr_configs++;
		if (!c->nr_claims)
			die("a configuration that claims no block (a bug)");
	}
	free(assume);
	free(now);
}

void vampyr_cover(const struct vampyr_source *src, struct vampyr_cover *cv)
{
	cover(src, cv, NULL, 0);
}

void vampyr_recover(const struct vampyr_source *src, struct vampyr_cover *cv)
{
	struct vconfig *old = cv->configs;
	size_t nr_old = cv->nr_configs, alloc_old = cv->alloc_configs, old_covered = cv->nr_covered;
	long *old_claim = xmalloc((cv->nr_blocks + 1) * sizeof(*old_claim));

	if (!cv->nr_clique || cv->nr_configs <= cv->lower_bound) {
		free(old_claim);
		return;
	}
	for (size_t i = 0; i < cv->nr_blocks; i++) {
		old_claim[i] = cv->blocks[i].config;
		cv->blocks[i].config = -1;
	}
	cv->configs = NULL;
	cv->nr_configs = cv->alloc_configs = 0;
	cv->nr_covered = 0;
	cover(src, cv, cv->clique, cv->nr_clique);
	if (cv->nr_configs < nr_old) {
		for (size_t i = 0; i < nr_old; i++)
			vconfig_release(&old[i]);
		free(old);
	} else {
		for (size_t i = 0; i < cv->nr_configs; i++)
			vconfig_release(&cv->configs[i]);
		free(cv->configs);
		cv->configs = old;
		cv->nr_configs = nr_old;
		cv->alloc_configs = alloc_old;
		cv->nr_covered = old_covered;
		for (size_t i = 0; i < cv->nr_blocks; i++)
			cv->blocks[i].config = old_claim[i];
	}
	free(old_claim);
}

/* The literals of c's claims (and of `extra`), as assumptions. */
static size_t claim_lits(const struct vampyr_cover *cv, const struct vconfig *c, int **lits,
			 size_t *alloc)
{
	size_t nr = 0;

	for (size_t k = 0; k < c->nr_claims; k++) {
		int lit = cv->blocks[c->claims[k]].lit;

		if (!lit)
			continue;
		ALLOC_GROW(*lits, nr + 1, *alloc);
		(*lits)[nr++] = lit;
	}
	return nr;
}

/*
 * Tries to spread the claims of configuration `gone` over the others, each
 * block to the first that stays satisfiable with it. On success the others
 * are solved again and snapshot, and `gone` is removed.
 */
static int dissolve(const struct vampyr_source *src, struct vampyr_cover *cv, size_t gone)
{
	struct vconfig *g = &cv->configs[gone];
	size_t *home = xmalloc((g->nr_claims + 1) * sizeof(*home));
	int **lits = xcalloc(cv->nr_configs, sizeof(*lits));
	size_t *nr = xcalloc(cv->nr_configs, sizeof(*nr)), *alloc = xcalloc(cv->nr_configs, sizeof(*alloc));
	int ok = 1;

	for (size_t d = 0; d < cv->nr_configs; d++)
		if (d != gone)
			nr[d] = claim_lits(cv, &cv->configs[d], &lits[d], &alloc[d]);
	for (size_t k = 0; k < g->nr_claims && ok; k++) {
		const struct vblock *b = &cv->blocks[g->claims[k]];

		home[k] = SIZE_MAX;
		for (size_t d = 0; d < cv->nr_configs && home[k] == SIZE_MAX; d++) {
			if (d == gone)
				continue;
			if (!b->lit) {
				home[k] = d;
				break;
			}
			ALLOC_GROW(lits[d], nr[d] + 1, alloc[d]);
			lits[d][nr[d]++] = b->lit;
			if (sat_solve(src->sat, lits[d], nr[d]) == SAT_SAT)
				home[k] = d;
			else
				nr[d]--;
		}
		ok = home[k] != SIZE_MAX;
	}
	if (ok) {
		for (size_t k = 0; k < g->nr_claims; k++) {
			struct vconfig *d = &cv->configs[home[k]];

			ALLOC_GROW(d->claims, d->nr_claims + 1, d->alloc_claims);
			d->claims[d->nr_claims++] = g->claims[k];
		}
		for (size_t d = 0; d < cv->nr_configs; d++) {
			struct vconfig *c = &cv->configs[d];

			if (d == gone)
				continue;
			if (sat_solve(src->sat, lits[d], nr[d]) != SAT_SAT)
				die("the solver lost a model it had found (a bug)");
			free(c->values);
			snapshot(src, c);
		}
		vconfig_release(g);
		memmove(g, g + 1, (cv->nr_configs - gone - 1) * sizeof(*g));
		cv->nr_configs--;
		for (size_t d = 0; d < cv->nr_configs; d++) {
			struct vconfig *c = &cv->configs[d];

			free(c->name);
			c->name = xstrfmt("config-%zu", d + 1);
			for (size_t k = 0; k < c->nr_claims; k++)
				cv->blocks[c->claims[k]].config = (long)d;
		}
	}
	for (size_t d = 0; d < cv->nr_configs + ok; d++)
		free(lits[d]);
	free(lits);
	free(nr);
	free(alloc);
	free(home);
	return ok;
}

static int cmp_claims(const void *a, const void *b)
{
	const struct vconfig *const *x = a, *const *y = b;

	return ((*x)->nr_claims > (*y)->nr_claims) - ((*x)->nr_claims < (*y)->nr_claims);
}

void vampyr_merge(const struct vampyr_source *src, struct vampyr_cover *cv)
{
	int progress = 1;

	while (progress && cv->nr_configs > cv->lower_bound && cv->nr_configs > 1) {
		struct vconfig **order;

		process_exit_if_interrupted();
		order = xmalloc(cv->nr_configs * sizeof(*order));
		progress = 0;
		for (size_t i = 0; i < cv->nr_configs; i++)
			order[i] = &cv->configs[i];
		/* The configuration with the fewest claims is the likeliest to go. */
		qsort(order, cv->nr_configs, sizeof(*order), cmp_claims);
		for (size_t i = 0; i < cv->nr_configs && !progress; i++)
			progress = dissolve(src, cv, (size_t)(order[i] - cv->configs));
		free(order);
	}
}

/* Is block a inside block b (or b itself)? */
/*
 * The pairs of the bound look at a block's enclosing blocks, MAX_WALK of them
 * at most: deeper, a pair is left unknown (which only weakens the bound), so
 * 10k nested #ifs cost no more per pair than a few.
 */
#define MAX_WALK 64

/* A live block's enclosing blocks and itself, outermost first; complete: up to the file. */
struct lineage {
	long up[MAX_WALK];
	int nr, complete;
};

static void lineage_of(const struct vampyr_cover *cv, size_t a, struct lineage *out)
{
	long i = (long)a, tmp[MAX_WALK];
	int n = 0;

	while (i >= 0 && n < MAX_WALK) {
		tmp[n++] = i;
		i = cv->blocks[i].parent;
	}
	out->complete = i < 0;
	out->nr = n;
	for (int k = 0; k < n; k++)
		out->up[k] = tmp[n - 1 - k];
}

/* Is b the block a or one that encloses it? */
static int within(const struct lineage *la, size_t b)
{
	for (int k = 0; k < la->nr; k++)
		if (la->up[k] == (long)b)
			return 1;
	return 0;
}

/*
 * Blocks in different arms of one #if chain (or inside them) exclude each
 * other: the arms are the two blocks where their lineages part.
 */
static int arms_exclusive(const struct vampyr_cover *cv, const struct lineage *la,
			  const struct lineage *lb)
{
	int k = 0;
	long i, j;

	if (!la->complete || !lb->complete)
		return 0;
	while (k < la->nr && k < lb->nr && la->up[k] == lb->up[k])
		k++;
	if (k == la->nr || k == lb->nr)
		return 0;	/* one within the other */
	i = la->up[k];
	j = lb->up[k];
	return cv->blocks[i].chain == cv->blocks[j].chain &&
	       !strcmp(cv->blocks[i].path, cv->blocks[j].path);
}

static int value_of_lit(const struct vconfig *c, const struct vblock *b)
{
	int var;

	if (b->pc == LOGIC_TRUE)
		return 1;
	var = abs(b->lit);
	if (!var || var > c->nr_values)
		return 0;
	return b->lit > 0 ? c->values[var] > 0 : c->values[var] < 0;
}

/*
 * Pairs are decided lazily: known compatible when some configuration compiles
 * both, known exclusive when they sit in different arms of one chain, else
 * asked of the solver while the budget lasts (unknown pairs count as
 * compatible, which only weakens the bound). A clique grows from a seed (the
 * arms of a chain, or a single block) by adding every block exclusive with
 * all members; each candidate costs at most clique-size queries.
 */
enum { PAIR_UNKNOWN, PAIR_EXCLUSIVE, PAIR_COMPATIBLE };

struct bound {
	const struct vampyr_source *src;
	const struct vampyr_cover *cv;
	size_t *live, nr;
	unsigned char *pair;	/* nr * nr */
	size_t budget;
};

static int exclusive(struct bound *bd, size_t i, size_t j)
{
	unsigned char *p = &bd->pair[i * bd->nr + j];

	if (*p == PAIR_UNKNOWN) {
		const struct vblock *a = &bd->cv->blocks[bd->live[i]], *b = &bd->cv->blocks[bd->live[j]];
		int lits[2] = { a->lit, b->lit };

		if (!bd->budget || !a->lit || !b->lit)
			return 0;
		bd->budget--;
		*p = sat_solve(bd->src->sat, lits, 2) == SAT_SAT ? PAIR_COMPATIBLE : PAIR_EXCLUSIVE;
		bd->pair[j * bd->nr + i] = *p;
	}
	return *p == PAIR_EXCLUSIVE;
}

/* Grows a clique from members[0..size); returns its size. */
static size_t grow(struct bound *bd, size_t *members, size_t size)
{
	for (size_t u = 0; u < bd->nr; u++) {
		int ok = 1;

		for (size_t q = 0; q < size && ok; q++)
			ok = members[q] != u && bd->pair[u * bd->nr + members[q]] != PAIR_COMPATIBLE;
		for (size_t q = 0; q < size && ok; q++)
			ok = exclusive(bd, u, members[q]);
		if (ok)
			members[size++] = u;
	}
	return size;
}

/* The best clique so far, as block indices: the seeds of vampyr_recover. */
static void keep_clique(struct vampyr_cover *cv, const struct bound *bd, const size_t *members,
			size_t n)
{
	cv->clique = xrealloc(cv->clique, n * sizeof(*cv->clique));
	for (size_t i = 0; i < n; i++)
		cv->clique[i] = bd->live[members[i]];
	cv->nr_clique = n;
}

size_t vampyr_lower_bound(const struct vampyr_source *src, struct vampyr_cover *cv, size_t budget)
{
	struct bound bd = { .src = src, .cv = cv, .budget = budget };
	size_t alloc = 0, best = 0, *members;
	struct lineage *lineage;

	for (size_t i = 0; i < cv->nr_blocks; i++)
		if (live_target(&cv->blocks[i])) {
			ALLOC_GROW(bd.live, bd.nr + 1, alloc);
			bd.live[bd.nr++] = i;
		}
	if (!bd.nr) {
		free(bd.live);
		return cv->lower_bound = 0;
	}
	if (bd.nr > 2048)
		bd.nr = 2048;	/* a bound over the first blocks is still a bound (4 MiB of pairs) */
	bd.pair = xcalloc(bd.nr * bd.nr, 1);
	members = xmalloc(bd.nr * sizeof(*members));
	lineage = xmalloc(bd.nr * sizeof(*lineage));
	for (size_t i = 0; i < bd.nr; i++)
		lineage_of(cv, bd.live[i], &lineage[i]);
	for (size_t i = 0; i < bd.nr; i++)
		for (size_t j = i + 1; j < bd.nr; j++) {
			size_t a = bd.live[i], b = bd.live[j];
			unsigned char val = PAIR_UNKNOWN;

			/* live is in block order: only the earlier block can enclose the later. */
			if (within(&lineage[j], a)) {
				val = PAIR_COMPATIBLE;
			} else if (arms_exclusive(cv, &lineage[i], &lineage[j])) {
				val = PAIR_EXCLUSIVE;
			} else {
				for (size_t k = 0; k < cv->nr_configs; k++)
					if (value_of_lit(&cv->configs[k], &cv->blocks[a]) &&
					    value_of_lit(&cv->configs[k], &cv->blocks[b])) {
						val = PAIR_COMPATIBLE;
						break;
					}
			}
			bd.pair[i * bd.nr + j] = bd.pair[j * bd.nr + i] = val;
		}
	/* Seeds: each chain's arms (exclusive for free), then each block alone. */
	for (size_t i = 0; i < bd.nr; i++) {
		size_t size = 0, got;
		long chain = cv->blocks[bd.live[i]].chain;

		if (bd.live[i] != (size_t)chain)
			continue;
		for (size_t j = i; j < bd.nr; j++)
			if (cv->blocks[bd.live[j]].chain == chain)
				members[size++] = j;
		if (size < 2 || size + cv->nr_configs <= best + 1)
			continue;
		got = grow(&bd, members, size);
		if (got > best)
			keep_clique(cv, &bd, members, best = got);
	}
	for (size_t i = 0; i < bd.nr && i < 256 && best < cv->nr_configs && bd.budget; i++) {
		size_t got;

		process_exit_if_interrupted();
		members[0] = i;
		got = grow(&bd, members, 1);
		if (got > best)
			keep_clique(cv, &bd, members, best = got);
	}
	if (!best)
		best = 1;
	free(members);
	free(lineage);
	free(bd.pair);
	free(bd.live);
	return cv->lower_bound = best;
}
