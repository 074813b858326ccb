// SPDX-License-Identifier: GPL-2.0
/*
 * Hash-consed conditions of kbuild: many files share their directory's
 * condition, so sharing nodes keeps the map of a whole tree small, and makes
 * equality a pointer comparison for the simplifier.
 */
#include "kbuild-internal.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"

/*
 * A direct-mapped memo of kbuild_expr_and/kbuild_expr_or: Makefiles combine the same condition
 * with the same words again and again (every word of `obj-$(CONFIG_X) +=
 * a.o b.o`), and nodes are interned, so the pair of pointers is the key.
 */
#define MEMO_SIZE 8192
struct memo_entry {
	const struct kbuild_expr *a, *b, *res;
	int op;
};

/* Lists shorter than this take the simplifier's path whole. */
#define APPEND_MIN 8
/* The rewrites by pairs of operands (reduce) on lists up to this long only. */
#define REDUCE_MAX 64

struct kbuild_exprs {
	struct kbuild_expr **slots;	/* open addressing */
	size_t nr, cap;
	const struct kbuild_expr *t, *f;
	struct memo_entry *memo;
	size_t overflows;	/* conditions cut at KBUILD_MAX_TERMS */
	/* Origins ("path\nline\ntext" -> struct kbuild_origin *) and strings, in `arena`. */
	struct strmap origins, strings;
	struct arena arena;
};

static uint32_t mix(uint32_t h, uint32_t v)
{
	h ^= v + 0x9e3779b9u + (h << 6) + (h >> 2);
	return h;
}

static uint32_t node_hash(enum kbuild_op op, const char *name,
			  const struct kbuild_expr **sub, unsigned nr)
{
	uint32_t h = mix(0x811c9dc5u, op);

	if (name)
		h = mix(h, strhash(name, strlen(name)));
	for (unsigned i = 0; i < nr; i++)
		h = mix(h, sub[i]->hash);
	return h;
}

static int node_equal(const struct kbuild_expr *e, enum kbuild_op op, const char *name,
		      const struct kbuild_expr **sub, unsigned nr)
{
	if (e->op != op || e->nr != nr)
		return 0;
	if ((e->name == NULL) != (name == NULL) || (name && strcmp(e->name, name)))
		return 0;
	return !nr || !memcmp(e->sub, sub, nr * sizeof(*sub));
}

static void grow(struct kbuild_exprs *ex)
{
	size_t cap = ex->cap ? ex->cap * 2 : 1024;
	struct kbuild_expr **slots = xcalloc(cap, sizeof(*slots));

	for (size_t i = 0; i < ex->cap; i++) {
		struct kbuild_expr *e = ex->slots[i];
		size_t j;

		if (!e)
			continue;
		for (j = e->hash & (cap - 1); slots[j]; j = (j + 1) & (cap - 1))
			;
		slots[j] = e;
	}
	free(ex->slots);
	ex->slots = slots;
	ex->cap = cap;
}

static const struct kbuild_expr *intern(struct kbuild_exprs *ex, enum kbuild_op op,
					const char *name, const struct kbuild_expr **sub,
					unsigned nr)
{
	uint32_t h = node_hash(op, name, sub, nr);
	struct kbuild_expr *e;
	size_t j;

	if ((ex->nr + 1) * 2 > ex->cap)
		grow(ex);
	for (j = h & (ex->cap - 1); ex->slots[j]; j = (j + 1) & (ex->cap - 1)) {
		e = ex->slots[j];
		if (e->hash == h && node_equal(e, op, name, sub, nr))
			return e;
	}
	e = xcalloc(1, sizeof(*e));
	e->op = op;
	e->hash = h;
	e->nr = nr;
	e->name = name ? xstrdup(name) : NULL;
	if (nr) {
		e->sub = xmalloc(nr * sizeof(*sub));
		memcpy(e->sub, sub, nr * sizeof(*sub));
	}
	ex->slots[j] = e;
	ex->nr++;
	return e;
}

const struct kbuild_expr *kbuild_exprs_node(struct kbuild_exprs *ex, enum kbuild_op op,
					   const char *name, const struct kbuild_expr **sub,
					   unsigned nr)
{
	return intern(ex, op, name, sub, nr);
}

struct kbuild_exprs *kbuild_exprs_new(void)
{
	struct kbuild_exprs *ex = xcalloc(1, sizeof(*ex));

	ex->t = intern(ex, KB_TRUE, NULL, NULL, 0);
	ex->f = intern(ex, KB_FALSE, NULL, NULL, 0);
	return ex;
}

void kbuild_exprs_free(struct kbuild_exprs *ex)
{
	if (!ex)
		return;
	free(ex->memo);
	for (size_t i = 0; i < ex->cap; i++) {
		struct kbuild_expr *e = ex->slots[i];

		if (!e)
			continue;
		free((char *)e->name);
		free(e->sub);
		free(e);
	}
	free(ex->slots);
	strmap_clear(&ex->origins, NULL);
	strmap_clear(&ex->strings, NULL);
	arena_release(&ex->arena);
	free(ex);
}

const char *kbuild_exprs_string(struct kbuild_exprs *ex, const char *s)
{
	char *p = strmap_get(&ex->strings, s);

	if (!p) {
		p = arena_strndup(&ex->arena, s, strlen(s));
		strmap_put(&ex->strings, s, p);
	}
	return p;
}

const struct kbuild_origin *kbuild_exprs_origin(struct kbuild_exprs *ex, const char *path, int line,
						const char *text, size_t len)
{
	struct strbuf key = STRBUF_INIT;
	struct kbuild_origin *o;

	/* The statement as written, blanks collapsed: a long one is cut. */
	while (len && (*text == ' ' || *text == '\t'))
		text++, len--;
	while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	strbuf_addf(&key, "%s\n%d\n", path, line);
	for (size_t i = 0; i < len; i++) {
		if (key.len >= 200 + strlen(path)) {
			strbuf_addstr(&key, "...");
			break;
		}
		if (text[i] == ' ' || text[i] == '\t') {
			if (key.buf[key.len - 1] != ' ')
				strbuf_addch(&key, ' ');
		} else {
			strbuf_addch(&key, text[i]);
		}
	}
	o = strmap_get(&ex->origins, key.buf);
	if (!o) {
		const char *t = strchr(strchr(key.buf, '\n') + 1, '\n') + 1;

		o = arena_alloc(&ex->arena, sizeof(*o));
		o->path = kbuild_exprs_string(ex, path);
		o->line = line;
		o->text = arena_strndup(&ex->arena, t, strlen(t));
		strmap_put(&ex->origins, key.buf, o);
	}
	strbuf_release(&key);
	return o;
}

const struct kbuild_expr *kbuild_expr_true(struct kbuild_exprs *ex) { return ex->t; }
const struct kbuild_expr *kbuild_expr_false(struct kbuild_exprs *ex) { return ex->f; }

static const struct kbuild_expr *atom(struct kbuild_exprs *ex, enum kbuild_op op, const char *sym)
{
	if (starts_with(sym, "CONFIG_"))
		sym += strlen("CONFIG_");
	return intern(ex, op, sym, NULL, 0);
}

const struct kbuild_expr *kbuild_expr_enabled(struct kbuild_exprs *ex, const char *sym)
{
	return atom(ex, KB_ENABLED, sym);
}

const struct kbuild_expr *kbuild_expr_builtin(struct kbuild_exprs *ex, const char *sym)
{
	return atom(ex, KB_BUILTIN, sym);
}

const struct kbuild_expr *kbuild_expr_module(struct kbuild_exprs *ex, const char *sym)
{
	return atom(ex, KB_MODULE, sym);
}

const struct kbuild_expr *kbuild_expr_free(struct kbuild_exprs *ex, const char *text)
{
	return intern(ex, KB_FREE, text, NULL, 0);
}

const struct kbuild_expr *kbuild_expr_defined(struct kbuild_exprs *ex, const char *name)
{
	return intern(ex, KB_DEFINED, name, NULL, 0);
}

const struct kbuild_expr *kbuild_expr_equals(struct kbuild_exprs *ex, const char *sym,
					     const char *text)
{
	char *name;
	const struct kbuild_expr *e;

	if (starts_with(sym, "CONFIG_"))
		sym += strlen("CONFIG_");
	name = xstrfmt("%s=%s", sym, text);
	e = intern(ex, KB_EQUALS, name, NULL, 0);
	free(name);
	return e;
}

const struct kbuild_expr *kbuild_expr_not(struct kbuild_exprs *ex, const struct kbuild_expr *a)
{
	if (a->op == KB_TRUE)
		return ex->f;
	if (a->op == KB_FALSE)
		return ex->t;
	if (a->op == KB_NOT)
		return a->sub[0];
	if ((a->op == KB_AND || a->op == KB_OR) && a->nr <= 4) {
		/* De Morgan, when it ends in literals that simplify: !(!X || X=y) is X=m. */
		const struct kbuild_expr *r = a->op == KB_AND ? ex->f : ex->t;
		int literals = 1;

		for (unsigned i = 0; i < a->nr && literals; i++) {
			const struct kbuild_expr *s = a->sub[i]->op == KB_NOT ? a->sub[i]->sub[0] : a->sub[i];

			literals = s->op >= KB_ENABLED && s->op <= KB_FREE;
		}
		if (literals) {
			for (unsigned i = 0; i < a->nr; i++)
				r = a->op == KB_AND ? kbuild_expr_or(ex, r, kbuild_expr_not(ex, a->sub[i]))
						    : kbuild_expr_and(ex, r, kbuild_expr_not(ex, a->sub[i]));
			unsigned neg_a = 0, neg_r = 0;

			if (r->op != KB_AND && r->op != KB_OR)
				return r;
			for (unsigned i = 0; i < a->nr; i++)
				neg_a += a->sub[i]->op == KB_NOT;
			for (unsigned i = 0; i < r->nr; i++)
				neg_r += r->sub[i]->op == KB_NOT;
			/* fewer negations read better: !(!A && !B) is A || B */
			if (r->nr < a->nr || (r->nr == a->nr && neg_r < neg_a))
				return r;
		}
	}
	return intern(ex, KB_NOT, NULL, &a, 1);
}

/* A total order independent of creation order, so that printing is stable. */
static int expr_cmp(const struct kbuild_expr *a, const struct kbuild_expr *b)
{
	if (a == b)
		return 0;
	/* Order by the atom under a NOT first, so that X and !X sit together. */
	const struct kbuild_expr *ka = a->op == KB_NOT ? a->sub[0] : a;
	const struct kbuild_expr *kb = b->op == KB_NOT ? b->sub[0] : b;
	if (ka != kb) {
		int ga = ka->op >= KB_ENABLED && ka->op <= KB_FREE;
		int gb = kb->op >= KB_ENABLED && kb->op <= KB_FREE;

		if (ga != gb)
			return gb - ga;	/* atoms before compound operands */
		if (ga) {
			int c = strcmp(ka->name, kb->name);

			if (c)
				return c;
			return (int)ka->op - (int)kb->op;
		}
		if (ka->op != kb->op)
			return (int)ka->op - (int)kb->op;
		for (unsigned i = 0; i < ka->nr && i < kb->nr; i++) {
			int c = expr_cmp(ka->sub[i], kb->sub[i]);

			if (c)
				return c;
		}
		return (int)ka->nr - (int)kb->nr;
	}
	return a->op == KB_NOT ? 1 : -1;
}

static int expr_qcmp(const void *a, const void *b)
{
	return expr_cmp(*(const struct kbuild_expr *const *)a, *(const struct kbuild_expr *const *)b);
}

struct oplist {
	const struct kbuild_expr **v;
	size_t nr, alloc;
};

static void flatten(struct oplist *l, enum kbuild_op op, const struct kbuild_expr *e)
{
	if (e->op == op) {
		for (unsigned i = 0; i < e->nr; i++)
			flatten(l, op, e->sub[i]);
		return;
	}
	ALLOC_GROW(l->v, l->nr + 1, l->alloc);
	l->v[l->nr++] = e;
}

/* The operands of l as a set of pointers: sorted by address, for bsearch. */
static int ptr_qcmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const struct kbuild_expr *const *)a;
	uintptr_t y = (uintptr_t)*(const struct kbuild_expr *const *)b;

	return (x > y) - (x < y);
}

static void ptrs_fill(struct oplist *set, const struct oplist *l)
{
	set->nr = 0;
	ALLOC_GROW(set->v, l->nr + 1, set->alloc);
	memcpy(set->v, l->v, l->nr * sizeof(*l->v));
	set->nr = l->nr;
	qsort(set->v, set->nr, sizeof(*set->v), ptr_qcmp);
}

static int ptrs_has(const struct oplist *set, const struct kbuild_expr *e)
{
	return set->nr && bsearch(&e, set->v, set->nr, sizeof(*set->v), ptr_qcmp) != NULL;
}

static int is_atom_of(const struct kbuild_expr *e, enum kbuild_op op, const char *name)
{
	return e->op == op && !strcmp(e->name, name);
}

/* An atom, or the negation of one: what simplify_symbol reasons about. */
static int is_leaf(const struct kbuild_expr *e)
{
	if (e->op == KB_NOT)
		e = e->sub[0];
	return e->op >= KB_ENABLED && e->op <= KB_FREE;
}

static const char *leaf_name(const struct kbuild_expr *e)
{
	return e->op == KB_NOT ? e->sub[0]->name : e->name;
}

/*
 * Sorted by expr_cmp, the atoms of one name and their negations sit
 * together: the run of them that holds l->v[at] is [*lo, *hi). What the
 * simplifier asks about a name is asked of that run alone, so that a list of
 * many operands costs linear time, not quadratic.
 */
static void name_run(const struct oplist *l, size_t at, size_t *lo, size_t *hi)
{
	const char *name = leaf_name(l->v[at]);
	size_t a = at, b = at + 1;

	while (a > 0 && is_leaf(l->v[a - 1]) && !strcmp(leaf_name(l->v[a - 1]), name))
		a--;
	while (b < l->nr && is_leaf(l->v[b]) && !strcmp(leaf_name(l->v[b]), name))
		b++;
	*lo = a;
	*hi = b;
}

/* Index of the atom op(name), or of its negation when neg, in l->v[lo..hi); -1 when absent. */
static long find_atom(const struct oplist *l, size_t lo, size_t hi, enum kbuild_op op,
		      const char *name, int neg)
{
	for (size_t i = lo; i < hi && i < l->nr; i++) {
		const struct kbuild_expr *e = l->v[i];

		if (neg) {
			if (e->op == KB_NOT && is_atom_of(e->sub[0], op, name))
				return (long)i;
		} else if (is_atom_of(e, op, name)) {
			return (long)i;
		}
	}
	return -1;
}

/*
 * Is z in l, next to l->v[at] = !z? Sorted, z sits right before its
 * negation, an atom within the run of its name (which rewrites keep whole).
 */
static int has_beside(const struct oplist *l, size_t at, const struct kbuild_expr *z)
{
	size_t lo = at, hi = at + 1;

	if (is_leaf(z))
		name_run(l, at, &lo, &hi);
	else
		lo = at ? at - 1 : at;
	for (size_t i = lo; i < hi; i++)
		if (l->v[i] == z)
			return 1;
	return 0;
}

static void drop(struct oplist *l, long i)
{
	memmove(l->v + i, l->v + i + 1, (l->nr - (size_t)i - 1) * sizeof(*l->v));
	l->nr--;
}

/*
 * The facts about one symbol that the simplifier uses: y and m exclude each
 * other and together make "enabled". Returns 1 when the conjunction (and=1)
 * is false or the disjunction (and=0) is true; may rewrite l.
 */
static int simplify_symbol(struct kbuild_exprs *ex, struct oplist *l, size_t at, const char *name,
			   int and)
{
	size_t lo, hi;
	long b, m, e, nb, nm, ne;

	/* A rewrite below keeps the run where it was, or empties it. */
	if (at >= l->nr || !is_leaf(l->v[at]) || strcmp(leaf_name(l->v[at]), name))
		return 0;
	name_run(l, at, &lo, &hi);
	b = find_atom(l, lo, hi, KB_BUILTIN, name, 0);
	m = find_atom(l, lo, hi, KB_MODULE, name, 0);
	e = find_atom(l, lo, hi, KB_ENABLED, name, 0);
	nb = find_atom(l, lo, hi, KB_BUILTIN, name, 1);
	nm = find_atom(l, lo, hi, KB_MODULE, name, 1);
	ne = find_atom(l, lo, hi, KB_ENABLED, name, 1);

	if (and) {
		if ((b >= 0 && m >= 0) || (b >= 0 && ne >= 0) || (m >= 0 && ne >= 0) ||
		    (e >= 0 && nb >= 0 && nm >= 0))
			return 1;
		/* y or m implies enabled and the other's negation: drop the implied. */
		if ((b >= 0 || m >= 0) && e >= 0) {
			drop(l, e);
			return simplify_symbol(ex, l, lo, name, and);
		}
		if (b >= 0 && nm >= 0) {
			drop(l, nm);
			return simplify_symbol(ex, l, lo, name, and);
		}
		if (m >= 0 && nb >= 0) {
			drop(l, nb);
			return simplify_symbol(ex, l, lo, name, and);
		}
		if (ne >= 0 && (nb >= 0 || nm >= 0)) {
			drop(l, nb >= 0 ? nb : nm);
			return simplify_symbol(ex, l, lo, name, and);
		}
		if (nb >= 0 && nm >= 0) {
			l->v[nb] = kbuild_expr_not(ex, kbuild_expr_enabled(ex, name));
			drop(l, nm);
			return simplify_symbol(ex, l, lo, name, and);
		}
		if (e >= 0 && nb >= 0) {	/* enabled but not y: m */
			l->v[e] = kbuild_expr_module(ex, name);
			drop(l, nb);
			return simplify_symbol(ex, l, lo, name, and);
		}
		if (e >= 0 && nm >= 0) {
			l->v[e] = kbuild_expr_builtin(ex, name);
			drop(l, nm);
			return simplify_symbol(ex, l, lo, name, and);
		}
		return 0;
	}
	if ((nb >= 0 && nm >= 0) || (nb >= 0 && e >= 0) || (nm >= 0 && e >= 0) ||
	    (ne >= 0 && b >= 0 && m >= 0))
		return 1;
	if (b >= 0 && m >= 0) {
		l->v[b] = kbuild_expr_enabled(ex, name);
		drop(l, m);
		return simplify_symbol(ex, l, lo, name, and);
	}
	if ((b >= 0 || m >= 0) && e >= 0) {
		drop(l, b >= 0 ? b : m);
		return simplify_symbol(ex, l, lo, name, and);
	}
	if (ne >= 0 && (nb >= 0 || nm >= 0)) {
		drop(l, ne);
		return simplify_symbol(ex, l, lo, name, and);
	}
	return 0;
}

static const struct kbuild_expr *fold(struct kbuild_exprs *ex, enum kbuild_op op,
				      const struct kbuild_expr *const *v, size_t nr, size_t skip)
{
	const struct kbuild_expr *r = op == KB_AND ? ex->t : ex->f;

	for (size_t i = 0; i < nr; i++)
		if (i != skip)
			r = op == KB_AND ? kbuild_expr_and(ex, r, v[i]) : kbuild_expr_or(ex, r, v[i]);
	return r;
}

/* Whether z is implied by the operands of an OR (op) list, or implies the AND list's. */
static int covered(const struct oplist *l, const struct kbuild_expr *z, enum kbuild_op op)
{
	for (size_t i = 0; i < l->nr; i++)
		if (l->v[i] == z)
			return 1;
	if (z->op != op)
		return 0;
	for (unsigned i = 0; i < z->nr; i++)
		if (!covered(l, z->sub[i], KB_FALSE))
			return 0;
	return 1;
}

/*
 * Rewrites that make a condition shorter; returns 1 when l changed (the
 * caller then rebuilds from the new operands):
 *   x || (!x && y)  ->  x || y      (and the dual for &&)
 *   (a && X=y) || (a && X=m)  ->  a && X      (x / !x likewise)
 */
static int reduce(struct kbuild_exprs *ex, enum kbuild_op op, struct oplist *l)
{
	enum kbuild_op dual = op == KB_AND ? KB_OR : KB_AND;

	for (size_t i = 0; i < l->nr; i++) {
		const struct kbuild_expr *c = l->v[i];

		if (c->op != dual)
			continue;
		for (unsigned k = 0; k < c->nr; k++) {
			const struct kbuild_expr *s = c->sub[k];

			if (s->op == KB_NOT && covered(l, s->sub[0], op)) {
				l->v[i] = fold(ex, dual, c->sub, c->nr, k);
				return 1;
			}
		}
	}
	if (op != KB_OR)
		return 0;
	for (size_t i = 0; i < l->nr; i++) {
		const struct kbuild_expr *a = l->v[i];

		if (a->op != KB_AND)
			continue;
		for (size_t j = i + 1; j < l->nr; j++) {
			const struct kbuild_expr *b = l->v[j], *merged;
			long da = -1, db = -1;
			unsigned k;

			if (b->op != KB_AND || b->nr != a->nr)
				continue;
			for (k = 0; k < a->nr; k++) {
				int in = 0;

				for (unsigned q = 0; q < b->nr && !in; q++)
					in = a->sub[k] == b->sub[q];
				if (!in) {
					if (da >= 0)
						break;
					da = k;
				}
			}
			if (k < a->nr || da < 0)
				continue;
			for (k = 0; k < b->nr; k++) {
				int in = 0;

				for (unsigned q = 0; q < a->nr && !in; q++)
					in = b->sub[k] == a->sub[q];
				if (!in)
					db = k;
			}
			if (db < 0)
				continue;
			merged = kbuild_expr_or(ex, a->sub[da], b->sub[db]);
			if (merged->op != KB_ENABLED && merged->op != KB_TRUE)
				continue;
			l->v[i] = kbuild_expr_and(ex, fold(ex, KB_AND, a->sub, a->nr, (size_t)da), merged);
			drop(l, (long)j);
			return 1;
		}
	}
	return 0;
}

static const struct kbuild_expr *build_nary(struct kbuild_exprs *ex, enum kbuild_op op,
					    struct oplist *l)
{
	const struct kbuild_expr *unit = op == KB_AND ? ex->t : ex->f;
	const struct kbuild_expr *zero = op == KB_AND ? ex->f : ex->t;
	const struct kbuild_expr *res = NULL;
	enum kbuild_op dual = op == KB_AND ? KB_OR : KB_AND;
	struct oplist set = { 0 };
	size_t i, j;

	qsort(l->v, l->nr, sizeof(*l->v), expr_qcmp);
	for (i = j = 0; i < l->nr; i++) {
		if (l->v[i] == zero) {
			res = zero;
			goto out;
		}
		if (l->v[i] == unit || (j && l->v[j - 1] == l->v[i]))
			continue;
		l->v[j++] = l->v[i];
	}
	l->nr = j;
	for (i = 0; i < l->nr; i++) {
		const struct kbuild_expr *e = l->v[i];

		/* x op !x */
		if (e->op == KB_NOT && has_beside(l, i, e->sub[0])) {
			res = zero;
			goto out;
		}
		if (e->op >= KB_ENABLED && e->op <= KB_MODULE) {
			if (simplify_symbol(ex, l, i, e->name, op == KB_AND)) {
				res = zero;
				goto out;
			}
		} else if (e->op == KB_NOT && e->sub[0]->op >= KB_ENABLED &&
			   e->sub[0]->op <= KB_MODULE) {
			if (simplify_symbol(ex, l, i, e->sub[0]->name, op == KB_AND)) {
				res = zero;
				goto out;
			}
		}
	}
	/*
	 * Absorption: a && (a || b) is a; a || (a && b) is a. Only operands of
	 * the dual operator are dropped, and none of them is asked about (an
	 * operand of one is never of its own operator): the set stays true.
	 */
	ptrs_fill(&set, l);
	for (i = j = 0; i < l->nr; i++) {
		const struct kbuild_expr *e = l->v[i];
		int absorbed = 0;

		for (unsigned k = 0; e->op == dual && k < e->nr && !absorbed; k++)
			absorbed = ptrs_has(&set, e->sub[k]);
		if (!absorbed)
			l->v[j++] = e;
	}
	l->nr = j;
	qsort(l->v, l->nr, sizeof(*l->v), expr_qcmp);
	for (i = j = 0; i < l->nr; i++)
		if (!j || l->v[j - 1] != l->v[i])
			l->v[j++] = l->v[i];
	l->nr = j;
	/* Rewrites by pairs of operands: quadratic, worth it on short lists only. */
	if (l->nr <= REDUCE_MAX && reduce(ex, op, l)) {
		res = fold(ex, op, l->v, l->nr, (size_t)-1);
		goto out;
	}
	if (!l->nr)
		res = unit;
	else if (l->nr == 1)
		res = l->v[0];
	else
		res = intern(ex, op, NULL, l->v, (unsigned)l->nr);
out:
	free(set.v);
	free(l->v);
	return res;
}

/*
 * A condition of more than KBUILD_MAX_TERMS operands: each one built costs
 * its length in time and memory, and a Makefile that grows one a term at a
 * time costs the square. It becomes a variable of its own, as anything else
 * kbuild decides that we cannot; the reader says where.
 */
#define TOO_LONG "(a condition of more than "
static const struct kbuild_expr *too_long(struct kbuild_exprs *ex)
{
	char text[64];

	snprintf(text, sizeof(text), TOO_LONG "%d terms, #%zu)", KBUILD_MAX_TERMS, ++ex->overflows);
	return kbuild_expr_free(ex, text);
}

/* Combined with anything, such a variable stays what it is: unknown. */
static int is_too_long(const struct kbuild_expr *e)
{
	return e->op == KB_FREE && starts_with(e->name, TOO_LONG);
}

size_t kbuild_exprs_overflows(const struct kbuild_exprs *ex)
{
	return ex->overflows;
}

/*
 * l op b where l is a long list of atoms (and negations of atoms) and b one
 * more. On such a list the simplifier's rules only relate operands of one
 * name, and those sit together: b joins the run of its name (at most a few
 * operands), which is simplified alone and put back in place, in
 * logarithmic time and one copy. Makefiles that list a thousand
 * `obj-$(CONFIG_X) += dir/` lines build such lists one operand at a time.
 * NULL when the list or b is not of that shape.
 */
static const struct kbuild_expr *append_leaf(struct kbuild_exprs *ex, enum kbuild_op op,
					     const struct kbuild_expr *l, const struct kbuild_expr *b)
{
	const struct kbuild_expr *zero = op == KB_AND ? ex->f : ex->t;
	const struct kbuild_expr **v, *r = b, *res;
	struct oplist run = { 0 };
	size_t lo = 0, hi, rlo, rhi, nr;

	/* Compound operands sort last: a leaf last means leaves only. */
	if (l->op != op || l->nr < APPEND_MIN || !is_leaf(b) || !is_leaf(l->sub[l->nr - 1]))
		return NULL;
	hi = l->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (expr_cmp(l->sub[mid], b) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < l->nr && l->sub[lo] == b)
		return l;
	for (rlo = lo; rlo > 0 && !strcmp(leaf_name(l->sub[rlo - 1]), leaf_name(b)); rlo--)
		;
	for (rhi = lo; rhi < l->nr && !strcmp(leaf_name(l->sub[rhi]), leaf_name(b)); rhi++)
		;
	for (size_t i = rlo; i < rhi; i++)
		r = op == KB_AND ? kbuild_expr_and(ex, r, l->sub[i]) : kbuild_expr_or(ex, r, l->sub[i]);
	if (r == zero)
		return zero;
	if (r->op != KB_TRUE && r->op != KB_FALSE)
		flatten(&run, op, r);
	for (size_t i = 0; i < run.nr; i++)
		if (!is_leaf(run.v[i])) {
			free(run.v);
			return NULL;
		}
	nr = l->nr - (rhi - rlo) + run.nr;
	if (nr > KBUILD_MAX_TERMS) {
		free(run.v);
		return too_long(ex);
	}
	v = xmalloc((nr + 1) * sizeof(*v));
	memcpy(v, l->sub, rlo * sizeof(*v));
	if (run.nr)
		memcpy(v + rlo, run.v, run.nr * sizeof(*v));
	memcpy(v + rlo + run.nr, l->sub + rhi, (l->nr - rhi) * sizeof(*v));
	res = nr == 1 ? v[0] : intern(ex, op, NULL, v, (unsigned)nr);
	free(v);
	free(run.v);
	return res;
}

static struct memo_entry *memo_slot(struct kbuild_exprs *ex, int op, const struct kbuild_expr *a,
				     const struct kbuild_expr *b)
{
	if (!ex->memo)
		ex->memo = xcalloc(MEMO_SIZE, sizeof(*ex->memo));
	return &ex->memo[mix(mix(a->hash, b->hash), (uint32_t)op) & (MEMO_SIZE - 1)];
}

static const struct kbuild_expr *binary(struct kbuild_exprs *ex, enum kbuild_op op,
					const struct kbuild_expr *a, const struct kbuild_expr *b)
{
	struct memo_entry *m = memo_slot(ex, op, a, b);
	const struct kbuild_expr *res;
	struct oplist l = { 0 };

	if (m->a == a && m->b == b && m->op == (int)op)
		return m->res;
	if (is_too_long(a) || is_too_long(b))
		return is_too_long(a) ? a : b;
	res = append_leaf(ex, op, a, b);
	if (!res)
		res = append_leaf(ex, op, b, a);
	if (res)
		return res;
	flatten(&l, op, a);
	flatten(&l, op, b);
	if (l.nr > KBUILD_MAX_TERMS) {
		free(l.v);
		res = too_long(ex);
	} else {
		res = build_nary(ex, op, &l);
	}
	/* Filled only now: build_nary may recurse and reuse the same slot. */
	m->a = a;
	m->b = b;
	m->op = (int)op;
	m->res = res;
	return res;
}

const struct kbuild_expr *kbuild_expr_and(struct kbuild_exprs *ex, const struct kbuild_expr *a,
				 const struct kbuild_expr *b)
{
	if (a == ex->t || a == b)
		return b;
	if (b == ex->t)
		return a;
	if (a == ex->f || b == ex->f)
		return ex->f;
	return binary(ex, KB_AND, a, b);
}

const struct kbuild_expr *kbuild_expr_or(struct kbuild_exprs *ex, const struct kbuild_expr *a,
				const struct kbuild_expr *b)
{
	if (a == ex->f || a == b)
		return b;
	if (b == ex->f)
		return a;
	if (a == ex->t || b == ex->t)
		return ex->t;
	return binary(ex, KB_OR, a, b);
}

static void print(const struct kbuild_expr *e, struct strbuf *out, int prec)
{
	/* prec: 0 top, 1 inside &&, 2 inside ! */
	switch (e->op) {
	case KB_TRUE:
		strbuf_addstr(out, "true");
		return;
	case KB_FALSE:
		strbuf_addstr(out, "false");
		return;
	case KB_ENABLED:
		strbuf_addf(out, "CONFIG_%s", e->name);
		return;
	case KB_BUILTIN:
		strbuf_addf(out, "CONFIG_%s=y", e->name);
		return;
	case KB_MODULE:
		strbuf_addf(out, "CONFIG_%s=m", e->name);
		return;
	case KB_DEFINED:
		strbuf_addf(out, "defined(%s)", e->name);
		return;
	case KB_EQUALS: {
		const char *eq = strchr(e->name, '=');

		strbuf_addf(out, "CONFIG_%.*s=\"%s\"", (int)(eq - e->name), e->name, eq + 1);
		return;
	}
	case KB_FREE:
		strbuf_addch(out, '[');
		for (const char *p = e->name; *p; p++) {
			if (*p == ']' || *p == '\\')
				strbuf_addch(out, '\\');
			strbuf_addch(out, *p);
		}
		strbuf_addch(out, ']');
		return;
	case KB_NOT:
		strbuf_addch(out, '!');
		print(e->sub[0], out, 2);
		return;
	case KB_AND:
	case KB_OR: {
		int mine = e->op == KB_AND ? 1 : 0;
		int paren = prec > mine;

		if (paren)
			strbuf_addch(out, '(');
		for (unsigned i = 0; i < e->nr; i++) {
			if (i)
				strbuf_addstr(out, e->op == KB_AND ? " && " : " || ");
			print(e->sub[i], out, mine + 1);
		}
		if (paren)
			strbuf_addch(out, ')');
		return;
	}
	}
}

void kbuild_expr_print(const struct kbuild_expr *e, struct strbuf *out)
{
	print(e, out, 0);
}

int kbuild_expr_has_free(const struct kbuild_expr *e)
{
	if (e->op == KB_FREE)
		return 1;
	for (unsigned i = 0; i < e->nr; i++)
		if (kbuild_expr_has_free(e->sub[i]))
			return 1;
	return 0;
}

int kbuild_expr_eval(const struct kbuild_expr *e,
		     char (*value)(const char *sym, void *data), void *data)
{
	int any_unknown = 0;
	char v;

	switch (e->op) {
	case KB_TRUE:
		return 1;
	case KB_FALSE:
		return 0;
	case KB_ENABLED:
		v = value(e->name, data);
		return v == 'y' || v == 'm';
	case KB_BUILTIN:
		return value(e->name, data) == 'y';
	case KB_MODULE:
		return value(e->name, data) == 'm';
	case KB_DEFINED:
	case KB_EQUALS:
	case KB_FREE:
		return -1;
	case KB_NOT: {
		int r = kbuild_expr_eval(e->sub[0], value, data);

		return r < 0 ? r : !r;
	}
	case KB_AND:
	case KB_OR: {
		int stop = e->op == KB_AND ? 0 : 1;

		for (unsigned i = 0; i < e->nr; i++) {
			int r = kbuild_expr_eval(e->sub[i], value, data);

			if (r == stop)
				return stop;
			if (r < 0)
				any_unknown = 1;
		}
		return any_unknown ? -1 : !stop;
	}
	}
	return -1;
}
